#include "common/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pmpp {

double percentile_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    if (q <= 0) return sorted.front();
    if (q >= 1) return sorted.back();
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(pos);
    const double frac = pos - static_cast<double>(lo);
    if (lo + 1 >= sorted.size()) return sorted.back();
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

Stats summarize(std::vector<double> samples) {
    Stats s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
    s.median = percentile_sorted(samples, 0.5);
    s.p10 = percentile_sorted(samples, 0.1);
    s.p90 = percentile_sorted(samples, 0.9);
    double sq = 0;
    for (double v : samples) sq += (v - s.mean) * (v - s.mean);
    s.stddev = s.count > 1 ? std::sqrt(sq / static_cast<double>(s.count - 1)) : 0.0;
    return s;
}

Stats scaled(Stats s, double factor) {
    s.min *= factor, s.max *= factor, s.mean *= factor, s.median *= factor, s.stddev *= factor;
    s.p10 *= factor, s.p90 *= factor;
    return s;
}

Stats summed(const Stats& a, const Stats& b) {
    Stats s = a;
    s.count = std::max(a.count, b.count);
    s.min += b.min, s.max += b.max, s.mean += b.mean, s.median += b.median, s.p10 += b.p10, s.p90 += b.p90;
    return s;
}

}  // namespace pmpp
