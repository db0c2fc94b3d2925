// mandelbrot_color.cpp: palettes, smooth coloring and the divergence pictures (host only).
#include "mandelbrot_color.h"

#include <algorithm>
#include <cmath>

namespace mandelbrot {

using pmpp::ColorStop;
using pmpp::gradient;
using pmpp::paint;

namespace {

// Piecewise-linear gradients; a cyclic one ends where it starts.
const std::vector<ColorStop>& stops(Palette p) {
    static const std::vector<ColorStop> ocean = {{0.0, 0, 7, 100},      {0.16, 32, 107, 203}, {0.42, 237, 255, 255},
                                                 {0.6425, 255, 170, 0}, {0.8575, 0, 2, 0},    {1.0, 0, 7, 100}};
    static const std::vector<ColorStop> fire = {
        {0.0, 0, 0, 0}, {0.3, 160, 20, 0}, {0.55, 240, 110, 0}, {0.8, 255, 220, 40}, {1.0, 255, 255, 255}};
    static const std::vector<ColorStop> gray = {{0.0, 0, 0, 0}, {1.0, 255, 255, 255}};
    if (p == Palette::Ocean) return ocean;
    if (p == Palette::Fire) return fire;
    return gray;  // (the seed's palette is a formula, not a gradient)
}

// Red for a warp whose lanes mostly waited, green for one whose lanes all worked.
const std::vector<ColorStop>& efficiency_stops() {
    static const std::vector<ColorStop> traffic = {{0.0, 200, 30, 30}, {0.5, 240, 210, 40}, {1.0, 40, 180, 60}};
    return traffic;
}

constexpr Rgb kBlack = {0, 0, 0};

}  // namespace

const char* to_string(Palette p) {
    static const char* const names[] = {"ocean", "fire", "gray", "seed"};
    return names[static_cast<int>(p)];
}

const std::vector<Palette>& all_palettes() {
    static const std::vector<Palette> list = {Palette::Ocean, Palette::Fire, Palette::Gray, Palette::Seed};
    return list;
}

bool parse_palette(const std::string& text, Palette& out) {
    for (Palette p : all_palettes())
        if (text == to_string(p)) {
            out = p;
            return true;
        }
    return false;
}

Rgb palette_color(Palette p, double t) {
    if (p == Palette::Seed) {
        const int v = static_cast<int>(std::clamp(t, 0.0, 1.0) * 255.0);
        return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v / 2), static_cast<std::uint8_t>(128 - v / 2)};
    }
    if (p == Palette::Ocean) t -= std::floor(t);  // cyclic
    return gradient(stops(p), t);
}

double smooth_value(std::uint32_t count, float magnitude2, int max_iter) {
    if (static_cast<int>(count) >= max_iter) return -1.0;
    // |z_n| > 2 at the stop, so ln|z_n| > ln 2 and the log is defined; the correction is in
    // (-0.53, 1], continuous where n steps by one (up to the error of the bailout radius 2).
    const double log_abs = 0.5 * std::log(std::max(static_cast<double>(magnitude2), 4.0));
    return static_cast<double>(count) + 1.0 - std::log2(log_abs);
}

pmpp::Image color_bands(const std::uint32_t* counts, int width, int height, int max_iter, Palette p) {
    return paint(width, height, [&](std::size_t i) {
        const std::uint32_t k = counts[i];
        if (p == Palette::Seed) return palette_color(p, max_iter > 0 ? static_cast<double>(k) / max_iter : 0.0);
        if (static_cast<int>(k) >= max_iter) return kBlack;
        return palette_color(p, std::sqrt(static_cast<double>(k)) / 6.0);
    });
}

pmpp::Image color_smooth(const std::uint32_t* counts, const float* magnitude2, int width, int height, int max_iter,
                         Palette p) {
    return paint(width, height, [&](std::size_t i) {
        const double nu = smooth_value(counts[i], magnitude2[i], max_iter);
        if (nu < 0) return kBlack;
        if (p == Palette::Seed) return palette_color(p, nu / max_iter);
        // sqrt: a few color cycles whether the counts span 1..200 or 300..3000.
        return palette_color(p, std::sqrt(std::max(nu, 0.0)) / 6.0);
    });
}

pmpp::Image color_warp_cost(const std::uint32_t* warp_trips, int width, int height, int max_iter) {
    const double top = std::log1p(static_cast<double>(std::max(max_iter, 1)));
    return paint(width, height, [&](std::size_t i) {
        return palette_color(Palette::Fire, std::log1p(static_cast<double>(warp_trips[i])) / top);
    });
}

pmpp::Image color_warp_efficiency(const float* efficiency, int width, int height) {
    return paint(width, height, [&](std::size_t i) { return gradient(efficiency_stops(), efficiency[i]); });
}

}  // namespace mandelbrot
