// fp32_peak.cuh: the FP32 ceiling a compute-bound kernel's rate is measured against: the peak the
// hardware implies (SMs x FP32 lanes per SM x 2 flops per fused multiply-add x the SM clock), and
// what independent FMA chains reach on this GPU (the practical ceiling, measured).
#pragma once

#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/report.h"
#include "common/timing.h"

#include <string>

namespace pmpp {

// FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86 and every later architecture.
inline int fp32_lanes_per_sm(const DeviceSummary& device) {
    const int cc = device.compute_major * 10 + device.compute_minor;
    return cc == 75 || cc == 80 || cc < 75 ? 64 : 128;
}

inline double fp32_peak_flops(const DeviceSummary& device) {
    return static_cast<double>(device.sm_count) * fp32_lanes_per_sm(device) * 2.0 * device.sm_clock_mhz * 1e6;
}

namespace detail {

// Eight independent FMA chains per thread: no chain waits on another's latency.
template <int kChains>
__global__ void fma_chains_kernel(float* sink, int steps) {
    float a[kChains];
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = static_cast<float>(threadIdx.x + k) * 1e-3f;
    for (int i = 0; i < steps; ++i)
#pragma unroll
        for (int k = 0; k < kChains; ++k) a[k] = __fmaf_rn(a[k], 0.999f, 1e-3f);
    float s = 0;
#pragma unroll
    for (int k = 0; k < kChains; ++k) s += a[k];
    if (s == 12345.0f) *sink = s;  // never true; keeps the chains alive
}

}  // namespace detail

// The FP32 flops per second FMA chains reach: 8 blocks of 256 threads per SM, the median of 10
// runs after `timing`'s warm-ups (no L2 flush: the chains touch no memory).
inline double measured_fma_flops(const DeviceSummary& device, TimingOptions timing) {
    DeviceBuffer<float> sink(1);
    const int blocks = device.sm_count * 8, threads = 256, steps = 4096;
    timing.repeats = 10;
    const Stats s = time_device(timing, nullptr, [&] {
        detail::fma_chains_kernel<8><<<blocks, threads>>>(sink.data(), steps);
        PMPP_CHECK_LAUNCH();
    });
    return 2.0 * 8 * steps * static_cast<double>(blocks) * threads / (s.median * 1e-3);
}

// "FP32 peak 66.9 TFLOP/s (132 SMs x 128 lanes x 2 flops x 1980 MHz); an FMA chain measures
// 54.9 TFLOP/s here": the two ceilings, for a benchmark's note (it runs the chains).
inline std::string fp32_peak_note(const DeviceSummary& device, const TimingOptions& timing) {
    return format(
        "FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 flops x %d MHz); an FMA chain measures %.1f TFLOP/s here",
        fp32_peak_flops(device) * 1e-12, device.sm_count, fp32_lanes_per_sm(device), device.sm_clock_mhz,
        measured_fma_flops(device, timing) * 1e-12);
}

}  // namespace pmpp
