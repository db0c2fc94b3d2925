#include "wrong_mandelbrot.h"

#include "../mandelbrot_definition.h"  // escape_time

#include "common/cuda_check.h"

#include <set>
#include <tuple>

namespace {

using mandelbrot::Frame;

enum Mistake { kSwapped, kOneTooMany, kNoBounds, kNoTwo, kCorrect };

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
        zi = (m == kNoTwo ? static_cast<T>(1) : static_cast<T>(2)) * zr * zi + ci;
        zr = t;
        ++k, ++steps;
    }
    if (k > f.max_iter) k = f.max_iter;  // the mistake stays inside the valid range
    const std::size_t i =
        m == kSwapped ? static_cast<std::size_t>(px) * f.height + py : static_cast<std::size_t>(py) * f.width + px;
    counts[i] = static_cast<std::uint32_t>(k);
}

template <typename T>
void launch(Mistake m, const mandelbrot::View& view, std::uint32_t* counts, bool round_down = false) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid = round_down ? dim3(view.image_width / 16, view.image_height / 16)
                                 : dim3((view.image_width + 15) / 16, (view.image_height + 15) / 16);
    if (grid.x == 0 || grid.y == 0) return;  // rounded down to no block at all: a launch would be an error
    faulty<T><<<grid, block>>>(m, mandelbrot::make_frame<T>(view), counts);
    PMPP_CHECK_LAUNCH();
}

void launch(Mistake m, const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts,
            bool round_down = false) {
    if (precision == mandelbrot::Precision::Float)
        launch<float>(m, view, counts, round_down);
    else
        launch<double>(m, view, counts, round_down);
}

template <typename T>
__global__ void flat_less_or_equal(Frame<T> f, std::uint32_t* counts) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= f.pixels()) {  // the mistake: i < pixels
        const int px = static_cast<int>(i % f.width), py = static_cast<int>(i / f.width);
        counts[i] = mandelbrot::escape_time(f.re(px), f.im(py), f.max_iter);
    }
}

template <typename T>
__global__ void bottom_up(Frame<T> f, std::uint32_t* counts) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = f.height - 1 - static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (px >= f.width || row >= f.height) return;  // the mistake: the row can only go below 0
    counts[static_cast<std::ptrdiff_t>(row) * f.width + px] = mandelbrot::escape_time(f.re(px), f.im(row), f.max_iter);
}

template <typename T>
void launch_flat(const mandelbrot::View& view, std::uint32_t* counts) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const Frame<T> f = mandelbrot::make_frame<T>(view);
    flat_less_or_equal<T><<<static_cast<unsigned>(f.pixels() / 256 + 1), 256>>>(f, counts);
    PMPP_CHECK_LAUNCH();
}

template <typename T>
void launch_bottom_up(const mandelbrot::View& view, std::uint32_t* counts) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((view.image_width + 15) / 16, (view.image_height + 15) / 16);
    bottom_up<T><<<grid, block>>>(mandelbrot::make_frame<T>(view), counts);
    PMPP_CHECK_LAUNCH();
}

// The memo of remembers_its_last_call: every (output, view, precision) it has computed once.
using CallKey = std::tuple<std::uintptr_t, double, double, double, int, int, int, int>;
std::set<CallKey>& remembered_calls() {
    static std::set<CallKey> calls;
    return calls;
}

}  // namespace

namespace wrong {

void swaps_x_and_y(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) { launch(kSwapped, v, p, c); }
void counts_one_too_many(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    launch(kOneTooMany, v, p, c);
}
void has_no_bounds_check(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    launch(kNoBounds, v, p, c);
}
void always_uses_float(const mandelbrot::View& v, mandelbrot::Precision, std::uint32_t* c) {
    launch(kCorrect, v, mandelbrot::Precision::Float, c);
}
void never_launches(const mandelbrot::View&, mandelbrot::Precision, std::uint32_t*) {}
void rounds_the_grid_down(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    launch(kCorrect, v, p, c, /*round_down=*/true);
}
void drops_the_2_of_2_zr_zi(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    launch(kNoTwo, v, p, c);
}

void writes_one_past_the_end(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    if (p == mandelbrot::Precision::Float)
        launch_flat<float>(v, c);
    else
        launch_flat<double>(v, c);
}
void fills_rows_bottom_up(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    if (p == mandelbrot::Precision::Float)
        launch_bottom_up<float>(v, c);
    else
        launch_bottom_up<double>(v, c);
}
void remembers_its_last_call(const mandelbrot::View& v, mandelbrot::Precision p, std::uint32_t* c) {
    const CallKey key{reinterpret_cast<std::uintptr_t>(c),
                      v.center_re,
                      v.center_im,
                      v.width,
                      v.image_width,
                      v.image_height,
                      v.max_iter,
                      static_cast<int>(p)};
    if (!remembered_calls().insert(key).second) return;  // "already there": the same call again
    mandelbrot::mandelbrot_seed(v, p, c);
}
void forget_remembered_calls() { remembered_calls().clear(); }

}  // namespace wrong
