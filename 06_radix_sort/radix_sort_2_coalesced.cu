// radix_sort_2_coalesced.cu: PMPP chapter 13, exercise 1: the one-bit sort of Fig. 13.4 with
// shared memory, so the scatter's writes coalesce.
//
// Idea over radix_sort_1_one_bit: in Fig. 13.4 neighbouring threads write to two unrelated
// places (the zeros' half and the ones' half), each key alone. Here each tile of 256 keys first
// sorts itself by the bit in shared memory (a split: one block scan), then writes its zeros as
// one contiguous run and its ones as another: a warp's 32 writes fall in one or two runs
// instead of 32 scattered places. The device-wide scan shrinks too: it runs over two counts per
// tile (zeros, ones), not one flag per key. Per pass: count (read 4 bytes per key), scan of the
// counts, split and scatter (read 4, write 4): 12 bytes per key instead of about 24.
// Still one bit per pass: 32 passes for 32-bit keys. The machinery is radix_sort_2_tiled.cuh,
// shared with variants 3 and 4, which change only its parameters.
// Measured (H200, 2026-11-30): 2^28 u32 keys in 73.7 ms (3.64 Gkeys/s), barely faster than
// variant 1: the block-local sort now costs what the coalesced stores saved (NOTES.md).
#include "radix_sort_2_tiled.cuh"

namespace radix_sort {

namespace {
using Coalesced = tiled::Config</*digit bits*/ 1, /*threads*/ 256, /*keys per thread*/ 1>;
}

template <class Key>
std::size_t radix_sort_coalesced_workspace_bytes(std::size_t n, bool pairs) {
    return tiled::workspace_bytes<Key, Coalesced>(n, pairs);
}

template <class Key>
void radix_sort_coalesced(const SortArgs<Key>& args) {
    tiled::sort<Key, Coalesced>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_coalesced)

}  // namespace radix_sort
