// Exercise 07, variant 5 without a GPU: its tile sort (05's bitonic network, sort_tile_alone in
// merge_sort_5_network.cuh) runs on the host through 05's block-level code, one thread after
// another between barriers, with shared memory poisoned after every change of window; then the
// whole sort, the network's tiles and variant 4's merge passes on the host executor of
// tests/fast_host_executor.h. The device tests (test_merge_sort.cu) run the same code on the GPU.
#include "../merge_sort_5_network.cuh"
#include "../harness/merge_sort_harness.h"
#include "fast_host_executor.h"

#include "05_bitonic/tests/host_block.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

using namespace merge_sort;
using pmpp::Distribution;
using u32 = std::uint32_t;

namespace {

// 05's executor of its block-level code on the host (05_bitonic/tests/host_block.h): every thread
// in turn, shared memory poisoned when a change of window is over.
template <class Shape>
using HostTileBlock = bitonic_tests::HostBlock<Shape, false>;

// What network_sort_tiles_kernel does, block by block: keys_out = keys_in[0, n) sorted in tiles
// of Shape::kTile, each on its own.
template <class Shape, class Key>
void network_tiles_on_host(const Key* keys_in, Key* keys_out, std::size_t n) {
    for (std::size_t base = 0; base < n; base += Shape::kTile) {
        HostTileBlock<Shape> block;
        block.tile = 7;  // sort_tile_alone sets it: a tile is tile 0 of its own array
        network::sort_tile_alone<Shape>(block, keys_in, keys_out, n, base);
    }
}

template <class Key>
std::vector<u32> bits_of(const std::vector<Key>& keys) {
    std::vector<u32> bits(keys.size());
    if (!keys.empty()) std::memcpy(bits.data(), keys.data(), keys.size() * 4);
    return bits;
}

template <class Key>
Key key_of_bits(u32 bits) {
    Key key;
    std::memcpy(&key, &bits, 4);
    return key;
}

// The smallest key of the total order (-inf for floats): a trap placed after the tile in
// keys_in, which a load past count would bring into the output's first place.
template <class Key>
Key smallest_key() {
    if constexpr (std::is_same_v<Key, float>)
        return pmpp::from_ordered_bits(0u);
    else if constexpr (std::is_same_v<Key, std::int32_t>)
        return std::numeric_limits<std::int32_t>::min();
    else
        return 0u;
}

template <class Key>
const char* type_name() {
    return std::is_same_v<Key, float> ? "f32" : std::is_same_v<Key, std::int32_t> ? "i32" : "u32";
}

// One tile of `count` keys (the first `count` of `keys`) sorted by the network on the host, and
// compared with std::sort by the total order: the same bit patterns in the same places (NaNs
// and signed zeros included); keys_in unchanged, nothing read past count (a trap of the smallest
// key lies there) and nothing written past count (keys_out poisoned).
template <class Shape, class Key>
void expect_tile_sorted(const std::vector<Key>& keys, std::size_t count, const std::string& what) {
    ASSERT_LE(count, keys.size());
    ASSERT_LE(count, static_cast<std::size_t>(Shape::kTile));
    std::vector<Key> in(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(count));
    in.resize(Shape::kTile + 64, smallest_key<Key>());  // the trap
    const std::vector<Key> in_before = in;
    constexpr u32 kPoison = 0xA5A5A5A5u;
    std::vector<Key> out(Shape::kTile + 64, key_of_bits<Key>(kPoison));
    network_tiles_on_host<Shape>(in.data(), out.data(), count);

    std::vector<Key> want(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(count));
    std::sort(want.begin(), want.end(), pmpp::TotalOrderLess{});
    const std::vector<u32> got_bits = bits_of(out), want_bits = bits_of(want);
    for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(got_bits[i], want_bits[i])
            << what << ", tile " << Shape::kTile << ", count " << count << ": first wrong key at " << i << " (bits)";
    for (std::size_t i = count; i < out.size(); ++i)
        ASSERT_EQ(got_bits[i], kPoison) << what << ", tile " << Shape::kTile << ", count " << count
                                        << ": wrote keys_out[" << i << "], past the tile's " << count << " keys";
    EXPECT_EQ(bits_of(in), bits_of(in_before)) << what << ": the tile sort modified keys_in";
}

// Every distribution the harness draws (u32, i32, float: the floats with NaNs of both signs,
// -0.0 and +0.0, infinities, denormals), at `count` keys.
template <class Shape, class Key>
void expect_every_distribution_sorted(std::size_t count) {
    for (Distribution d : pmpp::all_distributions()) {
        const auto in = sort_inputs<Key, NoValues>(count, d, pmpp::testing::test_seed(count * 8 + static_cast<int>(d)));
        expect_tile_sorted<Shape>(in.keys, count, std::string(type_name<Key>()) + " " + pmpp::to_string(d));
    }
}

template <class Shape>
void expect_every_key_type_and_distribution_sorted(std::size_t count) {
    expect_every_distribution_sorted<Shape, std::uint32_t>(count);
    expect_every_distribution_sorted<Shape, std::int32_t>(count);
    expect_every_distribution_sorted<Shape, float>(count);
    // Floats of random bit patterns: about one in 256 a NaN, of either sign and any payload.
    pmpp::Rng rng(pmpp::testing::test_seed(count));
    std::vector<float> keys(count);
    for (float& key : keys) key = key_of_bits<float>(rng.next_u32());
    expect_tile_sorted<Shape>(keys, count, "f32 random bit patterns");
}

using SmallShape = bitonic::fused::TileShape<5, 5>;  // 32 threads x 32 = 1024: cheap on the host
using ShippedSmall = network::SmallTile;  // 256 x 32 = 8192, what variant 5 runs where 16384 does not fit
using Merge = network::MergeConfig;  // variant 4's merge passes

// Variant 5's whole sort on the host: the network's tiles of Shape, then the merge passes.
template <class Shape, int Lanes, class Key>
void expect_network_sort_correct(std::size_t n, Distribution dist) {
    const pmpp::CheckResult r = fast::judge_host_sort<Key, NoValues>(
        n, dist, pmpp::testing::test_seed(n * 8 + static_cast<int>(dist)), [](const auto& args, std::size_t count) {
            fast::sort_runs_with<Merge, fast::HostExecutor<Lanes>, fast::PairTiledRuns>(
                args, count, KeyLess{}, Shape::kTile, [count](const Key* in, const NoValues*, Key* out, NoValues*) {
                    network_tiles_on_host<Shape>(in, out, count);
                });
        });
    EXPECT_TRUE(r.ok) << "network tiles of " << Shape::kTile << ", lanes " << Lanes << ", n=" << n << " "
                      << pmpp::to_string(dist) << ": " << r.report();
}

}  // namespace

// ---- one tile --------------------------------------------------------------------------------

TEST(NetworkTile, SortsOneTileAscendingAsStdSortByTheTotalOrderForEveryCount) {
    for (std::size_t count : {1, 2, 3, 31, 32, 33, 1000, 1023, 1024})
        expect_every_key_type_and_distribution_sorted<SmallShape>(count);
    for (std::size_t count : {1, 2, 3, 1023, 1024, 4097, 8191, 8192})
        expect_every_key_type_and_distribution_sorted<ShippedSmall>(count);
}

TEST(NetworkTile, SortsTilesOfRandomLengths) {
    pmpp::Rng rng(pmpp::testing::test_seed());
    for (int trial = 0; trial < 12; ++trial) {
        expect_every_key_type_and_distribution_sorted<SmallShape>(1 + rng.below(SmallShape::kTile));
        if (trial % 4 == 0) expect_every_key_type_and_distribution_sorted<ShippedSmall>(1 + rng.below(8192));
    }
}

TEST(NetworkTile, PutsNegativeZeroBeforePositiveZeroAndEveryNaNLast) {
    const std::vector<u32> bits = {
        0x7FC00000u,  // +NaN
        0x00000000u,  // +0
        0xFFC00000u,  // -NaN
        0x80000000u,  // -0
        0x7F800000u,  // +inf
        0xFF800000u,  // -inf
        0x00000001u,  // the smallest positive denormal
        0x80000001u,  // the largest negative denormal
        0x7F800001u,  // +NaN, smallest payload
        0xFFFFFFFFu,  // -NaN, largest payload
        0x3F800000u,  // 1
        0xBF800000u,  // -1
        0x00000000u,  // +0 again
        0x80000000u,  // -0 again
    };
    std::vector<float> keys;
    for (u32 b : bits) keys.push_back(key_of_bits<float>(b));
    expect_tile_sorted<SmallShape>(keys, keys.size(), "f32 special values");
    std::vector<float> out(SmallShape::kTile);
    network_tiles_on_host<SmallShape>(keys.data(), out.data(), keys.size());
    const std::vector<u32> got = bits_of(std::vector<float>(out.begin(), out.begin() + 14));
    EXPECT_EQ(got[0], 0xFF800000u) << "-inf first";
    EXPECT_EQ(got[3], 0x80000000u) << "-0 before +0";
    EXPECT_EQ(got[4], 0x80000000u);
    EXPECT_EQ(got[5], 0x00000000u);
    for (int i = 10; i < 14; ++i) EXPECT_TRUE(std::isnan(out[i])) << "every NaN last: position " << i;
}

TEST(NetworkTile, SortsEachTileOfAnArrayOnItsOwn) {
    pmpp::Rng rng(pmpp::testing::test_seed());
    for (std::size_t n : {std::size_t{1025}, std::size_t{3 * 1024}, 4096 + 1 + rng.below(4000)}) {
        const auto in = sort_inputs<std::uint32_t, NoValues>(n, Distribution::Uniform, pmpp::testing::test_seed(n));
        std::vector<std::uint32_t> out(n + 64, 0xA5A5A5A5u);
        network_tiles_on_host<SmallShape>(in.keys.data(), out.data(), n);
        for (std::size_t base = 0; base < n; base += SmallShape::kTile) {
            const std::size_t end = std::min(n, base + SmallShape::kTile);
            std::vector<std::uint32_t> want(in.keys.begin() + static_cast<std::ptrdiff_t>(base),
                                            in.keys.begin() + static_cast<std::ptrdiff_t>(end));
            std::sort(want.begin(), want.end());
            EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + static_cast<std::ptrdiff_t>(base)))
                << "n=" << n << ": the tile at " << base << " is its own keys sorted";
        }
        for (std::size_t i = n; i < out.size(); ++i) ASSERT_EQ(out[i], 0xA5A5A5A5u) << "wrote past n at " << i;
    }
}

// ---- the whole sort: network tiles, then variant 4's merge passes ----------------------------

TEST(NetworkSortEmulated, SortsPlainKeysFromTilesOfTheSmallShapeOnEveryEdge) {
    // Runs of 1024: a pair (2048) is less than one merge tile (4352); several pairs, and passes
    // whose pairs are whole runs of tiles and one partial tile.
    for (std::size_t n : {0, 1, 2, 1023, 1024, 1025, 2048, 2049, 4353, 9000, 20011})
        for (Distribution d : pmpp::all_distributions()) {
            expect_network_sort_correct<SmallShape, 32, std::uint32_t>(n, d);
            expect_network_sort_correct<SmallShape, 4, float>(n, d);
        }
    expect_network_sort_correct<SmallShape, 1, std::int32_t>(20011, Distribution::Uniform);
}

TEST(NetworkSortEmulated, SortsPlainKeysFromTilesOf8192AcrossTheirEdges) {
    for (std::size_t n : {8191, 8192, 8193, 16384, 16385, 3 * 8192 + 17})
        for (Distribution d : {Distribution::Uniform, Distribution::FewDistinct, Distribution::Reversed}) {
            expect_network_sort_correct<ShippedSmall, 16, std::uint32_t>(n, d);
            expect_network_sort_correct<ShippedSmall, 1, float>(n, d);
        }
}

TEST(NetworkSortEmulated, ChoosesTheNetworkOnlyForFourByteKeysWithoutValuesInTheTotalOrder) {
    EXPECT_TRUE((network::kSortsWithNetwork<std::uint32_t, NoValues, KeyLess>));
    EXPECT_TRUE((network::kSortsWithNetwork<std::int32_t, NoValues, KeyLess>));
    EXPECT_TRUE((network::kSortsWithNetwork<float, NoValues, KeyLess>));
    EXPECT_FALSE((network::kSortsWithNetwork<std::uint32_t, PairValue, KeyLess>)) << "values: the stable sort";
    EXPECT_FALSE((network::kSortsWithNetwork<float, PairValue, KeyLess>));
    EXPECT_FALSE((network::kSortsWithNetwork<std::uint64_t, NoValues, KeyLess>)) << "8-byte keys";
    EXPECT_FALSE((network::kSortsWithNetwork<Event, NoValues, EarlierEvent>)) << "events equal in time differ";
    EXPECT_EQ(network::tile_shared_bytes<network::SmallTile>(), 33792u);
    EXPECT_EQ(network::tile_shared_bytes<network::LargeTile>(), 67584u);
}
