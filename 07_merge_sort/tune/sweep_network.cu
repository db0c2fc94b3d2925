// tune/sweep_network.cu: variant 5 (merge_sort_5_network.cuh: 05's bitonic network sorts the first
// runs, variant 4's merge passes the rest) against variant 4 and CUB, u32 keys; `make tune`, then
// build/tune/sweep_network (or tune/gpu_run.sh). For each size (2^20 + 13, 2^22 + 12345, 2^24,
// 2^24 with 16 distinct keys, 2^28), timed: variant 4's sort (the shipped shape, 17,408-key
// tiles), variant 5 with network tiles of 8192 and of 16384, and CUB's DeviceMergeSort (the
// harness's cub row, StableSortKeysCopy), each as ms and t / CUB. Then the tile sorts alone at
// 2^24 and 2^28: variant 4's of 17,408 keys and the network's of 8192 and 16384, as ms and GB/s
// (one read and one write of every key). Every output is compared with the host's answer
// (std::sort; for a tile sort, std::sort of each tile). Then u32 pairs (NOTES.md, "A stable
// network tile sort for pairs"): CUB's SortPairsCopy, variant 4's shipped pair sort (tiles of
// 5632) and the stable network's tiles of 8192 and 16384 with variant 4's pair merges, at 2^20 +
// 13, 2^24 (random and 16 distinct keys) and 2^28, and the pair tile sorts alone at 2^24; the
// values are the input places, so the host checks stability without sorting pairs (pair_verdict).
// Events, two warm-ups, the L2 flushed before each of ten runs, medians (sweep_inputs.cuh). About
// 40 s on an H100.
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

// ---- u32 pairs: variant 4 against the stable network tile sort (kSortsPairsWithNetwork) ----------

using PairCfg = fast::ShippedShape<8>::type;  // variant 4's shipped pair shape: sort tiles of 5632, merges of 2816

struct PairBuffers {
    DeviceBuffer<std::uint32_t> values_in, values_out, values_scratch;
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
    PairBuffers(Buffers& b, std::size_t max_n) : values_in(max_n), values_out(max_n), values_scratch(max_n) {
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(nullptr, cub_bytes, b.in.data(), values_in.data(),
                                                            b.out.data(), values_out.data(),
                                                            static_cast<std::int64_t>(max_n), KeyLess{}));
        PMPP_CUDA_CHECK(cudaMalloc(&cub_temp, cub_bytes));
    }
    ~PairBuffers() { cudaFree(cub_temp); }
};

static __global__ void fill_places(std::uint32_t* values, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        values[i] = static_cast<std::uint32_t>(i);
}

// A stable sort of (key, place) pairs in runs of `run` (the whole array by default; a tile sort's
// tiles), judged without sorting pairs on the host: the keys are `want` (the host's sorted keys,
// run by run), every value is a place of its own run whose input key is the key beside it, and
// equal keys of a run carry increasing places. (Then no place repeats: two equal places would hold
// equal keys with only equal keys between them, whose places increase.) So the values are the
// stable order.
const char* pair_verdict(const std::vector<std::uint32_t>& keys_in, const std::vector<std::uint32_t>& want,
                         const std::uint32_t* d_keys, const std::uint32_t* d_values, std::size_t n,
                         std::size_t run = SIZE_MAX) {
    std::vector<std::uint32_t> keys(n), places(n);
    PMPP_CUDA_CHECK(cudaMemcpy(keys.data(), d_keys, n * 4, cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(places.data(), d_values, n * 4, cudaMemcpyDeviceToHost));
    if (keys != want) return "WRONG keys";
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t base = run == SIZE_MAX ? 0 : i / run * run,
                          end = run == SIZE_MAX ? n : std::min(n, base + run);
        if (places[i] < base || places[i] >= end || keys_in[places[i]] != keys[i]) return "WRONG values";
        if (i > base && keys[i] == keys[i - 1] && places[i] <= places[i - 1]) return "WRONG: not stable";
    }
    return "ok";
}

template <class Exec>
void sweep_pairs(Buffers& b, PairBuffers& p, std::size_t n, std::uint32_t distinct, L2Flusher& flusher) {
    const std::vector<std::uint32_t> keys_in = draw(b, n, distinct);
    const std::vector<std::uint32_t> want = host_sorted(keys_in);
    fill_places<<<1024, 256>>>(p.values_in.data(), n);
    PMPP_CHECK_LAUNCH();
    std::printf("n=%zu u32 pairs (%s): merge passes from runs of 5632 / 8192 / 16384: %d / %d / %d\n", n,
                distinct ? "16 distinct keys" : "random keys", merge_passes(n, PairCfg::kSortTile),
                merge_passes(n, SmallTile::kTile), merge_passes(n, LargeTile::kTile));
    SortArgs<std::uint32_t, PairValue> args;
    args.keys_in = b.in.data();
    args.keys_out = b.out.data();
    args.keys_scratch = b.scratch.data();
    args.values_in = p.values_in.data();
    args.values_out = p.values_out.data();
    args.values_scratch = p.values_scratch.data();
    args.splits = b.splits.data();
    const auto judge = [&] { return pair_verdict(keys_in, want, b.out.data(), p.values_out.data(), n); };
    const Stats cub = time_device(timing(), &flusher, [&] {
        std::size_t bytes = p.cub_bytes;
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(p.cub_temp, bytes, b.in.data(), p.values_in.data(),
                                                            b.out.data(), p.values_out.data(),
                                                            static_cast<std::int64_t>(n), KeyLess{}));
    });
    std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%)              %s\n", "cub::DeviceMergeSort (SortPairsCopy)",
                cub.median, 100 * cub.spread(), judge());
    const auto row = [&](const char* name, const Stats& s) {
        std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%) = %.3f x CUB  %s\n", name, s.median, 100 * s.spread(),
                    s.median / cub.median, judge());
    };
    row("variant 4 (fast), stable sort tiles of 5632",
        time_device(timing(), &flusher, [&] { fast::sort_with<PairCfg, Exec>(args, n, KeyLess{}); }));
    if (pmpp::shared_memory_fits(network::pair_tile_shared_bytes<SmallTile>(), 1))  // not on sm_75 (64 KiB)
        row("stable network tiles of 8192", time_device(timing(), &flusher, [&] {
                network::sort_pairs_with<SmallTile, PairCfg, Exec>(args, n, KeyLess{});
            }));
    if (pmpp::shared_memory_fits(network::pair_tile_shared_bytes<LargeTile>(), 1))
        row("stable network tiles of 16384", time_device(timing(), &flusher, [&] {
                network::sort_pairs_with<LargeTile, PairCfg, Exec>(args, n, KeyLess{});
            }));
}

// The pair tile sorts alone, at n: variant 4's stable tiles and the stable network's, as ms and GB/s
// (one read and one write of every key and value); checked as pairs against each tile's stable sort.
template <class Exec>
void sweep_pair_tile_sorts(Buffers& b, PairBuffers& p, std::size_t n, L2Flusher& flusher, double copy_gbs) {
    const std::vector<std::uint32_t> keys_in = draw(b, n, 16);  // few distinct keys: stability shows
    fill_places<<<1024, 256>>>(p.values_in.data(), n);
    PMPP_CHECK_LAUNCH();
    std::printf("pair tile sorts alone, n=%zu, 16 distinct keys (GB/s: one read and one write of every pair)\n", n);
    const auto row = [&](const char* name, std::size_t tile, const Stats& s) {
        const double gbs = pmpp::gigabytes_per_second(16.0 * static_cast<double>(n), s.median);
        const char* v =
            pair_verdict(keys_in, host_tiles_sorted(keys_in, tile), b.out.data(), p.values_out.data(), n, tile);
        std::printf("  %-46s %9.4f ms (p10-p90 %4.1f%%) %7.0f GB/s (%.2f of copy)  %s\n", name, s.median,
                    100 * s.spread(), gbs, gbs / copy_gbs, v);
    };
    row("variant 4: 512 threads x 11 = 5632 (merges)", PairCfg::kSortTile, time_device(timing(), &flusher, [&] {
            Exec::template sort_tiles<PairCfg>(b.in.data(), p.values_in.data(), b.out.data(), p.values_out.data(), n,
                                               KeyLess{});
        }));
    if (pmpp::shared_memory_fits(network::pair_tile_shared_bytes<SmallTile>(), 1))
        row("stable network: 256 threads x 32 = 8192", SmallTile::kTile, time_device(timing(), &flusher, [&] {
                network::sort_pair_tiles<SmallTile>(b.in.data(), p.values_in.data(), b.out.data(), p.values_out.data(),
                                                    n);
            }));
    if (pmpp::shared_memory_fits(network::pair_tile_shared_bytes<LargeTile>(), 1))
        row("stable network: 512 threads x 32 = 16384", LargeTile::kTile, time_device(timing(), &flusher, [&] {
                network::sort_pair_tiles<LargeTile>(b.in.data(), p.values_in.data(), b.out.data(), p.values_out.data(),
                                                    n);
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
        PairBuffers p(b, big);
        sweep_pairs<Exec>(b, p, (std::size_t{1} << 20) + 13, 0, flusher);
        sweep_pairs<Exec>(b, p, std::size_t{1} << 24, 0, flusher);
        sweep_pairs<Exec>(b, p, std::size_t{1} << 24, 16, flusher);
        sweep_pairs<Exec>(b, p, big, 0, flusher);
        sweep_pair_tile_sorts<Exec>(b, p, std::size_t{1} << 24, flusher, copy.gbs);
    });
    return 0;
}
