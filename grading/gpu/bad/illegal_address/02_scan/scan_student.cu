// Bad submission for the grader's GPU check: a kernel that writes 4 TiB past its array, an
// illegal address the harness's next CUDA call reports.
// Expected: 02_scan correctness "crashed" (the harness's CUDA error message in the report),
// its performance parts "skipped"; 01_saxpy full marks.
#include "scan.h"

#include "common/cuda_check.h"

namespace scan {

__global__ void write_far_away(int* out) { out[threadIdx.x + (std::size_t{1} << 40)] = 1; }

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }

void exclusive_scan_student(const int*, int* out, std::size_t n, void*) {
    if (n == 0) return;
    write_far_away<<<1, 32>>>(out);
    PMPP_CHECK_LAUNCH();
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace scan
