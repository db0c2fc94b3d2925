// radix_sort_3_multibit.cu: PMPP chapter 13, exercise 2: a multibit radix, 4 bits per pass.
//
// Idea over radix_sort_2_coalesced: a pass costs the same memory traffic whether it sorts one
// bit or four, so sort four: 16 buckets, 8 passes for 32-bit keys instead of 32, a quarter of
// the bytes. The price is inside the tile: the block-local sort takes 4 splits (one per bit,
// least significant first, so the tile ends up sorted by the whole digit), and the table of
// tile counts grows to 16 entries per tile (PMPP 13.4's trade-off: more buckets, fewer passes,
// a bigger scan and shorter runs to write; at 16 buckets and 256 keys per tile a run averages
// 16 keys, half a warp's worth).
// Measured (H200, 2026-11-30): 2^28 u32 keys in 33.2 ms (8.07 Gkeys/s): a quarter of the passes,
// less than half the time, the tile sort now the largest stage (NOTES.md).
#include "radix_sort_2_tiled.cuh"

namespace radix_sort {

namespace {
using Multibit = tiled::Config</*digit bits*/ 4, /*threads*/ 256, /*keys per thread*/ 1>;
}

template <class Key>
std::size_t radix_sort_multibit_workspace_bytes(std::size_t n, bool pairs) {
    return tiled::workspace_bytes<Key, Multibit>(n, pairs);
}

template <class Key>
void radix_sort_multibit(const SortArgs<Key>& args) {
    tiled::sort<Key, Multibit>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_multibit)

}  // namespace radix_sort
