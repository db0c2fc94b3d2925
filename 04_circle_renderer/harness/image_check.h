// image_check.h: how a rendered image is compared with the CPU's, and the pictures of a failure.
//
// A pixel is right when each of its four channels is within kChannelTolerance of the CPU's: the
// last bits of a color may differ (a fused multiply-add, another exp). A pixel may also be wrong
// by more, up to a bounded number of them, when its center lies within kEdgeBand of a circle's
// edge: computed another way (a multiply-add, a multiplication by 1/width, pixel units), such a
// center can land on either side. Everything else must match: a pixel never written (still the
// NaN poison), a color blended out of order or lost in a race, a pixel off by half a pixel.
//
// The rule is written so that the benchmark can apply it on the device after every run
// (render_bench.cu): pixel_state() judges one pixel on either side, and image_passes() decides
// from what count_image() counts. The host functions below (diff_images, image_verdict) are the
// definition; the device check counts the same things with the same pixel_state().
#pragma once

#include "circle_math.h"  // PMPP_HD: pixel_state() runs on the host and on the device
#include "render.h"
#include "scenes.h"

#include "common/check.h"
#include "common/image.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace render {

constexpr float kChannelTolerance = 2e-4f;  // about 1/20 of one step of an 8-bit channel
constexpr double kEdgeBand = 1e-3;  // pixels: |distance from the center - radius| <= this
// At most this many edge pixels may differ by more than the tolerance: 0.1% of the pixels, plus 16.
std::size_t edge_allowance(std::size_t pixels);

struct ImageDiff {
    int width = 0, height = 0;
    std::size_t differing = 0;  // pixels with a channel off by more than the tolerance, or NaN
    std::size_t never_written = 0;  // of those, pixels still all NaN (the poison)
    std::vector<std::uint8_t> state;  // per pixel: kRight, kDiffers, kNeverWritten
    enum : std::uint8_t { kRight = 0, kDiffers = 1, kNeverWritten = 2 };
};

// One pixel against the CPU's: kRight when every channel is within `tolerance`, kNeverWritten
// when it differs and all four channels are NaN (the poison), else kDiffers. A NaN channel
// differs (NaN <= tolerance is false).
PMPP_HD std::uint8_t pixel_state(const Rgba& expected, const Rgba& actual, float tolerance = kChannelTolerance) {
    const bool differs = !(fabsf(expected.r - actual.r) <= tolerance) || !(fabsf(expected.g - actual.g) <= tolerance) ||
                         !(fabsf(expected.b - actual.b) <= tolerance) || !(fabsf(expected.a - actual.a) <= tolerance);
    if (!differs) return ImageDiff::kRight;
    // NaN is the one value that is not equal to itself.
    const bool nan_everywhere =
        actual.r != actual.r && actual.g != actual.g && actual.b != actual.b && actual.a != actual.a;
    return nan_everywhere ? ImageDiff::kNeverWritten : ImageDiff::kDiffers;
}

ImageDiff diff_images(const Rgba* expected, const Rgba* actual, int width, int height,
                      float tolerance = kChannelTolerance);

// What the CPU knows about each pixel of a scene, for judging and explaining differences.
struct PixelFacts {
    std::vector<std::uint32_t> coverage;  // circles that cover the pixel
    std::vector<std::uint8_t> near_edge;  // 1 if some circle's edge passes within kEdgeBand of its center
    std::vector<std::uint8_t> within_a_pixel;  // 1 if some circle's edge passes within one pixel of it
};
PixelFacts pixel_facts(const SceneView& scene, int width, int height);

// What the verdict depends on. The host counts it from an ImageDiff (count_image); the benchmark
// counts it on the device, pixel by pixel with pixel_state() and the near_edge facts.
struct ImageCounts {
    std::size_t pixels = 0;
    std::size_t differing = 0;  // pixels not kRight
    std::size_t never_written = 0;  // of those, kNeverWritten
    std::size_t on_edge = 0;  // kDiffers pixels with near_edge set (0 without facts)
};
ImageCounts count_image(const ImageDiff& diff, const PixelFacts* facts);

// The rule of image_verdict, from the counts: no difference, or none never written, all on
// circle edges and at most edge_allowance() of them.
bool image_passes(const ImageCounts& counts);

// The verdict on one image. `facts` may be null when diff.differing == 0 (nothing to excuse).
// Fails when a pixel was never written, when a pixel off an edge differs, or when more than
// edge_allowance() edge pixels differ. The message counts them; the first few differing pixels
// follow as (x, y), expected, actual.
pmpp::CheckResult image_verdict(const ImageDiff& diff, const PixelFacts* facts, const Rgba* expected,
                                const Rgba* actual, std::size_t max_report = 5);

// The hint of a failed image (image_hints.cpp), or empty when the differences fit no pattern: the
// pixels never written and where they stop, the wrong ones all in partial tiles (of `tile` pixels,
// or 8, 16, 32, 64) or all under 2 or more circles, the image a misdrawing of the scene (half a
// pixel off, y in heights, white for the sky). `facts` may be null when only unwritten pixels differ.
std::string explain_difference(const Scene& scene, int width, int height, int tile, const ImageDiff& diff,
                               const PixelFacts* facts, const std::vector<Rgba>& expected,
                               const std::vector<Rgba>& actual);

// The CPU's image as a renderer that makes one classic geometric mistake draws it, for the hints
// that prove a mistake by drawing it (image_hints.cpp): each pixel center moved by (dx, dy)
// pixels from (x + 1/2, y + 1/2) (dx = -1/2: the center taken at x / width), and y measured in
// image heights when y_in_heights. Everything else is render_cpu's arithmetic, circle after
// circle in order, from the scene's background.
struct Misdrawing {
    float dx = 0, dy = 0;
    bool y_in_heights = false;
};
void render_cpu_misdrawn(const SceneView& scene, int width, int height, Misdrawing how, Rgba* image);

// 8-bit pictures: an image (a NaN pixel drawn magenta), and the difference (right pixels as a dim
// gray copy of the expected image, differing pixels red, or orange where a circle's edge passes
// within kEdgeBand, never-written pixels yellow).
pmpp::Image picture(const Rgba* pixels, int width, int height);
pmpp::Image diff_picture(const ImageDiff& diff, const PixelFacts* facts, const Rgba* expected);

}  // namespace render
