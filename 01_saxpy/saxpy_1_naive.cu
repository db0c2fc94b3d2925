// saxpy_1_naive.cu: the textbook kernel (PMPP 2.4-2.6): one thread per element, a bounds
// check, 4-byte loads and stores.
//
// Per element it reads 8 bytes and writes 4, so at best it runs at memory bandwidth. Each
// thread has only two 4-byte loads in flight, so the memory system sees fewer bytes in flight
// than it needs to stay busy: measured 0.82 of copy bandwidth at n = 2^28 on an H200 (NOTES.md).
#include "saxpy.h"

#include "common/cuda_check.h"

namespace saxpy {

namespace {

__global__ void saxpy_one_per_thread(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

}  // namespace

void saxpy_naive(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    const unsigned threads = 256;
    const std::size_t blocks = (n + threads - 1) / threads;
    saxpy_one_per_thread<<<static_cast<unsigned>(blocks), threads>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

}  // namespace saxpy
