// mandelbrot_0_pinned.cu: the GPU twin of the CPU reference, the one kernel that must match it
// bit for bit. One thread per pixel on a 16x16 grid (so also the answer to tasks 1 and 2),
// calling escape_time (mandelbrot_definition.h): the CPU's loop, operation for operation.
//
// Why it needs its own file: by default nvcc fuses a * b + c into one fused multiply-add
// (FMA), which rounds once where the CPU rounds twice, and near the boundary of the set a
// different last bit changes the escape count. The Makefile compiles this file alone with
// -fmad=false, so every product and sum rounds on its own, as on the CPU (-ffp-contract=off).
// The harness uses it as the reference of the benchmark's checks (it is proven equal to the
// CPU on every check case) and for the pictures (mandelbrot_escape_values).
// Measured (H200, 2026-11-30): 9-11% slower than the seed kernel (full view 0.252 ms against 0.231).
#include "mandelbrot.h"
#include "mandelbrot_definition.h"

#include "common/cuda_check.h"

namespace mandelbrot {

namespace {

template <typename T, bool kWithMagnitude>
__global__ void pinned_kernel(Frame<T> f, std::uint32_t* counts, float* magnitude2) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= f.width || py >= f.height) return;
    const std::size_t i = static_cast<std::size_t>(py) * f.width + px;
    T m = 0;
    counts[i] = escape_time(f.re(px), f.im(py), f.max_iter, kWithMagnitude ? &m : nullptr);
    if (kWithMagnitude) magnitude2[i] = static_cast<float>(m);
}

template <typename T, bool kWithMagnitude>
void launch(const View& view, std::uint32_t* counts, float* magnitude2) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((view.image_width + block.x - 1) / block.x, (view.image_height + block.y - 1) / block.y);
    pinned_kernel<T, kWithMagnitude><<<grid, block>>>(make_frame<T>(view), counts, magnitude2);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

void mandelbrot_pinned(const View& view, Precision precision, std::uint32_t* counts) {
    if (precision == Precision::Float)
        launch<float, false>(view, counts, nullptr);
    else
        launch<double, false>(view, counts, nullptr);
}

void mandelbrot_escape_values(const View& view, Precision precision, std::uint32_t* counts, float* magnitude2) {
    if (precision == Precision::Float)
        launch<float, true>(view, counts, magnitude2);
    else
        launch<double, true>(view, counts, magnitude2);
}

}  // namespace mandelbrot
