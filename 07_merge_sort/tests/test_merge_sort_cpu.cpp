// Exercise 07, host tests (no GPU): the co-rank against brute force, the CPU merge and merge sort
// against the standard library, the case list, and the judges on hand-made wrong outputs.
#include "../merge_sort_1_basic.cuh"
#include "../harness/merge_sort_harness.h"
#include "wrong_student.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <set>

using namespace merge_sort;
using pmpp::CheckResult;
using pmpp::Distribution;

namespace {

// How many of the first k outputs of std::merge (stable: the first range wins ties) come from a.
template <class Key, class Less>
std::size_t brute_force_co_rank(std::size_t k, const std::vector<Key>& a, const std::vector<Key>& b, Less less) {
    struct Tagged {
        Key key;
        bool from_a;
    };
    std::vector<Tagged> ta, tb, merged;
    for (const Key& x : a) ta.push_back({x, true});
    for (const Key& x : b) tb.push_back({x, false});
    std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), std::back_inserter(merged),
               [&](const Tagged& x, const Tagged& y) { return less(x.key, y.key); });
    return static_cast<std::size_t>(std::count_if(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(k),
                                                  [](const Tagged& t) { return t.from_a; }));
}

// Sorted arrays of `length` keys drawn from a three-letter alphabet: ties everywhere.
std::vector<std::uint32_t> small_sorted(std::size_t length, pmpp::Rng& rng) {
    std::vector<std::uint32_t> v(length);
    for (auto& x : v) x = static_cast<std::uint32_t>(rng.below(3));
    std::sort(v.begin(), v.end());
    return v;
}

// The stable sort of (keys, values) by std::stable_sort of positions.
template <class Key, class Value>
SortInputs<Key, Value> std_stable_sort(const SortInputs<Key, Value>& in) {
    std::vector<std::size_t> order(in.keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return LessOf<Key>{}(in.keys[x], in.keys[y]); });
    SortInputs<Key, Value> out;
    for (std::size_t i : order) {
        out.keys.push_back(in.keys[i]);
        if constexpr (kHasValues<Value>) out.values.push_back(in.values[i]);
    }
    return out;
}

template <class Key, class Value>
void expect_sort_cpu_matches_std(std::size_t n, Distribution dist, unsigned threads, std::uint64_t seed) {
    const SortInputs<Key, Value> in = sort_inputs<Key, Value>(n, dist, seed);
    SortInputs<Key, Value> got = in;
    Value* values = nullptr;
    if constexpr (kHasValues<Value>) values = got.values.data();
    sort_cpu(got.keys.data(), values, n, LessOf<Key>{}, threads);
    const SortInputs<Key, Value> want = std_stable_sort(in);
    EXPECT_TRUE(pmpp::compare_exact(want.keys, got.keys).ok)
        << "n=" << n << " threads=" << threads << " " << pmpp::to_string(dist);
    if constexpr (kHasValues<Value>) {
        EXPECT_TRUE(pmpp::compare_exact(want.values, got.values).ok) << "values, n=" << n;
    }
}

// judge_sort of the stable sort of n keys (and values) drawn from the test's seed, after `spoil`
// changed it (spoil(output, input)).
template <class Key, class Value, class Spoil>
CheckResult judge_spoiled_sort(std::size_t n, Distribution d, Spoil spoil) {
    const auto in = sort_inputs<Key, Value>(n, d, pmpp::testing::test_seed());
    const auto want = expected_sort(in);
    auto got = want;
    spoil(got, in);
    return judge_sort(in, want, got);
}

// judge_merge of the stable merge of n u32 keys (halves) drawn from the test's seed, after `spoil`
// changed it.
template <class Spoil>
CheckResult judge_spoiled_merge(std::size_t n, Spoil spoil) {
    const auto in =
        merge_inputs<std::uint32_t>(n, Distribution::Uniform, MergeShape::Halves, pmpp::testing::test_seed());
    const auto want = expected_merge(in);
    auto got = want;
    spoil(got);
    return judge_merge(in, want, got);
}

// check_co_rank of `co_rank_fn` on 300 u32 keys dealt as `shape`, drawn from the test's seed.
CheckResult check_co_rank_of(const CoRankCall<std::uint32_t>& co_rank_fn, Distribution d,
                             MergeShape shape = MergeShape::Halves) {
    return check_co_rank<std::uint32_t>(co_rank_fn,
                                        merge_inputs<std::uint32_t>(300, d, shape, pmpp::testing::test_seed()));
}

pmpp::Options options_with_op(const std::string& op) {
    pmpp::Options o;
    o.extra["op"] = op;
    o.extra["type"] = "u32";
    return o;
}

}  // namespace

// ---- co-rank ---------------------------------------------------------------------------------

TEST(CoRank, AgreesWithBruteForceOnEverySplitOfSmallArrays) {
    pmpp::Rng rng(pmpp::testing::test_seed());
    for (std::size_t na = 0; na <= 7; ++na)
        for (std::size_t nb = 0; nb <= 7; ++nb)
            for (int draw = 0; draw < 4; ++draw) {
                const auto a = small_sorted(na, rng), b = small_sorted(nb, rng);
                for (std::size_t k = 0; k <= na + nb; ++k)
                    ASSERT_EQ(co_rank(k, a.data(), na, b.data(), nb, KeyLess{}),
                              brute_force_co_rank(k, a, b, KeyLess{}))
                        << "na=" << na << " nb=" << nb << " k=" << k;
            }
}

TEST(CoRank, HandlesEmptySidesAndAllEqualKeys) {
    const std::vector<std::uint32_t> five(5, 7u), none;
    for (std::size_t k = 0; k <= 5; ++k) {
        EXPECT_EQ(co_rank(k, none.data(), std::size_t{0}, five.data(), std::size_t{5}, KeyLess{}), 0u) << k;
        EXPECT_EQ(co_rank(k, five.data(), std::size_t{5}, none.data(), std::size_t{0}, KeyLess{}), k) << k;
    }
    // All equal: A's elements come first, so the first k outputs hold min(k, |A|) of them.
    const std::vector<std::uint32_t> three(3, 7u);
    for (std::size_t k = 0; k <= 8; ++k)
        EXPECT_EQ(co_rank(k, five.data(), std::size_t{5}, three.data(), std::size_t{3}, KeyLess{}),
                  std::min<std::size_t>(k, 5));
}

TEST(CoRank, OrdersEventsByTimeAndSendsTiesToA) {
    const std::vector<Event> a = {{1.0f, 0}, {2.0f, 1}, {2.0f, 2}}, b = {{2.0f, 10}, {3.0f, 11}};
    for (std::size_t k = 0; k <= 5; ++k)
        EXPECT_EQ(co_rank(k, a.data(), a.size(), b.data(), b.size(), EarlierEvent{}),
                  brute_force_co_rank(k, a, b, EarlierEvent{}))
            << k;
}

// ---- the CPU merge and sort ------------------------------------------------------------------

TEST(MergeCpu, EqualsStdMergeWithTiesFromAFirst) {
    for (std::size_t n : {0, 1, 2, 3, 1000, 65537})
        for (MergeShape shape : {MergeShape::Halves, MergeShape::AEmpty, MergeShape::BOne, MergeShape::Interleaved})
            for (Distribution d : {Distribution::Uniform, Distribution::FewDistinct, Distribution::AllEqual}) {
                const auto in = merge_inputs<Event>(n, d, shape, pmpp::testing::test_seed(n));
                std::vector<Event> want;
                std::merge(in.a.begin(), in.a.end(), in.b.begin(), in.b.end(), std::back_inserter(want),
                           EarlierEvent{});
                EXPECT_TRUE(pmpp::compare_exact(want, expected_merge(in)).ok) << n << " " << to_string(shape);
            }
}

TEST(SortCpu, EqualsStdStableSortForEveryKeyTypeAndThreadCount) {
    for (std::size_t n : {0, 1, 2, 31, 32, 33, 1000, 65537, 300001})
        for (unsigned threads : {1u, 3u, 8u}) {
            const std::uint64_t seed = pmpp::testing::test_seed(n * 16 + threads);
            expect_sort_cpu_matches_std<std::uint32_t, NoValues>(n, Distribution::Uniform, threads, seed);
            expect_sort_cpu_matches_std<std::uint32_t, PairValue>(n, Distribution::FewDistinct, threads, seed);
            expect_sort_cpu_matches_std<std::int32_t, PairValue>(n, Distribution::Uniform, threads, seed);
            expect_sort_cpu_matches_std<float, PairValue>(n, Distribution::Uniform, threads, seed);
            expect_sort_cpu_matches_std<std::uint64_t, NoValues>(n, Distribution::Reversed, threads, seed);
            expect_sort_cpu_matches_std<Event, NoValues>(n, Distribution::FewDistinct, threads, seed);
        }
}

TEST(SortCpu, OrdersFloatsByTheTotalOrder) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> keys = {1.0f, -nan, 0.0f, inf, -0.0f, nan, -inf, -1.0f};
    sort_cpu(keys.data(), static_cast<NoValues*>(nullptr), keys.size(), KeyLess{});
    // Every NaN last, the one with the sign bit set after the other (common/keys.h).
    const std::vector<std::uint32_t> want = {0xFF800000u, 0xBF800000u, 0x80000000u, 0x00000000u,
                                             0x3F800000u, 0x7F800000u, 0x7FC00000u, 0xFFC00000u};
    for (std::size_t i = 0; i < keys.size(); ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &keys[i], 4);
        EXPECT_EQ(bits, want[i]) << i;
    }
}

TEST(MergeSlice, AnySlicingOfAPassGivesTheWholePass) {
    const std::size_t n = 37, width = 4;
    std::vector<std::uint32_t> keys = sort_inputs<std::uint32_t, NoValues>(n, Distribution::FewDistinct, 5).keys;
    for (std::size_t r = 0; r < n; r += width)
        std::stable_sort(keys.begin() + r, keys.begin() + std::min(n, r + width), KeyLess{});
    const SortedRuns<std::uint32_t, NoValues> pass{keys.data(), nullptr, n, width};
    std::vector<std::uint32_t> whole(n), sliced(n, 0xFFFFFFFFu);
    merge_slice(pass, 0, n, whole.data(), static_cast<NoValues*>(nullptr), KeyLess{});
    for (std::size_t k = 0; k < n; k += 5)  // slices of 5 straddle the pairs of 8
        merge_slice(pass, k, std::min(n, k + 5), sliced.data(), static_cast<NoValues*>(nullptr), KeyLess{});
    EXPECT_EQ(whole, sliced);
    for (std::size_t p = 0; p < n; p += 2 * width)
        EXPECT_TRUE(std::is_sorted(whole.begin() + p, whole.begin() + std::min(n, p + 2 * width), KeyLess{}));
}

TEST(Passes, CountAndAlternateSoTheLastLandsInTheOutput) {
    EXPECT_EQ(merge_passes(0, 1), 0);
    EXPECT_EQ(merge_passes(1, 1), 0);
    EXPECT_EQ(merge_passes(2, 1), 1);
    EXPECT_EQ(merge_passes(1025, 1024), 1);
    EXPECT_EQ(merge_passes(std::size_t{1} << 28, 8704), 15);
    for (int passes = 0; passes < 6; ++passes) {
        EXPECT_TRUE(pass_writes_output(passes, passes));
        for (int p = 1; p <= passes; ++p) EXPECT_NE(pass_writes_output(p, passes), pass_writes_output(p - 1, passes));
    }
}

// ---- the case list ---------------------------------------------------------------------------

TEST(MergeSortCases, CoverEveryEdgeSizeTypeShapeAndDistribution) {
    const auto cases = exercise().cases(options_with_op("all"));
    std::set<std::size_t> sort_u32_sizes, merge_u32_sizes;
    std::set<std::pair<int, bool>> sort_types;
    std::set<int> shapes, merge_types;
    std::set<Distribution> dists;
    for (const auto& c : cases) {
        const MergeSortSpec& s = c.spec;
        dists.insert(c.dist);
        if (s.op == Op::Sort) {
            sort_types.insert({static_cast<int>(s.type), s.pairs});
            if (s.type == KeyType::U32 && !s.pairs) sort_u32_sizes.insert(c.n);
        } else {
            shapes.insert(static_cast<int>(s.shape));
            merge_types.insert(static_cast<int>(s.type));
            if (s.type == KeyType::U32) merge_u32_sizes.insert(c.n);
        }
    }
    for (int k : {1, 5, 8, 10, 12, 16, 20})
        for (std::size_t n : {(std::size_t{1} << k) - 1, std::size_t{1} << k, (std::size_t{1} << k) + 1}) {
            EXPECT_TRUE(sort_u32_sizes.count(n)) << n;
            EXPECT_TRUE(merge_u32_sizes.count(n)) << n;
        }
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, (std::size_t{1} << 20) + 5, (std::size_t{1} << 26) + 3}) {
        EXPECT_TRUE(sort_u32_sizes.count(n)) << n;
        EXPECT_TRUE(merge_u32_sizes.count(n)) << n;
    }
    EXPECT_EQ(sort_types.size(), 10u);  // five key types, with and without values
    EXPECT_EQ(shapes.size(), static_cast<std::size_t>(kMergeShapes));
    EXPECT_EQ(merge_types.size(), 5u);
    EXPECT_EQ(dists.size(), 5u);
}

TEST(MergeSortCases, TheOpOptionPicksOneOperationAndRejectsOthers) {
    for (const auto& c : exercise().cases(options_with_op("merge"))) EXPECT_EQ(c.spec.op, Op::Merge);
    for (const auto& c : exercise().cases(options_with_op("sort"))) EXPECT_EQ(c.spec.op, Op::Sort);
    EXPECT_THROW(exercise().cases(options_with_op("shuffle")), pmpp::UsageError);
}

// The labels name every field of the spec: no two cases of the list share one (their seeds come
// from their labels).
TEST(MergeSortCases, EveryCaseHasItsOwnLabel) {
    std::set<std::string> labels;
    for (const auto& c : exercise().cases(options_with_op("all")))
        EXPECT_TRUE(labels.insert(exercise().label(c)).second) << exercise().label(c);
    EXPECT_EQ(exercise().label({1000, Distribution::AllEqual, {Op::Merge, KeyType::Event, false, MergeShape::AOne}}),
              "n=2^10-24 merge event [1 + (n-1)] all-equal");
    EXPECT_EQ(exercise().label({33, Distribution::Uniform, {Op::Sort, KeyType::U64, true}}),
              "n=33 sort u64 keys + u32 values uniform");
}

TEST(MergeInputs, DealEveryShapeAsDescribed) {
    const std::size_t n = 1001;
    auto in = merge_inputs<std::uint32_t>(n, Distribution::Uniform, MergeShape::AOne, 3);
    EXPECT_EQ(in.a.size(), 1u);
    EXPECT_EQ(in.b.size(), n - 1);
    in = merge_inputs<std::uint32_t>(n, Distribution::Uniform, MergeShape::AllABeforeB, 3);
    EXPECT_FALSE(KeyLess{}(in.b.front(), in.a.back()));
    in = merge_inputs<std::uint32_t>(n, Distribution::Uniform, MergeShape::AllBBeforeA, 3);
    EXPECT_FALSE(KeyLess{}(in.a.front(), in.b.back()));
    in = merge_inputs<std::uint32_t>(n, Distribution::Uniform, MergeShape::Interleaved, 3);
    EXPECT_EQ(in.a.size(), 501u);
    EXPECT_TRUE(std::is_sorted(in.a.begin(), in.a.end()) && std::is_sorted(in.b.begin(), in.b.end()));
    const auto events = merge_inputs<Event>(10, Distribution::AllEqual, MergeShape::Halves, 3);
    EXPECT_EQ(events.a[2].id, 2u);
    EXPECT_EQ(events.b[2].id, kFirstIdOfB + 2);
}

// ---- the judges reject wrong outputs ---------------------------------------------------------

TEST(JudgeSort, AcceptsTheStableSort) {
    const auto in = sort_inputs<std::uint32_t, PairValue>(5000, Distribution::FewDistinct, pmpp::testing::test_seed());
    const auto want = expected_sort(in);
    EXPECT_TRUE(judge_sort(in, want, want).ok);
}

TEST(JudgeSort, ReportsOutputsThatWereNeverWritten) {
    const auto in = sort_inputs<std::uint32_t, NoValues>(300, Distribution::Uniform, pmpp::testing::test_seed());
    const auto want = expected_sort(in);
    auto got = want;
    got.keys.back() = 0xFFFFFFFFu;
    if (want.keys.back() == 0xFFFFFFFFu) GTEST_SKIP() << "the largest key happens to be the poison value";
    const CheckResult r = judge_sort(in, want, got);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("never written"), std::string::npos) << r.report();
}

TEST(JudgeSort, RejectsOutputThatIsNotSorted) {
    const CheckResult r = judge_spoiled_sort<std::int32_t, NoValues>(
        1000, Distribution::Uniform, [](auto& got, const auto&) { std::swap(got.keys[10], got.keys[900]); });
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not sorted"), std::string::npos) << r.report();
}

TEST(JudgeSort, RejectsOutputThatIsNotAPermutation) {
    const CheckResult r = judge_spoiled_sort<std::uint64_t, NoValues>(
        1000, Distribution::Uniform, [](auto& got, const auto&) { got.keys[500] = got.keys[499]; });  // still sorted
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("permutation"), std::string::npos) << r.report();
}

TEST(JudgeSort, RejectsValuesThatDoNotTravelWithTheirKeys) {
    const CheckResult r = judge_spoiled_sort<float, PairValue>(
        1000, Distribution::Uniform, [](auto& got, const auto& in) { got.values = in.values; });  // left in place
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("travel"), std::string::npos) << r.report();
}

TEST(JudgeSort, RejectsAnUnstableSortOfPairs) {
    const CheckResult r =
        judge_spoiled_sort<std::uint32_t, PairValue>(2000, Distribution::FewDistinct, [](auto& got, const auto&) {
            for (std::size_t i = 0; i < got.keys.size();) {  // reverse every run of equal keys, values with them
                std::size_t j = i;
                while (j < got.keys.size() && got.keys[j] == got.keys[i]) ++j;
                std::reverse(got.values.begin() + static_cast<std::ptrdiff_t>(i),
                             got.values.begin() + static_cast<std::ptrdiff_t>(j));
                i = j;
            }
        });
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("not stable"), std::string::npos) << r.report();
}

TEST(JudgeSort, RejectsAnUnstableSortOfEvents) {
    const auto in = sort_inputs<Event, NoValues>(2000, Distribution::FewDistinct, pmpp::testing::test_seed());
    const auto want = expected_sort(in);
    auto got = want;
    std::reverse(got.keys.begin(), got.keys.begin() + 2);  // the two earliest events share a time: few distinct
    ASSERT_EQ(got.keys[0].time, got.keys[1].time);
    const CheckResult r = judge_sort(in, want, got);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("not stable"), std::string::npos) << r.report();
}

TEST(JudgeMerge, RejectsTiesTakenFromBFirst) {
    const auto in =
        merge_inputs<Event>(1000, Distribution::FewDistinct, MergeShape::Halves, pmpp::testing::test_seed());
    std::vector<Event> b_first;
    std::merge(in.b.begin(), in.b.end(), in.a.begin(), in.a.end(), std::back_inserter(b_first), EarlierEvent{});
    const CheckResult r = judge_merge(in, expected_merge(in), b_first);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("A's element first"), std::string::npos) << r.report();
}

TEST(JudgeMerge, NamesTheElementLostAndTheOneDoubled) {
    std::uint32_t lost = 0, doubled = 0;
    const CheckResult r = judge_spoiled_merge(1000, [&](std::vector<std::uint32_t>& got) {
        lost = got[300];
        doubled = got[299];
        got[300] = got[299];  // still ordered: element 300 lost, 299 doubled
    });
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not a permutation"), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("1 element of the input lost (e.g. " + std::to_string(lost)), std::string::npos)
        << r.report();
    EXPECT_NE(r.hint.find("1 extra copy of others (e.g. " + std::to_string(doubled)), std::string::npos) << r.report();
}

// The first property broken names the message; the hints of the comparison and of the later
// checks still reach the report.
TEST(JudgeMerge, ReportsTheHintsOfEveryCheckThatFoundSomething) {
    const CheckResult r = judge_spoiled_merge(5000, [](std::vector<std::uint32_t>& got) {
        std::reverse(got.begin() + 1024, got.begin() + 2048);  // out of order, every element still there
        got[10] = got[11];  // and one lost, its neighbour doubled
    });
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not sorted"), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("of the input lost"), std::string::npos) << r.report();
}

TEST(JudgeMerge, SaysWhereTheNeverWrittenTailStarts) {
    const auto in =
        merge_inputs<std::uint32_t>(1000, Distribution::Uniform, MergeShape::Halves, pmpp::testing::test_seed());
    const auto want = expected_merge(in);
    auto got = want;
    for (std::size_t i = 992; i < got.size(); ++i) got[i] = 0xFFFFFFFFu;
    if (want.back() == 0xFFFFFFFFu) GTEST_SKIP() << "the largest key happens to be the poison value";
    const CheckResult r = judge_merge(in, want, got);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("the last 8 elements, from index 992"), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("never written"), std::string::npos) << r.report();
}

TEST(CheckCoRank, RejectsACoRankThatIsOffByOne) {
    const CheckResult r = check_co_rank_of(
        [](std::size_t k, const std::uint32_t* a, std::size_t na, const std::uint32_t* b, std::size_t nb) {
            const std::size_t i = co_rank(k, a, na, b, nb, KeyLess{});
            return i < std::min(k, na) ? i + 1 : i;
        },
        Distribution::Uniform);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("off by one"), std::string::npos) << r.report();
}

TEST(CheckCoRank, RejectsACoRankThatSendsTiesToB) {
    const CheckResult r = check_co_rank_of(
        [](std::size_t k, const std::uint32_t* a, std::size_t na, const std::uint32_t* b, std::size_t nb) {
            // B first on ties: the co-rank of B in the merge of B and A.
            return k - co_rank(k, b, nb, a, na, KeyLess{});
        },
        Distribution::AllEqual);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("is the co-rank of a merge that takes B's element on a tie"), std::string::npos)
        << r.report();
}

TEST(CheckCoRank, SaysAnAnswerBeyondTheRangeIsAWrappedSubtraction) {
    const CheckResult r =
        check_co_rank_of([](std::size_t k, const std::uint32_t* a, std::size_t na, const std::uint32_t* b,
                            std::size_t nb) { return wrong::co_rank_lower_bound_wraps(k, a, na, b, nb, KeyLess{}); },
                         Distribution::Uniform);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("co-rank of k=0 "), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("the answer must lie in [max(0, k - |B|), min(k, |A|)] = [0, 0]"), std::string::npos)
        << r.report();
    EXPECT_NE(r.hint.find("is -150 as a signed number"), std::string::npos) << r.report();
}

// The co-rank of the merge that lets B win ties, on inputs without repeated keys, is the right one.
TEST(CheckCoRank, AcceptsACoRankThatSendsTiesToBWhereNoKeyRepeats) {
    const CheckResult r =
        check_co_rank_of([](std::size_t k, const std::uint32_t* a, std::size_t na, const std::uint32_t* b,
                            std::size_t nb) { return wrong::co_rank_ties_from_b(k, a, na, b, nb, KeyLess{}); },
                         Distribution::Uniform, MergeShape::Interleaved);
    EXPECT_TRUE(r.ok) << r.report();
}

TEST(CheckCoRank, AcceptsTheReference) {
    const auto in =
        merge_inputs<Event>(5000, Distribution::FewDistinct, MergeShape::AThird, pmpp::testing::test_seed());
    const CheckResult r = check_co_rank<Event>([](std::size_t k, const Event* a, std::size_t na, const Event* b,
                                                  std::size_t nb) { return co_rank(k, a, na, b, nb, EarlierEvent{}); },
                                               in);
    EXPECT_TRUE(r.ok) << r.report();
}
