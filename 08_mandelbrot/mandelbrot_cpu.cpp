// mandelbrot_cpu.cpp: the definition of correct. One loop per pixel (escape_time,
// mandelbrot_definition.h), on one CPU thread or on every core with OpenMP; both give the same counts.
//
// Compiled with -ffp-contract=off (Makefile): no product is fused into a sum, so every
// operation rounds exactly as written and the pinned GPU kernel (-fmad=false) agrees bit for
// bit. With -fopenmp for the threaded version; a build without OpenMP runs it on one thread.
#include "mandelbrot_definition.h"

#include <cstddef>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mandelbrot {

namespace {

template <typename T>
void render_row(const Frame<T>& f, int py, std::uint32_t* counts, T* magnitude2) {
    const T ci = f.im(py);
    const std::size_t row = static_cast<std::size_t>(py) * static_cast<std::size_t>(f.width);
    for (int px = 0; px < f.width; ++px) {
        T m = 0;
        counts[row + px] = escape_time(f.re(px), ci, f.max_iter, magnitude2 ? &m : nullptr);
        if (magnitude2) magnitude2[row + px] = m;
    }
}

template <typename T>
void render(const View& view, std::uint32_t* counts, T* magnitude2, RowSample rows, bool threaded) {
    const Frame<T> f = make_frame<T>(view);
    const int stride = rows.stride < 1 ? 1 : rows.stride;
    const int sampled = f.height > rows.first ? (f.height - rows.first + stride - 1) / stride : 0;
    if (threaded) {
        // Rows cost anything from a few to width * max_iter iterations: hand them out one by one.
#pragma omp parallel for schedule(dynamic, 1)
        for (int r = 0; r < sampled; ++r) render_row(f, rows.first + r * stride, counts, magnitude2);
    } else {
        for (int r = 0; r < sampled; ++r) render_row(f, rows.first + r * stride, counts, magnitude2);
    }
}

}  // namespace

void mandelbrot_cpu(const View& view, Precision precision, std::uint32_t* counts, RowSample rows) {
    if (precision == Precision::Float)
        render<float>(view, counts, nullptr, rows, false);
    else
        render<double>(view, counts, nullptr, rows, false);
}

void mandelbrot_cpu_omp(const View& view, Precision precision, std::uint32_t* counts, RowSample rows) {
    if (precision == Precision::Float)
        render<float>(view, counts, nullptr, rows, true);
    else
        render<double>(view, counts, nullptr, rows, true);
}

int cpu_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

template <typename T>
void escape_values_cpu(const View& view, std::uint32_t* counts, T* magnitude2) {
    render<T>(view, counts, magnitude2, RowSample{}, true);
}

template void escape_values_cpu<float>(const View&, std::uint32_t*, float*);
template void escape_values_cpu<double>(const View&, std::uint32_t*, double*);
template void escape_values_cpu<long double>(const View&, std::uint32_t*, long double*);

}  // namespace mandelbrot
