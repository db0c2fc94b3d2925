// colormap.h: pictures of per-pixel values: an image painted pixel by pixel from a function of the
// pixel's index, and piecewise-linear gradients between color stops (palettes, heat maps).
#pragma once

#include "common/image.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmpp {

using Rgb = std::array<std::uint8_t, 3>;

// An RGB image whose pixel i (row by row, top row first) has the color color_of(i).
template <class ColorOf>
Image paint(int width, int height, ColorOf color_of) {
    Image img(width, height, 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const Rgb c = color_of(static_cast<std::size_t>(y) * width + x);
            std::copy(c.begin(), c.end(), img.at(x, y));
        }
    return img;
}

struct ColorStop {
    double at;  // in [0, 1], increasing from stop to stop
    double r, g, b;  // 0..255
};

// The color at t (clamped to [0, 1]), mixed linearly between the two stops around it.
inline Rgb gradient(const std::vector<ColorStop>& s, double t) {
    t = std::clamp(t, 0.0, 1.0);
    std::size_t i = 1;
    while (i + 1 < s.size() && s[i].at < t) ++i;
    const ColorStop& a = s[i - 1];
    const ColorStop& b = s[i];
    const double u = b.at > a.at ? (t - a.at) / (b.at - a.at) : 0.0;
    auto mix = [u](double x, double y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * u)); };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

}  // namespace pmpp
