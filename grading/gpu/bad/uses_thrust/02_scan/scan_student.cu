// Bad submission for the grader's GPU check: a correct scan that calls Thrust, which 02_scan
// forbids. Expected: every 02_scan part "forbidden API used" (zero points, nothing run);
// 01_saxpy full marks.
#include "scan.h"

#include <thrust/execution_policy.h>
#include <thrust/scan.h>

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) {
    thrust::exclusive_scan(thrust::device, in, in + n, out);
}

}  // namespace scan
