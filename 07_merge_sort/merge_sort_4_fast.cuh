// merge_sort_4_fast.cuh: the kernels of the fast merge and sort, for any tile shape (Config), so
// the tuning sweep and the tests can instantiate other shapes. merge_sort_4_fast.cu picks the
// shipped shapes. See that file for the ideas and the measurements.
//
// Structure (merge path, Odeh, Green et al. 2012; CUB's DeviceMergeSort and ModernGPU have the
// same three kernels):
//   partition_kernel   for every output tile, where it starts in A: a k-ary co-rank search by a
//                      group of lanes, all tiles at once, before the merge
//   merge_tiles_kernel one tile per block: load its pieces of A and B (coalesced) into shared
//                      memory, each thread merges kItems outputs into registers, back through
//                      shared memory, store coalesced
//   sort_tiles_kernel  a sort's first step: kSortTile keys per block, each thread sorts its kItems
//                      in registers, then merge rounds in shared memory double the runs
//
// The per-thread work of each kernel phase is a host-and-device function in TileSteps, called by
// the kernels between __syncthreads() and, in tests/test_fast_steps.cu, by a host loop over the
// threads of a block: the tests run the exact kernel logic without a GPU.
//
// The per-thread steps and the tile shapes are in merge_sort_4_fast_steps.cuh; here: the kernels,
// the executors that launch them, and the drivers of a merge and a sort.
#pragma once

#include "merge_sort_4_fast_steps.cuh"

#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/primitives/dependent_launch.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace merge_sort::fast {

// Kernels and drivers have internal linkage: each file that includes this header (the shipped
// variant, the sweep, the tests) gets its own copies.
namespace {

// The shipped shapes (merge_sort_4_fast.cu picks one per item size; merge_sort_5_network.cu's
// merge passes are the 4-byte one's): 17 items of 4 bytes per thread (as CUB's merge sort on
// sm_90), fewer for wider items so that the registers and shared memory per block stay about the
// same. Registers capped so that more blocks share an SM (NOTES.md, the sweep): the merge
// kernel's at 48 (5 blocks of 256 threads; uncapped it takes 57 and 4 fit). 4-byte keys alone
// sort tiles of 1024 x 17 = 17408 keys (one pass fewer than 8704 at 2^28), their registers capped
// at 32 for 2 blocks per SM; wider items keep 512-thread tiles, whose registers would spill at 32.
template <std::size_t BytesPerItem>
struct ShippedShape {
    static constexpr int kItems = BytesPerItem <= 4 ? 17 : BytesPerItem <= 8 ? 11 : 7;
    using type = std::conditional_t<BytesPerItem <= 4, Config<256, 1024, 17, 5, 2>, Config<256, 512, kItems, 5>>;
    // Where two of the 17408-key sort tiles (69,648 bytes each) do not fit an SM (a T4: 64 KiB
    // per block and per SM; an RTX 3060 or an L4: 100 KiB per SM), 4-byte keys sort tiles of
    // 512 x 17 = 8704 keys (34,832 bytes): one more merge pass. Wider items already do.
    using small = Config<256, 512, kItems, 5>;
};

// Programmatic dependent launch (sm_90 and newer; common/primitives/dependent_launch.cuh). A
// kernel launched with it (the OverlappingExecutor below) may be resident before the kernel ahead
// of it on the stream has finished, which hides the gap between the two. Each block waits for the
// previous kernel's results first; when it has written its own, it lets the next kernel launch.
// Letting the next kernel launch at the start of each block instead made the sort of 2^28 keys
// 1.4% slower (its blocks then sat waiting on the SMs through the whole kernel): NOTES.md.
using pmpp::let_next_kernel_launch;
using pmpp::wait_for_previous_kernel;

template <class Layout, class Less>
__global__ void partition_kernel(Layout runs, std::size_t tile, std::size_t tiles, std::size_t* splits, int lanes,
                                 Less less) {
    wait_for_previous_kernel();
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t t = thread / lanes;
    if (t >= tiles) return;  // whole groups leave together: lanes divides 32
    const int lane = static_cast<int>(threadIdx.x % lanes);
    const int group_first_lane = static_cast<int>(threadIdx.x & 31) - lane;
    const unsigned group_mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1) << group_first_lane;
    const std::size_t k = tile_start(runs, tile, t);
    const auto pair = runs.pair_containing(k);
    const std::size_t diag = k - pair.first;
    if (lanes == 1) {  // the plain co-rank search: the k-ary one's steps, without its ballots and division
        splits[t] = co_rank(diag, pair.a, pair.na, pair.b, pair.nb, less);
        let_next_kernel_launch();
        return;
    }
    SearchRange r = co_rank_range(pair, diag);
    while (r.lo < r.hi) {  // the same range in every lane of the group
        const bool before = probe_is_before(pair, diag, kary_probe(r, lane, lanes), less);
        const int count = __popc(__ballot_sync(group_mask, before) & group_mask);
        r = kary_narrow(r, lanes, count);
    }
    if (lane == 0) splits[t] = r.lo;
    let_next_kernel_launch();
}

template <class Cfg, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(Cfg::kMergeThreads,
                                  pmpp::min_blocks_that_fit(Cfg::kMergeThreads, Cfg::kMergeMinBlocks))
    merge_tiles_kernel(Layout runs, const std::size_t* splits, Key* out, Value* out_values, Less less) {
    wait_for_previous_kernel();
    using Steps = TileSteps<Cfg::kMergeThreads, Cfg::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    Key* s_keys;
    Value* s_values;
    shared_arrays(shared, Cfg::kMergeTile, s_keys, s_values);
    const int tid = threadIdx.x;
    const std::size_t t = blockIdx.x;
    const auto src = tile_source(runs, Cfg::kMergeTile, t, splits);
    const auto& pair = src.pair;
    const int na = static_cast<int>(src.a_end - src.a_begin), nb = static_cast<int>(src.b_end - src.b_begin);
    Steps::load(tid, pair.a + src.a_begin, offset(pair.av, src.a_begin), na, pair.b + src.b_begin,
                offset(pair.bv, src.b_begin), na + nb, s_keys, s_values);
    __syncthreads();
    ThreadItems<Cfg::kItems, Key, Value> items;
    Steps::merge_items(s_keys, s_values, 0, na, na, nb, min_of(tid * Cfg::kItems, na + nb), items, less);
    __syncthreads();
    Steps::write_items(items, s_keys, s_values);
    __syncthreads();
    const std::size_t k = tile_start(runs, Cfg::kMergeTile, t);
    Steps::store(tid, na + nb, s_keys, s_values, out + k, offset(out_values, k));
    let_next_kernel_launch();
}

template <class Cfg, class Key, class Value, class Less>
__global__ void __launch_bounds__(Cfg::kSortThreads, pmpp::min_blocks_that_fit(Cfg::kSortThreads, Cfg::kSortMinBlocks))
    sort_tiles_kernel(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n, Less less) {
    wait_for_previous_kernel();
    using Steps = TileSteps<Cfg::kSortThreads, Cfg::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    Key* s_keys;
    Value* s_values;
    shared_arrays(shared, Cfg::kSortTile, s_keys, s_values);
    const int tid = threadIdx.x;
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(Cfg::kSortTile);
    const int count = static_cast<int>(min_of<std::size_t>(Cfg::kSortTile, n - base));
    Steps::load(tid, in + base, offset(in_values, base), count, in + base, offset(in_values, base), count, s_keys,
                s_values);
    __syncthreads();
    Steps::sort_own_items(tid, count, s_keys, s_values, less);
    __syncthreads();
    // (Warp barriers for the rounds whose pairs fit in one warp measured 7% slower: NOTES.md.)
    for (int run = Cfg::kItems; run < count; run *= 2) {
        ThreadItems<Cfg::kItems, Key, Value> items;
        Steps::merge_round_items(tid, run, count, s_keys, s_values, items, less);
        __syncthreads();
        Steps::write_items(items, s_keys, s_values);
        __syncthreads();
    }
    Steps::store(tid, count, s_keys, s_values, out + base, offset(out_values, base));
    let_next_kernel_launch();
}

// Lanes per partition search: the most that keep all the searches' threads within a quarter of
// the resident threads. Measured (NOTES.md): 1 lane is best for 61681 searches (2^28 keys), 16
// for 3856 (2^24), 32 for 241 (2^20); more lanes than that only add loads to the same steps.
inline int partition_lanes(std::size_t searches) {
    static const std::size_t resident_threads = [] {
        const pmpp::DeviceLimits& limits = pmpp::device_limits();
        return static_cast<std::size_t>(limits.sm_count) * static_cast<std::size_t>(limits.max_threads_per_sm);
    }();
    int lanes = 32;
    while (lanes > 1 && searches * lanes > resident_threads / 4) lanes /= 2;
    return lanes;
}

// The three kernels, launched on the default stream. The drivers below take the executor as a
// parameter so that tests/test_fast_steps.cu can run them with one that emulates the kernels on
// the host: the same drivers, the same steps, no GPU.
// OVERLAP: launched with programmatic dependent launch (see wait_for_previous_kernel).
template <bool OVERLAP>
struct BasicDeviceExecutor {
    template <class... Params, class... Args>
    static void launch(void (*kernel)(Params...), std::size_t blocks, int threads, std::size_t shared, Args&&... args) {
        pmpp::launch_kernel(OVERLAP, kernel, blocks, threads, shared, std::forward<Args>(args)...);
    }

    template <class Cfg, class Key, class Value, class Less>
    static void sort_tiles(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n,
                           Less less) {
        constexpr std::size_t bytes = shared_bytes<Key, Value>(Cfg::kSortTile);
        static const bool allowed = (pmpp::allow_dynamic_shared_memory(sort_tiles_kernel<Cfg, Key, Value, Less>, bytes,
                                                                       "merge_sort_fast's tile sort"),
                                     true);
        (void)allowed;
        const std::size_t tiles = (n + Cfg::kSortTile - 1) / Cfg::kSortTile;
        launch(sort_tiles_kernel<Cfg, Key, Value, Less>, tiles, Cfg::kSortThreads, bytes, in, in_values, out,
               out_values, n, less);
    }

    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        const int lanes = partition_lanes(tiles);
        constexpr int kThreads = 256;
        const std::size_t blocks = (tiles * lanes + kThreads - 1) / kThreads;
        launch(partition_kernel<Layout, Less>, blocks, kThreads, 0, runs, tile, tiles, splits, lanes, less);
    }

    template <class Cfg, class Layout, class Key, class Value, class Less>
    static void merge_tiles(const Layout& runs, std::size_t tiles, const std::size_t* splits, Key* out,
                            Value* out_values, Less less) {
        constexpr std::size_t bytes = shared_bytes<Key, Value>(Cfg::kMergeTile);
        static const bool allowed =
            (pmpp::allow_dynamic_shared_memory(merge_tiles_kernel<Cfg, Layout, Key, Value, Less>, bytes,
                                               "merge_sort_fast's tile merge"),
             true);
        (void)allowed;
        launch(merge_tiles_kernel<Cfg, Layout, Key, Value, Less>, tiles, Cfg::kMergeThreads, bytes, runs, splits, out,
               out_values, less);
    }
};
using DeviceExecutor = BasicDeviceExecutor<false>;
using OverlappingExecutor = BasicDeviceExecutor<true>;

// Calls run(executor) with the OverlappingExecutor where programmatic dependent launch is
// available (pmpp::dependent_launch_available: code compiled for sm_90 or newer on an sm_90
// device or profile), else the usual one.
template <class Run>
void with_fastest_executor(Run run) {
    if (pmpp::dependent_launch_available())
        run(OverlappingExecutor{});
    else
        run(DeviceExecutor{});
}

// Merges every pair of `runs` (SortedRuns or TwoArrays) into out: partition, then one tile per block.
template <class Cfg, class Exec, class Layout, class Key, class Value, class Less>
void merge_runs(const Layout& runs, std::size_t* splits, Key* out, Value* out_values, Less less) {
    const std::size_t total = runs.size();
    if (total == 0) return;
    const std::size_t tiles = tile_count(runs, Cfg::kMergeTile);
    Exec::partition(runs, Cfg::kMergeTile, tiles, splits, less);
    Exec::template merge_tiles<Cfg>(runs, tiles, splits, out, out_values, less);
}

template <class Cfg, class Exec = DeviceExecutor, class Key, class Less>
void merge_with(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less) {
    merge_runs<Cfg, Exec>(two_arrays(a, na, b, nb), splits, c, static_cast<NoValues*>(nullptr), less);
}

// A pass over sorted runs of `width` in the layout Runs: SortedRuns, whose merge tiles are
// t * tile and so must divide every pair of runs, or PairTiledRuns, whose tiles start again at
// every pair (merge_sort_4_fast_steps.cuh).
template <template <class, class> class Runs, class Key, class Value>
Runs<Key, Value> pass_runs(const Key* keys, const Value* values, std::size_t n, std::size_t width, std::size_t tile) {
    if constexpr (std::is_same_v<Runs<Key, Value>, PairTiledRuns<Key, Value>>) {
        return {{keys, values, n, width}, static_cast<std::uint32_t>((2 * width + tile - 1) / tile)};
    } else {
        static_assert(std::is_same_v<Runs<Key, Value>, SortedRuns<Key, Value>>, "SortedRuns or PairTiledRuns");
        if ((2 * width) % tile != 0)
            throw std::logic_error("merge_sort fast: runs of " + std::to_string(width) +
                                   " keys straddle merge tiles of " + std::to_string(tile) + ": use PairTiledRuns");
        return {keys, values, n, width};
    }
}

// The sort from sorted runs of first_run_width keys: sort_first_runs(keys_in, values_in,
// keys_out, values_out) writes them (every first_run_width keys sorted on their own), then
// merge_passes(n, first_run_width) merge passes of Cfg's merge tiles double them. The first runs
// are written where the pass count makes the last pass land in the output. Variant 4 sorts its
// runs with sort_tiles_kernel (sort_with below); variant 5 with 05's bitonic network
// (merge_sort_5_network.cuh), whose runs of 8192 or 16384 keys take Runs = PairTiledRuns.
template <class Cfg, class Exec, template <class, class> class Runs = SortedRuns, class Key, class Value, class Less,
          class SortFirstRuns>
void sort_runs_with(const SortArgs<Key, Value>& args, std::size_t n, Less less, std::size_t first_run_width,
                    SortFirstRuns sort_first_runs) {
    if (n == 0) return;
    const int passes = merge_passes(n, first_run_width);
    PassOutput<Key, Value> dst = pass_output(args, 0, passes);
    sort_first_runs(args.keys_in, args.values_in, dst.keys, dst.values);
    std::size_t width = first_run_width;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const Runs<Key, Value> runs = pass_runs<Runs>(dst.keys, dst.values, n, width, Cfg::kMergeTile);
        dst = pass_output(args, pass, passes);
        merge_runs<Cfg, Exec>(runs, args.splits, dst.keys, dst.values, less);
    }
}

// Tiles of kSortTile sorted by sort_tiles_kernel, then ceil(log2(n / kSortTile)) merge passes.
template <class Cfg, class Exec = DeviceExecutor, class Key, class Value, class Less>
void sort_with(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    sort_runs_with<Cfg, Exec>(args, n, less, Cfg::kSortTile,
                              [&](const Key* in, const Value* in_values, Key* out, Value* out_values) {
                                  Exec::template sort_tiles<Cfg>(in, in_values, out, out_values, n, less);
                              });
}

}  // namespace
}  // namespace merge_sort::fast
