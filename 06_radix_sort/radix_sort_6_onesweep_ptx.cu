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
// Why these instructions and not others: the ranking is a chain of dependent warp votes between
// two barriers, and with 3 blocks of 256 threads an SM (keys in registers, tile in shared memory)
// little else is in flight to hide it. The sweep's other cuts (a compile-time digit shift, 32-bit
// offsets, a predicated leader: tune/sweep_instructions.cu) removed about as many instructions
// from the address arithmetic around the loads and stores, and saved no time (NOTES.md,
// "Instruction count: measured").
// PMPP chapter 13 stops at variant 4; this follows CUB (the peer mask of its MatchAny).
// Measured (H200, 2026-12-03, the harness's benchmark beside variant 5 and CUB): 2^28 u32 keys in
// 6.26 ms (42.9 Gkeys/s, t / cub 0.99; variant 5 7.07), each pass 1.43 ms (variant 5 1.64); keys
// at 2^20 and 2^24 0.88 and 0.96; u64 keys 0.92. Pairs, with their values beside the keys in shared
// memory (2026-12-04; the .cuh, step e): 0.87, 1.00, 1.00 at 2^20, 2^24, 2^28 (0.90, 1.01, 1.05
// with the values after the keys), each pass 1.73 ms; u64 keys with values 1.05 at 2^28.
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
