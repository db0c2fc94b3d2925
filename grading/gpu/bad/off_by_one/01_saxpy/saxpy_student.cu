// Bad submission (issue 15): the classic bound, `i <= n`: one element written past the end of z.
// It passed `make run` and the grader (only `make sanitize` saw it).
// Expected: 01_saxpy correctness "wrong result" (the guard zone after z: "wrote 1 element past
// the end of z"), its performance part "skipped"; 02_scan full marks.
#include "saxpy.h"

#include "common/cuda_check.h"

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 256) / 256), 256>>>(n, a, x, y, z);
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
