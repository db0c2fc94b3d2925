// Bad submission for the grader's GPU check: a kernel that never finishes (it waits for a flag
// nothing sets; the volatile read keeps the compiler from removing the loop).
// Expected: 01_saxpy correctness "timed out", its performance "skipped"; 02_scan full marks
// (the hung process is killed, so the GPU is free for the next part).
#include "saxpy.h"

#include "common/cuda_check.h"

__device__ int never_set = 0;

__global__ void saxpy_waiting_forever(std::size_t n, float a, const float* x, const float* y, float* z) {
    while (*static_cast<volatile int*>(&never_set) == 0) {}
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    saxpy_waiting_forever<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

// Its own from-host part (a student may not call the course's saxpy_from_host_with).
void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t bytes = (n ? n : 1) * sizeof(float);
    float *dx = nullptr, *dy = nullptr, *dz = nullptr;
    PMPP_CUDA_CHECK(cudaMalloc(&dx, bytes));
    PMPP_CUDA_CHECK(cudaMalloc(&dy, bytes));
    PMPP_CUDA_CHECK(cudaMalloc(&dz, bytes));
    PMPP_CUDA_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    PMPP_CUDA_CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy_student(n, a, dx, dy, dz);
    PMPP_CUDA_CHECK(cudaMemcpy(z, dz, n * sizeof(float), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaFree(dx));
    PMPP_CUDA_CHECK(cudaFree(dy));
    PMPP_CUDA_CHECK(cudaFree(dz));
}
