// stats.h: summary statistics of repeated timings. The median is the figure we report (robust
// to the odd slow repeat); the spread tells whether a difference between two variants is real.
#pragma once

#include <cstddef>
#include <vector>

namespace pmpp {

struct Stats {
    std::size_t count = 0;
    double min = 0, max = 0, mean = 0, median = 0, stddev = 0;
    double p10 = 0, p90 = 0;
    // (p90 - p10) / median: the relative width of the middle 80% of the samples.
    double spread() const { return median > 0 ? (p90 - p10) / median : 0.0; }
};

// Percentiles by linear interpolation between order statistics. Empty input gives count 0.
Stats summarize(std::vector<double> samples);

// Every time statistic multiplied by `factor` (a per-frame time from a time for several frames,
// a whole image's time from a sampled part of it); count unchanged.
Stats scaled(Stats s, double factor);

// The statistics of a sum of two timings, summed field by field (the median of a sum is not
// the sum of medians: a report of several scenes' total, not a new measurement); stddev is a's.
Stats summed(const Stats& a, const Stats& b);

// Percentile q in [0, 1] of already sorted samples (linear interpolation).
double percentile_sorted(const std::vector<double>& sorted, double q);

}  // namespace pmpp
