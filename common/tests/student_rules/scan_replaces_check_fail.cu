// Link rule: a scan that brings its own pmpp::CheckResult::fail, so that a failed check passes.
// Its link must fail, naming pmpp::CheckResult::fail.
#include "scan.h"

#include "common/check.h"

namespace pmpp {
CheckResult CheckResult::fail(const std::string&) { return CheckResult{}; }
}  // namespace pmpp

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int*, std::size_t, void*) {}

}  // namespace scan
