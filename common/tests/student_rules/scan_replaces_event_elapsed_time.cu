// Link rule: a scan that defines cudaEventElapsedTime, which the harness's timing takes from the
// CUDA runtime: every measured time would be the student's. Its link must fail, naming it.
#include "scan.h"

#include <cuda_runtime.h>

extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0.001f;
    return cudaSuccess;
}

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int*, std::size_t, void*) {}

}  // namespace scan
