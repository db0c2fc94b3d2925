// Link rule: a scan that also brings its own copy of the course's timing summary (common/stats.cpp),
// dividing every time by 100. Its link must fail, naming pmpp::summarize.
#include "scan.h"

#include "common/stats.h"

#include <vector>

namespace pmpp {
Stats summarize(std::vector<double> samples) {
    Stats s{};
    s.median = samples.empty() ? 0.0 : samples[0] / 100.0;
    return s;
}
}  // namespace pmpp

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int*, std::size_t, void*) {}

}  // namespace scan
