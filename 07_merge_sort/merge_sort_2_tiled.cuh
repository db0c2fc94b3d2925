// merge_sort_2_tiled.cuh: what merge_sort_2_tiled.cu and merge_sort_3_circular.cu share. They
// differ only in how a block merges its part of the output (BlockMerge::merge: plain shared-memory
// tiles, PMPP 12.6, or circular ones, PMPP 12.7); everything around that is here:
//  - merge_block_ranges: the whole output (of one merge, or of one merge-sort pass) split evenly
//    among blocks; each block finds where its range starts and ends in A and B with co-rank in
//    global memory, then hands the exact pieces of A and B to BlockMerge::merge;
//  - sort_tiles_in_shared: a merge sort's first step, runs of kSortTile sorted inside one block
//    by bottom-up merges in shared memory (each thread a slice of each level, via co-rank);
//  - the host drivers of a merge and of a sort.
// Included by those two files (and tests/wrong_student.cu); the kernels have internal linkage in each.
#pragma once

#include "merge_sort_1_basic.cuh"

#include "common/cuda_check.h"

namespace merge_sort {
namespace {

constexpr int kBlockThreads = 256;
constexpr int kSortTile = 1024;  // keys per block in the first step of a sort
constexpr std::size_t kOutputsPerBlock = 4096;  // outputs per block in a merge or a merge pass

// Each block produces outputs [blockIdx.x * per_block, ...) of merging every pair of `runs`.
// The range may cover parts of several pairs (early sort passes): one part at a time.
template <class BlockMerge, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(kBlockThreads)
    merge_block_ranges(Layout runs, Key* out, Value* out_values, std::size_t per_block, Less less) {
    __shared__ std::size_t s_a_begin, s_a_end;
    const std::size_t total = runs.size();
    std::size_t k = min_of(blockIdx.x * per_block, total);
    const std::size_t k_end = min_of(k + per_block, total);
    while (k < k_end) {
        const auto pair = runs.pair_containing(k);
        const std::size_t stop = min_of(k_end, pair.first + pair.na + pair.nb);
        const std::size_t d0 = k - pair.first, d1 = stop - pair.first;
        // Where this block's part starts and ends in A: two searches, by threads of two warps.
        if (threadIdx.x == 0) s_a_begin = co_rank(d0, pair.a, pair.na, pair.b, pair.nb, less);
        if (threadIdx.x == 32) s_a_end = co_rank(d1, pair.a, pair.na, pair.b, pair.nb, less);
        __syncthreads();
        const std::size_t i0 = s_a_begin, i1 = s_a_end, j0 = d0 - i0, j1 = d1 - i1;
        BlockMerge::merge(pair.a + i0, offset(pair.av, i0), i1 - i0, pair.b + j0, offset(pair.bv, j0), j1 - j0, out + k,
                          offset(out_values, k), less);
        __syncthreads();  // every thread has read s_a_begin and s_a_end before the next part
        k = stop;
    }
}

template <class Key, class Value, class Less>
__global__ void __launch_bounds__(kBlockThreads)
    sort_tiles_in_shared(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n, Less less) {
    constexpr bool values = kHasValues<Value>;
    __shared__ Key keys[2][kSortTile];
    __shared__ Value vals[2][values ? kSortTile : 1];
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(kSortTile);
    const int count = static_cast<int>(min_of<std::size_t>(kSortTile, n - base));
    for (int i = threadIdx.x; i < count; i += kBlockThreads) {
        keys[0][i] = in[base + i];
        if constexpr (values) vals[0][i] = in_values[base + i];
    }
    __syncthreads();
    // Each thread produces the same slice of every level: runs of 1, 2, 4, ... merge pairwise.
    const std::size_t per_thread = (count + kBlockThreads - 1) / kBlockThreads;
    const std::size_t k_begin = min_of<std::size_t>(threadIdx.x * per_thread, count);
    const std::size_t k_end = min_of<std::size_t>(k_begin + per_thread, count);
    int src = 0;
    for (std::size_t width = 1; width < static_cast<std::size_t>(count); width *= 2) {
        const SortedRuns<Key, Value> level{keys[src], vals[src], static_cast<std::size_t>(count), width};
        merge_slice(level, k_begin, k_end, keys[1 - src], vals[1 - src], less);
        __syncthreads();
        src = 1 - src;
    }
    for (int i = threadIdx.x; i < count; i += kBlockThreads) {
        out[base + i] = keys[src][i];
        if constexpr (values) out_values[base + i] = vals[src][i];
    }
}

template <class BlockMerge, class Key, class Less>
void merge_by_block_ranges(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, Less less) {
    const std::size_t total = na + nb;
    if (total == 0) return;
    const std::size_t blocks = (total + kOutputsPerBlock - 1) / kOutputsPerBlock;
    merge_block_ranges<BlockMerge><<<static_cast<unsigned>(blocks), kBlockThreads>>>(
        two_arrays(a, na, b, nb), c, static_cast<NoValues*>(nullptr), kOutputsPerBlock, less);
    PMPP_CHECK_LAUNCH();
}

// Tiles of kSortTile sorted in shared memory, then passes of merge_block_ranges. The tile sort
// writes where the number of passes makes the last pass land in the output: no final copy.
template <class BlockMerge, class Key, class Value, class Less>
void sort_tiles_then_block_passes(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    if (n == 0) return;
    const int passes = merge_passes(n, kSortTile);
    PassOutput<Key, Value> dst = pass_output(args, 0, passes);
    const std::size_t tiles = (n + kSortTile - 1) / kSortTile;
    sort_tiles_in_shared<<<static_cast<unsigned>(tiles), kBlockThreads>>>(args.keys_in, args.values_in, dst.keys,
                                                                          dst.values, n, less);
    PMPP_CHECK_LAUNCH();
    std::size_t width = kSortTile;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const SortedRuns<Key, Value> runs{dst.keys, dst.values, n, width};
        dst = pass_output(args, pass, passes);
        const std::size_t blocks = (n + kOutputsPerBlock - 1) / kOutputsPerBlock;
        merge_block_ranges<BlockMerge>
            <<<static_cast<unsigned>(blocks), kBlockThreads>>>(runs, dst.keys, dst.values, kOutputsPerBlock, less);
        PMPP_CHECK_LAUNCH();
    }
}

}  // namespace
}  // namespace merge_sort
