// merge_sort_3_circular.cu: the circular-buffer tiled merge (PMPP 12.7), in the same sort.
//
// Idea over merge_sort_2_tiled: a step of the tiled merge produces kTile outputs but loads up to
// 2 kTile inputs, and whatever it did not consume is loaded again by the next step: up to half
// the global reads are repeats. Here each tile is a circular buffer: the unconsumed elements stay
// where they are, and only the slots the last step freed are refilled. Every input element is
// read from global memory once.
//
// The PMPP text writes circular versions of co_rank and merge_sequential. Ours are templates over
// anything indexable (merge_sort_1_basic.cuh, merge_core.h), so the same two functions run on a
// CircularView, which maps logical index i to slot (start + i) mod kTile.
// Measured (H200, 2026-11-30): sort 5.53 Gkeys/s at 2^24 (3.04 ms); merge 0.20 of the copy bandwidth.
#include "merge_sort_2_tiled.cuh"

namespace merge_sort {

namespace {

// Logical element i of a circular buffer of TILE slots (TILE a power of two) whose first
// element sits at slot `start`.
template <class T, int TILE>
struct CircularView {
    static_assert((TILE & (TILE - 1)) == 0, "TILE must be a power of two");
    T* slots;
    int start;
    __device__ T& operator[](int i) const { return slots[(start + i) & (TILE - 1)]; }
    __device__ CircularView from(int i) const { return {slots, (start + i) & (TILE - 1)}; }
};

struct CircularBlockMerge {
    static constexpr int kTile = 1024;

    // c[0, na + nb) = merge of a[0, na) and b[0, nb), by the whole block.
    template <class Key, class Value, class Less>
    __device__ static void merge(const Key* a, const Value* av, std::size_t na, const Key* b, const Value* bv,
                                 std::size_t nb, Key* c, Value* cv, Less less) {
        constexpr bool values = kHasValues<Value>;
        __shared__ Key tile_a[kTile], tile_b[kTile];
        __shared__ Value tile_av[values ? kTile : 1], tile_bv[values ? kTile : 1];
        __shared__ int s_a_used;
        using Keys = CircularView<const Key, kTile>;
        using Values = CircularView<const Value, kTile>;
        const std::size_t total = na + nb;
        std::size_t a_loaded = 0, b_loaded = 0;  // elements of A and B copied into the tiles so far
        int a_start = 0, b_start = 0;  // slot of the first unconsumed element
        int a_held = 0, b_held = 0;  // unconsumed elements in each tile
        for (std::size_t c_done = 0; c_done < total;) {
            // Refill only the free slots, behind the held elements.
            const int a_new = static_cast<int>(min_of<std::size_t>(kTile - a_held, na - a_loaded));
            const int b_new = static_cast<int>(min_of<std::size_t>(kTile - b_held, nb - b_loaded));
            for (int i = threadIdx.x; i < a_new; i += blockDim.x) {
                const int slot = (a_start + a_held + i) & (kTile - 1);
                tile_a[slot] = a[a_loaded + i];
                if constexpr (values) tile_av[slot] = av[a_loaded + i];
            }
            for (int i = threadIdx.x; i < b_new; i += blockDim.x) {
                const int slot = (b_start + b_held + i) & (kTile - 1);
                tile_b[slot] = b[b_loaded + i];
                if constexpr (values) tile_bv[slot] = bv[b_loaded + i];
            }
            a_loaded += a_new;
            a_held += a_new;
            b_loaded += b_new;
            b_held += b_new;
            __syncthreads();
            // As in the tiled merge: each tile holds min(kTile, what is left) of its input.
            const Keys ka{tile_a, a_start}, kb{tile_b, b_start};
            const Values va{tile_av, a_start}, vb{tile_bv, b_start};
            const int c_count = static_cast<int>(min_of<std::size_t>(kTile, total - c_done));
            const int per_thread = (c_count + blockDim.x - 1) / blockDim.x;
            const int k0 = min_of(static_cast<int>(threadIdx.x) * per_thread, c_count);
            const int k1 = min_of(k0 + per_thread, c_count);
            const int i0 = co_rank(k0, ka, a_held, kb, b_held, less);
            const int i1 = co_rank(k1, ka, a_held, kb, b_held, less);
            merge_sequential(ka.from(i0), va.from(i0), i1 - i0, kb.from(k0 - i0), vb.from(k0 - i0),
                             (k1 - i1) - (k0 - i0), c + c_done + k0, offset(cv, c_done + k0), less);
            if (threadIdx.x == blockDim.x - 1) s_a_used = i1;
            __syncthreads();
            const int a_used = s_a_used, b_used = c_count - a_used;
            a_start = (a_start + a_used) & (kTile - 1);
            a_held -= a_used;
            b_start = (b_start + b_used) & (kTile - 1);
            b_held -= b_used;
            c_done += c_count;
        }
    }
};

}  // namespace

template <class Key, class Less>
void merge_circular(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*, Less less) {
    merge_by_block_ranges<CircularBlockMerge>(a, na, b, nb, c, less);
}

template <class Key, class Value, class Less>
void sort_circular(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    sort_tiles_then_block_passes<CircularBlockMerge>(args, n, less);
}

#define INSTANTIATE_CIRCULAR(Key, Less)                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_circular, Key, Less) \
    MERGE_SORT_INSTANTIATE_SORT(sort_circular, Key, Less)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_CIRCULAR)
#undef INSTANTIATE_CIRCULAR

}  // namespace merge_sort
