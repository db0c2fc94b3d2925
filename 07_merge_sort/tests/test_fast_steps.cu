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

#include <algorithm>
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

// What a first-run sort writes, on the host: every `width` keys of in[0, count) stably sorted on
// their own (std::stable_sort of each run, values with their keys).
template <class Key, class Value>
auto host_first_runs(std::size_t width) {
    return [width](const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t count) {
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
}

// sort_runs_with from first runs of `width` that the host sorts (host_first_runs), then Cfg's
// merge passes on the host executor in the layout Runs.
template <class Cfg, int Lanes, template <class, class> class Runs, class Key, class Value>
void expect_passes_from_runs_correct(std::size_t width, std::size_t n, Distribution dist, std::uint64_t seed) {
    const pmpp::CheckResult r = judge_host_sort<Key, Value>(n, dist, seed, [&](const auto& args, std::size_t count) {
        sort_runs_with<Cfg, HostExecutor<Lanes>, Runs>(args, count, LessOf<Key>{}, width,
                                                       host_first_runs<Key, Value>(width));
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

// ---- merge passes in chunks that stay in L2 (sort_runs_with's chunk_runs_log2) -------------------

namespace {

// One step of a sort as the executor saw it: a first-run sort of n elements (width 0), or a
// merge pass over runs of `width` in an array (or chunk) of n.
struct Step {
    std::size_t n, width;
    bool operator==(const Step& o) const { return n == o.n && width == o.width; }
};
std::ostream& operator<<(std::ostream& os, const Step& s) {
    return s.width == 0 ? os << "{first runs of " << s.n << "}"
                        : os << "{pass n=" << s.n << " width=" << s.width << "}";
}

// The host executor, recording each tile sort and each pass (its partition) in `steps`.
template <int Lanes>
struct RecordingExecutor : HostExecutor<Lanes> {
    static inline std::vector<Step> steps;
    template <class Cfg, class Key, class Value, class Less>
    static void sort_tiles(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n,
                           Less less) {
        steps.push_back({n, 0});
        HostExecutor<Lanes>::template sort_tiles<Cfg>(in, in_values, out, out_values, n, less);
    }
    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        steps.push_back({runs.n, runs.width});
        HostExecutor<Lanes>::partition(runs, tile, tiles, splits, less);
    }
};

// The schedule the brief asks for, written out on its own: with chunks of width << m (m at least
// 1 and fewer than the passes), each chunk [c0, c0 + len) gets its first runs sorted and passes
// 1..m over its len elements, the last chunk too however short; then passes m + 1.. over all n.
// Otherwise the first runs of all n, then every pass over all n.
std::vector<Step> chunked_schedule(std::size_t n, std::size_t width, int m) {
    std::vector<Step> steps;
    const int passes = merge_passes(n, width);
    if (n == 0) return steps;
    if (m < 1 || m >= passes) m = 0;
    const std::size_t chunk = m ? width << m : n;
    for (std::size_t c0 = 0; c0 < n; c0 += chunk) {
        const std::size_t len = std::min(chunk, n - c0);
        steps.push_back({len, 0});
        for (int p = 1; p <= m; ++p) steps.push_back({len, width << (p - 1)});
    }
    for (int p = m + 1; p <= passes; ++p) steps.push_back({n, width << (p - 1)});
    return steps;
}

// Variant 4's sort (sort_with_chunks: its tile sort, SortedRuns) with chunks of kSortTile << m,
// judged as the harness judges a GPU run, and its steps compared with chunked_schedule.
template <class Cfg, int Lanes, class Key, class Value>
void expect_chunked_tile_sort_correct(int m, std::size_t n, Distribution dist) {
    using Exec = RecordingExecutor<Lanes>;
    Exec::steps.clear();
    const pmpp::CheckResult r = judge_host_sort<Key, Value>(
        n, dist, pmpp::testing::test_seed(n * 8 + m),
        [&](const auto& args, std::size_t count) { sort_with_chunks<Cfg, Exec>(args, count, LessOf<Key>{}, m); });
    EXPECT_TRUE(r.ok) << "tiles of " << Cfg::kSortTile << ", chunks of 2^" << m << " tiles, n=" << n << " "
                      << pmpp::to_string(dist) << ": " << r.report();
    EXPECT_EQ(Exec::steps, chunked_schedule(n, Cfg::kSortTile, m))
        << "tiles of " << Cfg::kSortTile << ", chunks of 2^" << m << " tiles, n=" << n;
}

// sort_runs_with from host-sorted first runs of `width` (host_first_runs), passes in the layout
// Runs, chunks of width << m; the result judged and the steps compared with chunked_schedule.
template <class Cfg, int Lanes, template <class, class> class Runs, class Key, class Value>
void expect_chunked_passes_correct(std::size_t width, int m, std::size_t n, Distribution dist) {
    using Exec = RecordingExecutor<Lanes>;
    Exec::steps.clear();
    const pmpp::CheckResult r = judge_host_sort<Key, Value>(
        n, dist, pmpp::testing::test_seed(n * 8 + m), [&](const auto& args, std::size_t count) {
            sort_runs_with<Cfg, Exec, Runs>(
                args, count, LessOf<Key>{}, width,
                [&](const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t len) {
                    Exec::steps.push_back({len, 0});
                    host_first_runs<Key, Value>(width)(in, in_values, out, out_values, len);
                },
                m);
        });
    EXPECT_TRUE(r.ok) << "runs of " << width << ", merge tile " << Cfg::kMergeTile << ", chunks of 2^" << m
                      << " runs, n=" << n << " " << pmpp::to_string(dist) << ": " << r.report();
    EXPECT_EQ(Exec::steps, chunked_schedule(n, width, m))
        << "runs of " << width << ", chunks of 2^" << m << " runs, n=" << n;
}

using Seventeen = Config<32, 32, 17>;  // variant 4's 17 items a thread, small: tiles of 544
using SeventeenWideMerge = Config<64, 32, 17>;  // merge tiles of 1088, twice the sort tile

// The sizes that exercise a chunk loop, for chunks of `chunk` elements from runs of `width`:
// below one chunk, exactly one, several whole ones, a partial last chunk shorter than half a
// chunk, and one shorter than one first run.
std::vector<std::size_t> chunk_edge_sizes(std::size_t width, std::size_t chunk) {
    return {chunk / 2 + 1, chunk, 3 * chunk, 2 * chunk + chunk / 2 - width / 2, 2 * chunk + width / 3 + 1,
            4 * chunk + 1};
}

}  // namespace

TEST(FastChunkedPasses, RunsEachChunksTileSortAndFirstPassesThenTheRestOverTheWholeArray) {
    // Tiles of 544, chunks of 2^2 tiles (2176), n = 2 chunks + 100: three tile sorts (the last of
    // 100 keys, shorter than one tile) each followed by passes of 544 and 1088 over its chunk,
    // then the passes of 2176 and 4352 over all 4452.
    using Exec = RecordingExecutor<8>;
    Exec::steps.clear();
    const pmpp::CheckResult r = judge_host_sort<std::uint32_t, NoValues>(
        4452, Distribution::Uniform, pmpp::testing::test_seed(),
        [](const auto& args, std::size_t count) { sort_with_chunks<Seventeen, Exec>(args, count, KeyLess{}, 2); });
    EXPECT_TRUE(r.ok) << r.report();
    const std::vector<Step> want = {{2176, 0}, {2176, 544}, {2176, 1088}, {2176, 0},    {2176, 544}, {2176, 1088},
                                    {100, 0},  {100, 544},  {100, 1088},  {4452, 2176}, {4452, 4352}};
    EXPECT_EQ(Exec::steps, want);
}

TEST(FastChunkedPasses, SortsKeysAndPairsStablyWithVariant4sTilesAtEveryChunkEdge) {
    for (int m : {1, 2, 3})
        for (std::size_t n : chunk_edge_sizes(Seventeen::kSortTile, std::size_t{Seventeen::kSortTile} << m)) {
            expect_chunked_tile_sort_correct<Seventeen, 32, std::uint32_t, NoValues>(m, n, Distribution::Uniform);
            expect_chunked_tile_sort_correct<Seventeen, 4, std::uint32_t, PairValue>(m, n, Distribution::FewDistinct);
            expect_chunked_tile_sort_correct<SeventeenWideMerge, 1, Event, PairValue>(m, n, Distribution::AllEqual);
        }
}

TEST(FastChunkedPasses, SortsKeysAndPairsStablyFromPowerOfTwoRunsTiledPerPairAtEveryChunkEdge) {
    // Runs of 64 and 256 against merge tiles of 96 (pairs of 128 and 512: not whole tiles), and
    // variant 5's shape: runs of 1024 against the shipped merge tiles of 4352.
    for (int m : {1, 3}) {
        for (std::size_t n : chunk_edge_sizes(64, std::size_t{64} << m)) {
            expect_chunked_passes_correct<Tiny, 32, PairTiledRuns, std::uint32_t, NoValues>(64, m, n,
                                                                                            Distribution::Uniform);
            expect_chunked_passes_correct<Tiny, 2, PairTiledRuns, std::uint32_t, PairValue>(64, m, n,
                                                                                            Distribution::FewDistinct);
        }
        for (std::size_t n : chunk_edge_sizes(256, std::size_t{256} << m))
            expect_chunked_passes_correct<Tiny, 1, PairTiledRuns, Event, PairValue>(256, m, n, Distribution::AllEqual);
    }
    for (std::size_t n : chunk_edge_sizes(1024, 4096))
        expect_chunked_passes_correct<Shipped, 16, PairTiledRuns, float, NoValues>(1024, 2, n, Distribution::Uniform);
}

TEST(FastChunkedPasses, ChunksOfAtLeastAllThePassesOrOfNoneRunThePassesOverTheWholeArray) {
    for (int m : {0, -1, 3, 4, 9}) {  // 2176 + 1 from tiles of 544: 3 passes
        expect_chunked_tile_sort_correct<Seventeen, 8, std::uint32_t, PairValue>(m, 2177, Distribution::FewDistinct);
        EXPECT_EQ(chunked_schedule(2177, 544, m).size(), 4u) << "m=" << m << ": one tile sort, three passes";
    }
}

TEST(FastChunkedPasses, ChunkIsTheLargestPowerOfTwoOfFirstRunsWhoseTwoBuffersFitTheShareOfL2) {
    constexpr std::size_t MiB = std::size_t{1} << 20;
    // An H100 (50 MiB): u32 keys from runs of 16384, 0.7 of it (35 MiB): 2^22 keys, 32 MiB in two buffers.
    EXPECT_EQ(chunk_runs_log2_for(16384, 4, 0.7, 50 * MiB), 8);
    EXPECT_EQ(chunk_runs_log2_for(17408, 4, 0.7, 50 * MiB), 8);  // 4456448 keys: 34 MiB
    EXPECT_EQ(chunk_runs_log2_for(17408, 4, 0.5, 50 * MiB), 7);
    EXPECT_EQ(chunk_runs_log2_for(16384, 4, 1.0, 64 * MiB), 9) << "two buffers exactly the L2 fit";
    EXPECT_EQ(chunk_runs_log2_for(16384, 8, 1.0, 64 * MiB), 8) << "keys and values: half the chunk";
    // The t4 profile's 4 MiB: tiles of 8704, 0.7: 2^5 tiles, 278528 keys (2.1 MiB in two buffers).
    EXPECT_EQ(chunk_runs_log2_for(8704, 4, 0.7, 4 * MiB), 5);
    EXPECT_EQ(chunk_runs_log2_for(16384, 4, 0.0, 50 * MiB), 0) << "share 0: no chunks";
    EXPECT_EQ(chunk_runs_log2_for(16384, 4, 0.7, 128 * 1024), 0) << "not even two runs fit: no chunks";
    EXPECT_EQ((chunk_runs_log2_for_l2<std::uint32_t, NoValues>(16384, 0.0)), 0) << "asks nothing of the device";
}
