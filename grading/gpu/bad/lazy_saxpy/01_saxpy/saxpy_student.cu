// Bad submission (issue 15): right on the first call and on the last one of a benchmark run
// (2 warm-ups + 20 timed runs), nothing in between. The harness used to check only the output
// of the last timed run: this earned full points at 0.007x the reference's time.
// Expected: 01_saxpy correctness "passed" (every case is a first call), performance "wrong
// result" (the poison before timed run 1 is still there after it).
#include "saxpy.h"

#include "common/cuda_check.h"

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    static const float* last_x = nullptr;
    static std::size_t last_n = 0, calls = 0;
    if (x == last_x && n == last_n && ++calls % 22 != 0) return;  // seen it: skip, but the last
    if (x != last_x || n != last_n) calls = 1;
    last_x = x, last_n = n;
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
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
