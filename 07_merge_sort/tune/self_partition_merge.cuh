// tune/self_partition_merge.cuh: merge passes without the partition kernel. Each block finds
// its own tiles' splits (the same k-ary co-rank search as fast::partition_kernel), so a pass is
// one launch and no split array is written or read. Swept by tune/sweep_persistent.cu.
//
// Why: at 2^24 every pass of the shipped sort is a partition of 8-13.5 us (241 blocks, 20%
// occupancy, a chain of dependent loads) before a merge of 41 us, and programmatic dependent
// launch hides only its launch, not its chain: about a fifth of each pass (NOTES.md, "Nsight
// Compute at 2^24"). Two ways to take it off the critical path:
//   - one tile a block (kPersistent false): warp 0 searches the block's two splits (16 lanes
//     each) before the tile is loaded. The search's latency is the block's, but the other blocks
//     on the SM load and merge meanwhile; only the first wave waits for it as a whole.
//   - persistent (kPersistent true): a resident grid, each block a run of consecutive tiles, and
//     one extra warp that searches the split two tiles ahead (32 lanes) while the block's other
//     warps load, merge and store the current tile (their own barriers: bar.sync 1). A tile's end
//     is the next tile's start, so one search a tile; only the block's first two are waited for.
// Measured (H100, 2026-12-07; NOTES.md, "Merge passes that find their own splits"): faster than
// the shipped passes below 2^22 (the sort at 0.75x CUB's time at 2^20, against 0.87), slower from
// 2^24 on (1.00x against 0.94 at 2^24, 1.16x against 0.96 at 2^28): a block waits out its search.
#pragma once

#include "persistent_merge.cuh"

namespace merge_sort::self_partition {

namespace {

template <int THREADS, int ITEMS, int MIN_BLOCKS, bool PERSISTENT>
struct Shape {
    static constexpr int kThreads = THREADS, kItems = ITEMS, kMinBlocks = MIN_BLOCKS;
    static constexpr bool kPersistent = PERSISTENT;
    static constexpr int kTile = THREADS * ITEMS;
    static constexpr int kBlockThreads = THREADS + (PERSISTENT ? 32 : 0);  // + the searching warp
    template <class Key, class Value>
    static constexpr std::size_t shared_bytes() {
        return fast::shared_bytes<Key, Value>(kTile);
    }
};

// The co-rank of `diag` in `pair`, found by the `lanes` lanes of `mask` together (every lane
// returns it).
template <class Pair, class Less>
__device__ __forceinline__ std::size_t group_co_rank(const Pair& pair, std::size_t diag, int lane, int lanes,
                                                     unsigned mask, Less less) {
    fast::SearchRange r = fast::co_rank_range(pair, diag);
    while (r.lo < r.hi) {  // the same range in every lane of the group
        const bool before = fast::probe_is_before(pair, diag, fast::kary_probe(r, lane, lanes), less);
        const int count = __popc(__ballot_sync(mask, before) & mask);
        r = fast::kary_narrow(r, lanes, count);
    }
    return r.lo;
}

// Where merge tile t starts in its pair's A (its split), by `lanes` lanes.
template <class S, class Layout, class Less>
__device__ __forceinline__ std::size_t tile_start(const Layout& runs, std::size_t t, int lane, int lanes, unsigned mask,
                                                  Less less) {
    const std::size_t k = t * S::kTile;
    const auto pair = runs.pair_containing(k);
    return group_co_rank(pair, k - pair.first, lane, lanes, mask, less);
}

template <class S, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(S::kBlockThreads, pmpp::min_blocks_that_fit(S::kBlockThreads, S::kMinBlocks))
    tile_merge_kernel(Layout runs, std::size_t tiles, Key* out, Value* out_values, Less less) {
    fast::wait_for_previous_kernel();
    using Steps = fast::TileSteps<S::kThreads, S::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    __shared__ std::size_t s_splits[2];
    Key* s_keys;
    Value* s_values;
    fast::shared_arrays(shared, S::kTile, s_keys, s_values);
    const int tid = static_cast<int>(threadIdx.x);
    const std::size_t t = blockIdx.x;
    if (tid < 32) {  // lanes 0-15: this tile's start; 16-31: the next tile's (its end)
        const int half = tid / 16;
        const std::size_t which = t + static_cast<std::size_t>(half);
        if (which < tiles) {
            const std::size_t split = tile_start<S>(runs, which, tid % 16, 16, 0xFFFFu << (16 * half), less);
            if (tid % 16 == 0) s_splits[half] = split;
        }
    }
    __syncthreads();
    const auto p = persistent::tile_pieces<S>(runs, t, persistent::TileSplits{s_splits[0], s_splits[1]});
    Steps::load(tid, p.a, p.av, p.na, p.b, p.bv, p.count, s_keys, s_values);
    __syncthreads();
    fast::ThreadItems<S::kItems, Key, Value> items;
    Steps::merge_items(s_keys, s_values, 0, p.na, p.na, p.count - p.na, min_of(tid * S::kItems, p.count), items, less);
    __syncthreads();
    Steps::write_items(items, s_keys, s_values);
    __syncthreads();
    const std::size_t k = t * S::kTile;
    Steps::store(tid, p.count, s_keys, s_values, out + k, offset(out_values, k));
    fast::let_next_kernel_launch();
}

// A barrier of the merging warps only (the searching warp keeps searching).
template <int THREADS>
__device__ __forceinline__ void merging_warps_barrier() {
    asm volatile("bar.sync 1, %0;" ::"n"(THREADS) : "memory");
}

template <class S, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(S::kBlockThreads, pmpp::min_blocks_that_fit(S::kBlockThreads, S::kMinBlocks))
    persistent_merge_kernel(Layout runs, std::size_t tiles, std::size_t chunk, Key* out, Value* out_values, Less less) {
    fast::wait_for_previous_kernel();
    using Steps = fast::TileSteps<S::kThreads, S::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    __shared__ std::size_t s_splits[3];  // tile i of the block's run starts at s_splits[i % 3]
    Key* s_keys;
    Value* s_values;
    fast::shared_arrays(shared, S::kTile, s_keys, s_values);
    const int tid = static_cast<int>(threadIdx.x);
    const bool searcher = tid >= S::kThreads;
    const int lane = tid % 32;
    const std::size_t first = blockIdx.x * chunk;
    const std::size_t last = min_of(first + chunk, tiles);  // this block's tiles: [first, last)
    if (searcher) {  // the first two tiles' starts, 16 lanes each
        const int half = lane / 16;
        const std::size_t which = first + static_cast<std::size_t>(half);
        if (which < tiles) {
            const std::size_t split = tile_start<S>(runs, which, lane % 16, 16, 0xFFFFu << (16 * half), less);
            if (lane % 16 == 0) s_splits[half] = split;
        }
    }
    __syncthreads();
    for (std::size_t t = first, i = 0; t < last; ++t, ++i) {
        if (searcher) {
            // Tile t + 2's start, the end of tile t + 1 (past the block's last tile: not needed).
            if (t + 2 <= last && t + 2 < tiles) {
                const std::size_t split = tile_start<S>(runs, t + 2, lane, 32, 0xFFFFFFFFu, less);
                if (lane == 0) s_splits[(i + 2) % 3] = split;
            }
        } else {
            const auto p =
                persistent::tile_pieces<S>(runs, t, persistent::TileSplits{s_splits[i % 3], s_splits[(i + 1) % 3]});
            Steps::load(tid, p.a, p.av, p.na, p.b, p.bv, p.count, s_keys, s_values);
            merging_warps_barrier<S::kThreads>();
            fast::ThreadItems<S::kItems, Key, Value> items;
            Steps::merge_items(s_keys, s_values, 0, p.na, p.na, p.count - p.na, min_of(tid * S::kItems, p.count), items,
                               less);
            merging_warps_barrier<S::kThreads>();
            Steps::write_items(items, s_keys, s_values);
            merging_warps_barrier<S::kThreads>();
            const std::size_t k = t * S::kTile;
            Steps::store(tid, p.count, s_keys, s_values, out + k, offset(out_values, k));
        }
        __syncthreads();  // the stores have read the tile; tile t + 2's start is written
    }
    fast::let_next_kernel_launch();
}

template <class S, class Layout, class Key, class Value, class Less>
constexpr auto kernel_of() {
    if constexpr (S::kPersistent)
        return persistent_merge_kernel<S, Layout, Key, Value, Less>;
    else
        return tile_merge_kernel<S, Layout, Key, Value, Less>;
}

template <class S, class Key, class Value, class Layout, class Less>
int blocks_per_sm() {
    static const int resident = [] {
        constexpr std::size_t bytes = S::template shared_bytes<Key, Value>();
        const auto kernel = kernel_of<S, Layout, Key, Value, Less>();
        pmpp::allow_dynamic_shared_memory(kernel, bytes, "self-partitioned merge");
        return pmpp::resident_blocks_per_sm(kernel, S::kBlockThreads, bytes);
    }();
    return resident;
}

// One pass (`splits` is not used: the signature is persistent::merge_runs's).
template <class S, class Exec, class Layout, class Key, class Value, class Less>
void merge_runs(const Layout& runs, std::size_t* /*splits*/, Key* out, Value* out_values, Less less) {
    const std::size_t total = runs.size();
    if (total == 0) return;
    const std::size_t tiles = (total + S::kTile - 1) / S::kTile;
    constexpr std::size_t bytes = S::template shared_bytes<Key, Value>();
    const int resident = blocks_per_sm<S, Key, Value, Layout, Less>();
    if constexpr (S::kPersistent) {
        const std::size_t blocks = static_cast<std::size_t>(pmpp::device_limits().sm_count) * resident;
        const std::size_t chunk = (tiles + blocks - 1) / blocks;
        Exec::launch(persistent_merge_kernel<S, Layout, Key, Value, Less>, (tiles + chunk - 1) / chunk,
                     S::kBlockThreads, bytes, runs, tiles, chunk, out, out_values, less);
    } else {
        Exec::launch(tile_merge_kernel<S, Layout, Key, Value, Less>, tiles, S::kBlockThreads, bytes, runs, tiles, out,
                     out_values, less);
    }
}

// The whole sort: the shipped tile sort (Cfg), then these passes.
template <class Cfg, class S, class Exec, class Key, class Value, class Less>
void sort_with(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    persistent::sort_with_passes<Cfg, S, Exec>(args, n, less,
                                               [&](const auto& runs, std::size_t* splits, Key* keys, Value* values) {
                                                   merge_runs<S, Exec>(runs, splits, keys, values, less);
                                               });
}

}  // namespace
}  // namespace merge_sort::self_partition
