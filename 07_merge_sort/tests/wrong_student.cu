#include "wrong_student.h"

#include "../merge_sort_2_tiled.cuh"  // sort_tiles_in_shared: the right tile sort, kSortTile = 1024
#include "../merge_sort_1_basic.cuh"

#include "common/cuda_check.h"

namespace wrong {

using namespace merge_sort;

namespace {

constexpr int kThreads = 256;
constexpr std::size_t kOutputsPerThread = 8;

std::size_t blocks_for(std::size_t threads) { return (threads + kThreads - 1) / kThreads; }

// ---- the basic merges -------------------------------------------------------------------------

enum class BasicMistake { SliceStartsOneLate, PiecesNotMerged, None };

template <class Key, class Less>
__global__ void basic_merge_kernel(BasicMistake mistake, const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                   Key* c, std::size_t threads, Less less) {
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (thread >= threads) return;
    const std::size_t total = na + nb;
    const std::size_t k0 = min_of(thread * kOutputsPerThread, total);
    const std::size_t k1 = min_of(k0 + kOutputsPerThread, total);
    const std::size_t i1 = co_rank(k1, a, na, b, nb, less), j1 = k1 - i1;
    std::size_t i0 = co_rank(k0, a, na, b, nb, less);
    if (mistake == BasicMistake::SliceStartsOneLate && k0 > 0)
        i0 = min_of(co_rank(k0 - 1, a, na, b, nb, less) + 1, i1);  // never past the slice's own end
    const std::size_t j0 = k0 - i0;
    const NoValues* none = nullptr;
    NoValues* none_out = nullptr;
    if (mistake == BasicMistake::PiecesNotMerged) {
        for (std::size_t i = i0; i < i1; ++i) c[k0 + (i - i0)] = a[i];
        for (std::size_t j = j0; j < j1; ++j) c[k0 + (i1 - i0) + (j - j0)] = b[j];
        return;
    }
    merge_sequential(a + i0, none, i1 - i0, b + j0, none, j1 - j0, c + k0, none_out, less);
}

template <class Key>
void launch_basic(BasicMistake mistake, const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                  std::size_t threads) {
    if (threads == 0) return;
    basic_merge_kernel<<<static_cast<unsigned>(blocks_for(threads)), kThreads>>>(mistake, a, na, b, nb, c, threads,
                                                                                 LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}

// ---- the tiled merge --------------------------------------------------------------------------

constexpr int kTile = 1024;
constexpr std::size_t kOutputsPerBlock = 4096;

template <class Key, class Less>
__global__ void tiled_merge_advancing_whole_tiles(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                                  Less less) {
    __shared__ Key tile_a[kTile], tile_b[kTile];
    __shared__ std::size_t s_a_begin, s_a_end;
    const std::size_t total = na + nb;
    const std::size_t k_begin = min_of(blockIdx.x * kOutputsPerBlock, total);
    const std::size_t k_end = min_of(k_begin + kOutputsPerBlock, total);
    if (threadIdx.x == 0) s_a_begin = co_rank(k_begin, a, na, b, nb, less);
    if (threadIdx.x == 32) s_a_end = co_rank(k_end, a, na, b, nb, less);
    __syncthreads();
    const std::size_t block_na = s_a_end - s_a_begin;
    const std::size_t block_nb = (k_end - s_a_end) - (k_begin - s_a_begin);
    const Key* block_a = a + s_a_begin;
    const Key* block_b = b + (k_begin - s_a_begin);
    Key* block_c = c + k_begin;
    const std::size_t block_total = k_end - k_begin;
    const NoValues* none = nullptr;
    NoValues* none_out = nullptr;
    std::size_t a_done = 0, b_done = 0, c_done = 0;
    while (c_done < block_total && (a_done < block_na || b_done < block_nb)) {
        const int a_count = static_cast<int>(min_of<std::size_t>(kTile, block_na - a_done));
        const int b_count = static_cast<int>(min_of<std::size_t>(kTile, block_nb - b_done));
        for (int i = threadIdx.x; i < a_count; i += blockDim.x) tile_a[i] = block_a[a_done + i];
        for (int i = threadIdx.x; i < b_count; i += blockDim.x) tile_b[i] = block_b[b_done + i];
        __syncthreads();
        // At most what the tiles hold: with A and B ahead of the output, co-rank needs k <= both counts.
        const int c_count =
            min_of(static_cast<int>(min_of<std::size_t>(kTile, block_total - c_done)), a_count + b_count);
        const int per_thread = (c_count + static_cast<int>(blockDim.x) - 1) / static_cast<int>(blockDim.x);
        const int k0 = min_of(static_cast<int>(threadIdx.x) * per_thread, c_count);
        const int k1 = min_of(k0 + per_thread, c_count);
        const int i0 = co_rank(k0, tile_a, a_count, tile_b, b_count, less);
        const int i1 = co_rank(k1, tile_a, a_count, tile_b, b_count, less);
        merge_sequential(tile_a + i0, none, i1 - i0, tile_b + (k0 - i0), none, (k1 - i1) - (k0 - i0),
                         block_c + c_done + k0, none_out, less);
        __syncthreads();
        a_done += a_count;  // the mistake: the step consumed c_count inputs, co_rank(c_count) of them from A
        b_done += b_count;
        c_done += c_count;
    }
}

// ---- the sorts --------------------------------------------------------------------------------

enum class SortMistake { PingPongFromScratch, OnePassShort, PassesCountedInTiles, TiesFromB };

// merge_slice (merge_sort_1_basic.cuh) with B in A's part: on equal keys B's element goes first.
template <class Key, class Value, class Less>
__device__ void merge_slice_ties_from_b(const SortedRuns<Key, Value>& runs, std::size_t k_begin, std::size_t k_end,
                                        Key* out, Value* out_values, Less less) {
    while (k_begin < k_end) {
        const auto pair = runs.pair_containing(k_begin);
        const std::size_t stop = min_of(k_end, pair.first + pair.na + pair.nb);
        const std::size_t d0 = k_begin - pair.first, d1 = stop - pair.first;
        const std::size_t j0 = co_rank(d0, pair.b, pair.nb, pair.a, pair.na, less);
        const std::size_t j1 = co_rank(d1, pair.b, pair.nb, pair.a, pair.na, less);
        const std::size_t i0 = d0 - j0, i1 = d1 - j1;
        merge_sequential(pair.b + j0, offset(pair.bv, j0), j1 - j0, pair.a + i0, offset(pair.av, i0), i1 - i0,
                         out + k_begin, offset(out_values, k_begin), less);
        k_begin = stop;
    }
}

// One merge pass, 8 outputs per thread.
template <class Key, class Value, class Less>
__global__ void merge_pass_kernel(SortedRuns<Key, Value> runs, Key* out, Value* out_values, bool ties_from_b,
                                  Less less) {
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t k0 = min_of(thread * kOutputsPerThread, runs.n);
    const std::size_t k1 = min_of(k0 + kOutputsPerThread, runs.n);
    if (ties_from_b)
        merge_slice_ties_from_b(runs, k0, k1, out, out_values, less);
    else
        merge_slice(runs, k0, k1, out, out_values, less);
}

// Tiles of kSortTile sorted in shared memory, then merge passes, with one mistake.
template <class Key, class Value>
void sort_with_mistake(SortMistake mistake, const SortArgs<Key, Value>& args, std::size_t n) {
    if (n == 0) return;
    const std::size_t tile = kSortTile;
    int passes = merge_passes(n, tile);
    if (mistake == SortMistake::OnePassShort) {
        passes = 0;
        for (std::size_t width = tile; 2 * width < n; width *= 2) ++passes;
    }
    if (mistake == SortMistake::PassesCountedInTiles) {
        const std::size_t tiles = (n + tile - 1) / tile;
        passes = 0;
        for (std::size_t width = tile; width < tiles; width *= 2) ++passes;
    }
    // Step 0 is the tile sort, steps 1..passes the passes.
    auto writes_output = [&](int step) {
        return mistake == SortMistake::PingPongFromScratch ? step % 2 == 1 : pass_writes_output(step, passes);
    };
    Key* keys = writes_output(0) ? args.keys_out : args.keys_scratch;
    Value* values = writes_output(0) ? args.values_out : args.values_scratch;
    sort_tiles_in_shared<<<static_cast<unsigned>((n + tile - 1) / tile), kBlockThreads>>>(
        args.keys_in, args.values_in, keys, values, n, LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
    std::size_t width = tile;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const SortedRuns<Key, Value> runs{keys, values, n, width};
        keys = writes_output(pass) ? args.keys_out : args.keys_scratch;
        values = writes_output(pass) ? args.values_out : args.values_scratch;
        merge_pass_kernel<<<static_cast<unsigned>(blocks_for((n + kOutputsPerThread - 1) / kOutputsPerThread)),
                            kThreads>>>(runs, keys, values, mistake == SortMistake::TiesFromB, LessOf<Key>{});
        PMPP_CHECK_LAUNCH();
    }
}

}  // namespace

template <class Key>
void merge_basic_slice_starts_one_late(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                       std::size_t*) {
    launch_basic(BasicMistake::SliceStartsOneLate, a, na, b, nb, c,
                 (na + nb + kOutputsPerThread - 1) / kOutputsPerThread);
}
template <class Key>
void merge_basic_grid_rounded_down(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_basic(BasicMistake::None, a, na, b, nb, c, (na + nb) / kOutputsPerThread);
}
template <class Key>
void merge_basic_pieces_not_merged(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_basic(BasicMistake::PiecesNotMerged, a, na, b, nb, c, (na + nb + kOutputsPerThread - 1) / kOutputsPerThread);
}

template <class Key>
void merge_tiled_advancing_whole_tiles(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                       std::size_t*) {
    const std::size_t total = na + nb;
    if (total == 0) return;
    tiled_merge_advancing_whole_tiles<<<static_cast<unsigned>((total + kOutputsPerBlock - 1) / kOutputsPerBlock),
                                        kThreads>>>(a, na, b, nb, c, LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}

template <class Key, class Value>
void sort_ping_pong_from_scratch(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_with_mistake(SortMistake::PingPongFromScratch, args, n);
}
template <class Key, class Value>
void sort_one_pass_short(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_with_mistake(SortMistake::OnePassShort, args, n);
}
template <class Key, class Value>
void sort_passes_counted_in_tiles(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_with_mistake(SortMistake::PassesCountedInTiles, args, n);
}
template <class Key, class Value>
void sort_passes_take_ties_from_b(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_with_mistake(SortMistake::TiesFromB, args, n);
}

#define INSTANTIATE_WRONG_STUDENT_MERGE(fn, Key) \
    template void fn<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);
#define INSTANTIATE_WRONG_STUDENT_SORT(fn, Key)                                   \
    template void fn<Key, NoValues>(const SortArgs<Key, NoValues>&, std::size_t); \
    template void fn<Key, PairValue>(const SortArgs<Key, PairValue>&, std::size_t);
#define INSTANTIATE_WRONG_STUDENT(Key, Less)                                \
    INSTANTIATE_WRONG_STUDENT_MERGE(merge_basic_slice_starts_one_late, Key) \
    INSTANTIATE_WRONG_STUDENT_MERGE(merge_basic_grid_rounded_down, Key)     \
    INSTANTIATE_WRONG_STUDENT_MERGE(merge_basic_pieces_not_merged, Key)     \
    INSTANTIATE_WRONG_STUDENT_MERGE(merge_tiled_advancing_whole_tiles, Key) \
    INSTANTIATE_WRONG_STUDENT_SORT(sort_ping_pong_from_scratch, Key)        \
    INSTANTIATE_WRONG_STUDENT_SORT(sort_one_pass_short, Key)                \
    INSTANTIATE_WRONG_STUDENT_SORT(sort_passes_counted_in_tiles, Key)       \
    INSTANTIATE_WRONG_STUDENT_SORT(sort_passes_take_ties_from_b, Key)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_WRONG_STUDENT)
#undef INSTANTIATE_WRONG_STUDENT
#undef INSTANTIATE_WRONG_STUDENT_SORT
#undef INSTANTIATE_WRONG_STUDENT_MERGE

}  // namespace wrong
