// radix_sort_5_onesweep.cu: Onesweep (Adinets and Merrill, 2022), the design of CUB's radix
// sort since 2022: 8-bit digits, one histogram of every digit up front, then one kernel per
// digit that ranks each tile, finds its offsets by decoupled look-back and scatters.
//
// Idea over radix_sort_4_coarsened: variant 4 still reads the keys twice per pass (count, then
// sort and scatter) with a device-wide scan in between, because a tile cannot know where its
// keys go before every tile has counted. Two ideas remove that:
//  - the counts of every digit of the whole array (where each digit's keys start) do not
//    depend on the order of the keys: one read of the keys, before the first pass, computes
//    all of them;
//  - what a tile still needs is the count of its digit in the tiles before it: the single-pass
//    scan's decoupled look-back (02_scan) gives it, one chain per digit, while the tile runs.
// Each pass is then one kernel that reads the keys once and writes them once: 8 bytes per key
// per pass (variant 4: 12), with 8-bit digits: 4 passes for 32-bit keys (variant 4: 8). The
// tile is ranked in registers and shared memory (radix_sort_5_onesweep.cuh explains how),
// written coalesced like variants 2-4, and the look-back waits as 02's scan learnt to.
// Tiles: the shapes below, from the tuning sweep (tune/sweep_onesweep.cu).
// Measured (H200, 2026-11-30): 2^28 u32 keys in 7.07 ms (38.0 Gkeys/s, 0.89x CUB's speed), pairs
// in 8.77 ms (0.85x); each 8-bit pass 1.64 ms. With the values beside the keys in shared memory
// (2026-12-04): pairs in 8.27 ms (0.89x), each pass 1.94 ms (2.06 before). Ranking with __match_any_sync instead of eight
// ballots made it 11.37 ms: that one instruction was most of each pass (NOTES.md).
#include "radix_sort_5_onesweep.cuh"

namespace radix_sort {

// The shapes (radix_sort_5_onesweep.cuh's ShippedShape) are the tuning sweep's
// (tune/sweep_onesweep.cu); all rank with 8 ballots written in C++.
constexpr auto kMatch = onesweep::PeerMatch::Ballots;

std::size_t onesweep_tile_keys(std::size_t key_bytes, bool pairs) {
    return onesweep::shipped_tile_keys(key_bytes, pairs);
}

template <class Key>
std::size_t radix_sort_onesweep_workspace_bytes(std::size_t n, bool pairs) {
    return onesweep::shipped_workspace_bytes<Key, kMatch>(n, pairs);
}

template <class Key>
void radix_sort_onesweep(const SortArgs<Key>& args) {
    onesweep::shipped_sort<Key, kMatch>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_onesweep)

}  // namespace radix_sort
