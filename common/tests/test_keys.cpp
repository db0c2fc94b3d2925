// The float total order, the order-preserving key maps, and the checks for key-value sorts.
#include "common/check.h"
#include "common/keys.h"
#include "common/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace pmpp;

TEST(Keys, FloatTotalOrderPutsNegativeZeroBeforeZeroAndEveryNaNLast) {
    const float inf = std::numeric_limits<float>::infinity();
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    std::uint32_t bits = 0x7F800001u;  // the smallest positive NaN payload
    float tiny_nan, negative_nan, largest_negative_nan;
    std::memcpy(&tiny_nan, &bits, 4);
    bits = 0xFFC00000u;  // x86's default NaN: sign bit set
    std::memcpy(&negative_nan, &bits, 4);
    bits = 0xFF800001u;  // the negative NaN with the smallest payload: the very last key
    std::memcpy(&largest_negative_nan, &bits, 4);
    const std::vector<float> ordered = {-inf, -3e38f, -1.0f, -1e-45f,  -0.0f, 0.0f,         1e-45f,
                                        1.0f, 3e38f,  inf,   tiny_nan, qnan,  negative_nan, largest_negative_nan};
    for (std::size_t i = 0; i + 1 < ordered.size(); ++i)
        EXPECT_LT(ordered_bits(ordered[i]), ordered_bits(ordered[i + 1])) << i;
    EXPECT_EQ(ordered_bits(-inf), 0u);
    EXPECT_EQ(ordered_bits(largest_negative_nan), 0xFFFFFFFFu);
    TotalOrderLess less;
    EXPECT_TRUE(less(-0.0f, 0.0f));
    EXPECT_TRUE(less(inf, -qnan));
    EXPECT_FALSE(less(-qnan, inf));
}

TEST(Keys, MapsRoundTripAndPreserveOrderOnRandomValues) {
    Rng rng(12345);
    for (int i = 0; i < 100000; ++i) {
        const std::uint32_t a = rng.next_u32(), b = rng.next_u32();
        float fa, fb;
        std::memcpy(&fa, &a, 4);
        std::memcpy(&fb, &b, 4);
        const float back = from_ordered_bits(ordered_bits(fa));
        ASSERT_EQ(std::memcmp(&back, &fa, 4), 0);
        if (!std::isnan(fa) && !std::isnan(fb) && fa < fb) {
            ASSERT_LT(ordered_bits(fa), ordered_bits(fb));
        }
        const auto ia = static_cast<std::int32_t>(a), ib = static_cast<std::int32_t>(b);
        ASSERT_EQ(from_ordered_bits_i32(ordered_bits(ia)), ia);
        ASSERT_EQ(ia < ib, ordered_bits(ia) < ordered_bits(ib));
        const auto la = static_cast<std::int64_t>((std::uint64_t{a} << 32) | b);
        const auto lb = static_cast<std::int64_t>((std::uint64_t{b} << 32) | a);
        ASSERT_EQ(la < lb, ordered_bits(la) < ordered_bits(lb));
    }
}

TEST(PairChecks, AcceptAStableSortAndRejectValuesThatLeftTheirKeys) {
    const std::vector<unsigned> keys = {3, 1, 3, 2, 1};
    const std::vector<unsigned> vals = {0, 1, 2, 3, 4};
    const std::vector<unsigned> sk = {1, 1, 2, 3, 3}, sv = {1, 4, 3, 0, 2};
    EXPECT_TRUE(check_stable_sort(keys.data(), vals.data(), sk.data(), sv.data(), 5, std::less<unsigned>()).ok);
    EXPECT_TRUE(check_pairs_permutation(keys.data(), vals.data(), sk.data(), sv.data(), 5).ok);
    const std::vector<unsigned> swapped = {1, 4, 0, 3, 2};  // value 0 moved to key 2
    EXPECT_FALSE(check_pairs_permutation(keys.data(), vals.data(), sk.data(), swapped.data(), 5).ok);
}

TEST(PairChecks, StableCheckRejectsEqualKeysOutOfInputOrder) {
    const std::vector<unsigned> keys = {3, 1, 3, 2, 1};
    const std::vector<unsigned> vals = {0, 1, 2, 3, 4};
    const std::vector<unsigned> sk = {1, 1, 2, 3, 3}, unstable = {4, 1, 3, 0, 2};
    EXPECT_TRUE(check_pairs_permutation(keys.data(), vals.data(), sk.data(), unstable.data(), 5).ok);
    const CheckResult r =
        check_stable_sort(keys.data(), vals.data(), sk.data(), unstable.data(), 5, std::less<unsigned>());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.first.at(0).index, 0u);
    EXPECT_NE(r.hint.find("not stable"), std::string::npos);
}
