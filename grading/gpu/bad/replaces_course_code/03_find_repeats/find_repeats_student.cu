// Bad submission (issue 15): a wrong find_repeats (it reports no repeats at all) whose file also
// defines the members of pmpp::CheckResult that check.cpp defines, its fail() passing whatever
// it is given. Linked before libpmpp_common.a, it replaced the checker: a wrong answer was
// scored as correct.
// Expected: every 03_find_repeats part "build failed", the message naming
// pmpp::CheckResult::fail as a symbol that course code defines.
#include "find_repeats.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pmpp {

struct Mismatch {
    std::size_t index = 0;
    std::string expected, actual;
};

struct CheckResult {
    bool ok = true;
    std::size_t checked = 0, mismatches = 0;
    std::vector<Mismatch> first;
    std::string message, hint;
    std::string report() const;
    static CheckResult pass(std::size_t checked);
    static CheckResult fail(const std::string& message);
};

CheckResult CheckResult::pass(std::size_t checked) {
    CheckResult r;
    r.checked = checked;
    return r;
}

CheckResult CheckResult::fail(const std::string&) { return pass(1); }  // every failure a pass

std::string CheckResult::report() const { return "ok"; }

}  // namespace pmpp

namespace find_repeats {

std::size_t find_repeats_student_workspace_bytes(std::size_t) { return 0; }

std::size_t find_repeats_student(const int*, std::size_t, int*, void*) { return 0; }

}  // namespace find_repeats
