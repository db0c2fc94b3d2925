// mandelbrot_color.h: from iteration counts to pictures, on the host. A separate step from the
// iteration, so every kernel only computes counts.
//
//  - banded coloring: one color per count (what the seed did);
//  - smooth coloring: the escape value nu = n + 1 - log2(ln |z_n|), which varies continuously
//    across the bands, needs |z_n| where the orbit stopped (mandelbrot_escape_values);
//  - the divergence pictures: the cost of each pixel's warp, and the fraction of its lanes that
//    did useful work (mandelbrot_seed_profiled).
#pragma once

#include "common/colormap.h"
#include "common/image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mandelbrot {

enum class Palette {
    Ocean,  // deep blue, white, gold, black: cyclic
    Fire,  // black, red, orange, yellow, white
    Gray,  // black to white
    Seed,  // the seed's: v = 255 count / max_iter, rgb = (v, v/2, 128 - v/2)
};

const char* to_string(Palette p);
bool parse_palette(const std::string& text, Palette& out);
const std::vector<Palette>& all_palettes();

using pmpp::Rgb;

// The palette's color at t in [0, 1]; the cyclic ones wrap (t and t + 1 are the same color).
Rgb palette_color(Palette p, double t);

// The continuous escape value of an escaped pixel (count < max_iter); negative inside the set.
double smooth_value(std::uint32_t count, float magnitude2, int max_iter);

// Pixels inside the set (count == max_iter) are black in every picture of the set.
pmpp::Image color_bands(const std::uint32_t* counts, int width, int height, int max_iter, Palette p);
pmpp::Image color_smooth(const std::uint32_t* counts, const float* magnitude2, int width, int height, int max_iter,
                         Palette p);

// Per-warp cost on a log scale (fire palette: black is one trip, white is max_iter trips) and
// the fraction of active lanes (red 0, yellow 1/2, green 1).
pmpp::Image color_warp_cost(const std::uint32_t* warp_trips, int width, int height, int max_iter);
pmpp::Image color_warp_efficiency(const float* efficiency, int width, int height);

}  // namespace mandelbrot
