// Exercise 07: the fast variant's kernels emulated on the host (no GPU). The drivers of
// merge_sort_4_fast.cuh run unchanged with an executor that plays each block's threads one after
// another between the kernels' barriers, calling the same TileSteps the kernels call. So the
// kernels' index arithmetic, the k-ary partition search and the pass logic are all tested here,
// for several tile shapes, before any GPU runs them.
#include "../merge_sort_4_fast.cuh"
#include "../harness/merge_sort_harness.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::fast;
using pmpp::Distribution;

namespace {

// What a block's kernel does, thread by thread; `lanes` is the partition's group size.
template <int Lanes>
struct HostExecutor {
    template <class Cfg, class Key, class Value, class Less>
    static void sort_tiles(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n,
                           Less less) {
        using Steps = TileSteps<Cfg::kSortThreads, Cfg::kItems>;
        std::vector<Key> s_keys(Cfg::kSortTile + 1);  // a spare slot, as shared_bytes
        std::vector<Value> s_values(Cfg::kSortTile);
        for (std::size_t base = 0; base < n; base += Cfg::kSortTile) {
            const int count = static_cast<int>(std::min<std::size_t>(Cfg::kSortTile, n - base));
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::load(tid, in + base, offset(in_values, base), count, in + base, offset(in_values, base), count,
                            s_keys.data(), s_values.data());
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::sort_own_items(tid, count, s_keys.data(), s_values.data(), less);
            for (int run = Cfg::kItems; run < count; run *= 2) {
                std::vector<ThreadItems<Cfg::kItems, Key, Value>> items(Cfg::kSortThreads);
                for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                    Steps::merge_round_items(tid, run, count, s_keys.data(), s_values.data(), items[tid], less);
                for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                    Steps::write_items(items[tid], s_keys.data(), s_values.data());
            }
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::store(tid, count, s_keys.data(), s_values.data(), out + base, offset(out_values, base));
        }
    }

    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        for (std::size_t t = 0; t < tiles; ++t) {
            const std::size_t k = t * tile;
            const auto pair = runs.pair_containing(k);
            const std::size_t diag = k - pair.first;
            SearchRange r = co_rank_range(pair, diag);
            while (r.lo < r.hi) {  // what the ballot counts: lanes whose probe lies before the answer
                int before = 0;
                for (int lane = 0; lane < Lanes; ++lane)
                    before += probe_is_before(pair, diag, kary_probe(r, lane, Lanes), less);
                r = kary_narrow(r, Lanes, before);
            }
            splits[t] = r.lo;
        }
    }

    template <class Cfg, class Layout, class Key, class Value, class Less>
    static void merge_tiles(const Layout& runs, std::size_t tiles, const std::size_t* splits, Key* out,
                            Value* out_values, Less less) {
        using Steps = TileSteps<Cfg::kMergeThreads, Cfg::kItems>;
        std::vector<Key> s_keys(Cfg::kMergeTile + 1);  // a spare slot, as shared_bytes
        std::vector<Value> s_values(Cfg::kMergeTile);
        for (std::size_t t = 0; t < tiles; ++t) {
            const auto src = tile_source(runs, Cfg::kMergeTile, t, splits);
            const auto& pair = src.pair;
            const int na = static_cast<int>(src.a_end - src.a_begin), nb = static_cast<int>(src.b_end - src.b_begin);
            ASSERT_LE(na + nb, Cfg::kMergeTile);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::load(tid, pair.a + src.a_begin, offset(pair.av, src.a_begin), na, pair.b + src.b_begin,
                            offset(pair.bv, src.b_begin), na + nb, s_keys.data(), s_values.data());
            std::vector<ThreadItems<Cfg::kItems, Key, Value>> items(Cfg::kMergeThreads);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::merge_items(s_keys.data(), s_values.data(), 0, na, na, nb, std::min(tid * Cfg::kItems, na + nb),
                                   items[tid], less);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::write_items(items[tid], s_keys.data(), s_values.data());
            const std::size_t k = t * Cfg::kMergeTile;
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::store(tid, na + nb, s_keys.data(), s_values.data(), out + k, offset(out_values, k));
        }
    }
};

// The fast sort's driver on the host executor, judged like the harness judges a GPU run.
template <class Cfg, int Lanes, class Key, class Value>
void expect_emulated_sort_correct(std::size_t n, Distribution dist, std::uint64_t seed) {
    const SortInputs<Key, Value> in = sort_inputs<Key, Value>(n, dist, seed);
    SortInputs<Key, Value> out;
    out.keys.assign(n, Key{});
    std::vector<Key> keys_scratch(n);
    std::vector<Value> values_out(kHasValues<Value> ? n : 0), values_scratch(kHasValues<Value> ? n : 0);
    std::vector<std::size_t> splits(split_capacity(n));
    std::memset(static_cast<void*>(out.keys.data()), 0xFF, n * sizeof(Key));  // poisoned, as on the device
    SortArgs<Key, Value> args;
    args.keys_in = in.keys.data();
    args.keys_out = out.keys.data();
    args.keys_scratch = keys_scratch.data();
    args.splits = splits.data();
    if constexpr (kHasValues<Value>) {
        args.values_in = in.values.data();
        args.values_out = values_out.data();
        args.values_scratch = values_scratch.data();
    }
    sort_with<Cfg, HostExecutor<Lanes>>(args, n, LessOf<Key>{});
    if constexpr (kHasValues<Value>) out.values = values_out;
    const pmpp::CheckResult r = judge_sort(in, expected_sort(in), out);
    EXPECT_TRUE(r.ok) << "tile " << Cfg::kSortTile << "/" << Cfg::kMergeTile << ", lanes " << Lanes << ", n=" << n
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
