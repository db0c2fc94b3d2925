// saxpy_2_vectorized.cu: the bandwidth-optimal SAXPY.
//
// Idea over saxpy_1_naive: SAXPY does 2 flops per 12 bytes, so only bytes matter, and the
// memory system needs many bytes in flight to reach its bandwidth (Little's law, PMPP 5-6).
//  - 16-byte accesses (float4): a quarter of the load/store instructions, full 128-byte lines
//    per 8 threads;
//  - ITEMS float4 per thread, all loads issued before the first use, so each thread has
//    2 * ITEMS independent 16-byte loads in flight;
//  - plain loads and stores: the streaming hints (__ldcs/__stcs, "evict first") looked right
//    for data touched once but measured 7% slower on an H200 (NOTES.md);
//  - any alignment: a head of up to 3 elements brings x, y and z to 16 bytes together; when
//    their misalignments differ, float4 is impossible and the scalar kernel runs instead.
// Measured on an H200 (NOTES.md): 1.03x the device-to-device cudaMemcpy bandwidth at n = 2^28
// (the naive kernel 0.81x): SAXPY reads twice what it writes, which HBM serves better than a copy.
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cstdint>

namespace saxpy {

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 2;  // float4 per thread per array: 1, 2, 4, 8 within 1% on an H200 (NOTES.md)

__device__ __forceinline__ float4 axpy4(float a, float4 x, float4 y) {
    return make_float4(fmaf(a, x.x, y.x), fmaf(a, x.y, y.y), fmaf(a, x.z, y.z), fmaf(a, x.w, y.w));
}

// x, y, z point at the first 16-byte-aligned element; n4 float4 follow. Block 0 also does
// the `edges` scalar elements: `head` of them before the aligned part, the rest after it.
template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    saxpy_float4(std::size_t n4, float a, const float4* __restrict__ x, const float4* __restrict__ y,
                 float4* __restrict__ z, const float* __restrict__ xs, const float* __restrict__ ys,
                 float* __restrict__ zs, unsigned head, unsigned edges, std::size_t tail_start) {
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(THREADS) * ITEMS + threadIdx.x;
    float4 xv[ITEMS], yv[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const std::size_t i = base + static_cast<std::size_t>(k) * THREADS;
        if (i < n4) {
            xv[k] = x[i];
            yv[k] = y[i];
        }
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const std::size_t i = base + static_cast<std::size_t>(k) * THREADS;
        if (i < n4) z[i] = axpy4(a, xv[k], yv[k]);
    }
    if (blockIdx.x == 0 && threadIdx.x < edges) {
        const std::size_t i = threadIdx.x < head ? threadIdx.x : tail_start + (threadIdx.x - head);
        zs[i] = fmaf(a, xs[i], ys[i]);
    }
}

template <int THREADS, int ITEMS>
void launch_vectorized(std::size_t n, float a, const float* x, const float* y, float* z) {
    const auto misalign = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16; };
    if (misalign(x) != misalign(y) || misalign(x) != misalign(z)) {
        saxpy_naive(n, a, x, y, z);  // no common alignment: 16-byte accesses are impossible
        return;
    }
    const std::size_t head = misalign(x) == 0 ? 0 : (16 - misalign(x)) / sizeof(float);
    const std::size_t head_n = head < n ? head : n;
    const std::size_t n4 = (n - head_n) / 4;
    const std::size_t tail_start = head_n + 4 * n4;
    const unsigned edges = static_cast<unsigned>(head_n + (n - tail_start));
    const std::size_t per_block = static_cast<std::size_t>(THREADS) * ITEMS;
    std::size_t blocks = (n4 + per_block - 1) / per_block;
    if (blocks == 0) blocks = 1;  // the edges still need block 0
    saxpy_float4<THREADS, ITEMS><<<static_cast<unsigned>(blocks), THREADS>>>(
        n4, a, reinterpret_cast<const float4*>(x + head_n), reinterpret_cast<const float4*>(y + head_n),
        reinterpret_cast<float4*>(z + head_n), x, y, z, static_cast<unsigned>(head_n), edges, tail_start);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

void saxpy_vectorized(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    launch_vectorized<kThreads, kItems>(n, a, x, y, z);
}

}  // namespace saxpy
