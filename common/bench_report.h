// bench_report.h: the benchmark's tables and results rows, for one size at a time (the runner
// measures; this prints and records). One table per section, in first-seen order; ratios
// against the baseline's row of the same section; throughput against the copy measured in the
// same run.
#pragma once

#include "common/exercise.h"

#include <ostream>
#include <string>
#include <vector>

namespace pmpp {

struct BenchRow {
    const Impl* impl;
    Measurement m;
};

struct BenchReport {
    std::string baseline;  // the baseline's name
    const Impl* baseline_impl = nullptr;
    bool baseline_added = false;  // timed only because it is the baseline
    std::string items_unit;
    double copy_gbs = 0;
};

// Prints the tables of size n and appends one results row per measurement to `rows_json`; each
// row whose timed runs were wrong adds a line to `wrong` ("label at n=...: message").
void report_size(std::ostream& os, const BenchReport& report, std::size_t n, const std::vector<BenchRow>& rows,
                 Json& rows_json, std::vector<std::string>& wrong);

// "student 1.234 ms at n=256M, 3000 GB/s = 90% of copy, 1.02x cub's time": the student's kernel
// row at the largest size; empty when the student was not timed.
std::string key_figure(const Json& rows_json, const std::string& baseline);

std::string format_ms(double ms);

}  // namespace pmpp
