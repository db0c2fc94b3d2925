// The passes of variants 2-5, emulated step by step on the host: the same tiles, the same
// index arithmetic (the helpers of radix_sort_2_tiled.cuh and radix_sort_5_onesweep.cuh), the
// same counting, ranking and look-back, one thread after another. A pass is right when it
// equals a stable counting sort by its digit. These run without a GPU: they check the
// algorithm and its arithmetic; the device tests check the kernels themselves.
#include "../radix_sort_5_onesweep.cuh"
#include "../radix_sort_2_tiled.cuh"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

using radix_sort::digit_of;

namespace {

namespace os = radix_sort::onesweep;

unsigned popcount(unsigned x) { return static_cast<unsigned>(__builtin_popcount(x)); }

// The reference: keys moved by their digit, in input order within a digit.
std::vector<std::uint32_t> counting_sort(const std::vector<std::uint32_t>& in, int shift, int width) {
    std::vector<std::uint32_t> out;
    for (unsigned d = 0; d < (1u << width); ++d)
        for (std::uint32_t k : in)
            if (digit_of(k, shift, width) == d) out.push_back(k);
    return out;
}

std::vector<std::uint32_t> keys_with_digits(std::size_t n, unsigned distinct_digits, std::uint64_t seed) {
    pmpp::Rng rng(seed);
    std::vector<std::uint32_t> keys(n);
    std::vector<std::uint32_t> pool(distinct_digits);
    for (auto& p : pool) p = rng.next_u32();
    for (auto& k : keys)
        k = distinct_digits == 0 ? rng.next_u32() : pool[rng.below(pool.size())] ^ (rng.next_u32() & 0xF0000000u);
    return keys;
}

// ---- Onesweep (onesweep_pass) --------------------------------------------------------------------

// What a tile keeps between its steps.
struct EmulatedTile {
    explicit EmulatedTile(unsigned tile_keys) : sorted(tile_keys) {}
    std::vector<std::uint32_t> sorted;
    std::array<unsigned, os::kDigits> count{}, digit_start{};
    unsigned valid = 0;
};

// `group` tiles run "at once": all of them publish their counts before any looks back, and they
// look back in reverse order, so a look-back walks over aggregates, not only inclusive prefixes.
template <class Cfg>
std::vector<std::uint32_t> emulate_onesweep_pass(const std::vector<std::uint32_t>& in, int shift, int width,
                                                 unsigned group) {
    constexpr unsigned W = Cfg::kWarps, K = Cfg::kItems, kTile = Cfg::kTile, kDigits = os::kDigits;
    const unsigned n = static_cast<unsigned>(in.size());
    const unsigned tiles = (n + kTile - 1) / kTile;
    std::vector<unsigned> digit_starts(kDigits, 0);  // histogram_all_digits + scan_histograms
    for (std::uint32_t k : in) ++digit_starts[digit_of(k, shift, width)];
    for (unsigned d = 0, sum = 0; d < kDigits; ++d) {
        const unsigned c = digit_starts[d];
        digit_starts[d] = sum;
        sum += c;
    }
    std::vector<unsigned> statuses(static_cast<std::size_t>(tiles) * kDigits, 0);
    std::vector<std::uint32_t> out(n, 0xDEADBEEFu);

    for (unsigned g0 = 0; g0 < tiles; g0 += group) {
        const unsigned g1 = std::min(tiles, g0 + group);
        std::vector<EmulatedTile> state(g1 - g0, EmulatedTile(kTile));
        for (unsigned tile = g0; tile < g1; ++tile) {  // steps b-d
            EmulatedTile& t = state[tile - g0];
            const unsigned tile_first = tile * kTile;
            t.valid = std::min(kTile, n - tile_first);
            std::vector<std::array<std::uint32_t, 32>> bits(W * K);
            std::vector<std::array<unsigned, kDigits>> warp_offsets(W);
            for (auto& w : warp_offsets) w.fill(0);
            for (unsigned w = 0; w < W; ++w)
                for (unsigned k = 0; k < K; ++k)
                    for (unsigned lane = 0; lane < 32; ++lane) {
                        const unsigned index = tile_first + os::striped_position<Cfg>(w, k, lane);
                        const std::uint32_t b = index < n ? in[index] : ~0u;
                        bits[w * K + k][lane] = b;
                        ++warp_offsets[w][digit_of(b, shift, width)];
                    }
            for (unsigned d = 0; d < kDigits; ++d) {
                unsigned count = 0;
                for (unsigned w = 0; w < W; ++w) {
                    const unsigned c = warp_offsets[w][d];
                    warp_offsets[w][d] = count;
                    count += c;
                }
                t.count[d] = count;
                statuses[tile * kDigits + d] = (tile == 0 ? os::kStatusPrefix : os::kStatusAggregate) | count;
            }
            for (unsigned d = 0, sum = 0; d < kDigits; ++d) {
                t.digit_start[d] = sum;
                sum += t.count[d];
                for (unsigned w = 0; w < W; ++w) warp_offsets[w][d] += t.digit_start[d];
            }
            for (unsigned w = 0; w < W; ++w)
                for (unsigned k = 0; k < K; ++k) {
                    const auto& b = bits[w * K + k];
                    std::array<unsigned, 32> rank{};
                    for (unsigned lane = 0; lane < 32; ++lane) {  // __match_any_sync, then the leader's atomicAdd
                        const unsigned d = digit_of(b[lane], shift, width);
                        unsigned peers = 0;
                        for (unsigned other = 0; other < 32; ++other)
                            if (digit_of(b[other], shift, width) == d) peers |= 1u << other;
                        rank[lane] = warp_offsets[w][d] + popcount(peers & ((1u << lane) - 1u));
                    }
                    for (unsigned lane = 0; lane < 32; ++lane) ++warp_offsets[w][digit_of(b[lane], shift, width)];
                    for (unsigned lane = 0; lane < 32; ++lane) t.sorted[rank[lane]] = b[lane];
                }
        }
        for (unsigned tile = g1; tile-- > g0;) {  // steps e-f, the group's last tile first
            EmulatedTile& t = state[tile - g0];
            std::array<unsigned, kDigits> run_offset{};
            for (unsigned d = 0; d < kDigits; ++d) {
                unsigned before = 0;
                if (tile > 0) {
                    for (unsigned pred = tile; pred-- > 0;) {
                        const unsigned status = statuses[pred * kDigits + d];
                        EXPECT_NE(status, 0u) << "tile " << tile << " met an empty status at " << pred;
                        before += status & os::kCountMask;
                        if (status & os::kStatusPrefix) break;
                    }
                    statuses[tile * kDigits + d] = os::kStatusPrefix | (before + t.count[d]);
                }
                run_offset[d] = digit_starts[d] + before - t.digit_start[d];
            }
            for (unsigned j = 0; j < t.valid; ++j) {
                const std::uint32_t b = t.sorted[j];
                out[run_offset[digit_of(b, shift, width)] + j] = b;
            }
        }
    }
    return out;
}

using SmallTiles = os::Config<256, 3, 1>;  // tiles of 768 keys: many tiles from few keys

TEST(OnesweepEmulated, EveryPassIsAStableCountingSortByItsDigit) {
    std::uint64_t stream = 0;
    for (std::size_t n :
         {std::size_t{1}, std::size_t{767}, std::size_t{768}, std::size_t{769}, std::size_t{5000}, std::size_t{20011}})
        for (unsigned distinct : {0u, 1u, 2u, 16u})
            for (auto [shift, width] : {std::pair{0, 8}, std::pair{8, 8}, std::pair{4, 5}, std::pair{28, 4}})
                for (unsigned group : {1u, 3u, 8u}) {
                    const auto in = keys_with_digits(n, distinct, pmpp::testing::test_seed(++stream));
                    ASSERT_EQ(emulate_onesweep_pass<SmallTiles>(in, shift, width, group),
                              counting_sort(in, shift, width))
                        << "n=" << n << " distinct=" << distinct << " digit " << shift << "+" << width << " group "
                        << group;
                }
}

TEST(OnesweepEmulated, TheShapeOfTheUint32KeysSortSortsToo) {
    using Keys32 = os::Config<256, 16, 3, os::PeerMatch::Ballots>;  // radix_sort_5_onesweep.cu's, 4-byte keys alone
    const auto in = keys_with_digits(3 * Keys32::kTile + 17, 0, pmpp::testing::test_seed());
    EXPECT_EQ(emulate_onesweep_pass<Keys32>(in, 0, 8, 4), counting_sort(in, 0, 8));
}

TEST(OnesweepEmulated, WarpStripedPositionsCoverTheTileInInputOrder) {
    std::vector<unsigned> seen;
    for (unsigned w = 0; w < SmallTiles::kWarps; ++w)
        for (unsigned k = 0; k < SmallTiles::kItems; ++k)
            for (unsigned lane = 0; lane < 32; ++lane) seen.push_back(os::striped_position<SmallTiles>(w, k, lane));
    for (unsigned i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i);
}

// ---- Variants 2-4 (count_digits, then sort_tile_and_scatter) ---------------------------------------

template <class Cfg>
std::vector<std::uint32_t> emulate_tiled_pass(const std::vector<std::uint32_t>& in, int shift, int width) {
    constexpr unsigned T = Cfg::kThreads, K = Cfg::kItems, kTile = Cfg::kTile, kDigits = Cfg::kDigits;
    const std::size_t n = in.size();
    const unsigned tiles = static_cast<unsigned>((n + kTile - 1) / kTile);
    // count_digits: lane d of each warp counts the keys whose digit bits all equal d's.
    std::vector<unsigned> table(static_cast<std::size_t>(kDigits) * tiles, 0);
    for (unsigned tile = 0; tile < tiles; ++tile)
        for (unsigned w = 0; w < T / 32; ++w)
            for (unsigned i = 0; i < K; ++i) {
                unsigned valid_lanes = 0, ones[Cfg::kDigitBits] = {};
                for (unsigned lane = 0; lane < 32; ++lane) {
                    const std::size_t index = static_cast<std::size_t>(tile) * kTile + i * T + w * 32 + lane;
                    if (index >= n) continue;
                    valid_lanes |= 1u << lane;
                    for (int b = 0; b < Cfg::kDigitBits; ++b)
                        if ((digit_of(in[index], shift, width) >> b) & 1u) ones[b] |= 1u << lane;
                }
                for (unsigned d = 0; d < kDigits; ++d) {
                    unsigned match = valid_lanes;
                    for (int b = 0; b < Cfg::kDigitBits; ++b) match &= ((d >> b) & 1u) ? ones[b] : ~ones[b];
                    table[static_cast<std::size_t>(d) * tiles + tile] += popcount(match);
                }
            }
    for (std::size_t e = 0, sum = 0; e < table.size(); ++e) {  // 02's exclusive scan
        const unsigned c = table[e];
        table[e] = static_cast<unsigned>(sum);
        sum += c;
    }
    std::vector<std::uint32_t> out(n, 0xDEADBEEFu);
    for (unsigned tile = 0; tile < tiles; ++tile) {
        const std::size_t first = static_cast<std::size_t>(tile) * kTile;
        const unsigned valid = static_cast<unsigned>(std::min<std::size_t>(kTile, n - first));
        std::vector<std::uint32_t> s(kTile);
        for (unsigned j = 0; j < kTile; ++j) s[j] = j < valid ? in[first + j] : ~0u;
        for (int b = 0; b < width; ++b) {  // one split per bit: block scan of the threads' ones
            std::vector<std::uint32_t> next(kTile);
            unsigned ones_in_tile = 0;
            for (std::uint32_t k : s) ones_in_tile += (k >> (shift + b)) & 1u;
            unsigned ones_before = 0;  // running over threads, then over each thread's K keys
            for (unsigned t = 0; t < T; ++t)
                for (unsigned i = 0; i < K; ++i) {
                    const unsigned j = t * K + i;
                    const unsigned one = (s[j] >> (shift + b)) & 1u;
                    next[one ? kTile - ones_in_tile + ones_before : j - ones_before] = s[j];
                    ones_before += one;
                }
            s = next;
        }
        std::array<unsigned, kDigits> digit_start{};
        for (unsigned j = 0; j < kTile; ++j) {
            const unsigned d = digit_of(s[j], shift, width);
            if (j == 0 || digit_of(s[j - 1], shift, width) != d) digit_start[d] = j;
        }
        for (unsigned j = 0; j < valid; ++j) {
            const unsigned d = digit_of(s[j], shift, width);
            out[table[static_cast<std::size_t>(d) * tiles + tile] + (j - digit_start[d])] = s[j];
        }
    }
    return out;
}

template <class Cfg>
void expect_tiled_passes_sort() {
    std::uint64_t stream = 0;
    for (std::size_t n :
         {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{257}, std::size_t{2049}, std::size_t{9001}})
        for (unsigned distinct : {0u, 1u, 2u, 16u})
            for (int shift : {0, 5, 28}) {
                const int width = std::min(Cfg::kDigitBits, 32 - shift);
                const auto in = keys_with_digits(n, distinct, pmpp::testing::test_seed(++stream));
                ASSERT_EQ(emulate_tiled_pass<Cfg>(in, shift, width), counting_sort(in, shift, width))
                    << "n=" << n << " distinct=" << distinct << " shift " << shift;
            }
    // A short last digit: fewer bits than the configuration's.
    const auto in = keys_with_digits(3000, 0, pmpp::testing::test_seed(++stream));
    ASSERT_EQ(emulate_tiled_pass<Cfg>(in, 31, 1), counting_sort(in, 31, 1));
}

}  // namespace

TEST(TiledPassEmulated, CoalescedMultibitAndCoarsenedShapesSortByTheDigit) {
    expect_tiled_passes_sort<radix_sort::tiled::Config<1, 256, 1>>();
    expect_tiled_passes_sort<radix_sort::tiled::Config<4, 256, 1>>();
    expect_tiled_passes_sort<radix_sort::tiled::Config<4, 256, 8>>();
}

TEST(TiledPassEmulated, PaddingPutsABlockedThreadsKeysInDifferentBanks) {
    for (unsigned items : {1u, 4u, 8u}) {
        std::array<int, 32> uses{};
        for (unsigned lane = 0; lane < 32; ++lane) ++uses[radix_sort::tiled::padded(lane * items) % 32];
        EXPECT_EQ(*std::max_element(uses.begin(), uses.end()), 1) << items << " keys per thread";
    }
}
