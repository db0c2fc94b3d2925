// mandelbrot_1_seed.cu: the seed's kernel (PMPP 3.1-3.2: a 2-D grid over a 2-D image; 4.4-4.5:
// warps and control divergence). One thread per pixel, 16x16 blocks, bounds checked on both
// axes, the escape loop written out as z = z^2 + c, with nvcc's default contraction (FMA).
//
// What it shows: the pixels of a warp (here 16x2 of them) iterate different numbers of times,
// and the warp runs until its slowest lane is done. Inside the set every lane runs max_iter
// times and no lane waits; at the boundary one slow lane holds 31 finished ones. The profiled
// instantiation counts exactly that, inside the kernel (mandelbrot.h, WarpActivity), and the
// harness draws it as an image of per-warp cost.
// Measured (H200, 2026-11-30): 2.38 T iterations/s on the full view at 3840x2560, 200 iterations;
// 2.78 inside the set (33% of FP32 peak). (Anchor: 2.4 T iterations/s on the full view, 3840x2160, 1000
// iterations; 2.75 T iterations/s inside the set, about 33% of the FP32 FMA peak).
#include "mandelbrot.h"
#include "mandelbrot_device.cuh"

#include "common/cuda_check.h"

namespace mandelbrot {

namespace {

template <typename T, bool kProfile>
__global__ void seed_kernel(Frame<T> f, std::uint32_t* counts, std::uint32_t* warp_trips, float* warp_efficiency,
                            WarpActivity* activity) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if constexpr (!kProfile) {
        if (px >= f.width || py >= f.height) return;  // the seed's bounds check, on both axes
    }
    // (Profiled, the lanes outside the image stay to the end: the warp's totals need all 32.)
    const bool in_image = px < f.width && py < f.height;
    const unsigned lane = (threadIdx.y * blockDim.x + threadIdx.x) % 32;

    const T cr = f.re(px), ci = f.im(py);
    T zr = 0, zi = 0;
    int k = 0;
    unsigned long long slots = 0, lanes = 0;
    while (in_image && k < f.max_iter && zr * zr + zi * zi <= static_cast<T>(4)) {
        const T t = zr * zr - zi * zi + cr;
        zi = static_cast<T>(2) * zr * zi + ci;
        zr = t;
        ++k;
        if constexpr (kProfile) count_step(lane, slots, lanes);
    }
    const std::size_t i = static_cast<std::size_t>(py) * f.width + px;
    if constexpr (kProfile) {
        slots = warp_sum(slots);
        lanes = warp_sum(lanes);
        if (in_image) {
            warp_trips[i] = static_cast<std::uint32_t>(slots / 32);
            warp_efficiency[i] =
                slots ? static_cast<float>(static_cast<double>(lanes) / static_cast<double>(slots)) : 1.0f;
        }
        if (lane == 0) {
            atomicAdd(&activity->lane_iterations, lanes);
            atomicAdd(&activity->lane_slots, slots);
        }
    }
    if (in_image) counts[i] = static_cast<std::uint32_t>(k);
}

template <typename T, bool kProfile>
void launch(const View& view, std::uint32_t* counts, std::uint32_t* warp_trips, float* warp_efficiency,
            WarpActivity* activity) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((view.image_width + block.x - 1) / block.x, (view.image_height + block.y - 1) / block.y);
    seed_kernel<T, kProfile><<<grid, block>>>(make_frame<T>(view), counts, warp_trips, warp_efficiency, activity);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

void mandelbrot_seed(const View& view, Precision precision, std::uint32_t* counts) {
    if (precision == Precision::Float)
        launch<float, false>(view, counts, nullptr, nullptr, nullptr);
    else
        launch<double, false>(view, counts, nullptr, nullptr, nullptr);
}

void mandelbrot_seed_profiled(const View& view, Precision precision, std::uint32_t* counts, std::uint32_t* warp_trips,
                              float* warp_efficiency, WarpActivity* activity) {
    if (precision == Precision::Float)
        launch<float, true>(view, counts, warp_trips, warp_efficiency, activity);
    else
        launch<double, true>(view, counts, warp_trips, warp_efficiency, activity);
}

}  // namespace mandelbrot
