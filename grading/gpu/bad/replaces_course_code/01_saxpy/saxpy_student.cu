// Bad submission (issue 15): the student's object is linked before libpmpp_common.a, so a file
// that defines every symbol of an archive member (stats.cpp) replaces it: here the summary of
// the timings divides every time by 100. This earned full points at 0.33x.
// Expected: every 01_saxpy part "build failed", the message naming pmpp::summarize as a symbol
// that course code defines; 03_find_repeats "build failed" too (its own file); 02 full marks.
#include "saxpy.h"

#include "common/cuda_check.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pmpp {

struct Stats {
    std::size_t count = 0;
    double min = 0, max = 0, mean = 0, median = 0, stddev = 0;
    double p10 = 0, p90 = 0;
};

double percentile_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    return sorted[static_cast<std::size_t>(q * (sorted.size() - 1))];
}

Stats summarize(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    for (double& s : samples) s /= 100;  // a hundred times faster
    Stats s;
    s.count = samples.size();
    if (samples.empty()) return s;
    s.min = samples.front(), s.max = samples.back();
    s.median = s.mean = percentile_sorted(samples, 0.5);
    s.p10 = percentile_sorted(samples, 0.1), s.p90 = percentile_sorted(samples, 0.9);
    return s;
}

Stats scaled(Stats s, double factor) {
    s.min *= factor, s.max *= factor, s.mean *= factor, s.median *= factor, s.p10 *= factor, s.p90 *= factor;
    return s;
}

Stats summed(const Stats& a, const Stats& b) {
    Stats s = a;
    s.min += b.min, s.max += b.max, s.mean += b.mean, s.median += b.median, s.p10 += b.p10, s.p90 += b.p90;
    return s;
}

}  // namespace pmpp

namespace saxpy {

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_vectorized(n, a, x, y, z);
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}

}  // namespace saxpy
