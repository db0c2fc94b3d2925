// image_hints.cpp: the hints of a failed image check (image_check.h's explain_difference): what
// the pattern of the differences proves went wrong, then where to look.
//
// A hint says what the numbers prove about the image (which pixels were never written and where
// they stop, where the wrong pixels lie, which misdrawing of the scene the image is), then where
// to look. An image that fits no pattern gets no hint.
#include "image_check.h"

#include "common/report.h"
#include "common/unwritten_edges.h"

#include <cmath>

namespace render {

using pmpp::format;

namespace {

// The tile edges a hint may name a boundary by: the check's own first (CheckSettings::tile),
// then the other sizes a renderer is likely to choose.
std::vector<int> tile_edges(int tile) {
    std::vector<int> edges;
    if (tile > 0) edges.push_back(tile);
    for (int t : {8, 16, 32, 64})
        if (t != tile) edges.push_back(t);
    return edges;
}

int tiles_needed(int size, int tile) { return (size + tile - 1) / tile; }

// "1150 = 71 x 16 + 14"
std::string in_tiles(int size, int tile) { return format("%d = %d x %d + %d", size, size / tile, tile, size % tile); }

// Where the grid stops, from the last columns and rows never written: at the last full tile (the
// block counts rounded down), at the number of tiles the other axis needs (the axes swapped), or
// elsewhere.
std::string unwritten_edges_hint(int width, int height, int cols, int rows, int tile) {
    std::string what;
    if (cols > 0)
        what = cols == 1 ? format("the last column (x = %d)", width - 1)
                         : format("the last %d columns (x >= %d)", cols, width - cols);
    if (rows > 0)
        what += (what.empty() ? "" : " and ") + (rows == 1 ? format("the last row (y = %d)", height - 1)
                                                           : format("the last %d rows (y >= %d)", rows, height - rows));
    what += (cols > 0 && rows > 0) || cols > 1 || rows > 1 ? " were never written" : " was never written";
    for (int t : tile_edges(tile)) {
        const bool partial_x = cols == 0 || (width % t != 0 && cols == width % t);
        const bool partial_y = rows == 0 || (height % t != 0 && rows == height % t);
        if (!partial_x || !partial_y) continue;
        std::string sizes = cols > 0 ? in_tiles(width, t) : "";
        if (rows > 0 && !(cols > 0 && height == width)) sizes += (sizes.empty() ? "" : ", ") + in_tiles(height, t);
        return what + format(
                          ": the last, partial %s of %dx%d tiles (%s): round the number of blocks up on both axes "
                          "(the image need not be a multiple of your tile)",
                          cols > 0 && rows > 0 ? "column and row" : (cols > 0 ? "column" : "row"), t, t, sizes.c_str());
    }
    const int x_stop = width - cols, y_stop = height - rows;
    for (int t : tile_edges(tile)) {
        const bool swapped_x = cols == 0 || (x_stop % t == 0 && x_stop / t == tiles_needed(height, t));
        const bool swapped_y = rows == 0 || (y_stop % t == 0 && y_stop / t == tiles_needed(width, t));
        if (!swapped_x || !swapped_y) continue;
        auto stops = [t](char axis, int stop, int other) {
            return format(
                "%c stops at %d = %d x %d, the number of %d-pixel tiles the other axis needs (%d / %d, rounded up)",
                axis, stop, stop / t, t, t, other, t);
        };
        const std::string x = cols > 0 ? stops('x', x_stop, height) : "", y = rows > 0 ? stops('y', y_stop, width) : "";
        return what + ": the grid stops early: " + x + (cols > 0 && rows > 0 ? "; " : "") + y +
               ": are the grid's axes swapped?";
    }
    return what +
           ": does the grid reach every pixel (the number of blocks rounded up on each axis, x's from the width, "
           "y's from the height)?";
}

// Every differing pixel lies in the last, partial tile column or row (the full tiles are right):
// the hint, or empty. Edge pixels elsewhere (rounding) are allowed and counted.
std::string partial_tiles_hint(const ImageDiff& d, const PixelFacts& facts, std::size_t off_edge, int tile) {
    for (int t : tile_edges(tile)) {
        const int x_full = d.width - d.width % t, y_full = d.height - d.height % t;  // where the partial tiles start
        if (x_full == 0 || y_full == 0 || (x_full == d.width && y_full == d.height))
            continue;  // no full tile, or no partial one
        std::size_t inside = 0, inside_off_edge = 0;
        for (int y = 0; y < d.height; ++y)
            for (int x = 0; x < d.width; ++x) {
                const std::size_t i = static_cast<std::size_t>(y) * d.width + x;
                if (d.state[i] != ImageDiff::kDiffers || (x < x_full && y < y_full)) continue;
                ++inside;
                inside_off_edge += !facts.near_edge[i];
            }
        if (inside_off_edge != off_edge) continue;
        std::string where;
        if (x_full < d.width) where = format("the last tile column (x >= %d)", x_full);
        if (y_full < d.height) where += (where.empty() ? "" : " or ") + format("the last tile row (y >= %d)", y_full);
        const std::size_t elsewhere = d.differing - inside;
        return format(
            "every wrong pixel%s lies in a partial %dx%d tile, in %s: do the threads of a partial tile whose "
            "pixels lie outside the image still do their part of the block's work (take a circle of the batch, "
            "the scan, every barrier)? Only their write may be skipped",
            elsewhere == 0 ? "" : format(" but %zu on circle edges", elsewhere).c_str(), t, t, where.c_str());
    }
    return "";
}

// The image against the CPU's drawings of classic mistakes: the pixel center half a pixel off, y
// in heights, the white background for the sky. One more CPU rendering per candidate, only for
// a failing case. The hint when one of them is the image (all but 1/20 of the differences
// gone), else empty; empty too when fewer than 16 pixels differ, too few to tell drawings apart.
// The centers moved by half a pixel (at most 0.71 of a pixel) change only the pixels within a
// pixel of some circle's edge: the others are drawn as in the right image. When more than 1/20
// of the wrong pixels lie farther from every edge, no moved drawing can be the image, and its
// three renderings are skipped (they were most of the time of a wrong case's check);
// `away_from_edges` counts those pixels (explain_difference, from PixelFacts::within_a_pixel).
std::string misdrawing_hint(const Scene& scene, int width, int height, const ImageDiff& d, std::size_t away_from_edges,
                            const std::vector<Rgba>& actual) {
    const std::size_t pixels = d.state.size();
    if (d.differing < 16) return "";
    const bool moved_may_be_the_image = away_from_edges * 20 <= d.differing;
    std::vector<Rgba> drawn(pixels);
    auto is_the_image = [&](const char* what, std::string& hint) {
        const ImageDiff s = diff_images(drawn.data(), actual.data(), width, height);
        if (s.differing * 20 > d.differing) return false;
        hint = format("the image is the CPU's %s (%zu pixels differ from that image, %zu from the right one)", what,
                      s.differing, d.differing);
        return true;
    };
    std::string hint;
    struct Moved {
        Misdrawing how;
        const char* what;
    };
    const Moved moved[] = {{{-0.5f, -0.5f, false}, "with every pixel center half a pixel up and to the left"},
                           {{-0.5f, 0.f, false}, "with every pixel center half a pixel to the left"},
                           {{0.f, -0.5f, false}, "with every pixel center half a pixel up"}};
    for (const Moved& m : moved) {
        if (!moved_may_be_the_image) break;
        render_cpu_misdrawn(scene.view(), width, height, m.how, drawn.data());
        if (is_the_image(m.what, hint))
            return hint +
                   ": the center of pixel (x, y) is ((x + 1/2) / width, (y + 1/2) / width) (circle_math::pixel_center)";
    }
    if (width != height) {
        render_cpu_misdrawn(scene.view(), width, height, Misdrawing{0.f, 0.f, true}, drawn.data());
        if (is_the_image("with y measured in image heights", hint))
            return hint +
                   ": y is in image widths too, the center of pixel (x, y) being ((x + 1/2) / width, (y + 1/2) / "
                   "width) (circle_math::pixel_center(y, width), not height)";
    }
    if (scene.background == Background::Sky) {
        SceneView white = scene.view();
        white.background = Background::White;
        render_cpu(white, width, height, drawn.data());
        if (is_the_image("on a white background", hint))
            return hint +
                   ": this scene's background is the sky, a gradient down the rows "
                   "(circle_math::background_color(scene.background, y, height))";
    }
    return "";
}

}  // namespace

std::string explain_difference(const Scene& scene, int width, int height, int tile, const ImageDiff& d,
                               const PixelFacts* facts, const std::vector<Rgba>& expected,
                               const std::vector<Rgba>& actual) {
    const std::size_t pixels = d.state.size();
    if (d.never_written == pixels)
        return "no pixel was written: is the kernel launched (a grid of at least one block, the launch checked with "
               "PMPP_CHECK_LAUNCH()), and does each thread store its pixel?";
    if (d.never_written > 0) {
        const auto edges = pmpp::unwritten_edges(d.width, d.height, [&](int x, int y) {
            return d.state[static_cast<std::size_t>(y) * d.width + x] == ImageDiff::kNeverWritten;
        });
        if (edges) return unwritten_edges_hint(width, height, edges->cols, edges->rows, tile);
        return "some pixels were never written: does every pixel get a thread, and does every thread write its pixel?";
    }
    if (facts == nullptr) return "";
    std::size_t off_edge = 0, multiple = 0, every_multiple = 0, alpha_only = 0, along_edges = 0, uncovered = 0,
                uncovered_wrong = 0, multiple_anywhere = 0, near_edges_anywhere = 0, away_from_edges = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        const bool wrong = d.state[i] == ImageDiff::kDiffers;
        multiple_anywhere += facts->coverage[i] >= 2;
        near_edges_anywhere += facts->within_a_pixel[i];
        uncovered += facts->coverage[i] == 0;
        uncovered_wrong += wrong && facts->coverage[i] == 0;
        if (!wrong) continue;
        away_from_edges += !facts->within_a_pixel[i];
        every_multiple += facts->coverage[i] >= 2;
        const Rgba& e = expected[i];
        const Rgba& a = actual[i];
        alpha_only += std::fabs(e.r - a.r) <= kChannelTolerance && std::fabs(e.g - a.g) <= kChannelTolerance &&
                      std::fabs(e.b - a.b) <= kChannelTolerance;
        if (facts->near_edge[i]) continue;
        ++off_edge;
        multiple += facts->coverage[i] >= 2;
        along_edges += facts->within_a_pixel[i];
    }
    if (off_edge == 0) return "";
    if (alpha_only == d.differing)
        return "only the alpha channel differs: it blends like a color, alpha' = alpha + (1 - alpha) alpha', from the "
               "background's 1";
    if (std::string hint = misdrawing_hint(scene, width, height, d, away_from_edges, actual); !hint.empty())
        return hint;
    if (uncovered > 0 && uncovered_wrong * 2 > uncovered)
        return format(
            "most pixels that no circle covers differ (%zu of %zu): they must hold the background "
            "(circle_math::background_color: white, or the sky's gradient down the rows)",
            uncovered_wrong, uncovered);
    if (std::string hint = partial_tiles_hint(d, *facts, off_edge, tile); !hint.empty()) return hint;
    // The wrong pixels under 2 or more circles: a pattern of its own only where many pixels are
    // not (in a scene that covers every pixel twice, any mistake shows it).
    if (multiple * 10 >= off_edge * 9) {
        const std::string which = every_multiple == d.differing
                                      ? std::string("every wrong pixel lies")
                                      : format("%zu of the %zu wrong pixels lie", every_multiple, d.differing);
        if (multiple_anywhere * 10 < pixels * 9)
            return which +
                   " under 2 or more circles: they were blended out of order, or two threads updated one pixel "
                   "at the same time and one update was lost (a race). Each pixel must see its circles one at a "
                   "time, in increasing index";
        return which + format(
                           " under 2 or more circles, as do %.0f%% of all pixels: here that does not tell circles "
                           "blended out of order, or a race (two threads updating one pixel), from another mistake",
                           100.0 * static_cast<double>(multiple_anywhere) / static_cast<double>(pixels));
    }
    if (along_edges == off_edge && near_edges_anywhere * 2 < pixels)
        return "every wrong pixel lies within a pixel of a circle's edge: is a pixel covered when its center is "
               "inside or on the circle (d^2 <= r^2), the center of pixel (x, y) being ((x + 1/2) / width, "
               "(y + 1/2) / width)?";
    return "";
}

}  // namespace render
