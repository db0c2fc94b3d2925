#include "common/stats.h"

#include <gtest/gtest.h>

using namespace pmpp;

TEST(Stats, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(summarize({5, 1, 3}).median, 3);
    EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(Stats, MinMaxMeanAndSampleStddev) {
    const Stats s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
    EXPECT_DOUBLE_EQ(s.min, 2);
    EXPECT_DOUBLE_EQ(s.max, 9);
    EXPECT_DOUBLE_EQ(s.mean, 5);
    EXPECT_NEAR(s.stddev, 2.138089935, 1e-9);  // sample (n-1) standard deviation
    EXPECT_EQ(s.count, 8u);
}

TEST(Stats, PercentilesInterpolateBetweenOrderStatistics) {
    std::vector<double> v;
    for (int i = 0; i <= 10; ++i) v.push_back(i * 10.0);  // 0..100
    const Stats s = summarize(v);
    EXPECT_DOUBLE_EQ(s.p10, 10);
    EXPECT_DOUBLE_EQ(s.p90, 90);
    EXPECT_DOUBLE_EQ(s.spread(), 80.0 / 50.0);
    EXPECT_DOUBLE_EQ(percentile_sorted({1, 2}, 0.25), 1.25);
}

TEST(Stats, OneOutlierMovesTheMeanButNotTheMedian) {
    const Stats s = summarize({1, 1, 1, 1, 1, 1, 1, 1, 1, 100});
    EXPECT_DOUBLE_EQ(s.median, 1);
    EXPECT_GT(s.mean, 10);
}

TEST(Stats, EmptyAndSingleSamples) {
    EXPECT_EQ(summarize({}).count, 0u);
    const Stats one = summarize({3.5});
    EXPECT_DOUBLE_EQ(one.median, 3.5);
    EXPECT_DOUBLE_EQ(one.stddev, 0);
    EXPECT_DOUBLE_EQ(one.spread(), 0);
}

TEST(Stats, ScaledMultipliesEveryTimeButNotTheCount) {
    const Stats s = scaled(summarize({1, 2, 3, 4, 10}), 0.5);
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.min, 0.5);
    EXPECT_DOUBLE_EQ(s.max, 5.0);
    EXPECT_DOUBLE_EQ(s.median, 1.5);
    EXPECT_DOUBLE_EQ(s.mean, 2.0);
    EXPECT_DOUBLE_EQ(s.p10, summarize({1, 2, 3, 4, 10}).p10 * 0.5);
    EXPECT_DOUBLE_EQ(s.spread(), summarize({1, 2, 3, 4, 10}).spread());
}

TEST(Stats, SummedAddsFieldByFieldAndKeepsTheLargerCount) {
    const Stats a = summarize({1, 2, 3}), b = summarize({10, 20, 30, 40});
    const Stats s = summed(a, b);
    EXPECT_EQ(s.count, 4u);
    EXPECT_DOUBLE_EQ(s.min, 11.0);
    EXPECT_DOUBLE_EQ(s.max, 43.0);
    EXPECT_DOUBLE_EQ(s.median, 2.0 + 25.0);
    EXPECT_DOUBLE_EQ(s.mean, 2.0 + 25.0);
    EXPECT_DOUBLE_EQ(s.p90, a.p90 + b.p90);
}
