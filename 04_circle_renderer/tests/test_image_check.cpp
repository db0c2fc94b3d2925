// Exercise 04, host: the image check. Differences within the tolerance pass; a pixel beyond it
// fails and is named; edge pixels are excused up to a bound, nothing else is. Judged against
// renderers emulated on the CPU: one with fused multiply-adds passes, the classic mistakes fail
// with the hint that names them, and a failure leaves pictures.
#include "../circle_math.h"
#include "../harness/image_check.h"
#include "../harness/render_harness.h"
#include "../harness/scenes.h"
#include "../tiles.h"
#include "render_tests.h"

#include "common/report.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

using namespace render;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<Rgba> filled(std::size_t n, Rgba v) { return std::vector<Rgba>(n, v); }

Scene named(const char* name, int frame = 0) { return make_scene(find_scene(name), pmpp::testing::test_seed(), frame); }

// A renderer a student might write, on the CPU, with one deliberate variation.
struct Variation {
    bool fused = false;  // fused multiply-adds, and the pixel center as (x + 1/2) * (1 / width)
    float center_x = 0.5f;  // 0: the pixel center at x / width (half a pixel off)
    float center_y = 0.5f;  // 0: at y / width
    bool y_in_heights = false;  // py = (y + 1/2) / height
    bool reverse_order = false;  // the circles blended last to first
};

std::vector<Rgba> emulate(const Scene& s, int width, int height, Variation v) {
    std::vector<Rgba> image(static_cast<std::size_t>(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image[static_cast<std::size_t>(y) * width + x] = circle_math::background_color(s.background, y, height);
    const float inverse = 1.f / width;
    for (int k = 0; k < s.count(); ++k) {
        const int i = v.reverse_order ? s.count() - 1 - k : k;
        const Circle c = s.circles[i];
        tiles::PixelRange r = tiles::pixel_range(c, width, height);
        if (v.y_in_heights) r.y0 = 0, r.y1 = height;
        for (int y = r.y0; y < r.y1; ++y)
            for (int x = r.x0; x < r.x1; ++x) {
                float px, py, d2;
                if (v.fused) {
                    px = (x + 0.5f) * inverse, py = (y + 0.5f) * inverse;
                    const float dx = px - c.x, dy = py - c.y;
                    d2 = std::fma(dx, dx, dy * dy);
                } else {
                    px = (x + v.center_x) / width;
                    py = (y + v.center_y) / (v.y_in_heights ? height : width);
                    d2 = circle_math::distance2(px, py, c.x, c.y);
                }
                const float r2 = c.radius * c.radius;
                if (d2 > r2) continue;
                Rgba& p = image[static_cast<std::size_t>(y) * width + x];
                const float a = s.shading == Shading::Flat ? 0.5f : circle_math::snow_alpha(c.z, d2, r2);
                const Rgb k = s.shading == Shading::Flat ? s.colors[i] : circle_math::snow_color(c.z);
                if (v.fused) {
                    p.r = std::fma(a, k.r, (1 - a) * p.r), p.g = std::fma(a, k.g, (1 - a) * p.g);
                    p.b = std::fma(a, k.b, (1 - a) * p.b), p.a = std::fma(1 - a, p.a, a);
                } else {
                    circle_math::blend_covering(s.shading, c.z, d2, r2, s.colors[i], p);
                }
            }
    }
    return image;
}

pmpp::CheckResult judge(const Scene& s, int width, int height, const std::vector<Rgba>& actual) {
    return judge_image(s, width, height, cpu_image(s, width, height), actual);
}

}  // namespace

// ---- the verdict on synthetic images ----------------------------------------------------------------

TEST(ImageCheck, AcceptsDifferencesWithinTheTolerance) {
    const auto expected = filled(15, {0.5f, 0.25f, 1.f, 1.f});
    auto actual = expected;
    actual[7].g += 0.9f * kChannelTolerance;
    actual[8].a -= 0.9f * kChannelTolerance;
    const ImageDiff d = diff_images(expected.data(), actual.data(), 5, 3);
    EXPECT_EQ(d.differing, 0u);
    EXPECT_TRUE(image_verdict(d, nullptr, expected.data(), actual.data()).ok);
}

TEST(ImageCheck, RejectsAChannelBeyondTheToleranceAndNamesThePixel) {
    const auto expected = filled(15, {0.5f, 0.25f, 1.f, 1.f});
    auto actual = expected;
    actual[1 * 5 + 3].b = 0.99f;
    actual[2 * 5 + 0].r = 0.4f;
    const ImageDiff d = diff_images(expected.data(), actual.data(), 5, 3);
    const pmpp::CheckResult r = image_verdict(d, nullptr, expected.data(), actual.data());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.mismatches, 2u);
    EXPECT_NE(r.message.find("2 of 15 pixels differ"), std::string::npos) << r.report();
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_NE(r.first[0].expected.find("pixel (3, 1) = (0.5000, 0.2500, 1.0000, 1.0000)"), std::string::npos)
        << r.report();
    EXPECT_NE(r.first[0].actual.find("0.9900"), std::string::npos) << r.report();
    EXPECT_NE(r.first[1].expected.find("pixel (0, 2)"), std::string::npos) << r.report();  // row-major order
}

TEST(ImageCheck, RejectsNeverWrittenPixelsEvenWhereAnEdgeWouldExcuseThem) {
    const auto expected = filled(4, {1, 1, 1, 1});
    auto actual = expected;
    actual[3] = {kNaN, kNaN, kNaN, kNaN};
    const PixelFacts facts = facts_of(4, true);
    const ImageDiff d = diff_images(expected.data(), actual.data(), 2, 2);
    EXPECT_EQ(d.never_written, 1u);
    const pmpp::CheckResult r = image_verdict(d, &facts, expected.data(), actual.data());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("never written"), std::string::npos) << r.report();
    EXPECT_NE(r.first.at(0).actual.find("NaN"), std::string::npos) << r.report();
}

TEST(ImageCheck, ExcusesEdgePixelsUpToTheBoundAndNoOthers) {
    const int w = 200, h = 100;
    const std::size_t n = static_cast<std::size_t>(w) * h, allowed = edge_allowance(n);
    ASSERT_EQ(allowed, n / 1000 + 16);
    const auto expected = filled(n, {1, 1, 1, 1});
    PixelFacts facts = facts_of(n, false);
    for (std::size_t i = 0; i < allowed + 1; ++i) facts.near_edge[i * 7] = 1;
    auto actual = expected;
    for (std::size_t i = 0; i < allowed; ++i) actual[i * 7].r = 0.5f;
    ImageDiff d = diff_images(expected.data(), actual.data(), w, h);
    EXPECT_TRUE(image_verdict(d, &facts, expected.data(), actual.data()).ok) << "exactly the allowance, all on edges";
    actual[allowed * 7].r = 0.5f;
    d = diff_images(expected.data(), actual.data(), w, h);
    pmpp::CheckResult r = image_verdict(d, &facts, expected.data(), actual.data());
    EXPECT_FALSE(r.ok) << "one more than the allowance";
    EXPECT_NE(r.message.find("all on circle edges, but more than"), std::string::npos) << r.report();
    actual = expected;
    actual[1].r = 0.5f;  // not an edge pixel
    d = diff_images(expected.data(), actual.data(), w, h);
    r = image_verdict(d, &facts, expected.data(), actual.data());
    EXPECT_FALSE(r.ok) << "a single pixel off the edges";
    EXPECT_FALSE(image_verdict(d, nullptr, expected.data(), actual.data()).ok) << "no facts: nothing is excused";
}

TEST(ImageCheck, PixelStateIsDiffImagesRuleOnSpecialValues) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const Rgba e{0.5f, 0.25f, 0.f, 1.f};
    EXPECT_EQ(pixel_state(e, e), ImageDiff::kRight);
    EXPECT_EQ(pixel_state(e, {0.5f, 0.25f, -0.f, 1.f}), ImageDiff::kRight) << "-0 is 0";
    EXPECT_EQ(pixel_state(e, {0.5f, 0.25f, 1e-40f, 1.f}), ImageDiff::kRight) << "a denormal is within";
    EXPECT_EQ(pixel_state(e, {0.5f, 0.25f, 0.f, 1.f - 0.9f * kChannelTolerance}), ImageDiff::kRight);
    EXPECT_EQ(pixel_state(e, {0.5f, 0.25f, 0.f, 1.f - 1.1f * kChannelTolerance}), ImageDiff::kDiffers);
    EXPECT_EQ(pixel_state(e, {0.5f, kNaN, 0.f, 1.f}), ImageDiff::kDiffers) << "one NaN channel is a wrong value";
    EXPECT_EQ(pixel_state(e, {kInf, 0.25f, 0.f, 1.f}), ImageDiff::kDiffers);
    EXPECT_EQ(pixel_state(e, {kNaN, kNaN, kNaN, kNaN}), ImageDiff::kNeverWritten);
    const std::vector<Rgba> expected(4, e),
        actual = {e, {0.5f, kNaN, 0.f, 1.f}, {kNaN, kNaN, kNaN, kNaN}, {kInf, 0.f, 0.f, 1.f}};
    const ImageDiff d = diff_images(expected.data(), actual.data(), 2, 2);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(d.state[i], pixel_state(expected[i], actual[i])) << i;
}

// The benchmark's device check decides with image_passes() from counts made on the device: the
// same verdict as image_verdict's, whatever the differences.
TEST(ImageCheck, TheCountsDecideAsTheVerdictDoes) {
    const int w = 200, h = 100;
    const std::size_t n = static_cast<std::size_t>(w) * h, allowed = edge_allowance(n);
    const auto expected = filled(n, {1, 1, 1, 1});
    PixelFacts facts = facts_of(n, false);
    for (std::size_t i = 0; i < n; i += 3) facts.near_edge[i] = 1;
    struct Damage {
        const char* what;
        std::size_t on_edge, off_edge, never_written;
        bool passes_with_facts;
    };
    const Damage damages[] = {
        {"nothing", 0, 0, 0, true},
        {"one edge pixel", 1, 0, 0, true},
        {"the allowance on edges", allowed, 0, 0, true},
        {"one more than the allowance", allowed + 1, 0, 0, false},
        {"one pixel off the edges", 0, 1, 0, false},
        {"edges and one off them", 5, 1, 0, false},
        {"one pixel never written", 0, 0, 1, false},
        {"edges and one never written", 5, 0, 1, false},
    };
    for (const Damage& damage : damages) {
        auto actual = expected;
        std::size_t edge = 0, off = 0, never = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (facts.near_edge[i] && edge < damage.on_edge)
                actual[i].g = 0.5f, ++edge;
            else if (facts.near_edge[i] && never < damage.never_written)
                actual[i] = {kNaN, kNaN, kNaN, kNaN}, ++never;
            else if (!facts.near_edge[i] && off < damage.off_edge)
                actual[i].b = 0.5f, ++off;
        }
        const ImageDiff d = diff_images(expected.data(), actual.data(), w, h);
        for (const PixelFacts* f : {static_cast<const PixelFacts*>(nullptr), static_cast<const PixelFacts*>(&facts)}) {
            const ImageCounts c = count_image(d, f);
            EXPECT_EQ(c.pixels, n);
            EXPECT_EQ(c.differing, damage.on_edge + damage.off_edge + damage.never_written) << damage.what;
            EXPECT_EQ(c.never_written, damage.never_written) << damage.what;
            EXPECT_EQ(c.on_edge, f ? damage.on_edge : 0u) << damage.what;
            const bool verdict = image_verdict(d, f, expected.data(), actual.data()).ok;
            EXPECT_EQ(image_passes(c), verdict) << damage.what << (f ? " with" : " without") << " facts";
            EXPECT_EQ(verdict, f ? damage.passes_with_facts : c.differing == 0) << damage.what;
        }
    }
}

TEST(ImageCheck, PixelFactsCountTheCirclesAndFindTheEdges) {
    Scene s;
    s.add({5.5f / 16, 5.5f / 16, 0.f, 5.f / 16}, {1, 0, 0});  // pixel (8, 9) exactly on its edge
    s.add({5.5f / 16, 5.5f / 16, 0.f, 2.f / 16}, {0, 1, 0});
    const PixelFacts f = pixel_facts(s.view(), 16, 16);
    EXPECT_EQ(f.coverage[5 * 16 + 5], 2u);
    EXPECT_EQ(f.coverage[9 * 16 + 8], 1u);
    EXPECT_EQ(f.coverage[0], 0u);
    EXPECT_EQ(f.near_edge[9 * 16 + 8], 1);
    EXPECT_EQ(f.near_edge[5 * 16 + 5], 0);
    EXPECT_EQ(f.within_a_pixel[9 * 16 + 9], 1);  // 5.66 pixels from the center: within a pixel of the edge
    EXPECT_EQ(f.within_a_pixel[5 * 16 + 5], 0);
}

// ---- renderers emulated on the CPU, judged as the harness judges ------------------------------------

TEST(ImageCheck, AcceptsARendererWithFusedMultiplyAddsAndAReciprocal) {
    Variation fused;
    fused.fused = true;
    for (const char* name : {"rgb", "pattern", "rand10k", "micro2M", "snowsingle", "stacks", "fireworks"}) {
        const Scene s = named(name, 1);
        for (int w : {1150, 333}) {
            const pmpp::CheckResult r = judge(s, w, w, emulate(s, w, w, fused));
            EXPECT_TRUE(r.ok) << name << " at " << w << ": " << r.report();
        }
    }
}

TEST(ImageCheck, RejectsAnUnorderedRendererOnTheAdversarialScenesAndSaysWhy) {
    Variation reversed;
    reversed.reverse_order = true;
    for (const char* name : {"stacks", "pileup"})
        for (int w : {64, 256}) {
            const Scene s = named(name);
            const pmpp::CheckResult r = judge(s, w, w, emulate(s, w, w, reversed));
            ASSERT_FALSE(r.ok) << name;
            EXPECT_NE(r.hint.find("every wrong pixel lies under 2 or more circles"), std::string::npos)
                << name << " at " << w << ": " << r.report();
            EXPECT_NE(r.hint.find("out of order"), std::string::npos) << name << " at " << w << ": " << r.report();
        }
}

TEST(ImageCheck, RejectsARendererOffByHalfAPixelAndSaysWhy) {
    Variation half;
    half.center_x = half.center_y = 0.f;
    for (const char* name : {"rgb", "rgby", "pattern", "rand10k", "stacks", "snowsingle"})
        for (int w : {256, 257}) {
            const Scene s = named(name);
            const pmpp::CheckResult r = judge(s, w, w, emulate(s, w, w, half));
            ASSERT_FALSE(r.ok) << name;
            EXPECT_NE(r.hint.find("the image is the CPU's with every pixel center half a pixel up and to the left"),
                      std::string::npos)
                << name << " at " << w << ": " << r.report();
        }
}

TEST(ImageCheck, NamesTheAxisThatIsHalfAPixelOff) {
    Variation x_only, y_only;
    x_only.center_x = 0.f;
    y_only.center_y = 0.f;
    for (const char* name : {"rgb", "rand10k", "snowsingle"})
        for (int w : {256, 257}) {
            const Scene s = named(name);
            pmpp::CheckResult r = judge(s, w, w, emulate(s, w, w, x_only));
            ASSERT_FALSE(r.ok) << name;
            EXPECT_NE(r.hint.find("with every pixel center half a pixel to the left"), std::string::npos)
                << name << " at " << w << ": " << r.report();
            r = judge(s, w, w, emulate(s, w, w, y_only));
            ASSERT_FALSE(r.ok) << name;
            EXPECT_NE(r.hint.find("with every pixel center half a pixel up ("), std::string::npos)
                << name << " at " << w << ": " << r.report();
        }
}

TEST(ImageCheck, RejectsYInHeightsOnImagesThatAreNotSquare) {
    Variation heights;
    heights.y_in_heights = true;
    for (const char* name : {"rgby", "rand10k", "snowsingle"}) {
        const Scene s = named(name);
        EXPECT_TRUE(judge(s, 256, 256, emulate(s, 256, 256, heights)).ok) << name << ": a square image cannot tell";
        for (Shape shape : {kWide, kTall}) {
            const int h = image_height(256, shape);
            const pmpp::CheckResult r = judge(s, 256, h, emulate(s, 256, h, heights));
            ASSERT_FALSE(r.ok) << name << " 256x" << h;
            EXPECT_NE(r.hint.find("the image is the CPU's with y measured in image heights"), std::string::npos)
                << name << " 256x" << h << ": " << r.report();
        }
    }
}

TEST(ImageCheck, SaysWhenTheLastColumnsWereNeverWritten) {
    const Scene s = named("rgb");
    auto actual = cpu_image(s, 40, 30);
    for (int y = 0; y < 30; ++y)
        for (int x = 32; x < 40; ++x) actual[y * 40 + x] = {kNaN, kNaN, kNaN, kNaN};
    const pmpp::CheckResult r = judge(s, 40, 30, actual);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("the last 8 columns (x >= 32) were never written: the last, partial column of 16x16 "
                          "tiles (40 = 2 x 16 + 8): round the number of blocks up"),
              std::string::npos)
        << r.report();
    const pmpp::CheckResult none = judge(s, 40, 30, std::vector<Rgba>(1200, Rgba{kNaN, kNaN, kNaN, kNaN}));
    EXPECT_NE(none.hint.find("no pixel was written"), std::string::npos) << none.report();
}

TEST(ImageCheck, SaysWhereTheGridStopsWhenTheLastColumnsAndRowsWereNeverWritten) {
    const Scene s = named("rgb");
    auto unwritten_from = [&](int width, int height, int x_stop, int y_stop) {
        auto image = cpu_image(s, width, height);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                if (x >= x_stop || y >= y_stop)
                    image[static_cast<std::size_t>(y) * width + x] = {kNaN, kNaN, kNaN, kNaN};
        return judge(s, width, height, image);
    };
    // The grid rounded down at 17 and at 333 x 500: the last, partial tile column and row.
    pmpp::CheckResult r = unwritten_from(17, 17, 16, 16);
    EXPECT_NE(r.hint.find("the last column (x = 16) and the last row (y = 16) were never written: the last, partial "
                          "column and row of 16x16 tiles (17 = 1 x 16 + 1): round the number of blocks up"),
              std::string::npos)
        << r.report();
    r = unwritten_from(333, 500, 320, 496);
    EXPECT_NE(r.hint.find("were never written: the last, partial column and row of 16x16 tiles (333 = 20 x 16 + 13, "
                          "500 = 31 x 16 + 4)"),
              std::string::npos)
        << r.report();
    // 32-pixel tiles rounded down are named as such (120 = 7 x 16 + 8 = 3 x 32 + 24).
    r = unwritten_from(120, 120, 96, 96);
    EXPECT_NE(r.hint.find("the last, partial column and row of 32x32 tiles"), std::string::npos) << r.report();
    // The axes swapped: 333 x 500 drawn by a grid of 32 x 21 tiles stops at y = 21 x 16, the
    // count the width needs; 1150 x 646 by 41 x 72 stops at x = 41 x 16.
    r = unwritten_from(333, 500, 333, 336);
    EXPECT_NE(r.hint.find("the last 164 rows (y >= 336) were never written: the grid stops early: y stops at 336 = 21 "
                          "x 16, the number of 16-pixel tiles the other axis needs (333 / 16, rounded up): are the "
                          "grid's axes swapped?"),
              std::string::npos)
        << r.report();
    r = unwritten_from(1150, 646, 656, 646);
    EXPECT_NE(r.hint.find("x stops at 656 = 41 x 16, the number of 16-pixel tiles the other axis needs (646 / 16"),
              std::string::npos)
        << r.report();
    // Stopped elsewhere: the fact, and no guess at the grid.
    r = unwritten_from(100, 100, 77, 100);
    EXPECT_NE(r.hint.find("the last 23 columns (x >= 77) were never written: does the grid reach every pixel"),
              std::string::npos)
        << r.report();
}

// What the tiled renderer draws when the threads of a partial tile whose pixels lie outside the
// image take no circle (wrong::partial_tile_skips_culling): in a tile cut by the image's edge,
// the circles of their places in each batch of 256 are never drawn.
std::vector<Rgba> emulate_partial_tile_skipping_culling(const Scene& s, int width, int height) {
    std::vector<Rgba> image(static_cast<std::size_t>(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int x0 = x / 16 * 16, y0 = y / 16 * 16;
            const float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
            Rgba p = circle_math::background_color(s.background, y, height);
            for (int i = 0; i < s.count(); ++i) {
                const int t = i % 256;  // the thread that tests circle i in its batch
                if (x0 + t % 16 >= width || y0 + t / 16 >= height) continue;
                circle_math::shade(s.shading, s.circles[i], s.colors[i], px, py, p);
            }
            image[static_cast<std::size_t>(y) * width + x] = p;
        }
    return image;
}

TEST(ImageCheck, SaysWhenEveryWrongPixelLiesInAPartialTile) {
    for (const char* name : {"rand10k", "pattern", "pileup"})
        for (int w : {17, 33, 47}) {
            const Scene s = named(name);
            const pmpp::CheckResult r = judge(s, w, w, emulate_partial_tile_skipping_culling(s, w, w));
            ASSERT_FALSE(r.ok) << name << " at " << w;
            EXPECT_NE(
                r.hint.find(pmpp::format("every wrong pixel lies in a partial 16x16 tile, in the last tile column "
                                         "(x >= %d) or the last tile row (y >= %d)",
                                         w / 16 * 16, w / 16 * 16)),
                std::string::npos)
                << name << " at " << w << ": " << r.report();
        }
    // A full tile of wrong pixels more (more than the few on circle edges the hint forgives): no such hint.
    const Scene s = named("rand10k");
    auto image = emulate_partial_tile_skipping_culling(s, 33, 33);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) image[y * 33 + x].g += 0.25f;
    const pmpp::CheckResult r = judge(s, 33, 33, image);
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint.find("partial"), std::string::npos) << r.report();
}

TEST(ImageCheck, AWrongImageThatFitsNoPatternGetsNoHintAndAPatternEveryPixelFitsNamesNoCause) {
    // rgb without its blue circle (wrong::drops_the_last_circle): a fifth of the wrong pixels lie
    // under the blue circle alone, none on an edge, none in a partial tile.
    const Scene s = named("rgb");
    Scene without_blue = s;
    without_blue.circles.pop_back();
    without_blue.colors.pop_back();
    for (int w : {256, 257}) {
        const pmpp::CheckResult r = judge(s, w, w, cpu_image(without_blue, w, w));
        ASSERT_FALSE(r.ok) << w;
        EXPECT_EQ(r.hint, "") << w << ": " << r.report();
    }
    // rand10k without its last circle: every wrong pixel lies under 2 or more circles, but so does
    // nearly every pixel of the scene; the hint says so and names no cause.
    const Scene dense = named("rand10k");
    Scene without_last = dense;
    without_last.circles.pop_back();
    without_last.colors.pop_back();
    const pmpp::CheckResult r = judge(dense, 256, 256, cpu_image(without_last, 256, 256));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("under 2 or more circles, as do "), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("% of all pixels: here that does not tell"), std::string::npos) << r.report();
}

TEST(ImageCheck, SaysWhenTheBackgroundIsWrong) {
    Scene s = named("fireworks");
    const auto actual = cpu_image(s, 128, 128);  // white: the renderer forgot the sky
    s.background = Background::Sky;
    const pmpp::CheckResult r = judge(s, 128, 128, actual);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("the image is the CPU's on a white background"), std::string::npos) << r.report();
    // The snow scenes, drawn on white: no pixel is left uncovered there, and still the hint says so.
    Scene white = named("snowsingle");
    white.background = Background::White;
    const Scene sky = named("snowsingle");
    const pmpp::CheckResult snow = judge(sky, 96, 96, cpu_image(white, 96, 96));
    ASSERT_FALSE(snow.ok);
    EXPECT_NE(snow.hint.find("the image is the CPU's on a white background"), std::string::npos) << snow.report();
    // Black, not white: no drawing of a classic mistake is the image, but most uncovered pixels differ.
    auto black = cpu_image(named("rgb"), 128, 128);
    for (auto& p : black)
        if (p.r == 1.f && p.g == 1.f && p.b == 1.f) p = {0.f, 0.f, 0.f, 0.f};
    const pmpp::CheckResult zero = judge(named("rgb"), 128, 128, black);
    ASSERT_FALSE(zero.ok);
    EXPECT_NE(zero.hint.find("most pixels that no circle covers differ"), std::string::npos) << zero.report();
}

TEST(ImageCheck, AFailureLeavesPicturesOfTheDifference) {
    const std::string dir = temp_path("pmpp04_");
    const Scene s = named("stacks");
    Variation reversed;
    reversed.reverse_order = true;
    CheckSettings settings;
    settings.pictures = dir;
    settings.label = "emulated_stacks_64x64";
    settings.format = "ppm";
    const auto expected = cpu_image(s, 64, 64);
    const pmpp::CheckResult r = judge_image(s, 64, 64, expected, emulate(s, 64, 64, reversed), settings);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find(dir), std::string::npos) << r.report();
    const pmpp::Image diff = pmpp::read_ppm(dir + "/emulated_stacks_64x64_diff.ppm");
    ASSERT_EQ(diff.width, 64);
    const ImageDiff d = diff_images(expected.data(), emulate(s, 64, 64, reversed).data(), 64, 64);
    std::size_t marked_pixels = 0;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const std::uint8_t* p = diff.at(x, y);
            const bool marked = p[0] == 255 && (p[1] == 0 || p[1] == 140) && p[2] == 0;  // red, or orange on an edge
            marked_pixels += marked;
            EXPECT_EQ(marked, d.state[y * 64 + x] == ImageDiff::kDiffers) << x << ", " << y;
        }
    EXPECT_EQ(marked_pixels, d.differing);
    EXPECT_TRUE(std::filesystem::exists(dir + "/emulated_stacks_64x64_actual.ppm"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/emulated_stacks_64x64_expected.ppm"));
    std::filesystem::remove_all(dir);
}
