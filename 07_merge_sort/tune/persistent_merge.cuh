// tune/persistent_merge.cuh: a merge pass run by resident blocks that load their next tile while
// they merge the current one (02's persistent scan, applied to the merge pass of
// merge_sort_4_fast). Swept by tune/sweep_persistent.cu against the shipped pass.
//
// Why: the shipped merge kernel (one tile per block, merge_tiles_kernel) reaches 0.85 of the copy
// bandwidth at 2^28 and 57% of DRAM's at 2^24 (Nsight Compute, NOTES.md): while a block merges
// its tile in shared memory it has no load in flight, and five blocks an SM only partly cover
// that. Here a grid of resident blocks deals the tiles out (block b merges tiles b, b + G,
// b + 2G, ...); each block keeps STAGES - 1 tiles' loads in flight (cp.async: 4- or 8-byte
// copies, the pieces of A and B start at any element) while it merges one tile into registers
// and writes it to a separate output buffer, from which it stores coalesced. Two barriers a tile.
// The splits come from the shipped partition kernel, as before.
//
// Per block, shared memory: STAGES input tiles and one output tile (each a tile of keys with the
// spare slot merge_items reads past a side's end, then the values). On sm_75 cp.async is a
// plain load through a register (the same results, no overlap).
#pragma once

#include "../merge_sort_4_fast.cuh"

#include "common/host_device.h"
#include "common/primitives/async_copy.cuh"

#include <algorithm>

namespace merge_sort::persistent {

namespace {

// How a block gets its next tile into shared memory:
//   kElements  cp.async of each 4- or 8-byte element (the pieces start at any element);
//   kWords     cp.async.cg of 16-byte words (past L1): each piece's aligned superset, the piece
//              then starts a few elements into its words (keys only);
//   kRegisters no cp.async: the next tile's elements are loaded into registers before the
//              current tile is merged, and stored into the stage after it (STAGES is 1: the
//              current tile's stage takes the next one once it is merged).
enum class Copy { kElements, kWords, kRegisters };

template <int THREADS, int ITEMS, int STAGES, int MIN_BLOCKS, Copy COPY = Copy::kElements>
struct Shape {
    static constexpr int kThreads = THREADS, kItems = ITEMS, kStages = STAGES, kMinBlocks = MIN_BLOCKS;
    static constexpr Copy kCopy = COPY;
    static constexpr int kTile = THREADS * ITEMS;
    static_assert(COPY == Copy::kRegisters ? STAGES == 1 : STAGES >= 2, "a stage to merge from and one loading");
    // Elements a stage holds: the tile, and with kWords the words' first and last elements.
    template <class Key>
    static constexpr int capacity() {
        return COPY == Copy::kWords ? kTile + 4 * static_cast<int>(16 / sizeof(Key)) : kTile;
    }
    template <class Key, class Value>
    static constexpr std::size_t stage_bytes() {
        static_assert(COPY != Copy::kWords || !kHasValues<Value>, "kWords: keys only");
        return fast::shared_bytes<Key, Value>(capacity<Key>());
    }
    template <class Key, class Value>
    static constexpr std::size_t shared_bytes() {
        return (STAGES + 1) * stage_bytes<Key, Value>();
    }
};

// Where a stage's tile is: A's piece at [a_begin, a_begin + na), B's at [b_begin, ...), count in all.
struct StageTile {
    int a_begin, na, b_begin, count;
};

// The split values of tile t (where it starts in its pair's A, and where the next tile does),
// read one tile ahead of their use so that the load does not hold the copies up.
struct TileSplits {
    std::size_t first, next;
};
__device__ __forceinline__ TileSplits read_splits(const std::size_t* splits, std::size_t tiles, std::size_t t) {
    if (t >= tiles) return {0, 0};
    return {splits[t], splits[t + 1 < tiles ? t + 1 : t]};
}

template <class Key, class Value>
__device__ __forceinline__ void stage_arrays(unsigned char* shared, std::size_t stage_bytes, int stage, int tile,
                                             Key*& keys, Value*& values) {
    fast::shared_arrays(shared + static_cast<std::size_t>(stage) * stage_bytes, tile, keys, values);
}

// Merge tile t's pieces of A and B, from its split values.
template <class Key, class Value>
struct TilePieces {
    const Key* a;
    const Key* b;
    const Value* av;
    const Value* bv;
    int na, count;
};
template <class S, class Layout>
__device__ __forceinline__ auto tile_pieces(const Layout& runs, std::size_t t, TileSplits sp) {
    const std::size_t k = t * S::kTile;
    const auto pair = runs.pair_containing(k);
    const std::size_t d0 = k - pair.first;
    const std::size_t d1 = min_of(d0 + S::kTile, pair.na + pair.nb);
    const std::size_t i0 = sp.first;
    const std::size_t i1 = d1 == pair.na + pair.nb ? pair.na : sp.next;
    using Key = std::remove_cv_t<std::remove_pointer_t<decltype(pair.a)>>;
    using Value = std::remove_cv_t<std::remove_pointer_t<decltype(pair.av)>>;
    return TilePieces<Key, Value>{pair.a + i0,
                                  pair.b + (d0 - i0),
                                  offset(pair.av, i0),
                                  offset(pair.bv, d0 - i0),
                                  static_cast<int>(i1 - i0),
                                  static_cast<int>(d1 - d0)};
}

// Starts copying merge tile t (its pieces of A, then of B) into a stage, as one group of copies
// (an empty group past the last tile, so that every thread counts the same groups).
template <class S, class Layout, class Key, class Value>
__device__ __forceinline__ void start_loading(const Layout& runs, std::size_t tiles, std::size_t t, TileSplits sp,
                                              Key* s_keys, Value* s_values, StageTile* stage_tile) {
    if (t < tiles) {
        const auto p = tile_pieces<S>(runs, t, sp);
        const int na = p.na, count = p.count;
        if constexpr (S::kCopy == Copy::kWords) {
            // Each piece's 16-byte words, A's from the stage's start, B's right after them.
            constexpr int kPer = static_cast<int>(16 / sizeof(Key));
            const int a_skip = static_cast<int>(reinterpret_cast<std::uintptr_t>(p.a) % 16 / sizeof(Key));
            const int b_skip = static_cast<int>(reinterpret_cast<std::uintptr_t>(p.b) % 16 / sizeof(Key));
            const int a_words = (a_skip + na + kPer - 1) / kPer;
            const int b_words = (b_skip + (count - na) + kPer - 1) / kPer;
            const uint4* a = reinterpret_cast<const uint4*>(p.a - a_skip);
            const uint4* b = reinterpret_cast<const uint4*>(p.b - b_skip);
            uint4* words = reinterpret_cast<uint4*>(s_keys);
            constexpr int kMostWords = S::template capacity<Key>() / kPer;
            MERGE_SORT_UNROLL
            for (int j = 0; j < (kMostWords + S::kThreads - 1) / S::kThreads; ++j) {
                const int w = j * S::kThreads + static_cast<int>(threadIdx.x);
                if (w < a_words)
                    scan_primitives::copy_16_bytes_async(words + w, a + w);
                else if (w < a_words + b_words)
                    scan_primitives::copy_16_bytes_async(words + w, b + (w - a_words));
            }
            if (threadIdx.x == 0) *stage_tile = {a_skip, na, a_words * kPer + b_skip, count};
        } else {
            const bool full = count == S::kTile;
            MERGE_SORT_UNROLL
            for (int j = 0; j < S::kItems; ++j) {
                const int i = j * S::kThreads + static_cast<int>(threadIdx.x);
                if (full || i < count)
                    scan_primitives::copy_element_async(s_keys + i, i < na ? p.a + i : p.b + (i - na));
            }
            if constexpr (kHasValues<Value>) {
                MERGE_SORT_UNROLL
                for (int j = 0; j < S::kItems; ++j) {
                    const int i = j * S::kThreads + static_cast<int>(threadIdx.x);
                    if (full || i < count)
                        scan_primitives::copy_element_async(s_values + i, i < na ? p.av + i : p.bv + (i - na));
                }
            }
            if (threadIdx.x == 0) *stage_tile = {0, na, na, count};
        }
    }
    scan_primitives::commit_copies();
}

template <class S, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(S::kThreads, pmpp::min_blocks_that_fit(S::kThreads, S::kMinBlocks))
    persistent_merge_kernel(Layout runs, std::size_t tiles, const std::size_t* splits, Key* out, Value* out_values,
                            Less less) {
    fast::wait_for_previous_kernel();
    using Steps = fast::TileSteps<S::kThreads, S::kItems>;
    constexpr std::size_t kStageBytes = S::template stage_bytes<Key, Value>();
    constexpr int kCapacity = S::template capacity<Key>();
    extern __shared__ __align__(16) unsigned char shared[];
    __shared__ StageTile stage_tiles[S::kStages];
    Key* out_keys;
    Value* out_vals;
    stage_arrays(shared, kStageBytes, S::kStages, kCapacity, out_keys, out_vals);
    const std::size_t grid = gridDim.x;
    const int tid = static_cast<int>(threadIdx.x);

    // Tiles 0 .. STAGES - 2 of this block start loading; the splits of the next one are read.
    std::size_t t = blockIdx.x;
    TileSplits ahead = read_splits(splits, tiles, t);
    MERGE_SORT_UNROLL
    for (int s = 0; s < S::kStages - 1; ++s) {
        Key* k;
        Value* v;
        stage_arrays(shared, kStageBytes, s, kCapacity, k, v);
        const std::size_t tile = t + static_cast<std::size_t>(s) * grid;
        start_loading<S>(runs, tiles, tile, ahead, k, v, &stage_tiles[s]);
        ahead = read_splits(splits, tiles, tile + grid);
    }
    for (int i = 0; t < tiles; ++i, t += grid) {
        const int stage = i % S::kStages;
        scan_primitives::wait_for_copies<S::kStages - 2>();
        __syncthreads();  // tile t landed (every thread's copies); the output tile's stores are done
        {
            // The stage tile t - grid was merged from is free: tile t + (STAGES - 1) grid goes there.
            const int free_stage = (i + S::kStages - 1) % S::kStages;
            Key* k;
            Value* v;
            stage_arrays(shared, kStageBytes, free_stage, kCapacity, k, v);
            const std::size_t tile = t + static_cast<std::size_t>(S::kStages - 1) * grid;
            start_loading<S>(runs, tiles, tile, ahead, k, v, &stage_tiles[free_stage]);
            ahead = read_splits(splits, tiles, tile + grid);
        }
        const StageTile here = stage_tiles[stage];
        Key* s_keys;
        Value* s_values;
        stage_arrays(shared, kStageBytes, stage, kCapacity, s_keys, s_values);
        fast::ThreadItems<S::kItems, Key, Value> items;
        Steps::merge_items(s_keys, s_values, here.a_begin, here.na, here.b_begin, here.count - here.na,
                           min_of(tid * S::kItems, here.count), items, less);
        items.first -= here.a_begin;  // the output tile's position
        Steps::write_items(items, out_keys, out_vals);
        __syncthreads();  // the output tile is written; the stage is read
        const std::size_t k = t * S::kTile;
        Steps::store(tid, here.count, out_keys, out_vals, out + k, offset(out_values, k));
    }
    scan_primitives::wait_for_copies<0>();  // (only empty groups are left)
    fast::let_next_kernel_launch();
}

// kRegisters: each thread loads its elements of the block's next tile into registers right after
// the tile it merges is in shared memory, and stores them into the same stage once that tile is
// merged (software pipelining, the loads in flight during the merge; no cp.async, L1 as usual).
template <class S, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(S::kThreads, pmpp::min_blocks_that_fit(S::kThreads, S::kMinBlocks))
    register_prefetch_merge_kernel(Layout runs, std::size_t tiles, const std::size_t* splits, Key* out,
                                   Value* out_values, Less less) {
    static_assert(!kHasValues<Value>, "kRegisters: keys only");
    fast::wait_for_previous_kernel();
    using Steps = fast::TileSteps<S::kThreads, S::kItems>;
    constexpr std::size_t kStageBytes = S::template stage_bytes<Key, Value>();
    extern __shared__ __align__(16) unsigned char shared[];
    Key *s_keys, *out_keys;
    Value *s_values, *out_vals;
    stage_arrays(shared, kStageBytes, 0, S::kTile, s_keys, s_values);
    stage_arrays(shared, kStageBytes, 1, S::kTile, out_keys, out_vals);
    const std::size_t grid = gridDim.x;
    const int tid = static_cast<int>(threadIdx.x);
    Key next[S::kItems];
    int next_na = 0, next_count = 0;
    const auto load_next = [&](std::size_t tile, TileSplits sp) {
        if (tile >= tiles) return;
        const auto p = tile_pieces<S>(runs, tile, sp);
        next_na = p.na;
        next_count = p.count;
        const bool full = p.count == S::kTile;
        MERGE_SORT_UNROLL
        for (int j = 0; j < S::kItems; ++j) {
            const int i = j * S::kThreads + tid;
            if (full || i < p.count) next[j] = i < p.na ? p.a[i] : p.b[i - p.na];
        }
    };
    std::size_t t = blockIdx.x;
    TileSplits ahead = read_splits(splits, tiles, t);
    load_next(t, ahead);
    ahead = read_splits(splits, tiles, t + grid);
    for (; t < tiles; t += grid) {
        const int na = next_na, count = next_count;
        const bool full = count == S::kTile;
        MERGE_SORT_UNROLL
        for (int j = 0; j < S::kItems; ++j) {
            const int i = j * S::kThreads + tid;
            if (full || i < count) s_keys[i] = next[j];
        }
        __syncthreads();  // the stage holds tile t; the output tile's stores are done
        load_next(t + grid, ahead);
        ahead = read_splits(splits, tiles, t + 2 * grid);
        fast::ThreadItems<S::kItems, Key, Value> items;
        Steps::merge_items(s_keys, s_values, 0, na, na, count - na, min_of(tid * S::kItems, count), items, less);
        Steps::write_items(items, out_keys, out_vals);
        __syncthreads();  // the output tile is written; the stage is read
        const std::size_t k = t * S::kTile;
        Steps::store(tid, count, out_keys, out_vals, out + k, offset(out_values, k));
    }
    fast::let_next_kernel_launch();
}

template <class S, class Layout, class Key, class Value, class Less>
constexpr auto merge_kernel() {
    if constexpr (S::kCopy == Copy::kRegisters)
        return register_prefetch_merge_kernel<S, Layout, Key, Value, Less>;
    else
        return persistent_merge_kernel<S, Layout, Key, Value, Less>;
}

// The resident grid: blocks_per_sm (the occupancy at the kernel's shared memory) times the SMs,
// at most one block a tile.
template <class S, class Key, class Value, class Layout, class Less>
std::size_t resident_grid(std::size_t tiles) {
    static const int resident = [] {
        constexpr std::size_t bytes = S::template shared_bytes<Key, Value>();
        const auto kernel = merge_kernel<S, Layout, Key, Value, Less>();
        pmpp::allow_dynamic_shared_memory(kernel, bytes, "persistent merge");
        return pmpp::resident_blocks_per_sm(kernel, S::kThreads, bytes);
    }();
    const std::size_t sms = static_cast<std::size_t>(pmpp::device_limits().sm_count);
    return std::min<std::size_t>(tiles, sms * static_cast<std::size_t>(resident));
}

template <class S, class Key, class Value, class Layout, class Less>
int blocks_per_sm() {
    const std::size_t sms = static_cast<std::size_t>(pmpp::device_limits().sm_count);
    return static_cast<int>(resident_grid<S, Key, Value, Layout, Less>(sms * 64) / sms);
}

// The merge of a pass whose splits are known: the resident grid.
template <class S, class Exec, class Layout, class Key, class Value, class Less>
void merge_tiles(const Layout& runs, std::size_t tiles, const std::size_t* splits, Key* out, Value* out_values,
                 Less less) {
    const std::size_t grid = resident_grid<S, Key, Value, Layout, Less>(tiles);
    Exec::launch(merge_kernel<S, Layout, Key, Value, Less>(), grid, S::kThreads, S::template shared_bytes<Key, Value>(),
                 runs, tiles, splits, out, out_values, less);
}

// One pass: the shipped partition, then the persistent merge (both with programmatic dependent
// launch when Exec is fast::OverlappingExecutor).
template <class S, class Exec, class Layout, class Key, class Value, class Less>
void merge_runs(const Layout& runs, std::size_t* splits, Key* out, Value* out_values, Less less) {
    const std::size_t total = runs.size();
    if (total == 0) return;
    const std::size_t tiles = (total + S::kTile - 1) / S::kTile;
    Exec::partition(runs, S::kTile, tiles, splits, less);
    merge_tiles<S, Exec>(runs, tiles, splits, out, out_values, less);
}

// The whole sort: the shipped tile sort (Cfg), then merge_pass(runs, splits, keys, values) for
// every pass (the tune/ passes of tile S: persistent here, self-partitioned in
// self_partition_merge.cuh).
template <class Cfg, class S, class Exec, class Key, class Value, class Less, class MergePass>
void sort_with_passes(const SortArgs<Key, Value>& args, std::size_t n, Less less, MergePass merge_pass) {
    static_assert(S::kTile <= 2 * Cfg::kSortTile && (2 * Cfg::kSortTile) % S::kTile == 0,
                  "a merge tile must divide every pair of runs");
    if (n == 0) return;
    const int passes = merge_passes(n, Cfg::kSortTile);
    PassOutput<Key, Value> dst = pass_output(args, 0, passes);
    Exec::template sort_tiles<Cfg>(args.keys_in, args.values_in, dst.keys, dst.values, n, less);
    std::size_t width = Cfg::kSortTile;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const SortedRuns<Key, Value> runs{dst.keys, dst.values, n, width};
        dst = pass_output(args, pass, passes);
        merge_pass(runs, args.splits, dst.keys, dst.values);
    }
}

template <class Cfg, class S, class Exec, class Key, class Value, class Less>
void sort_with(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    sort_with_passes<Cfg, S, Exec>(args, n, less, [&](const auto& runs, std::size_t* splits, Key* keys, Value* values) {
        merge_runs<S, Exec>(runs, splits, keys, values, less);
    });
}

}  // namespace
}  // namespace merge_sort::persistent
