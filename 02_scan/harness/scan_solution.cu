// scan_solution.cu: the reference answer to the student's task (a Blelloch scan, one launch per
// level), linked into build/scan_solution. It must pass every check.
#include "scan.h"

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_blelloch_workspace_bytes(n); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    exclusive_scan_blelloch(in, out, n, workspace);
}

}  // namespace scan
