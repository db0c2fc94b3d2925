#include "wrong_mandelbrot.h"

#include "common/cuda_check.h"

namespace {

using mandelbrot::Frame;

enum Mistake { kSwapped, kOneTooMany, kNoBounds, kCorrect };

template <typename T>
__global__ void faulty(Mistake m, Frame<T> f, std::uint32_t* counts) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (m != kNoBounds && (px >= f.width || py >= f.height)) return;
    const T cr = f.re(px), ci = f.im(py);
    T zr = 0, zi = 0;
    int k = m == kOneTooMany ? 1 : 0;
    int steps = 0;
    while (steps < f.max_iter && zr * zr + zi * zi <= static_cast<T>(4)) {
        const T t = zr * zr - zi * zi + cr;
        zi = static_cast<T>(2) * zr * zi + ci;
        zr = t;
        ++k, ++steps;
    }
    if (k > f.max_iter) k = f.max_iter;  // the mistake stays inside the valid range
    const std::size_t i = m == kSwapped ? static_cast<std::size_t>(px) * f.height + py
                                        : static_cast<std::size_t>(py) * f.width + px;
    counts[i] = static_cast<std::uint32_t>(k);
}

template <typename T>
void launch(Mistake m, const mandelbrot::View& view, std::uint32_t* counts) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((view.image_width + 15) / 16, (view.image_height + 15) / 16);
    faulty<T><<<grid, block>>>(m, mandelbrot::make_frame<T>(view), counts);
    PMPP_CHECK_LAUNCH();
}

void launch(Mistake m, const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts) {
    if (precision == mandelbrot::Precision::Float) launch<float>(m, view, counts);
    else launch<double>(m, view, counts);
}

}  // namespace

namespace wrong {

void swaps_x_and_y(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) { launch(kSwapped, v, p, c); }
void counts_one_too_many(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) { launch(kOneTooMany, v, p, c); }
void has_no_bounds_check(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) { launch(kNoBounds, v, p, c); }
void always_uses_float(const mandelbrot::View& v, mandelbrot::Precision, std::uint32_t* c) {
    launch(kCorrect, v, mandelbrot::Precision::Float, c);
}
void never_launches(const mandelbrot::View&, mandelbrot::Precision, std::uint32_t*) {}

}  // namespace wrong
