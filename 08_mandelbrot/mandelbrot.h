// mandelbrot.h: the functions of exercise 08, and the definitions every one of them shares.
//
// For every pixel of a view, the escape time of c = the pixel's center in the complex plane:
//   z_0 = 0,  z_{n+1} = z_n^2 + c,  count(c) = min(max_iter, the first n with |z_n|^2 > 4).
// A count is all an implementation returns (one std::uint32_t per pixel, row-major, top row
// first); coloring is a separate, host-side step (mandelbrot_color.h).
//
// The harness (harness/) owns the views, the timing and the check. Pointers named
// `counts` are device pointers (width * height elements) unless the function name says "cpu".
// All GPU work goes on the default stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/host_device.h"  // PMPP_HD

namespace mandelbrot {

enum class Precision { Float, Double };
inline const char* to_string(Precision p) { return p == Precision::Float ? "float" : "double"; }

// What to render: a rectangle of the complex plane `width` wide, centered on `center`, sampled
// by an image_width x image_height grid of pixels (square pixels: the plane's height is
// width * image_height / image_width), each iterated at most max_iter times.
struct View {
    std::string name;
    double center_re = 0, center_im = 0;
    double width = 0;
    int image_width = 0, image_height = 0;
    int max_iter = 0;
};

// The pixel-to-plane mapping, in the precision T of the iteration. Pixel (px, py) is the square
// whose center is c = (left + (px + 1/2) step, top - (py + 1/2) step): row 0 is the top of the
// view (the largest imaginary part). left, top and step are computed once, in double, and
// rounded to T, so the CPU and every kernel start from the same c (up to the rounding of
// these two operations, which a fused multiply-add performs once instead of twice).
template <typename T>
struct Frame {
    T left, top, step;
    int width, height, max_iter;

    PMPP_HD T re(int px) const { return left + (static_cast<T>(px) + static_cast<T>(0.5)) * step; }
    PMPP_HD T im(int py) const { return top - (static_cast<T>(py) + static_cast<T>(0.5)) * step; }
    PMPP_HD std::size_t pixels() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
};

template <typename T>
Frame<T> make_frame(const View& v) {
    const double step = v.image_width > 0 ? v.width / v.image_width : 0.0;
    Frame<T> f;
    f.left = static_cast<T>(v.center_re - 0.5 * v.width);
    f.top = static_cast<T>(v.center_im + 0.5 * step * v.image_height);
    f.step = static_cast<T>(step);
    f.width = v.image_width;
    f.height = v.image_height;
    f.max_iter = v.max_iter;
    return f;
}

// ---- The views ---------------------------------------------------------------------------

struct Preset {
    View view;  // at its native size
    int aspect_w, aspect_h;  // image height = width * aspect_h / aspect_w when --size sets the width
    // How well float reproduces the view's counts (NOTES.md measured it: near the boundary, a
    // count can depend on the rounding of every one of its steps). Up to this image width,
    // float kernels are held to the same tolerance as double ones (0: at no width)...
    int float_tolerant_width;
    // ...beyond it only a loose bound applies, or none where float cannot even tell the pixels
    // apart (float_resolves false: the deep zoom).
    bool float_resolves;
    Precision bench_precision;
    const char* description;
};

// The seed's full view, the same at 4096 iterations, seahorse valley, elephant valley, a deep
// zoom where float fails visibly, and a square inside the main cardioid (pure arithmetic).
inline const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = {
        {{"full", -0.7, 0.0, 3.0, 900, 600, 200},
         3,
         2,
         1920,
         true,
         Precision::Float,
         "the seed's view: [-2.2, 0.8] x [-1, 1], 200 iterations"},
        {{"full_4096", -0.7, 0.0, 3.0, 1920, 1280, 4096},
         3,
         2,
         0,
         true,
         Precision::Float,
         "the seed's view at 4096 iterations"},
        {{"seahorse", -0.7453, 0.1127, 0.0065, 1920, 1080, 1000},
         16,
         9,
         0,
         true,
         Precision::Float,
         "seahorse valley: a spiral between the cardioid and the period-2 bulb"},
        {{"elephant", 0.285, 0.013, 0.025, 1920, 1080, 1000},
         16,
         9,
         0,
         true,
         Precision::Float,
         "elephant valley, along the cardioid near its cusp"},
        {{"deep", -0.7436426, 0.1318266, 1.0e-5, 1920, 1080, 3000},
         16,
         9,
         0,
         false,
         Precision::Double,
         "a minibrot at 300000x zoom: float cannot tell its pixels apart"},
        {{"inside", -0.25, 0.0, 0.6, 1920, 1920, 2048},
         1,
         1,
         1 << 14,
         true,
         Precision::Float,
         "a square inside the main cardioid: every pixel iterates max_iter times"},
    };
    return list;
}

inline const Preset* find_preset(const std::string& name) {
    for (const auto& p : presets())
        if (p.view.name == name) return &p;
    return nullptr;
}

// The preset at another width, with the height from its aspect ratio.
inline View at_width(const Preset& p, int image_width) {
    View v = p.view;
    v.image_width = image_width;
    v.image_height = static_cast<int>((static_cast<long long>(image_width) * p.aspect_h + p.aspect_w / 2) / p.aspect_w);
    return v;
}

// ---- Your part: mandelbrot_student.cu -----------------------------------------------------
// Tasks 1 and 2: a kernel with one thread per pixel and its 2-D launch, in float and double.
void mandelbrot_student(const View& view, Precision precision, std::uint32_t* counts);

// ---- Reference variants (one file each, from the seed's kernel to the fast ones) -----------
// The GPU twin of the CPU reference: the same operations, compiled with -fmad=false; it matches
// mandelbrot_cpu bit for bit. mandelbrot_escape_values also writes |z|^2 at the stop (for
// smooth coloring; magnitude2 is a device array of width * height floats).
void mandelbrot_pinned(const View& view, Precision precision, std::uint32_t* counts);  // mandelbrot_0_pinned.cu
void mandelbrot_escape_values(const View& view, Precision precision, std::uint32_t* counts, float* magnitude2);
void mandelbrot_seed(const View& view, Precision precision, std::uint32_t* counts);  // mandelbrot_1_seed.cu
void mandelbrot_refill(const View& view, Precision precision, std::uint32_t* counts);  // mandelbrot_2_refill.cu
void mandelbrot_unrolled(const View& view, Precision precision, std::uint32_t* counts);  // mandelbrot_3_unrolled.cu
void mandelbrot_shortcuts(const View& view, Precision precision, std::uint32_t* counts);  // mandelbrot_4_shortcuts.cu
void mandelbrot_border_tracing(const View& view, Precision precision,
                               std::uint32_t* counts);  // mandelbrot_5_border_tracing.cu

// ---- The CPU reference (host memory): the definition of correct ---------------------------
// Rows first, first + stride, first + 2 stride, ... only (the benchmark times a sample of rows).
struct RowSample {
    int first = 0;
    int stride = 1;
};
void mandelbrot_cpu(const View& view, Precision precision, std::uint32_t* counts, RowSample rows = {});
void mandelbrot_cpu_omp(const View& view, Precision precision, std::uint32_t* counts, RowSample rows = {});
// The threads mandelbrot_cpu_omp uses (1 in a build without OpenMP).
int cpu_threads();
// The same with |z|^2 at the stop, in any floating type the host has (long double included),
// for the tests that compare precisions.
template <typename T>
void escape_values_cpu(const View& view, std::uint32_t* counts, T* magnitude2);

// ---- Divergence made visible ---------------------------------------------------------------
// Counted inside the kernel: every time a warp executes one iteration step, it adds 32 lane
// slots, and the lanes that were active (__activemask) as lane iterations. Their ratio is the
// fraction of the SIMT lanes that did useful work. `activity` is a device pointer, zeroed by
// the caller.
struct WarpActivity {
    unsigned long long lane_iterations = 0;
    unsigned long long lane_slots = 0;
    double efficiency() const { return lane_slots ? static_cast<double>(lane_iterations) / lane_slots : 1.0; }
};
// The seed's kernel, counting: per pixel, the loop trips of its warp (its cost) and the
// fraction of active lanes of its warp. warp_trips (uint32) and warp_efficiency (float) are
// device arrays of width * height elements.
void mandelbrot_seed_profiled(const View& view, Precision precision, std::uint32_t* counts, std::uint32_t* warp_trips,
                              float* warp_efficiency, WarpActivity* activity);
// The refill kernel, counting (totals only: a warp has no fixed set of pixels).
void mandelbrot_refill_profiled(const View& view, Precision precision, std::uint32_t* counts, WarpActivity* activity);

}  // namespace mandelbrot
