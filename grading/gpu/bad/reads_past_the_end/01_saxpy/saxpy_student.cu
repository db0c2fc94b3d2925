// Bad submission (issue 17): a look-ahead that reads x[i + 1], one element past the end of x
// for the last thread, and uses it so that the compiler keeps the load, yet z never changes
// (the inputs lie in [-1, 1): `next` is never 1234.5, and 1e-30 is far below the check's
// tolerance anyway). The check, the guard zones and the benchmark cannot see it: only the
// sanitizer can. It reads past the end only where that read cannot fault: when x + n does not
// start a 256-byte block, x[n] lies in the block of x[n - 1], on the same mapped page (memcheck
// still counts it: it knows the size each allocation asked for). A read that faulted would be a
// crash, which the check already scores; the benchmark's 2^26 floats end on a block boundary,
// so it never reads past the end there.
// Expected: 01_saxpy correctness full marks, performance passed (a naive kernel, slower than the
// reference's vectorized one), sanitize "sanitizer error" quoting "Invalid __global__ read of
// size 4 bytes" at saxpy_kernel in 01_saxpy/saxpy_student.cu; 02_scan full marks.
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cstdint>

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const bool same_block = reinterpret_cast<std::uintptr_t>(x + n) % 256 != 0;
    const float next = (i + 1 < n || same_block) ? x[i + 1] : 0.0f;
    z[i] = a * x[i] + y[i] + (next == 1234.5f ? 1e-30f : 0.0f);
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
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
