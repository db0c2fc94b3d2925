// The checker must find what is wrong, wherever it is, and say so.
#include "common/check.h"
#include "common/exercise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace pmpp;

namespace {
std::vector<int> iota_vec(std::size_t n) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>(i * 7 + 3);
    return v;
}
}  // namespace

TEST(CompareExact, AcceptsIdenticalArrays) {
    auto a = iota_vec(1000);
    EXPECT_TRUE(compare_exact(a, a).ok);
}

TEST(CompareExact, FindsASingleWrongElementAtFirstMiddleAndLastIndex) {
    const std::size_t n = 1001;
    for (std::size_t bad : {std::size_t{0}, n / 2, n - 1}) {
        auto expected = iota_vec(n);
        auto actual = expected;
        actual[bad] += 1;
        const CheckResult r = compare_exact(expected, actual);
        ASSERT_FALSE(r.ok) << "wrong element at " << bad << " not found";
        EXPECT_EQ(r.mismatches, 1u);
        ASSERT_EQ(r.first.size(), 1u);
        EXPECT_EQ(r.first[0].index, bad);
        EXPECT_EQ(r.first[0].expected, std::to_string(expected[bad]));
        EXPECT_EQ(r.first[0].actual, std::to_string(actual[bad]));
        EXPECT_NE(r.report().find("[" + std::to_string(bad) + "]"), std::string::npos);
    }
}

TEST(CompareExact, HintsAtTheBoundWhenOnlyTheLastElementDiffers) {
    auto expected = iota_vec(300);
    auto actual = expected;
    actual.back() = -1;
    const CheckResult r = compare_exact(expected, actual);
    EXPECT_NE(r.hint.find("last element"), std::string::npos) << r.report();
}

TEST(CompareExact, CountsAllMismatchesButReportsOnlyTheFirstFew) {
    auto expected = iota_vec(100);
    std::vector<int> actual(100, -5);
    const CheckResult r = compare_exact(expected, actual, 3);
    EXPECT_EQ(r.mismatches, 100u);
    EXPECT_EQ(r.first.size(), 3u);
    EXPECT_EQ(r.first[2].index, 2u);
    EXPECT_NE(r.report().find("97 more"), std::string::npos);
}

TEST(CompareExact, RejectsOutputOfTheWrongLength) { EXPECT_FALSE(compare_exact(iota_vec(10), iota_vec(9)).ok); }

TEST(CompareExact, TellsNegativeZeroFromZero) {
    std::vector<float> e = {0.0f}, a = {-0.0f};
    EXPECT_FALSE(compare_exact(e, a).ok);
}

TEST(CompareClose, AcceptsDifferencesInsideTheTolerance) {
    std::vector<float> e = {1.0f, -2.0f, 1000.0f}, a = {1.0f + 1e-7f, -2.0f - 1e-7f, 1000.0001f};
    EXPECT_TRUE(compare_close(e, a, {1e-6, 1e-6}).ok);
}

TEST(CompareClose, FindsASingleWrongElementAtFirstMiddleAndLastIndex) {
    const std::size_t n = 513;
    for (std::size_t bad : {std::size_t{0}, n / 2, n - 1}) {
        std::vector<float> e(n), a;
        for (std::size_t i = 0; i < n; ++i) e[i] = 0.25f * static_cast<float>(i) - 3.0f;
        a = e;
        a[bad] += 0.01f;
        const CheckResult r = compare_close(e, a, {1e-5, 1e-5});
        ASSERT_FALSE(r.ok);
        ASSERT_EQ(r.first.size(), 1u);
        EXPECT_EQ(r.first[0].index, bad);
    }
}

TEST(CompareClose, NeverAcceptsAnUnexpectedNaN) {
    std::vector<float> e = {1.0f, 2.0f, 3.0f}, a = {1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f};
    const CheckResult r = compare_close(e, a, {1e3, 1e3});
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint.find("never written"), std::string::npos) << "a computed NaN is not the poison";
}

TEST(CompareExact, SaysAnElementStillHoldingThePoisonWasNeverWritten) {
    std::uint32_t poison_bits = 0xFFFFFFFFu;
    float poison_float;
    std::memcpy(&poison_float, &poison_bits, 4);
    std::vector<float> e = {1.0f, 2.0f}, a = {1.0f, poison_float};
    EXPECT_NE(compare_close(e, a, {1e-3, 1e-3}).hint.find("never written"), std::string::npos);
    std::vector<int> ei = {5, 6, 7}, ai = {5, -1, -1};
    const CheckResult r = compare_exact(ei, ai);
    EXPECT_NE(r.hint.find("the last 2 elements, from index 1 to the end, still hold the poison"), std::string::npos)
        << r.report();
    std::vector<int> scattered = {-1, 6, -1};
    EXPECT_NE(compare_exact(ei, scattered).hint.find("2 output element(s) still hold the poison"), std::string::npos);
    EXPECT_EQ(count_never_written(ei.data(), ai.data(), 3), 2u);
    std::vector<unsigned long long> e64 = {~0ull, 1}, a64 = {~0ull, ~0ull};  // expected poison is not "unwritten"
    EXPECT_EQ(count_never_written(e64.data(), a64.data(), 2), 1u);
}

TEST(CompareClose, AcceptsNaNWhereNaNIsExpectedAndMatchesInfinitiesExactly) {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> e = {nan, inf, -inf};
    EXPECT_TRUE(compare_close(e, e, {0, 0}).ok);
    std::vector<float> a = {nan, -inf, -inf};
    EXPECT_FALSE(compare_close(e, a, {1e30, 1}).ok);
}

TEST(CheckSorted, AcceptsNonDecreasingAndRejectsADescentAnywhere) {
    std::vector<int> v = {1, 2, 2, 3, 9};
    EXPECT_TRUE(check_sorted(v.data(), v.size(), std::less<int>()).ok);
    for (std::size_t i = 1; i < v.size(); ++i) {
        auto w = v;
        std::swap(w[i - 1], w[i]);
        if (w[i - 1] == w[i]) continue;
        const CheckResult r = check_sorted(w.data(), w.size(), std::less<int>());
        ASSERT_FALSE(r.ok);
        EXPECT_EQ(r.first[0].index, i);
    }
    EXPECT_TRUE(check_sorted(v.data(), 0, std::less<int>()).ok);
}

TEST(CheckPermutation, AcceptsAnyReordering) {
    std::vector<unsigned> in = {5, 1, 4, 1, 3, 9}, out = {1, 1, 3, 4, 5, 9};
    EXPECT_TRUE(check_permutation(in.data(), out.data(), in.size()).ok);
}

TEST(CheckPermutation, RejectsASortedOutputWhereOneKeyIsDuplicatedAndAnotherLost) {
    std::vector<unsigned> in = {5, 1, 4, 2, 3, 9};
    std::vector<unsigned> out = {1, 2, 3, 3, 5, 9};  // sorted, but 4 lost and 3 duplicated
    ASSERT_TRUE(check_sorted(out.data(), out.size(), std::less<unsigned>()).ok);
    const CheckResult r = check_permutation(in.data(), out.data(), in.size());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.mismatches, 2u);  // value 3 (1 vs 2 copies) and value 4 (1 vs 0)
    EXPECT_NE(r.report().find("1 x 3"), std::string::npos) << r.report();
    EXPECT_NE(r.report().find("0 x 4"), std::string::npos) << r.report();
}

TEST(CheckPermutation, ComparesFloatsByBitsSoSignedZerosAndNaNsAreKept) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> in = {nan, -0.0f, 0.0f, 1.0f}, ok = {-0.0f, 0.0f, 1.0f, nan}, bad = {0.0f, 0.0f, 1.0f, nan};
    EXPECT_TRUE(check_permutation(in.data(), ok.data(), in.size()).ok);
    EXPECT_FALSE(check_permutation(in.data(), bad.data(), in.size()).ok);
}

TEST(CheckPermutation, Handles64BitKeys) {
    std::vector<unsigned long long> in = {1ull << 40, 3, 1ull << 40}, out = {3, 1ull << 40, (1ull << 40) + 1};
    EXPECT_FALSE(check_permutation(in.data(), out.data(), in.size()).ok);
}

// ---- Hints from the pattern of the differences (check_hints.h) --------------------------------
// Each pattern is shown with a deliberately wrong CPU implementation that produces it, and an
// output that fits no pattern gets no hint.

namespace {

std::vector<std::uint32_t> random_u32(std::size_t n, std::uint32_t seed, std::uint32_t below = 1000) {
    std::vector<std::uint32_t> v(n);
    std::uint32_t s = seed * 2654435761u + 1;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = (s >> 8) % below;
    }
    return v;
}

std::vector<std::uint32_t> exclusive_scan(const std::vector<std::uint32_t>& in) {
    std::vector<std::uint32_t> out(in.size());
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = sum, sum += in[i];
    return out;
}

std::uint32_t total_of(const std::vector<std::uint32_t>& in) {
    std::uint32_t t = 0;
    for (auto x : in) t += x;
    return t;
}

// The wrong scans: the root of the tree left at the total, inclusive for exclusive, and tiles
// scanned without the carry from the tiles before them.
std::vector<std::uint32_t> scan_with_root_left_at_total(const std::vector<std::uint32_t>& in) {
    auto out = exclusive_scan(in);
    for (auto& x : out) x += total_of(in);
    return out;
}
std::vector<std::uint32_t> inclusive_scan(const std::vector<std::uint32_t>& in) {
    std::vector<std::uint32_t> out(in.size());
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) sum += in[i], out[i] = sum;
    return out;
}
std::vector<std::uint32_t> scan_tiles_without_carry(const std::vector<std::uint32_t>& in, std::size_t tile) {
    std::vector<std::uint32_t> out(in.size());
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (i % tile == 0) sum = 0;
        out[i] = sum, sum += in[i];
    }
    return out;
}

bool has_hint(const CheckResult& r, const std::string& text) { return r.hint.find(text) != std::string::npos; }

}  // namespace

TEST(PatternHints, NameAConstantOffsetAndTheQuantityItEquals) {
    const auto in = random_u32(5000, 1);
    const auto expected = exclusive_scan(in);
    const auto actual = scan_with_root_left_at_total(in);
    {
        const CheckResult r = compare_exact(expected, actual);
        ASSERT_FALSE(r.ok);
        EXPECT_TRUE(
            has_hint(r, "every element is off by the same amount: actual - expected = " + std::to_string(total_of(in))))
            << r.report();
        EXPECT_FALSE(has_hint(r, "which is")) << "no quantity was named, so none may be claimed: " << r.report();
    }
    HintScope scope({{}, {{static_cast<double>(total_of(in)), "the total of the input"}}});
    const CheckResult r = compare_exact(expected, actual);
    EXPECT_TRUE(has_hint(r, "which is the total of the input")) << r.report();
    // n = 1: one element, off by the total; the quantity makes it a pattern.
    const std::vector<std::uint32_t> one = {77};
    HintScope inner({{}, {{77.0, "the total of the input"}}});
    const CheckResult single = compare_exact(exclusive_scan(one), scan_with_root_left_at_total(one));
    EXPECT_TRUE(has_hint(single, "the element is off by the same amount: actual - expected = 77, which is the total"))
        << single.report();
    EXPECT_FALSE(has_hint(single, "only the last")) << single.report();
}

TEST(PatternHints, ReadAWrappedUnsignedDifferenceAsNegative) {
    std::vector<std::uint32_t> expected = {10, 20, 30}, actual = {9, 19, 29};
    const CheckResult r = compare_exact(expected, actual);
    EXPECT_TRUE(has_hint(r, "actual - expected = -1")) << r.report();
}

TEST(PatternHints, NameAConstantOffsetInFloatsDespiteRounding) {
    std::vector<float> expected(1000), actual(1000);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        expected[i] = 0.37f * static_cast<float>(i) - 50.0f;
        actual[i] = expected[i] + 2.5f;  // y added twice where y = 2.5
    }
    const CheckResult r = compare_close(expected, actual, {1e-5, 1e-5});
    EXPECT_TRUE(has_hint(r, "off by the same amount: actual - expected = 2.5")) << r.report();
}

TEST(PatternHints, SayAnInclusiveScanIsTheExclusiveOneShiftedByOnePlace) {
    const auto in = random_u32(3000, 2);
    const CheckResult r = compare_exact(exclusive_scan(in), inclusive_scan(in));
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(has_hint(r, "actual[i] = expected[i + 1]")) << r.report();
    EXPECT_TRUE(has_hint(r, "an inclusive result where an exclusive one is asked")) << r.report();
    const CheckResult back = compare_exact(inclusive_scan(in), exclusive_scan(in));
    EXPECT_TRUE(has_hint(back, "actual[i] = expected[i - 1]")) << back.report();
}

TEST(PatternHints, NameTheTileBoundaryFromWhichAMissingCarryMakesEverythingWrong) {
    const auto in = random_u32(5000, 3);
    const auto actual = scan_tiles_without_carry(in, 1024);
    {
        const CheckResult r = compare_exact(exclusive_scan(in), actual);
        EXPECT_TRUE(has_hint(r, "right before index 1024 (= 1024), wrong from there to the end")) << r.report();
    }
    HintScope scope({{{1024, "scan tile"}, {256, "block of 256 threads"}}, {}});
    const CheckResult r = compare_exact(exclusive_scan(in), actual);
    EXPECT_TRUE(has_hint(r, "right before index 1024, the start of scan tile 1 (of 1024 elements), wrong from there"))
        << r.report();
}

TEST(PatternHints, SayWhereAnUnwrittenTailStartsWhenTheGridIsRoundedDown) {
    const std::size_t n = 1000;  // 3 full blocks of 256, then 232 elements no block covers
    std::vector<float> expected(n), actual(n);
    std::uint32_t poison = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        expected[i] = static_cast<float>(i) * 0.5f;
        if (i < 768)
            actual[i] = expected[i];
        else
            std::memcpy(&actual[i], &poison, 4);
    }
    const CheckResult r = compare_close(expected, actual, {1e-6, 1e-6});
    EXPECT_TRUE(has_hint(r, "the last 232 elements, from index 768 (= 3 x 256) to the end, still hold the poison"))
        << r.report();
    EXPECT_TRUE(has_hint(r, "never written")) << r.report();
}

TEST(PatternHints, SayWhenOnlyTheTailPastTheLastFullBlockIsWrong) {
    const std::size_t n = 1027;  // a vector kernel's scalar tail of 3 computed with the wrong scale
    std::vector<float> expected(n), actual(n);
    for (std::size_t i = 0; i < n; ++i) {
        expected[i] = 1.5f * static_cast<float>(i % 97) + 1.0f;
        actual[i] = i < 1024 ? expected[i] : -expected[i] * (1.0f + static_cast<float>(i));
    }
    HintScope scope({{{1024, "block"}}, {}});
    const CheckResult r = compare_close(expected, actual, {1e-6, 1e-6});
    EXPECT_TRUE(
        has_hint(r, "only the last 3 elements differ, from index 1024, the start of block 1 (of 1024 elements)"))
        << r.report();
    EXPECT_TRUE(has_hint(r, "the tail past the last full block (of 1024)")) << r.report();
}

TEST(PatternHints, SayWhenOnlyTheFirstOrOnlyTheLastElementDiffers) {
    auto expected = iota_vec(300);
    auto actual = expected;
    actual[0] = 12345;
    EXPECT_TRUE(has_hint(compare_exact(expected, actual), "only the first element (index 0) differs"));
    actual = expected;
    actual[299] = 12345;
    EXPECT_TRUE(has_hint(compare_exact(expected, actual), "only the last element (index 299) differs"));
}

TEST(PatternHints, GiveNoHintForAnOutputThatFitsNoPattern) {
    const auto expected = random_u32(4000, 4, 1u << 30);
    const auto garbage = random_u32(4000, 5, 1u << 30);
    const CheckResult r = compare_exact(expected, garbage);
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint, "") << r.report();
    // Scattered wrong elements in an otherwise right output: no pattern either.
    auto scattered = expected;
    for (std::size_t i : {17u, 900u, 2501u, 3333u}) scattered[i] ^= 0x55u << (i % 7);
    const CheckResult s = compare_exact(expected, scattered);
    EXPECT_EQ(s.hint, "") << s.report();
    std::vector<float> fe(100), fa(100);
    for (std::size_t i = 0; i < 100; ++i) fe[i] = static_cast<float>(i), fa[i] = static_cast<float>((i * 37) % 101);
    EXPECT_EQ(compare_close(fe, fa, {1e-6, 1e-6}).hint, "");
}

TEST(PatternHints, SayANeverWrittenOutputIsWhollyUnwritten) {
    std::vector<int> expected = {1, 2, 3, 4}, actual(4, -1);
    const CheckResult r = compare_exact(expected, actual);
    EXPECT_TRUE(has_hint(r, "no element was written: all 4 still hold the poison")) << r.report();
}

TEST(PatternHints, SayASortOutputIsSortedInRunsThatWereNeverMerged) {
    // A bitonic sort that stops before its last merge: every tile of 256 sorted on its own.
    auto keys = random_u32(4096, 6, 1u << 30);
    auto runs = keys;
    for (std::size_t t = 0; t < runs.size(); t += 256) std::sort(runs.begin() + t, runs.begin() + t + 256);
    {
        const CheckResult r = check_sorted(runs.data(), runs.size(), std::less<std::uint32_t>());
        ASSERT_FALSE(r.ok);
        EXPECT_TRUE(has_hint(r, "sorted within runs of 256 elements but not across them")) << r.report();
        EXPECT_TRUE(has_hint(r, "of the 15 run borders")) << r.report();
    }
    HintScope scope({{{256, "sort tile"}}, {}});
    EXPECT_TRUE(has_hint(check_sorted(runs.data(), runs.size(), std::less<std::uint32_t>()), "(one sort tile)"));
    // Two halves sorted, not merged.
    auto halves = keys;
    std::sort(halves.begin(), halves.begin() + 3000);
    std::sort(halves.begin() + 3000, halves.end());
    const CheckResult two = check_sorted(halves.data(), halves.size(), std::less<std::uint32_t>());
    EXPECT_TRUE(has_hint(two, "two sorted runs, split at index 3000")) << two.report();
    // Unsorted at random: no runs claimed.
    const CheckResult random = check_sorted(keys.data(), keys.size(), std::less<std::uint32_t>());
    EXPECT_EQ(random.hint, "") << random.report();
}

TEST(PatternHints, NameTheElementLostAndTheOneDoubledWhenOneIsWrittenOverAnother) {
    std::vector<std::uint32_t> in = {50, 10, 40, 20, 30, 90};
    std::vector<std::uint32_t> out = {10, 20, 30, 30, 50, 90};  // a swap that wrote 30 over 40
    const CheckResult r = check_permutation(in.data(), out.data(), in.size());
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(has_hint(r, "1 element of the input lost (e.g. 40 (1 in the input, 0 in the output))")) << r.report();
    EXPECT_TRUE(has_hint(r, "1 extra copy of others (e.g. 30 (1 in the input, 2 in the output))")) << r.report();
    std::vector<std::uint32_t> unwritten = {10, 20, 30, 40, 50, 0xFFFFFFFFu};
    const CheckResult p = check_permutation(in.data(), unwritten.data(), in.size());
    EXPECT_TRUE(has_hint(p, "1 output element(s) still hold the poison")) << p.report();
    EXPECT_FALSE(has_hint(p, "extra cop")) << "the poison is not a copy of another element: " << p.report();
}

TEST(PatternHints, SayASortIsUnstableOnlyWhenTheKeysAndPairsAreRight) {
    std::vector<std::uint32_t> keys = {3, 1, 3, 2}, values = {0, 1, 2, 3};
    std::vector<std::uint32_t> out_keys = {1, 2, 3, 3}, unstable = {1, 3, 2, 0};
    const CheckResult r =
        check_stable_sort(keys.data(), values.data(), out_keys.data(), unstable.data(), 4, std::less<std::uint32_t>());
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(has_hint(r, "equal keys are out of input order (key 3 at position 2)")) << r.report();
    std::vector<std::uint32_t> lost_value = {1, 3, 0, 0};
    const CheckResult l = check_stable_sort(keys.data(), values.data(), out_keys.data(), lost_value.data(), 4,
                                            std::less<std::uint32_t>());
    EXPECT_FALSE(has_hint(l, "not stable")) << "a lost value is not instability: " << l.report();
}

// ---- Patterns over all cases (exercise.h explain_failing_cases) -------------------------------

namespace {
struct Outcome {
    std::vector<Case> cases;
    std::vector<bool> passed;
    void add(std::size_t n, bool ok, Distribution d = Distribution::Uniform, bool in_place = false) {
        Case c{"n=" + std::to_string(n), n, d};
        c.in_place = in_place;
        cases.push_back(c);
        passed.push_back(ok);
    }
    std::string hints() const {
        std::string all;
        for (const auto& h : explain_failing_cases(cases, passed)) all += h + "\n";
        return all;
    }
};
bool is_pow2(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }
}  // namespace

TEST(CaseHints, SayAnImplementationFailsOnlyAtSizesThatAreNotPowersOfTwo) {
    Outcome o;  // a scan that leaves the padding unzeroed AND reads it: wrong exactly off the powers of two
    for (std::size_t n : edge_sizes({4, 10, 12})) o.add(n, n < 3 || is_pow2(n));
    EXPECT_NE(o.hints().find("fails only at sizes that are not powers of two (n = 15, 17, 2^10-1, 2^10+1, ...)"),
              std::string::npos)
        << o.hints();
}

TEST(CaseHints, ClaimNoSizePatternThatTheCaseListConfoundsWithADistribution) {
    Outcome o;  // a tie-rule bug: only few-distinct inputs fail, and they exist only off the powers of two
    for (std::size_t n : {1024u, 4096u}) o.add(n, true);
    for (std::size_t n : {1000u, 5000u}) o.add(n, false, Distribution::FewDistinct);
    EXPECT_EQ(o.hints().find("powers of two"), std::string::npos) << o.hints();
}

TEST(CaseHints, SayAnImplementationFailsOnlyInPlace) {
    Outcome o;
    for (std::size_t n : {1000u, 4096u}) {
        o.add(n, true);
        o.add(n, false, Distribution::Uniform, true);
    }
    EXPECT_NE(o.hints().find("fails only in place"), std::string::npos) << o.hints();
}

TEST(CaseHints, SayFromWhichSizeOnAnImplementationFails) {
    Outcome o;  // right within one tile of 1024, wrong beyond
    for (std::size_t n : edge_sizes({4, 10, 12})) o.add(n, n <= 1024);
    EXPECT_NE(o.hints().find("fails only from n = 2^10+1 on; every n up to 2^10 passes"), std::string::npos)
        << o.hints();
}

TEST(CaseHints, SayAnImplementationFailsOnlyOnOneDistribution) {
    Outcome o;  // a merge whose tie rule is wrong: only inputs with repeated keys fail
    for (std::size_t n : {1000u, 5000u}) {
        o.add(n, true, Distribution::Uniform);
        o.add(n, true, Distribution::Sorted);
        o.add(n, false, Distribution::FewDistinct);
    }
    EXPECT_NE(o.hints().find(std::string("fails only on the ") + to_string(Distribution::FewDistinct) + " inputs"),
              std::string::npos)
        << o.hints();
}

TEST(CaseHints, SayAnImplementationFailsOnlyOnTheEmptyInput) {
    Outcome o;
    o.add(0, false);
    o.add(1, true);
    o.add(1000, true);
    EXPECT_NE(o.hints().find("fails only at n = 0"), std::string::npos) << o.hints();
}

TEST(CaseHints, GiveNoHintWhenTheFailuresFollowNoPattern) {
    Outcome o;
    o.add(1, true);
    o.add(16, false);
    o.add(1000, true);
    o.add(4096, false, Distribution::Sorted);
    o.add(5000, true, Distribution::Sorted);
    EXPECT_EQ(o.hints(), "");
    Outcome all_fail;
    for (std::size_t n : {1u, 16u, 1000u}) all_fail.add(n, false);
    EXPECT_EQ(all_fail.hints(), "") << "nothing passed, so nothing sets the failures apart";
}

// ---- README hints (readme_hints.h) ------------------------------------------------------------

#include "common/readme_hints.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace {
std::string write_readme(const std::string& body) {
    char name[] = "/tmp/pmpp_readme_XXXXXX";
    const int fd = mkstemp(name);
    close(fd);
    std::ofstream(name) << body;
    return name;
}
}  // namespace

TEST(ReadmeHints, ReadTheQuotedSymptomOfEveryBulletOfTheHintsSectionOnly) {
    const std::string path = write_readme(
        "# Ex\n\n## Tasks\n\n- not a hint\n\n## Hints\n\n- \"wrote ... past the end of z\": the bound.\n"
        "  continued here\n- \"is off by the same amount\": the root.\n\n## Questions\n\n- why?\n");
    const auto hints = readme_hints(path);
    ASSERT_EQ(hints.size(), 2u);
    EXPECT_EQ(hints[0].symptom, "wrote ... past the end of z");
    EXPECT_EQ(hints[0].line, 9);
    EXPECT_EQ(hints[1].symptom, "is off by the same amount");
    std::remove(path.c_str());
}

TEST(ReadmeHints, RejectAHintThatQuotesNoSymptomNamingItsLine) {
    const std::string path = write_readme("## Hints\n\n- \"ok\": fine\n- Think about the padding.\n");
    try {
        readme_hints(path);
        ADD_FAILURE() << "a bullet without a quoted symptom was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(":4: a hint must begin with the symptom"), std::string::npos) << e.what();
    }
    const std::string none = write_readme("# Ex\n\n## Tasks\n");
    EXPECT_THROW(readme_hints(none), std::runtime_error);
    std::remove(path.c_str());
    std::remove(none.c_str());
}

TEST(ReadmeHints, MatchASymptomWhoseDotsStandForAnyTextInOrder) {
    const std::string out = "n=1025: wrote 1 element past the end of z (index 1025; it has 1025 elements)";
    EXPECT_TRUE(shows_symptom(out, "wrote ... past the end of z"));
    EXPECT_TRUE(shows_symptom(out, "past the end"));
    EXPECT_FALSE(shows_symptom(out, "past the end of ... wrote"));
    EXPECT_FALSE(shows_symptom(out, "before the start of z"));
}

TEST(ReadmeHints, CheckOutputHoldsEveryFailingCaseAndTheHintsOverAllCases) {
    std::vector<Case> cases;
    for (std::size_t n : edge_sizes({4, 10})) cases.push_back({"n=" + format_size(n), n, Distribution::Uniform, 0});
    const std::string out = check_output(cases, [](const Case& c) {
        return (c.n & (c.n - 1)) == 0 || c.n < 3 ? CheckResult::pass(c.n) : CheckResult::fail("wrong tail");
    });
    EXPECT_TRUE(shows_symptom(out, "n=15: wrong tail")) << out;
    EXPECT_TRUE(shows_symptom(out, "hint over all cases: fails only at sizes that are not powers of two")) << out;
    EXPECT_FALSE(shows_symptom(out, "n=16:")) << out;
}

TEST(PatternHints, ClaimNoRunsShorterThanSixteenUnlessTheExerciseNamesThem) {
    auto pairs = random_u32(1024, 7, 1u << 30);  // a broken network whose last step still sorts pairs
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2)
        if (pairs[i + 1] < pairs[i]) std::swap(pairs[i], pairs[i + 1]);
    const CheckResult r = check_sorted(pairs.data(), pairs.size(), std::less<std::uint32_t>());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint, "") << r.report();
    HintScope scope({{{2, "pair"}}, {}});
    EXPECT_TRUE(has_hint(check_sorted(pairs.data(), pairs.size(), std::less<std::uint32_t>()),
                         "runs of 2 elements (one pair)"));
}
