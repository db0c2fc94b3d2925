// The checker must find what is wrong, wherever it is, and say so.
#include "common/check.h"

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

TEST(CompareExact, RejectsOutputOfTheWrongLength) {
    EXPECT_FALSE(compare_exact(iota_vec(10), iota_vec(9)).ok);
}

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
    EXPECT_NE(r.hint.find("2 output element(s)"), std::string::npos) << r.report();
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
