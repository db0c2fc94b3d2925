// tune/sweep_vectorized.cu: the sweep behind NOTES.md: tile shape, cache hints, grid-stride,
// at n = 2^28, against cudaMemcpy and a 16-byte copy kernel. Built and run by tune/gpu_run.sh.
#include "../saxpy_2_vectorized.cu"
#include "common/timing.h"
#include "common/device_buffer.h"
#include <cstdio>
using namespace pmpp;
using namespace saxpy;

enum Hint { kDefault, kStreaming, kLdg };
template <int THREADS, int ITEMS, Hint H>
__global__ void __launch_bounds__(THREADS) k_plain(std::size_t n4, float a, const float4* __restrict__ x,
                                                   const float4* __restrict__ y, float4* __restrict__ z) {
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(THREADS) * ITEMS + threadIdx.x;
    float4 xv[ITEMS], yv[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        std::size_t i = base + (size_t)k * THREADS;
        if (i < n4) {
            if (H == kStreaming) {
                xv[k] = __ldcs(x + i);
                yv[k] = __ldcs(y + i);
            } else if (H == kLdg) {
                xv[k] = __ldg(x + i);
                yv[k] = __ldg(y + i);
            } else {
                xv[k] = x[i];
                yv[k] = y[i];
            }
        }
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        std::size_t i = base + (size_t)k * THREADS;
        if (i < n4) {
            float4 r = axpy4(a, xv[k], yv[k]);
            if (H == kStreaming)
                __stcs(z + i, r);
            else
                z[i] = r;
        }
    }
}
template <int THREADS, int ITEMS, Hint H>
__global__ void __launch_bounds__(THREADS) k_stride(std::size_t n4, float a, const float4* __restrict__ x,
                                                    const float4* __restrict__ y, float4* __restrict__ z) {
    for (std::size_t base = blockIdx.x * static_cast<std::size_t>(THREADS) * ITEMS + threadIdx.x; base < n4;
         base += (size_t)gridDim.x * THREADS * ITEMS) {
        float4 xv[ITEMS], yv[ITEMS];
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            std::size_t i = base + (size_t)k * THREADS;
            if (i < n4) {
                if (H == kStreaming) {
                    xv[k] = __ldcs(x + i);
                    yv[k] = __ldcs(y + i);
                } else {
                    xv[k] = x[i];
                    yv[k] = y[i];
                }
            }
        }
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            std::size_t i = base + (size_t)k * THREADS;
            if (i < n4) {
                float4 r = axpy4(a, xv[k], yv[k]);
                if (H == kStreaming)
                    __stcs(z + i, r);
                else
                    z[i] = r;
            }
        }
    }
}
__global__ void copy4(std::size_t n4, const float4* __restrict__ x, float4* __restrict__ z) {
    std::size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n4) z[i] = x[i];
}

int main() {
    const std::size_t n = std::size_t{1} << 28, n4 = n / 4;
    DeviceBuffer<float> x(n), y(n), z(n);
    cudaMemset(x.data(), 0x3f, n * 4);
    cudaMemset(y.data(), 0x3e, n * 4);
    L2Flusher fl;
    TimingOptions t;
    t.repeats = 30;
    t.warmup = 3;
    auto X = (const float4*)x.data();
    auto Y = (const float4*)y.data();
    auto Z = (float4*)z.data();
    CopyBandwidth cb = measure_copy_bandwidth(n * 4, t, &fl);
    std::printf("memcpy D2D 2^28 u32: %.4f ms  %.0f GB/s\n", cb.ms.median, cb.gbs);
    Stats s = time_device(t, &fl, [&] { copy4<<<(n4 + 255) / 256, 256>>>(n4, X, Z); });
    std::printf("copy4 kernel: %.4f ms %.0f GB/s = %.3f\n", s.median, 8.0 * n / s.median / 1e6,
                8.0 * n / s.median / 1e6 / cb.gbs);
    s = time_device(t, &fl, [&] { saxpy_naive(n, 2.f, x.data(), y.data(), z.data()); });
    std::printf("naive: %.4f ms %.0f GB/s = %.3f (spread %.3f)\n", s.median, 12.0 * n / s.median / 1e6,
                12.0 * n / s.median / 1e6 / cb.gbs, s.spread());
    s = time_device(t, &fl, [&] { saxpy_vectorized(n, 2.f, x.data(), y.data(), z.data()); });
    std::printf("vectorized (shipped): %.4f ms %.0f GB/s = %.3f (spread %.3f)\n", s.median, 12.0 * n / s.median / 1e6,
                12.0 * n / s.median / 1e6 / cb.gbs, s.spread());
#define RUN(T, I, H)                                                                                             \
    {                                                                                                            \
        s = time_device(t, &fl, [&] { k_plain<T, I, H><<<(n4 + T * I - 1) / (T * I), T>>>(n4, 2.f, X, Y, Z); }); \
        std::printf("plain  T=%3d I=%d H=%d: %.4f ms %.0f GB/s = %.3f\n", T, I, (int)H, s.median,                \
                    12.0 * n / s.median / 1e6, 12.0 * n / s.median / 1e6 / cb.gbs);                              \
    }
    RUN(256, 1, kDefault);
    RUN(256, 2, kDefault);
    RUN(256, 4, kDefault);
    RUN(256, 8, kDefault);
    RUN(256, 1, kStreaming);
    RUN(256, 2, kStreaming);
    RUN(256, 4, kStreaming);
    RUN(256, 8, kStreaming);
    RUN(256, 4, kLdg);
    RUN(128, 4, kStreaming);
    RUN(512, 2, kStreaming);
    RUN(512, 4, kStreaming);
    RUN(1024, 2, kStreaming);
    RUN(128, 8, kStreaming);
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    for (int per : {4, 8, 16, 32}) {
#define RUNS(T, I, H)                                                                                               \
    {                                                                                                               \
        s = time_device(t, &fl, [&] { k_stride<T, I, H><<<sms * per, T>>>(n4, 2.f, X, Y, Z); });                    \
        std::printf("stride T=%3d I=%d H=%d blocks/SM=%d: %.4f ms %.0f GB/s = %.3f\n", T, I, (int)H, per, s.median, \
                    12.0 * n / s.median / 1e6, 12.0 * n / s.median / 1e6 / cb.gbs);                                 \
    }
        RUNS(256, 4, kStreaming);
        RUNS(256, 2, kDefault);
    }
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}
