// tune/sweep_network.cu: variant 5 (merge_sort_5_network.cuh: 05's bitonic network sorts the first
// runs, variant 4's merge passes the rest) against variant 4 and CUB, u32 keys; `make tune`, then
// build/tune/sweep_network (or tune/gpu_run.sh). For each size (2^20 + 13, 2^22 + 12345, 2^24,
// 2^24 with 16 distinct keys, 2^28), timed: variant 4's sort (the shipped shape, 17,408-key
// tiles), variant 5 with network tiles of 8192 and of 16384, and CUB's DeviceMergeSort (the
// harness's cub row, StableSortKeysCopy), each as ms and t / CUB. Then the tile sorts alone at
// 2^24 and 2^28: variant 4's of 17,408 keys and the network's of 8192 and 16384, as ms and GB/s
// (one read and one write of every key). Every output is compared with the host's answer
// (std::sort; for a tile sort, std::sort of each tile). Events, two warm-ups, the L2 flushed
// before each of ten runs, medians (sweep_inputs.cuh). About 20 s on an H100.
#include "../merge_sort_5_network.cuh"
#include "sweep_inputs.cuh"

#include "common/device_buffer.h"
#include "common/timing.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::sweep;
// (pmpp's names qualified: a using-directive for pmpp, whose dependent_launch.cuh holds a kernel in
// an anonymous namespace, makes nvcc's launch stubs of this file's anonymous namespace ambiguous.)
using pmpp::DeviceBuffer;
using pmpp::L2Flusher;
using pmpp::Stats;
using pmpp::time_device;

namespace {

using Cfg = fast::ShippedShape<4>::type;  // variant 4's shipped shape for 4-byte keys: tiles of 17,408
using SmallTile = network::SmallTile;  // 256 x 32 = 8192
using LargeTile = network::LargeTile;  // 512 x 32 = 16384

struct Buffers {
    DeviceBuffer<std::uint32_t> in, out, scratch;
    DeviceBuffer<std::size_t> splits;
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
    explicit Buffers(std::size_t max_n) : in(max_n), out(max_n), scratch(max_n), splits(split_capacity(max_n)) {
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, cub_bytes, in.data(), out.data(),
                                                                 static_cast<std::int64_t>(max_n), KeyLess{}));
        PMPP_CUDA_CHECK(cudaMalloc(&cub_temp, cub_bytes));
    }
    ~Buffers() { cudaFree(cub_temp); }
    SortArgs<std::uint32_t, NoValues> args() {
        SortArgs<std::uint32_t, NoValues> a;
        a.keys_in = in.data();
        a.keys_out = out.data();
        a.keys_scratch = scratch.data();
        a.splits = splits.data();
        return a;
    }
};

// The input drawn on the device, and its copy on the host.
std::vector<std::uint32_t> draw(Buffers& b, std::size_t n, std::uint32_t distinct) {
    return draw_keys(b.in.data(), n, 12345 + n, distinct);
}

// What a tile sort of `tile` keys writes: each tile of v sorted on its own (every core).
std::vector<std::uint32_t> host_tiles_sorted(std::vector<std::uint32_t> v, std::size_t tile) {
    const std::size_t tiles = (v.size() + tile - 1) / tile;
    const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned c = 0; c < threads; ++c)
        pool.emplace_back([&, c] {
            for (std::size_t t = c; t < tiles; t += threads)
                std::sort(v.begin() + static_cast<std::ptrdiff_t>(t * tile),
                          v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), (t + 1) * tile)));
        });
    for (auto& t : pool) t.join();
    return v;
}

template <class Exec>
void sweep_size(Buffers& b, std::size_t n, std::uint32_t distinct, L2Flusher& flusher) {
    const std::vector<std::uint32_t> want = host_sorted(draw(b, n, distinct));
    std::printf("n=%zu (%s): merge passes from runs of 17408 / 8192 / 16384: %d / %d / %d\n", n,
                distinct ? "16 distinct keys" : "random keys", merge_passes(n, Cfg::kSortTile),
                merge_passes(n, SmallTile::kTile), merge_passes(n, LargeTile::kTile));
    SortArgs<std::uint32_t, NoValues> args = b.args();
    const Stats cub = time_device(timing(), &flusher, [&] {
        std::size_t bytes = b.cub_bytes;
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(b.cub_temp, bytes, b.in.data(), b.out.data(),
                                                                 static_cast<std::int64_t>(n), KeyLess{}));
    });
    std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%)              %s\n", "cub::DeviceMergeSort (StableSortKeysCopy)",
                cub.median, 100 * cub.spread(), verdict(want, b.out.data(), n));
    const auto row = [&](const char* name, const Stats& s) {
        std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%) = %.3f x CUB  %s\n", name, s.median, 100 * s.spread(),
                    s.median / cub.median, verdict(want, b.out.data(), n));
    };
    row("variant 4 (fast), sort tiles of 17408",
        time_device(timing(), &flusher, [&] { fast::sort_with<Cfg, Exec>(args, n, KeyLess{}); }));
    row("variant 5 (network), network tiles of 8192", time_device(timing(), &flusher, [&] {
            network::sort_with<SmallTile, network::MergeConfig, Exec>(args, n, KeyLess{});
        }));
    row("variant 5 (network), network tiles of 16384", time_device(timing(), &flusher, [&] {
            network::sort_with<LargeTile, network::MergeConfig, Exec>(args, n, KeyLess{});
        }));
}

// The tile sorts alone: each writes b.out from b.in.
template <class Exec>
void sweep_tile_sorts(Buffers& b, std::size_t n, L2Flusher& flusher, double copy_gbs) {
    const std::vector<std::uint32_t> host = draw(b, n, 0);
    std::printf("tile sorts alone, n=%zu (GB/s: one read and one write of every key)\n", n);
    const auto row = [&](const char* name, std::size_t tile, const Stats& s) {
        const double gbs = pmpp::gigabytes_per_second(8.0 * static_cast<double>(n), s.median);
        std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%) %7.0f GB/s (%.2f of copy)  %s\n", name, s.median,
                    100 * s.spread(), gbs, gbs / copy_gbs, verdict(host_tiles_sorted(host, tile), b.out.data(), n));
    };
    row("variant 4: 1024 threads x 17 = 17408 (merges)", Cfg::kSortTile, time_device(timing(), &flusher, [&] {
            Exec::template sort_tiles<Cfg>(b.in.data(), static_cast<const NoValues*>(nullptr), b.out.data(),
                                           static_cast<NoValues*>(nullptr), n, KeyLess{});
        }));
    row("network: 256 threads x 32 = 8192", SmallTile::kTile,
        time_device(timing(), &flusher, [&] { network::sort_tiles<SmallTile>(b.in.data(), b.out.data(), n); }));
    row("network: 512 threads x 32 = 16384", LargeTile::kTile,
        time_device(timing(), &flusher, [&] { network::sort_tiles<LargeTile>(b.in.data(), b.out.data(), n); }));
}

}  // namespace

int main() {
    L2Flusher flusher;
    const pmpp::CopyBandwidth copy = pmpp::measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    cudaDeviceProp prop{};
    PMPP_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const bool overlap = pmpp::dependent_launch_available();
    std::printf("sweep_network: %s, copy bandwidth %.0f GB/s; merge passes %s programmatic dependent launch\n",
                prop.name, copy.gbs, overlap ? "with" : "without");
    const bool large_fits = pmpp::shared_memory_fits(network::tile_shared_bytes<LargeTile>(), 2);
    if (!large_fits)
        std::printf(
            "(two blocks of the 16384-key network tile, %zu bytes of shared memory each, do not fit an SM "
            "here: variant 5 would sort tiles of 8192, and the 16384 rows time a shape it does not run)\n",
            network::tile_shared_bytes<LargeTile>());
    const std::size_t big = std::size_t{1} << 28;
    Buffers b(big);
    fast::with_fastest_executor([&](auto executor) {
        using Exec = decltype(executor);
        sweep_size<Exec>(b, (std::size_t{1} << 20) + 13, 0, flusher);
        sweep_size<Exec>(b, (std::size_t{1} << 22) + 12345, 0, flusher);
        sweep_size<Exec>(b, std::size_t{1} << 24, 0, flusher);
        sweep_size<Exec>(b, std::size_t{1} << 24, 16, flusher);
        sweep_size<Exec>(b, big, 0, flusher);
        sweep_tile_sorts<Exec>(b, std::size_t{1} << 24, flusher, copy.gbs);
        sweep_tile_sorts<Exec>(b, big, flusher, copy.gbs);
    });
    return 0;
}
