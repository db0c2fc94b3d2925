// Bad submission for the grader's GPU check: a kernel that never finishes (it waits for a flag
// nothing sets; the volatile read keeps the compiler from removing the loop).
// Expected: 01_saxpy correctness "timed out", its performance "skipped"; 02_scan full marks
// (the hung process is killed, so the GPU is free for the next part).
#include "saxpy.h"

#include "common/cuda_check.h"

__device__ int never_set = 0;

__global__ void saxpy_waiting_forever(std::size_t n, float a, const float* x, const float* y, float* z) {
    while (*static_cast<volatile int*>(&never_set) == 0) {
    }
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    saxpy_waiting_forever<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}
