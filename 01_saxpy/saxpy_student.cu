// saxpy_student.cu: YOUR FILE. Complete tasks 1-3 (README.md), then run `make run`.
//
// The harness calls the two functions at the bottom; your code stays inside namespace saxpy.
// Until you write them, the check rejects this file: the output arrays are filled with NaN
// before each run, so an output you never write shows up as "never written" (it still holds
// the NaN).
#include "saxpy.h"

#include "common/cuda_check.h"

namespace saxpy {

// Task 1: the kernel. Each thread computes one element: z[i] = a * x[i] + y[i].
// The grid may have more threads than there are elements: only threads with i < n may write.
// Use std::size_t for i: n can exceed 2^31.
__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    // TODO(task 1)
}

// Task 2: launch saxpy_kernel with enough blocks to give every element a thread, then call
// PMPP_CHECK_LAUNCH() so a bad launch configuration is reported with this file and line.
void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    // TODO(task 2)
    (void)n, (void)a, (void)x, (void)y, (void)z;  // delete this line when you use them
}

// Task 3: from host memory. cudaMalloc three device arrays, cudaMemcpy x and y to the device,
// call saxpy_student, cudaMemcpy z back to the host, cudaFree everything. Wrap every runtime
// call in PMPP_CUDA_CHECK(...).
void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    // TODO(task 3)
    (void)n, (void)a, (void)x, (void)y, (void)z;  // delete this line when you use them
}

}  // namespace saxpy
