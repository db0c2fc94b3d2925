// Bad submission (issue 15): the scan builds on the course's own block scan by including a
// course file that is not the exercise's header (common/primitives/scan.cuh, the warp and
// block scans of the fast reference). The grader's clean tree holds every reference source, so
// any of them can be included. Expected: every 02_scan part "forbidden API used", naming the
// header; 01_saxpy "forbidden API used" too (its own file).
#include "scan.h"
#include "common/primitives/scan.cuh"

#include "common/cuda_check.h"

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_blelloch_workspace_bytes(n); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    exclusive_scan_blelloch(in, out, n, workspace);
}

}  // namespace scan
