// merge_sort_2_tiled.cu: shared-memory tiles (PMPP 12.6), and a sort whose passes keep the
// whole GPU busy.
//
// Ideas over merge_sort_1_basic:
//  - merge: each block owns an equal range of C (kOutputsPerBlock); one co-rank per block end
//    finds its pieces of A and B. The block then walks them a tile at a time: it loads kTile
//    elements of A and of B into shared memory with coalesced reads, every thread merges its
//    share of the next kTile outputs from shared memory (co-rank and sequential merge there), and
//    the block advances A and B by as much as the step consumed (one more co-rank). Global reads
//    coalesce; the per-thread searches run in shared memory.
//  - sort: runs of kSortTile = 1024 are first sorted inside one block in shared memory, which
//    removes the ten shortest passes; then each pass splits its whole output evenly among blocks
//    by co-rank, whatever the run width: the first passes no longer give a block two elements,
//    the last no longer gives one block everything (merge_sort_2_tiled.cuh).
//  - the cost left: each step loads a full tile of A and of B but consumes kTile of the 2 kTile
//    loaded; the rest is loaded again next step (merge_sort_3_circular.cu keeps it).
// Measured (H200, 2026-11-30): sort 5.31 Gkeys/s at 2^24 (3.16 ms); merge 0.21 of the copy bandwidth.
#include "merge_sort_2_tiled.cuh"

namespace merge_sort {

namespace {

struct TiledBlockMerge {
    static constexpr int kTile = 1024;  // elements of A and of B in shared memory per step

    // c[0, na + nb) = merge of a[0, na) and b[0, nb), by the whole block.
    template <class Key, class Value, class Less>
    __device__ static void merge(const Key* a, const Value* av, std::size_t na, const Key* b, const Value* bv,
                                 std::size_t nb, Key* c, Value* cv, Less less) {
        constexpr bool values = kHasValues<Value>;
        __shared__ Key tile_a[kTile], tile_b[kTile];
        __shared__ Value tile_av[values ? kTile : 1], tile_bv[values ? kTile : 1];
        __shared__ int s_a_used;
        const std::size_t total = na + nb;
        std::size_t a_done = 0, b_done = 0;
        for (std::size_t c_done = 0; c_done < total;) {
            const int a_count = static_cast<int>(min_of<std::size_t>(kTile, na - a_done));
            const int b_count = static_cast<int>(min_of<std::size_t>(kTile, nb - b_done));
            for (int i = threadIdx.x; i < a_count; i += blockDim.x) {
                tile_a[i] = a[a_done + i];
                if constexpr (values) tile_av[i] = av[a_done + i];
            }
            for (int i = threadIdx.x; i < b_count; i += blockDim.x) {
                tile_b[i] = b[b_done + i];
                if constexpr (values) tile_bv[i] = bv[b_done + i];
            }
            __syncthreads();
            // The next c_count outputs need at most c_count elements of each input, and the tiles
            // hold min(kTile, what is left) of each: co-rank on the tiles gives the right split.
            const int c_count = static_cast<int>(min_of<std::size_t>(kTile, total - c_done));
            const int per_thread = (c_count + blockDim.x - 1) / blockDim.x;
            const int k0 = min_of(static_cast<int>(threadIdx.x) * per_thread, c_count);
            const int k1 = min_of(k0 + per_thread, c_count);
            const int i0 = co_rank(k0, tile_a, a_count, tile_b, b_count, less);
            const int i1 = co_rank(k1, tile_a, a_count, tile_b, b_count, less);
            merge_sequential(tile_a + i0, offset(tile_av, i0), i1 - i0, tile_b + (k0 - i0), offset(tile_bv, k0 - i0),
                             (k1 - i1) - (k0 - i0), c + c_done + k0, offset(cv, c_done + k0), less);
            if (threadIdx.x == blockDim.x - 1) s_a_used = i1;  // the last thread's slice ends at c_count
            __syncthreads();
            const int a_used = s_a_used;
            a_done += a_used;
            b_done += c_count - a_used;
            c_done += c_count;
        }
    }
};

}  // namespace

template <class Key, class Less>
void merge_tiled(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*, Less less) {
    merge_by_block_ranges<TiledBlockMerge>(a, na, b, nb, c, less);
}

template <class Key, class Value, class Less>
void sort_tiled(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    sort_tiles_then_block_passes<TiledBlockMerge>(args, n, less);
}

#define INSTANTIATE_TILED(Key, Less)                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_tiled, Key, Less) \
    MERGE_SORT_INSTANTIATE_SORT(sort_tiled, Key, Less)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_TILED)
#undef INSTANTIATE_TILED

}  // namespace merge_sort
