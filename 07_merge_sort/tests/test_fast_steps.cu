// Exercise 07: the fast variant's kernels emulated on the host (no GPU). The drivers of
// merge_sort_4_fast.cuh run unchanged with an executor that plays each block's threads one after
// another between the kernels' barriers, calling the same TileSteps the kernels call. So the
// kernels' index arithmetic, the k-ary partition search and the pass logic are all tested here,
// for several tile shapes, before any GPU runs them.
#include "../merge_sort_4_fast.cuh"
#include "../harness/merge_sort_harness.h"
#include "fast_host_executor.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::fast;
using pmpp::Distribution;

namespace {

// The fast sort's driver on the host executor, judged like the harness judges a GPU run.
template <class Cfg, int Lanes, class Key, class Value>
void expect_emulated_sort_correct(std::size_t n, Distribution dist, std::uint64_t seed) {
    const pmpp::CheckResult r = judge_host_sort<Key, Value>(n, dist, seed, [](const auto& args, std::size_t count) {
        sort_with<Cfg, HostExecutor<Lanes>>(args, count, LessOf<Key>{});
    });
    EXPECT_TRUE(r.ok) << "tile " << Cfg::kSortTile << "/" << Cfg::kMergeTile << ", lanes " << Lanes << ", n=" << n
                      << " " << pmpp::to_string(dist) << ": " << r.report();
}

// sort_runs_with from first runs of `width` that the host sorts (stably, std::stable_sort of each
// run with its values), then Cfg's merge passes on the host executor in the layout Runs.
template <class Cfg, int Lanes, template <class, class> class Runs, class Key, class Value>
void expect_passes_from_runs_correct(std::size_t width, std::size_t n, Distribution dist, std::uint64_t seed) {
    const auto sort_runs_on_host = [width](std::size_t count) {
        return [width, count](const Key* in, const Value* in_values, Key* out, Value* out_values) {
            for (std::size_t base = 0; base < count; base += width) {
                const std::size_t end = std::min(count, base + width);
                std::vector<std::size_t> order(end - base);
                for (std::size_t i = 0; i < order.size(); ++i) order[i] = base + i;
                std::stable_sort(order.begin(), order.end(),
                                 [&](std::size_t x, std::size_t y) { return LessOf<Key>{}(in[x], in[y]); });
                for (std::size_t i = 0; i < order.size(); ++i) {
                    out[base + i] = in[order[i]];
                    if constexpr (kHasValues<Value>) out_values[base + i] = in_values[order[i]];
                }
            }
        };
    };
    const pmpp::CheckResult r = judge_host_sort<Key, Value>(n, dist, seed, [&](const auto& args, std::size_t count) {
        sort_runs_with<Cfg, HostExecutor<Lanes>, Runs>(args, count, LessOf<Key>{}, width, sort_runs_on_host(count));
    });
    EXPECT_TRUE(r.ok) << "runs of " << width << ", merge tile " << Cfg::kMergeTile << ", lanes " << Lanes << ", n=" << n
                      << " " << pmpp::to_string(dist) << ": " << r.report();
}

template <class Cfg, int Lanes, class Key>
void expect_emulated_merge_correct(std::size_t n, Distribution dist, MergeShape shape, std::uint64_t seed) {
    const MergeInputs<Key> in = merge_inputs<Key>(n, dist, shape, seed);
    std::vector<Key> out(n);
    std::vector<std::size_t> splits(split_capacity(n));
    merge_with<Cfg, HostExecutor<Lanes>>(in.a.data(), in.a.size(), in.b.data(), in.b.size(), out.data(), splits.data(),
                                         LessOf<Key>{});
    const pmpp::CheckResult r = judge_merge(in, expected_merge(in), out);
    EXPECT_TRUE(r.ok) << "tile " << Cfg::kMergeTile << ", lanes " << Lanes << ", n=" << n << " " << to_string(shape)
                      << ": " << r.report();
}

using Tiny = Config<32, 32, 3>;  // tiles of 96: many passes at small n
using Uneven = Config<64, 32, 5>;  // merge tile (320) twice the sort tile (160)
using Wide = Config<32, 64, 7>;  // merge tile half the sort tile
using Shipped = Config<256, 1024, 17, 5, 2>;  // merge_sort_4_fast.cu's shape for 4-byte keys

}  // namespace

TEST(FastSearch, KaryCoRankEqualsBinaryCoRankForEveryGroupSize) {
    const auto in =
        merge_inputs<std::uint32_t>(3001, Distribution::FewDistinct, MergeShape::AThird, pmpp::testing::test_seed());
    const auto runs = two_arrays(in.a.data(), in.a.size(), in.b.data(), in.b.size());
    const auto pair = runs.pair_containing(0);
    for (int lanes : {1, 2, 3, 4, 8, 16, 32})
        for (std::size_t k = 0; k <= runs.size(); ++k) {
            SearchRange r = co_rank_range(pair, k);
            int steps = 0;
            while (r.lo < r.hi) {
                int before = 0;
                for (int lane = 0; lane < lanes; ++lane)
                    before += probe_is_before(pair, k, kary_probe(r, lane, lanes), KeyLess{});
                r = kary_narrow(r, lanes, before);
                ASSERT_LT(++steps, 64) << "no progress";
            }
            ASSERT_EQ(r.lo, co_rank(k, in.a.data(), in.a.size(), in.b.data(), in.b.size(), KeyLess{}))
                << "lanes " << lanes << " k=" << k;
        }
}

TEST(FastSortEmulated, SortsEveryEdgeSizeWithSmallTiles) {
    for (std::size_t n : {0, 1, 2, 3, 95, 96, 97, 191, 192, 193, 1000, 3073, 20011}) {
        const std::uint64_t seed = pmpp::testing::test_seed(n);
        expect_emulated_sort_correct<Tiny, 32, std::uint32_t, NoValues>(n, Distribution::Uniform, seed);
        expect_emulated_sort_correct<Tiny, 4, std::uint32_t, PairValue>(n, Distribution::FewDistinct, seed);
        expect_emulated_sort_correct<Uneven, 1, Event, NoValues>(n, Distribution::FewDistinct, seed);
        expect_emulated_sort_correct<Wide, 8, float, PairValue>(n, Distribution::Uniform, seed);
    }
}

TEST(FastSortEmulated, SortsEveryDistributionAndKeyType) {
    for (Distribution d : pmpp::all_distributions()) {
        const std::uint64_t seed = pmpp::testing::test_seed(static_cast<int>(d));
        expect_emulated_sort_correct<Uneven, 16, std::int32_t, PairValue>(5003, d, seed);
        expect_emulated_sort_correct<Tiny, 2, std::uint64_t, NoValues>(5003, d, seed);
        expect_emulated_sort_correct<Wide, 32, Event, PairValue>(5003, d, seed);
    }
}

TEST(FastSortEmulated, SortsWithTheShippedShapeAcrossTileEdges) {
    for (std::size_t n : {4351, 4352, 4353, 8703, 8704, 8705, 17407, 17408, 17409, 40000}) {
        const std::uint64_t seed = pmpp::testing::test_seed(n);
        expect_emulated_sort_correct<Shipped, 32, std::uint32_t, NoValues>(n, Distribution::Uniform, seed);
        expect_emulated_sort_correct<Shipped, 4, Event, PairValue>(n, Distribution::FewDistinct, seed);
    }
}

TEST(FastMergeEmulated, MergesEveryShapeWithTiesFromAFirst) {
    for (int s = 0; s < kMergeShapes; ++s)
        for (std::size_t n : {0, 1, 2, 95, 96, 97, 1000, 4353}) {
            const auto shape = static_cast<MergeShape>(s);
            const std::uint64_t seed = pmpp::testing::test_seed(n * 16 + s);
            expect_emulated_merge_correct<Tiny, 32, Event>(n, Distribution::FewDistinct, shape, seed);
            expect_emulated_merge_correct<Uneven, 3, std::uint32_t>(n, Distribution::Uniform, shape, seed);
            expect_emulated_merge_correct<Shipped, 8, Event>(n, Distribution::AllEqual, shape, seed);
        }
}

// ---- merge passes from first runs of any width (variant 5's runs of 8192 and 16384) -----------

namespace {

// Tile t covers [tile_start, min(tile_start + tile, its pair's end)), as tile_source cuts it.
template <class Layout>
void expect_tiles_cover_each_output_once_within_one_pair(const Layout& runs, std::size_t tile) {
    const std::size_t tiles = tile_count(runs, tile);
    std::size_t next = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
        const std::size_t start = tile_start(runs, tile, t);
        ASSERT_EQ(start, next) << "tile " << t << " of " << tiles << " (width " << runs.width << ", tile " << tile
                               << ", n " << runs.n << "): the tiles leave no gap and never overlap";
        const auto pair = runs.pair_containing(start);
        const std::size_t end = std::min(start + tile, pair.first + pair.na + pair.nb);
        ASSERT_LT(start, end) << "tile " << t << " is empty";
        next = end;
    }
    EXPECT_EQ(next, runs.n) << "width " << runs.width << ", tile " << tile << ": the last tile ends at n";
}

}  // namespace

TEST(FastPassTiles, PairTiledRunsCoverEveryOutputOnceAndNoTileStraddlesTwoPairs) {
    std::vector<std::uint32_t> keys(1);
    for (std::size_t width : {96, 1000, 1024, 8192, 16384, 17408})
        for (std::size_t tile : {96, 320, 4096, 4352})
            for (std::size_t n : {std::size_t{1}, width, width + 1, 2 * width, 2 * width + 1, 3 * width + 17,
                                  7 * width + tile, 16 * width}) {
                const auto runs =
                    pass_runs<PairTiledRuns>(keys.data(), static_cast<const NoValues*>(nullptr), n, width, tile);
                expect_tiles_cover_each_output_once_within_one_pair(runs, tile);
                if ((2 * width) % tile == 0) {  // every pair whole tiles: the same tiles as SortedRuns'
                    const SortedRuns<std::uint32_t, NoValues> plain{keys.data(), nullptr, n, width};
                    EXPECT_EQ(tile_count(runs, tile), tile_count(plain, tile));
                    for (std::size_t t = 0; t < tile_count(plain, tile); ++t)
                        ASSERT_EQ(tile_start(runs, tile, t), tile_start(plain, tile, t)) << "t=" << t;
                }
            }
}

TEST(FastPassTiles, PlainRunsRefuseAWidthWhosePairsStraddleMergeTiles) {
    std::vector<std::uint32_t> keys(1);
    const NoValues* none = nullptr;
    using Plain = SortedRuns<std::uint32_t, NoValues>;
    EXPECT_THROW(pass_runs<SortedRuns>(keys.data(), none, 100000, 8192, Shipped::kMergeTile), std::logic_error);
    EXPECT_THROW(pass_runs<SortedRuns>(keys.data(), none, 100000, 16384, Shipped::kMergeTile), std::logic_error);
    const Plain runs = pass_runs<SortedRuns>(keys.data(), none, 100000, Shipped::kSortTile, Shipped::kMergeTile);
    EXPECT_EQ(runs.width, static_cast<std::size_t>(Shipped::kSortTile));
}

TEST(FastSortEmulated, MergesFirstRunsOfAnyWidthInPassesTiledPerPair) {
    // Pairs of runs smaller than a merge tile (1024 against 4352), a few tiles and a partial one
    // (8192: 3 tiles of 4352 and 3328 a pair), the network's runs; and widths that are not powers
    // of two against small merge tiles.
    for (std::size_t n : {1023, 1024, 1025, 2049, 5000, 8193, 20011}) {
        const std::uint64_t seed = pmpp::testing::test_seed(n);
        expect_passes_from_runs_correct<Shipped, 32, PairTiledRuns, std::uint32_t, NoValues>(
            1024, n, Distribution::Uniform, seed);
        expect_passes_from_runs_correct<Tiny, 4, PairTiledRuns, Event, PairValue>(1000, n, Distribution::FewDistinct,
                                                                                  seed);
        expect_passes_from_runs_correct<Uneven, 1, PairTiledRuns, float, NoValues>(100, n, Distribution::Uniform, seed);
    }
    for (std::size_t n : {8191, 8192, 8193, 16383, 16384, 16385, 3 * 8192 + 17, 40000}) {
        const std::uint64_t seed = pmpp::testing::test_seed(n);
        expect_passes_from_runs_correct<Shipped, 16, PairTiledRuns, std::uint32_t, NoValues>(
            8192, n, Distribution::Uniform, seed);
        expect_passes_from_runs_correct<Shipped, 1, PairTiledRuns, std::int32_t, NoValues>(
            16384, n, Distribution::FewDistinct, seed);
    }
    // The plain layout where the pairs are whole tiles: variant 4's own passes.
    expect_passes_from_runs_correct<Shipped, 4, SortedRuns, std::uint32_t, PairValue>(
        Shipped::kSortTile, 3 * Shipped::kSortTile + 5, Distribution::Uniform, pmpp::testing::test_seed());
}
