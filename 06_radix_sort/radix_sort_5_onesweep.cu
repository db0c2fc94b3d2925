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
// in 8.77 ms (0.85x); each 8-bit pass 1.64 ms. Ranking with __match_any_sync instead of eight
// ballots made it 11.37 ms: that one instruction was most of each pass (NOTES.md).
#include "radix_sort_5_onesweep.cuh"

namespace radix_sort {

namespace {

// The shipped shapes, by key size and whether values travel along, from the sweep
// (tune/sweep_onesweep.cu, NOTES.md). Registers bound the keys per thread: each thread keeps its
// keys and their ranks in registers through the pass; every shape below compiles without spills
// within its blocks-per-SM budget (at most 85 registers for 2 blocks of 384 or 3 of 256).
// All rank with 8 ballots: __match_any_sync made every pass 1.5-1.6x slower on an H200.
using onesweep::Config;
constexpr auto kBallots = onesweep::PeerMatch::Ballots;
template <std::size_t KEY_BYTES, bool PAIRS>
struct Shipped;
template <>
struct Shipped<4, false> {
    using type = Config<256, 16, 3, kBallots>;
};
template <>
struct Shipped<4, true> {
    using type = Config<384, 20, 2, kBallots>;
};
template <>
struct Shipped<8, false> {
    using type = Config<384, 16, 2, kBallots>;
};
template <>
struct Shipped<8, true> {
    using type = Config<384, 12, 2, kBallots>;
};
template <class Key, bool PAIRS>
using ShippedConfig = typename Shipped<sizeof(Key), PAIRS>::type;
// Every shipped shape fits the smallest supported GPU's shared memory per block, so none needs a
// fallback (on a T4 the 8-byte shapes run one block per SM instead of two).
template <std::size_t KEY_BYTES, bool PAIRS>
constexpr bool fits_every_gpu =
    sizeof(onesweep::PassStorage<std::conditional_t<KEY_BYTES == 4, std::uint32_t, std::uint64_t>,
                                 typename Shipped<KEY_BYTES, PAIRS>::type>) <= pmpp::kSmallestSharedPerBlock;
static_assert(fits_every_gpu<4, false> && fits_every_gpu<4, true> && fits_every_gpu<8, false> &&
                  fits_every_gpu<8, true>,
              "a shipped onesweep shape needs more shared memory than an sm_75 GPU has per block");

}  // namespace

std::size_t onesweep_tile_keys(std::size_t key_bytes, bool pairs) {
    if (key_bytes == 4) return pairs ? Shipped<4, true>::type::kTile : Shipped<4, false>::type::kTile;
    return pairs ? Shipped<8, true>::type::kTile : Shipped<8, false>::type::kTile;
}

template <class Key>
std::size_t radix_sort_onesweep_workspace_bytes(std::size_t n, bool pairs) {
    return pairs ? onesweep::workspace_bytes<Key, ShippedConfig<Key, true>>(n, true)
                 : onesweep::workspace_bytes<Key, ShippedConfig<Key, false>>(n, false);
}

template <class Key>
void radix_sort_onesweep(const SortArgs<Key>& args) {
    if (args.pairs())
        onesweep::sort<Key, true, ShippedConfig<Key, true>>(args);
    else
        onesweep::sort<Key, false, ShippedConfig<Key, false>>(args);
}

RADIX_SORT_INSTANTIATE(radix_sort_onesweep)

}  // namespace radix_sort
