// circle_math.h: what a pixel's color is. The definition every renderer of exercise 04 follows,
// written once for the CPU reference, the reference kernels and your kernel.
//
//  - Pixel (x, y) (column x, row y, row 0 at the top) has its center at
//        px = (x + 1/2) / width,   py = (y + 1/2) / width        (in image widths, both axes)
//    A circle covers the pixel when that center lies inside it or on its edge:
//        (px - cx)^2 + (py - cy)^2 <= radius^2
//  - The pixel starts as the background and blends every circle that covers it, in the
//    circles' order, with "over":   color = alpha * circle + (1 - alpha) * color
//    (and alpha' = alpha + (1 - alpha) * alpha' for the alpha channel).
//  - Flat shading: alpha = 1/2 and the circle's color, so the blend is the average
//    color = (circle + color) / 2 (computed so, one rounding per channel).
//    Snow shading: alpha = a(z) * exp(-4 d^2 / radius^2), with d the distance from the circle's
//    center and a(z) = 1/2 * clamp(0.6 + 0.4 (1 - z), 0, 1); the color comes from a ramp of z.
//
// Pinned arithmetic: every product, sum and quotient below is rounded on its own (the CPU file
// is compiled with -ffp-contract=off; device code uses the _rn intrinsics, which the compiler
// never fuses into a multiply-add). The CPU and the reference kernels then agree on every pixel
// that a circle covers, exactly. Your kernel may use plain arithmetic: the check allows the last
// bits of a color to differ, and a few pixels right on a circle's edge to go the other way
// (harness/image_check.h says how many).
#pragma once

#include "render.h"

#include <cmath>

#include "common/host_device.h"  // PMPP_HD

namespace circle_math {

// The types of render.h, which every function here takes.
using render::Background;
using render::Circle;
using render::Rgb;
using render::Rgba;
using render::Shading;

PMPP_HD float mul(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

PMPP_HD float add(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

PMPP_HD float sub(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

PMPP_HD float quotient(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

// exp is not correctly rounded on either side: the GPU's expf and the C library's may differ
// in the last bit, so snow pixels agree to about 1e-7, not bit for bit.
PMPP_HD float exponential(float x) {
#ifdef __CUDA_ARCH__
    return expf(x);
#else
    return std::exp(x);
#endif
}

PMPP_HD float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }

constexpr float kFlatAlpha = 0.5f;

// The center of pixel column (or row) i, in image widths. (i + 1/2 is exact below 2^23.)
PMPP_HD float pixel_center(int i, int width) {
    return quotient(static_cast<float>(i) + 0.5f, static_cast<float>(width));
}

// Squared distance between (ax, ay) and (bx, by).
PMPP_HD float distance2(float ax, float ay, float bx, float by) {
    const float dx = sub(ax, bx), dy = sub(ay, by);
    return add(mul(dx, dx), mul(dy, dy));
}

PMPP_HD bool covers(const Circle& c, float px, float py) {
    return distance2(px, py, c.x, c.y) <= mul(c.radius, c.radius);
}

// The squared radius, as every test compares with it (a renderer may compute it once per circle).
PMPP_HD float radius2(const Circle& c) { return mul(c.radius, c.radius); }

PMPP_HD float lerp(float a, float b, float t) { return add(a, mul(t, sub(b, a))); }

// The snow color ramp: white for z in [0, 1/4], to pale blue at 1/2, pale blue to 3/4, then to
// pale violet at 1 (z clamped to [0, 1]).
PMPP_HD Rgb snow_color(float z) {
    const float s = mul(clamp01(z), 4.f);  // exact: a power of two
    if (s <= 1.f) return {1.f, 1.f, 1.f};
    if (s <= 2.f) {
        const float t = sub(s, 1.f);
        return {lerp(1.f, 0.8f, t), lerp(1.f, 0.9f, t), 1.f};
    }
    if (s <= 3.f) return {0.8f, 0.9f, 1.f};
    const float t = sub(s, 3.f);
    return {0.8f, lerp(0.9f, 0.8f, t), 1.f};
}

// Snow alpha at squared distance d2 from the center of a circle of squared radius r2 (d2 <= r2).
PMPP_HD float snow_alpha(float z, float d2, float r2) {
    const float peak = mul(0.5f, clamp01(add(0.6f, mul(0.4f, sub(1.f, z)))));
    const float t = r2 > 0.f ? quotient(d2, r2) : 0.f;  // a radius-0 circle covers only its center
    return mul(peak, exponential(mul(-4.f, t)));
}

// "over": the circle's color with weight alpha on top of the pixel.
PMPP_HD void blend(Rgba& pixel, const Rgb& color, float alpha) {
    const float keep = sub(1.f, alpha);
    pixel.r = add(mul(alpha, color.r), mul(keep, pixel.r));
    pixel.g = add(mul(alpha, color.g), mul(keep, pixel.g));
    pixel.b = add(mul(alpha, color.b), mul(keep, pixel.b));
    pixel.a = add(alpha, mul(keep, pixel.a));
}

// Flat shading's blend, alpha = 1/2: the average of the circle's color and the pixel's. (The
// same as blend(pixel, color, 1/2): halving is exact, so both round once, identically.)
PMPP_HD void average(Rgba& pixel, const Rgb& color) {
    pixel.r = mul(add(color.r, pixel.r), 0.5f);
    pixel.g = mul(add(color.g, pixel.g), 0.5f);
    pixel.b = mul(add(color.b, pixel.b), 0.5f);
    pixel.a = mul(add(1.f, pixel.a), 0.5f);
}

// The blend of a circle that covers the pixel, at squared distance d2 from its center.
PMPP_HD void blend_covering(Shading shading, float z, float d2, float r2, const Rgb& color, Rgba& pixel) {
    if (shading == Shading::Flat)
        average(pixel, color);
    else
        blend(pixel, snow_color(z), snow_alpha(z, d2, r2));
}

// Blends the circle centered at (cx, cy), of squared radius r2 and depth z, into `pixel` if it
// covers the pixel center (px, py). Returns whether it did.
PMPP_HD bool shade(Shading shading, float cx, float cy, float z, float r2, const Rgb& color, float px, float py,
                   Rgba& pixel) {
    const float d2 = distance2(px, py, cx, cy);
    if (!(d2 <= r2)) return false;
    blend_covering(shading, z, d2, r2, color, pixel);
    return true;
}

PMPP_HD bool shade(Shading shading, const Circle& c, const Rgb& color, float px, float py, Rgba& pixel) {
    return shade(shading, c.x, c.y, c.z, radius2(c), color, px, py, pixel);
}

// The color of row y before any circle: white, or the sky (brighter toward the bottom).
PMPP_HD Rgba background_color(Background background, int y, int height) {
    if (background == Background::White) return {1.f, 1.f, 1.f, 1.f};
    const float shade = add(0.4f, mul(0.45f, quotient(static_cast<float>(y) + 0.5f, static_cast<float>(height))));
    return {mul(0.6f, shade), mul(0.75f, shade), shade, 1.f};
}

}  // namespace circle_math
