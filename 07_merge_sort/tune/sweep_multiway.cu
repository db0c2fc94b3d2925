// tune/sweep_multiway.cu: the 4-way merge pass (tune/multiway_merge.cuh) against the shipped
// 2-way passes, u32 keys, built and run by tune/gpu_run.sh (or `make tune`, then
// build/tune/sweep_multiway). For each size: the input sorted into the shipped tiles of 17,408
// keys (the shipped tile sort), then, from the same tiles, timed:
//   - the shipped 2-way passes (14 at 2^28), launched the usual way and with programmatic
//     dependent launch (as the shipped sort runs them on sm_90);
//   - the 4-way passes (7 at 2^28) for three segment shapes, lanes per search by the rule
//     (partition4_lanes); and the whole 4-way sort (the tile sort, then the passes);
//   - the shipped sort and CUB's StableSortKeysCopy, for t/CUB;
// every result compared with the input sorted on the host (std::sort in threads, then merges).
// The 4-way passes start each split search from co-rank grids (one 2-way co-rank search per
// segment, corank_grid_kernel), or, once, without them. Then the default shape's passes one by
// one (grids, partition, merge) and the partition of the first and last pass with 1 to 32 lanes.
// Measured on an H200 (2026-12-03, NOTES.md): half the passes, twice the time; not shipped.
// Sizes: 2^20 + 13 (61 runs: a last group of 1 run), 2^22 + 12345 (242 runs: a last group of
// 2), 2^24, 2^28; random keys, and keys of 16 values (ties) at the smaller sizes.
#include "../merge_sort_4_fast.cuh"
#include "multiway_merge.cuh"
#include "sweep_inputs.cuh"

#include "common/device_buffer.h"
#include "common/device_limits.h"
#include "common/timing.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::multiway;
using namespace merge_sort::sweep;
using namespace pmpp;

namespace {

using Cfg = fast::Config<256, 1024, 17, 5, 2>;  // the shipped shape for 4-byte keys
constexpr std::size_t kTile = Cfg::kSortTile;  // 17,408

struct Buffers {
    std::size_t n;
    DeviceBuffer<std::uint32_t> in, tiles, buf0, buf1, out;
    DeviceBuffer<std::size_t> splits;
    DeviceBuffer<Split4<std::size_t>> splits4;
    DeviceBuffer<std::size_t> coranks;
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
    explicit Buffers(std::size_t max_n)
        : n(max_n),
          in(max_n),
          tiles(max_n),
          buf0(max_n),
          buf1(max_n),
          out(max_n),
          splits(split_capacity(max_n)),
          splits4(max_splits4(max_n)),
          coranks(max_coranks(max_n)) {
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, cub_bytes, in.data(), out.data(),
                                                                 static_cast<std::int64_t>(max_n), KeyLess{}));
        PMPP_CUDA_CHECK(cudaMalloc(&cub_temp, cub_bytes));
    }
    ~Buffers() { cudaFree(cub_temp); }
    // The most segments of any pass of any shape swept (the smallest segment, the first pass).
    static std::size_t max_splits4(std::size_t n) { return SegmentGrid::make(n, kTile, 2048).count + 2; }
    static std::size_t max_coranks(std::size_t n) {
        std::size_t most = 0;
        for (std::size_t w = kTile; w < n; w *= 4) most = std::max(most, CoRankGrid::make(n, w, 2048).count);
        return most + 2;
    }
};

std::size_t resident_threads() {
    const DeviceLimits& l = device_limits();
    return static_cast<std::size_t>(l.sm_count) * static_cast<std::size_t>(l.max_threads_per_sm);
}

// The 2-way passes from the tiles; returns the buffer holding the result.
template <class Exec>
std::uint32_t* two_way_passes(Buffers& b, std::size_t n) {
    const std::uint32_t* src = b.tiles.data();
    std::uint32_t* dst = b.buf0.data();
    NoValues* no_out = nullptr;
    for (std::size_t w = kTile; w < n; w *= 2) {
        fast::merge_runs<Cfg, Exec>(SortedRuns<std::uint32_t, NoValues>{src, nullptr, n, w}, b.splits.data(), dst,
                                    no_out, KeyLess{});
        src = dst;
        dst = dst == b.buf0.data() ? b.buf1.data() : b.buf0.data();
    }
    return const_cast<std::uint32_t*>(src);
}

// The 4-way passes from `src` (runs of kTile); the last lands in `last` when given.
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1>
std::uint32_t* four_way_passes(Buffers& b, const std::uint32_t* src, std::size_t n, int lanes, bool use_grid,
                               std::uint32_t* last = nullptr) {
    std::uint32_t* dst = b.buf0.data();
    const int passes = merge4_passes(n, kTile);
    int pass = 0;
    for (std::size_t w = kTile; w < n; w *= 4) {
        if (++pass == passes && last) dst = last;
        merge4_pass<THREADS, ITEMS, MIN_BLOCKS>(src, dst, n, w, b.splits4.data(), use_grid ? b.coranks.data() : nullptr,
                                                lanes, KeyLess{});
        src = dst;
        dst = dst == b.buf0.data() ? b.buf1.data() : b.buf0.data();
    }
    if (passes == 0 && last) PMPP_CUDA_CHECK(cudaMemcpy(last, src, n * 4, cudaMemcpyDeviceToDevice));
    return passes == 0 && last ? last : const_cast<std::uint32_t*>(src);
}

// With the grids the window's search is short: the 2-way partition's rule (a quarter of the
// resident threads); without them, all of them.
int lanes_for(std::size_t n, int segment, bool use_grid) {
    return partition4_lanes(SegmentGrid::make(n, kTile, segment).count, resident_threads() / (use_grid ? 4 : 1));
}

template <int THREADS, int ITEMS, int MIN_BLOCKS = 1>
void time_four_way(Buffers& b, std::size_t n, L2Flusher& flusher, const std::vector<std::uint32_t>& want, double cub_ms,
                   double tile_ms, double copy_gbs, bool use_grid = true) {
    const int lanes = lanes_for(n, THREADS * ITEMS, use_grid);
    const int passes = merge4_passes(n, kTile);
    std::uint32_t* result = nullptr;
    const Stats s = time_device(timing(), &flusher, [&] {
        result = four_way_passes<THREADS, ITEMS, MIN_BLOCKS>(b, b.tiles.data(), n, lanes, use_grid);
    });
    const double frac = gigabytes_per_second(8.0 * n * passes, s.median) / copy_gbs;
    std::printf(
        "  4-way %3dx%-2d, %d+ blocks/SM (%5d keys, %5zu B smem), %s %2d passes, %2d lanes %9.4f ms  %.2f of copy  %s;"
        " + tile sort %.4f ms = %.3f x CUB\n",
        THREADS, ITEMS, MIN_BLOCKS, THREADS * ITEMS, sizeof(std::uint32_t) * THREADS * ITEMS,
        use_grid ? "grid start" : "no grid   ", passes, lanes, s.median, frac, verdict(want, result, n),
        s.median + tile_ms, (s.median + tile_ms) / cub_ms);
    const Stats sort = time_device(timing(), &flusher, [&] {
        fast::DeviceExecutor::sort_tiles<Cfg>(b.in.data(), static_cast<const NoValues*>(nullptr), b.tiles.data(),
                                              static_cast<NoValues*>(nullptr), n, KeyLess{});
        four_way_passes<THREADS, ITEMS, MIN_BLOCKS>(b, b.tiles.data(), n, lanes, use_grid, b.out.data());
    });
    std::printf("    whole 4-way sort (tile sort + passes, one call) %9.4f ms = %.3f x CUB  %s\n", sort.median,
                sort.median / cub_ms, verdict(want, b.out.data(), n));
}

// The default shape's passes one by one: the co-rank grids, the partition from them, the
// merge; the first and last pass's partition by lanes, from the grids and without them.
void breakdown(Buffers& b, std::size_t n, L2Flusher& flusher) {
    constexpr int T = 256, I = 17;
    const int lanes = lanes_for(n, T * I, true);
    const std::uint32_t* src = b.tiles.data();
    std::uint32_t* dst = b.buf0.data();
    int pass = 0;
    const int passes = merge4_passes(n, kTile);
    double total = 0;
    for (std::size_t w = kTile; w < n; w *= 4, ++pass) {
        const SegmentGrid grid = SegmentGrid::make(n, w, T * I);
        const CoRankGrid cg = CoRankGrid::make(n, w, T * I);
        const SortedRuns4<std::uint32_t> runs{src, n, w};
        const auto coranks = [&] {
            corank_grid_kernel<<<static_cast<unsigned>((cg.count + 255) / 256), 256>>>(runs, cg, b.coranks.data(),
                                                                                       KeyLess{});
            PMPP_CHECK_LAUNCH();
        };
        const auto partition = [&](int l, bool use_grid) {
            const std::size_t blocks = (grid.count * l + 255) / 256;
            partition4_kernel<<<static_cast<unsigned>(blocks), 256>>>(runs, grid, use_grid ? b.coranks.data() : nullptr,
                                                                      cg, b.splits4.data(), l, KeyLess{});
            PMPP_CHECK_LAUNCH();
        };
        const Stats grids = time_device(timing(), &flusher, coranks);
        const Stats part = time_device(timing(), &flusher, [&] { partition(lanes, true); });
        const Stats merge = time_device(timing(), &flusher, [&] {
            merge4_kernel<T, I><<<static_cast<unsigned>(grid.count), T>>>(runs, grid, b.splits4.data(), dst, KeyLess{});
            PMPP_CHECK_LAUNCH();
        });
        total += grids.median + part.median + merge.median;
        std::printf(
            "    pass %d width %10zu: %6zu segments, grids %.4f ms, partition (%2d lanes) %.4f ms, merge %.4f ms"
            " (%.0f GB/s)\n",
            pass + 1, w, grid.count, grids.median, lanes, part.median, merge.median, 8.0 * n / (merge.median * 1e6));
        if (pass == 0 || pass == passes - 1) {
            for (bool use_grid : {true, false}) {
                std::printf("      partition by lanes, %s:", use_grid ? "from the grids" : "no grids      ");
                for (int l : {1, 2, 4, 8, 16, 32})
                    std::printf("  %d: %.4f", l,
                                time_device(timing(), &flusher, [&] { partition(l, use_grid); }).median);
                std::printf(" ms\n");
            }
        }
        src = dst;
        dst = dst == b.buf0.data() ? b.buf1.data() : b.buf0.data();
    }
    std::printf("    every kernel of the %d passes, one by one: %.4f ms\n", passes, total);
}

void sweep_size(Buffers& b, std::size_t n, std::uint32_t distinct, L2Flusher& flusher, double copy_gbs, bool detail) {
    const std::vector<std::uint32_t> want = host_sorted(draw_keys(b.in.data(), n, 12345 + n, distinct));
    std::printf("n=%zu (%s), runs of %zu: %zu\n", n, distinct ? "16 distinct keys" : "random keys", kTile,
                (n + kTile - 1) / kTile);

    const Stats cub = time_device(timing(), &flusher, [&] {
        std::size_t bytes = b.cub_bytes;
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(b.cub_temp, bytes, b.in.data(), b.out.data(),
                                                                 static_cast<std::int64_t>(n), KeyLess{}));
    });
    std::printf("  cub StableSortKeysCopy                          %9.4f ms  %s\n", cub.median,
                verdict(want, b.out.data(), n));

    SortArgs<std::uint32_t, NoValues> args;
    args.keys_in = b.in.data();
    args.keys_out = b.out.data();
    args.keys_scratch = b.buf0.data();
    args.splits = b.splits.data();
    const Stats shipped = time_device(timing(), &flusher, [&] {
        fast::with_fastest_executor([&](auto exec) { fast::sort_with<Cfg, decltype(exec)>(args, n, KeyLess{}); });
    });
    std::printf("  shipped sort (tile sort + 2-way passes, PDL where available) %9.4f ms = %.3f x CUB  %s\n",
                shipped.median, shipped.median / cub.median, verdict(want, b.out.data(), n));

    const Stats tiles = time_device(timing(), &flusher, [&] {
        fast::DeviceExecutor::sort_tiles<Cfg>(b.in.data(), static_cast<const NoValues*>(nullptr), b.tiles.data(),
                                              static_cast<NoValues*>(nullptr), n, KeyLess{});
    });
    std::printf("  tile sort alone                                 %9.4f ms\n", tiles.median);

    const int passes2 = merge_passes(n, kTile);
    std::uint32_t* result = nullptr;
    const Stats two = time_device(timing(), &flusher, [&] { result = two_way_passes<fast::DeviceExecutor>(b, n); });
    std::printf("  2-way passes, usual launch: %2d passes %9.4f ms  %.2f of copy  %s\n", passes2, two.median,
                gigabytes_per_second(8.0 * n * passes2, two.median) / copy_gbs, verdict(want, result, n));
    if (pmpp::dependent_launch_available()) {
        const Stats two_pdl =
            time_device(timing(), &flusher, [&] { result = two_way_passes<fast::OverlappingExecutor>(b, n); });
        std::printf("  2-way passes, PDL:          %2d passes %9.4f ms  %.2f of copy  %s\n", passes2, two_pdl.median,
                    gigabytes_per_second(8.0 * n * passes2, two_pdl.median) / copy_gbs, verdict(want, result, n));
    }

    time_four_way<256, 17>(b, n, flusher, want, cub.median, tiles.median, copy_gbs);
    time_four_way<256, 17>(b, n, flusher, want, cub.median, tiles.median, copy_gbs, false);
    time_four_way<256, 17, 5>(b, n, flusher, want, cub.median, tiles.median, copy_gbs);  // 48 registers
    time_four_way<512, 17>(b, n, flusher, want, cub.median, tiles.median, copy_gbs);
    time_four_way<128, 17>(b, n, flusher, want, cub.median, tiles.median, copy_gbs);
    if (detail) breakdown(b, n, flusher);
}

}  // namespace

int main() {
    L2Flusher flusher;
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    std::printf("sweep_multiway: copy bandwidth %.0f GB/s (2^28 u32 read + written: %.4f ms)\n", copy.gbs,
                8.0 * (1 << 28) / (copy.gbs * 1e6));
    const std::size_t big = std::size_t{1} << 28;
    Buffers b(big);
    sweep_size(b, (std::size_t{1} << 20) + 13, 0, flusher, copy.gbs, false);
    sweep_size(b, (std::size_t{1} << 20) + 13, 16, flusher, copy.gbs, false);
    sweep_size(b, (std::size_t{1} << 22) + 12345, 0, flusher, copy.gbs, false);
    sweep_size(b, (std::size_t{1} << 22) + 12345, 16, flusher, copy.gbs, false);
    sweep_size(b, std::size_t{1} << 24, 0, flusher, copy.gbs, true);
    sweep_size(b, std::size_t{1} << 24, 16, flusher, copy.gbs, false);
    sweep_size(b, big, 0, flusher, copy.gbs, true);
    return 0;
}
