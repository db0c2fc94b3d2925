// Bad submission (issue 15): right on every call, but it computes only the first time it sees
// an input (its pointers, n and a: a is drawn afresh for every case) and keeps its own copy of z;
// every later call copies that copy into z. A copy moves 8 bytes an element where saxpy must
// move 12, so the "saxpy" runs at about 1.4x the copy bandwidth measured in the same run:
// faster than memory allows for what it claims to compute.
// Expected: 01_saxpy correctness "passed", performance "implausible timing" (no points, the
// row's fraction of the copy bandwidth and the margin in the message); 02_scan full marks.
#include "saxpy.h"

#include "common/cuda_check.h"

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    static const float *last_x = nullptr, *last_y = nullptr;
    static float last_a = 0;
    static float* copy = nullptr;
    static std::size_t copy_n = 0;
    if (n && copy_n == n && x == last_x && y == last_y && a == last_a) {
        PMPP_CUDA_CHECK(cudaMemcpyAsync(z, copy, n * sizeof(float), cudaMemcpyDeviceToDevice));
        return;
    }
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
    if (n > copy_n) {
        if (copy) PMPP_CUDA_CHECK(cudaFree(copy));
        PMPP_CUDA_CHECK(cudaMalloc(&copy, n * sizeof(float)));
    }
    copy_n = n;
    if (n) PMPP_CUDA_CHECK(cudaMemcpyAsync(copy, z, n * sizeof(float), cudaMemcpyDeviceToDevice));
    last_x = x, last_y = y, last_a = a;
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
