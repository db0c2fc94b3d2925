// image_check.cpp: the comparison of two images and the pictures of the difference (image_check.h).
#include "image_check.h"

#include "circle_math.h"
#include "tiles.h"

#include "common/colormap.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace render {

std::size_t edge_allowance(std::size_t pixels) { return pixels / 1000 + 16; }

namespace {

// f(y0, y1, circles) for the rows [y0, y1) of each of up to 128 bands of the image, on every core,
// with the circles whose pixel range (ranges[i]) reaches the band, in drawing order: no two
// threads write one pixel. Each circle is sorted into its bands once; a pass over the whole list
// in every band cost 128 passes over a million circles, seconds for an image of any size (the
// check draws the scenes of a million circles at every width up to 257).
template <typename F>
void for_each_band(const std::vector<tiles::PixelRange>& ranges, int height, const F& f) {
    const int bands = std::min(height, 128);
    auto band_start = [&](int band) { return static_cast<int>(static_cast<long long>(band) * height / bands); };
    std::vector<int> band_of_row(static_cast<std::size_t>(height));
    for (int band = 0; band < bands; ++band)
        for (int y = band_start(band); y < band_start(band + 1); ++y) band_of_row[y] = band;
    std::vector<std::vector<int>> in_band(static_cast<std::size_t>(bands));
    for (int i = 0; i < static_cast<int>(ranges.size()); ++i) {
        const tiles::PixelRange& r = ranges[i];
        if (r.empty()) continue;
        for (int band = band_of_row[r.y0]; band <= band_of_row[r.y1 - 1]; ++band) in_band[band].push_back(i);
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int band = 0; band < bands; ++band) f(band_start(band), band_start(band + 1), in_band[band]);
}

std::string rgba_text(const Rgba& p) { return pmpp::format("(%.4f, %.4f, %.4f, %.4f)", p.r, p.g, p.b, p.a); }

}  // namespace

ImageDiff diff_images(const Rgba* expected, const Rgba* actual, int width, int height, float tolerance) {
    ImageDiff d;
    d.width = width;
    d.height = height;
    const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    d.state.assign(n, ImageDiff::kRight);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t state = pixel_state(expected[i], actual[i], tolerance);
        if (state == ImageDiff::kRight) continue;
        ++d.differing;
        d.state[i] = state;
        d.never_written += state == ImageDiff::kNeverWritten;
    }
    return d;
}

ImageCounts count_image(const ImageDiff& diff, const PixelFacts* facts) {
    ImageCounts c;
    c.pixels = diff.state.size();
    c.differing = diff.differing;
    c.never_written = diff.never_written;
    if (facts != nullptr)
        for (std::size_t i = 0; i < c.pixels; ++i)
            c.on_edge += diff.state[i] == ImageDiff::kDiffers && facts->near_edge[i];
    return c;
}

bool image_passes(const ImageCounts& c) {
    if (c.differing == 0) return true;
    const std::size_t off_edge = c.differing - c.never_written - c.on_edge;
    return c.never_written == 0 && off_edge == 0 && c.on_edge <= edge_allowance(c.pixels);
}

PixelFacts pixel_facts(const SceneView& scene, int width, int height) {
    PixelFacts f;
    const std::size_t w = static_cast<std::size_t>(width);
    const std::size_t n = w * static_cast<std::size_t>(std::max(height, 0));
    f.coverage.assign(n, 0);
    f.near_edge.assign(n, 0);
    f.within_a_pixel.assign(n, 0);
    if (n == 0) return f;
    std::vector<tiles::PixelRange> ranges(static_cast<std::size_t>(std::max(scene.count, 0)));
#pragma omp parallel for schedule(static)
    for (int i = 0; i < scene.count; ++i) ranges[i] = tiles::pixel_range(scene.circles[i], width, height);
    // Distances in pixels, in double: exact enough to tell 1e-3 of a pixel.
    for_each_band(ranges, height, [&](int y0, int y1, const std::vector<int>& circles) {
        for (const int i : circles) {
            const Circle c = scene.circles[i];
            const tiles::PixelRange& r = ranges[i];
            const int ya = std::max(r.y0, y0), yb = std::min(r.y1, y1);
            // |distance - radius| <= band, squared: inner^2 <= distance^2 <= outer^2.
            const double cx = static_cast<double>(c.x) * width, cy = static_cast<double>(c.y) * width;
            const double radius = static_cast<double>(c.radius) * width;
            const double inner = std::max(radius - kEdgeBand, 0.0), outer = radius + kEdgeBand;
            const double inner2 = radius > kEdgeBand ? inner * inner : -1.0, outer2 = outer * outer;
            const double pixel_inner2 = radius > 1.0 ? (radius - 1.0) * (radius - 1.0) : -1.0;
            const double pixel_outer2 = (radius + 1.0) * (radius + 1.0);
            for (int y = ya; y < yb; ++y) {
                const float py = circle_math::pixel_center(y, width);
                const double dy = y + 0.5 - cy;
                for (int x = r.x0; x < r.x1; ++x) {
                    const std::size_t p = y * w + x;
                    const float px = circle_math::pixel_center(x, width);
                    f.coverage[p] += circle_math::covers(c, px, py);
                    const double dx = x + 0.5 - cx, d2 = dx * dx + dy * dy;
                    if (d2 >= inner2 && d2 <= outer2) f.near_edge[p] = 1;
                    if (d2 >= pixel_inner2 && d2 <= pixel_outer2) f.within_a_pixel[p] = 1;
                }
            }
        }
    });
    return f;
}

void render_cpu_misdrawn(const SceneView& scene, int width, int height, Misdrawing how, Rgba* image) {
    if (width <= 0 || height <= 0) return;
    const std::size_t w = static_cast<std::size_t>(width);
    const float fw = static_cast<float>(width), y_unit = static_cast<float>(how.y_in_heights ? height : width);
    // The pixels whose moved centers a circle may cover: two pixels of margin on each side absorb
    // the move (at most half a pixel) and any rounding.
    std::vector<tiles::PixelRange> ranges(static_cast<std::size_t>(std::max(scene.count, 0)));
#pragma omp parallel for schedule(static)
    for (int i = 0; i < scene.count; ++i) {
        const Circle c = scene.circles[i];
        ranges[i] = {tiles::clamped_floor((c.x - c.radius) * fw - 2.f, width),
                     tiles::clamped_floor((c.y - c.radius) * y_unit - 2.f, height),
                     tiles::clamped_floor((c.x + c.radius) * fw + 3.f, width),
                     tiles::clamped_floor((c.y + c.radius) * y_unit + 3.f, height)};
    }
    for_each_band(ranges, height, [&](int y0, int y1, const std::vector<int>& circles) {
        for (int y = y0; y < y1; ++y)
            for (std::size_t x = 0; x < w; ++x)
                image[y * w + x] = circle_math::background_color(scene.background, y, height);
        for (const int i : circles) {
            const Circle c = scene.circles[i];
            const tiles::PixelRange& r = ranges[i];
            const int xa = r.x0, xb = r.x1, ya = std::max(r.y0, y0), yb = std::min(r.y1, y1);
            for (int y = ya; y < yb; ++y) {
                const float py = circle_math::quotient(static_cast<float>(y) + 0.5f + how.dy, y_unit);
                for (int x = xa; x < xb; ++x) {
                    const float px = circle_math::quotient(static_cast<float>(x) + 0.5f + how.dx, fw);
                    circle_math::shade(scene.shading, c, scene.colors[i], px, py, image[y * w + x]);
                }
            }
        }
    });
}

pmpp::CheckResult image_verdict(const ImageDiff& diff, const PixelFacts* facts, const Rgba* expected,
                                const Rgba* actual, std::size_t max_report) {
    const std::size_t pixels = diff.state.size();
    if (diff.differing == 0) return pmpp::CheckResult::pass(pixels);
    const ImageCounts counts = count_image(diff, facts);
    const std::size_t on_edge = counts.on_edge;
    const std::size_t off_edge = diff.differing - diff.never_written - on_edge;
    const std::size_t allowed = edge_allowance(pixels);
    pmpp::CheckResult r;
    r.checked = pixels;
    r.mismatches = diff.differing;
    if (image_passes(counts)) {
        r.ok = true;  // every difference is a center on a circle's edge, and few enough of them
        return r;
    }
    r.ok = false;
    if (diff.never_written > 0)
        r.message = pmpp::format("%zu of %zu pixels were never written (still NaN)", diff.never_written, pixels);
    else
        r.message = pmpp::format("%zu of %zu pixels differ from the CPU by more than %g in a channel", diff.differing,
                                 pixels, static_cast<double>(kChannelTolerance));
    if (diff.never_written > 0 && diff.differing > diff.never_written)
        r.message += pmpp::format(", and %zu more differ", diff.differing - diff.never_written);
    if (facts != nullptr && diff.never_written == 0) {
        if (off_edge == 0)
            r.message += pmpp::format(": all on circle edges, but more than the %zu that rounding may excuse", allowed);
        else if (on_edge > 0)
            r.message += pmpp::format(" (%zu of them on circle edges, where up to %zu may)", on_edge, allowed);
    }
    for (std::size_t i = 0; i < pixels && r.first.size() < max_report; ++i) {
        if (diff.state[i] == ImageDiff::kRight) continue;
        const std::size_t x = i % static_cast<std::size_t>(diff.width), y = i / static_cast<std::size_t>(diff.width);
        r.first.push_back(
            {static_cast<std::size_t>(-1), pmpp::format("pixel (%zu, %zu) = ", x, y) + rgba_text(expected[i]),
             diff.state[i] == ImageDiff::kNeverWritten ? std::string("NaN (never written)") : rgba_text(actual[i])});
    }
    return r;
}

pmpp::Image picture(const Rgba* pixels, int width, int height) {
    static_assert(sizeof(Rgba) == 4 * sizeof(float), "an image is 4 floats a pixel");
    pmpp::Image img = pmpp::image_from_rgba_float(reinterpret_cast<const float*>(pixels), width, height);
    for (std::size_t i = 0; i < img.pixels.size() / 4; ++i) {
        const Rgba& p = pixels[i];
        if (std::isnan(p.r) || std::isnan(p.g) || std::isnan(p.b) || std::isnan(p.a)) {
            std::uint8_t* out = &img.pixels[4 * i];
            out[0] = 255, out[1] = 0, out[2] = 255, out[3] = 255;
        }
    }
    return img;
}

pmpp::Image diff_picture(const ImageDiff& diff, const PixelFacts* facts, const Rgba* expected) {
    // pmpp::Rgb: 8-bit channels of the picture (render::Rgb is a circle's color, in floats).
    return pmpp::paint(diff.width, diff.height, [&](std::size_t i) -> pmpp::Rgb {
        switch (diff.state[i]) {
            case ImageDiff::kRight: {
                const Rgba& e = expected[i];
                const float gray =
                    0.15f + 0.25f * (0.3f * circle_math::clamp01(e.r) + 0.59f * circle_math::clamp01(e.g) +
                                     0.11f * circle_math::clamp01(e.b));
                const std::uint8_t level = pmpp::to_byte(gray);
                return {level, level, level};
            }
            case ImageDiff::kNeverWritten: return {255, 255, 0};  // yellow
            default:
                if (facts != nullptr && facts->near_edge[i]) return {255, 140, 0};  // orange
                return {255, 0, 0};  // red
        }
    });
}

}  // namespace render
