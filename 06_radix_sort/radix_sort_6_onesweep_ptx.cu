// radix_sort_6_onesweep_ptx.cu: variant 5 with the ranking's eight ballots written in PTX, as
// CUB writes them. Same algorithm, same tiles, same bytes; fewer instructions where the pass spends
// most of them.
//
// Idea over radix_sort_5_onesweep: ranking a key needs the lanes of its warp whose key has the
// same digit. Variant 5 builds that mask in C++ from eight ballots, one per bit of the digit:
//     ones = __ballot_sync(full, bit);  peers &= bit ? ones : ~ones;
// nvcc tests the bit twice there (for the vote, then to choose ones or ~ones) and spends about
// 6 instructions a bit: 61 of the pass's instructions per key go to ranking. CUB's radix sort
// writes each bit as five PTX instructions that test it once (and, setp, vote, a not predicated
// on the bit, and; radix_sort_5_onesweep.cuh, and_lanes_agreeing_on_bit): 40 per key, and the
// pass's static count falls from 1870 to 1520 instructions per warp. Nothing else changes.
// Why it matters: with its keys in registers and its tile in shared memory, a pass keeps
// 3 blocks of 256 threads on an SM; at that occupancy the instructions between a tile's loads
// and its stores, not the memory, set the pace (NOTES.md, "Instruction count"). Variant 5's
// other instruction cuts (a compile-time digit shift, 32-bit offsets, a predicated leader) each
// saved instructions and no time: see NOTES.md; this is the one that paid.
// PMPP chapter 13 stops at variant 4; this follows CUB (the peer mask of its MatchAny).
// Measured (H200, 2026-12-03, tune/sweep_instructions.cu, the pass copied with this change alone,
// u32 keys): t / CUB 0.85 at 2^20+13, 0.96 at 2^24, 0.995 at 2^28 (variant 5's copy: 0.89, 1.16,
// 1.22).
#include "radix_sort_5_onesweep.cuh"

namespace radix_sort {

constexpr auto kMatch = onesweep::PeerMatch::BallotsInPtx;

template <class Key>
std::size_t radix_sort_onesweep_ptx_workspace_bytes(std::size_t n, bool pairs) {
    return onesweep::shipped_workspace_bytes<Key, kMatch>(n, pairs);
}

template <class Key>
void radix_sort_onesweep_ptx(const SortArgs<Key>& args) {
    onesweep::shipped_sort<Key, kMatch>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_onesweep_ptx)

}  // namespace radix_sort
