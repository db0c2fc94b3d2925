// radix_sort_4_coarsened.cu: PMPP chapter 13, exercise 3: thread coarsening, 8 keys per thread.
//
// Idea over radix_sort_3_multibit: a tile of 256 keys pays for 4 block scans (each two
// barriers), the loads and stores of the tile, and 16 table entries, all for 256 keys. With 8
// keys per thread the same block sorts a tile of 2048: the barriers and scans are paid once
// per 2048 keys, each thread counts its 8 keys serially before the block scan (PMPP 13.5), the
// table shrinks 8-fold (16 entries per 2048 keys), and each digit's run averages 128 keys, so
// the writes coalesce into whole sectors. The keys of a thread are consecutive in the tile
// (blocked order, for a stable split); shared memory is padded one word every 32 so those
// accesses do not fall into the same banks.
// Measured (H200, 2026-11-30): 2^28 u32 keys in 15.9 ms (16.8 Gkeys/s), 2.1x variant 3 (NOTES.md).
#include "radix_sort_2_tiled.cuh"

namespace radix_sort {

namespace {
using Coarsened = tiled::Config</*digit bits*/ 4, /*threads*/ 256, /*keys per thread*/ 8>;
}

template <class Key>
std::size_t radix_sort_coarsened_workspace_bytes(std::size_t n, bool pairs) {
    return tiled::workspace_bytes<Key, Coarsened>(n, pairs);
}

template <class Key>
void radix_sort_coarsened(const SortArgs<Key>& args) {
    tiled::sort<Key, Coarsened>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_coarsened)

}  // namespace radix_sort
