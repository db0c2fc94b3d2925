// Exercise 04, host: the CPU reference on tiny hand-made scenes gives the values computed by
// hand (one circle, two overlapping circles in both orders, a pixel exactly on the edge, y in
// widths, the sky, snow shading), and the same image whatever the number of threads.
#include "../circle_math.h"
#include "../render.h"
#include "../harness/scenes.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace render;

namespace {

constexpr Rgba kWhite = {1, 1, 1, 1};
constexpr Rgb kRed = {1, 0, 0}, kGreen = {0, 1, 0};

std::vector<Rgba> render_scene(const Scene& s, int width, int height) {
    std::vector<Rgba> image(static_cast<std::size_t>(width) * height, Rgba{-1, -1, -1, -1});
    render_cpu(s.view(), width, height, image.data());
    return image;
}

Rgba at(const std::vector<Rgba>& image, int width, int x, int y) {
    return image[static_cast<std::size_t>(y) * width + x];
}

void expect_pixel(const Rgba& p, const Rgba& expected, const std::string& where) {
    EXPECT_EQ(p.r, expected.r) << where;
    EXPECT_EQ(p.g, expected.g) << where;
    EXPECT_EQ(p.b, expected.b) << where;
    EXPECT_EQ(p.a, expected.a) << where;
}

Scene flat(std::initializer_list<std::pair<Circle, Rgb>> circles) {
    Scene s;
    s.name = "hand-made";
    for (const auto& [c, k] : circles) s.add(c, k);
    return s;
}

}  // namespace

TEST(CpuRenderer, WithoutCirclesEveryPixelIsTheBackground) {
    const auto image = render_scene(flat({}), 3, 2);
    for (const Rgba& p : image) expect_pixel(p, kWhite, "white background");
}

TEST(CpuRenderer, OneCircleBlendsHalfItsColorIntoThePixelsItCovers) {
    // 8x8 pixels; the circle's center (0.5, 0.5) is the corner between pixels (3,3) and (4,4);
    // radius 0.25 = 2 pixels. Pixel (4,4)'s center (4.5/8, 4.5/8) is 0.0884 away: covered.
    const auto image = render_scene(flat({{{0.5f, 0.5f, 0.f, 0.25f}, kRed}}), 8, 8);
    expect_pixel(at(image, 8, 4, 4), {1.f, 0.5f, 0.5f, 1.f}, "(4,4) inside");
    expect_pixel(at(image, 8, 3, 3), {1.f, 0.5f, 0.5f, 1.f}, "(3,3) inside");
    expect_pixel(at(image, 8, 0, 0), kWhite, "(0,0) outside");
    expect_pixel(at(image, 8, 5, 5), kWhite, "(5,5): 1.5 pixels away on each axis, 2.12 > 2");
    int covered = 0;
    for (const Rgba& p : image) covered += p.g == 0.5f;
    EXPECT_EQ(covered, 12);  // the pixel centers within 2 pixels of the corner: 4 + 8
}

TEST(CpuRenderer, TwoOverlappingCirclesBlendInInputOrderEitherWay) {
    const Circle left = {0.4f, 0.5f, 0.f, 0.3f}, right = {0.6f, 0.5f, 0.f, 0.3f};
    // Pixel (4, 4) of 8x8, center (0.5625, 0.5625), lies in both circles.
    const auto red_then_green = render_scene(flat({{left, kRed}, {right, kGreen}}), 8, 8);
    const auto green_then_red = render_scene(flat({{right, kGreen}, {left, kRed}}), 8, 8);
    // white -> red: (1, .5, .5); then green: (.5, .75, .25)
    expect_pixel(at(red_then_green, 8, 4, 4), {0.5f, 0.75f, 0.25f, 1.f}, "red, then green");
    // white -> green: (.5, 1, .5); then red: (.75, .5, .25)
    expect_pixel(at(green_then_red, 8, 4, 4), {0.75f, 0.5f, 0.25f, 1.f}, "green, then red");
    // Pixel (1, 4), center x = 0.1875, is in the left circle only (0.2125 from its center).
    expect_pixel(at(red_then_green, 8, 1, 4), {1.f, 0.5f, 0.5f, 1.f}, "left circle only");
}

TEST(CpuRenderer, APixelExactlyOnTheEdgeIsCovered) {
    // 16x16; the circle's center is pixel (5,5)'s center, (5.5/16, 5.5/16); radius 5/16. Pixel
    // (8,9) is (3, 4) pixels away: distance^2 = 25/256 = radius^2, exactly (all dyadic).
    const Circle c = {5.5f / 16, 5.5f / 16, 0.f, 5.f / 16};
    ASSERT_EQ(circle_math::distance2(8.5f / 16, 9.5f / 16, c.x, c.y), c.radius * c.radius);
    const auto image = render_scene(flat({{c, kRed}}), 16, 16);
    expect_pixel(at(image, 16, 8, 9), {1.f, 0.5f, 0.5f, 1.f}, "(8,9): on the edge");
    expect_pixel(at(image, 16, 10, 5), {1.f, 0.5f, 0.5f, 1.f}, "(10,5): on the edge");
    expect_pixel(at(image, 16, 5, 0), {1.f, 0.5f, 0.5f, 1.f}, "(5,0): on the edge");
    expect_pixel(at(image, 16, 8, 10), kWhite, "(8,10): (3, 5) away, outside");
    expect_pixel(at(image, 16, 11, 5), kWhite, "(11,5): 6 away, outside");
}

TEST(CpuRenderer, ARadiusZeroCircleCoversOnlyAPixelCenterExactlyAtItsCenter) {
    const auto image = render_scene(flat({{{2.5f / 4, 1.5f / 4, 0.f, 0.f}, kRed}}), 4, 4);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            expect_pixel(at(image, 4, x, y), x == 2 && y == 1 ? Rgba{1.f, 0.5f, 0.5f, 1.f} : kWhite, "radius 0");
}

TEST(CpuRenderer, YIsMeasuredInImageWidthsLikeX) {
    // 8 wide, 4 high. Pixel (4, 2)'s center is (4.5/8, 2.5/8) = (0.5625, 0.3125): 0.088 from
    // (0.5, 0.25), inside radius 0.1. (Measured in heights, 2.5/4 = 0.625: far outside.)
    const auto image = render_scene(flat({{{0.5f, 0.25f, 0.f, 0.1f}, kRed}}), 8, 4);
    expect_pixel(at(image, 8, 4, 2), {1.f, 0.5f, 0.5f, 1.f}, "(4,2)");
    expect_pixel(at(image, 8, 4, 3), kWhite, "(4,3): 3.5/8 = 0.4375 down, outside");
}

TEST(CpuRenderer, TheSkyBrightensDownTheRows) {
    Scene s;
    s.background = Background::Sky;
    const auto image = render_scene(s, 2, 4);
    for (int y = 0; y < 4; ++y) {
        const float shade = 0.4f + 0.45f * ((y + 0.5f) / 4.f);  // 0.45625, 0.56875, 0.68125, 0.79375
        for (int x = 0; x < 2; ++x) {
            const Rgba p = at(image, 2, x, y);
            EXPECT_FLOAT_EQ(p.b, shade) << "row " << y;
            EXPECT_FLOAT_EQ(p.r, 0.6f * shade) << "row " << y;
            EXPECT_FLOAT_EQ(p.g, 0.75f * shade) << "row " << y;
            EXPECT_EQ(p.a, 1.f);
        }
    }
    EXPECT_FLOAT_EQ(at(image, 2, 0, 0).b, 0.45625f);
}

TEST(CpuRenderer, SnowShadingFallsOffFromTheCenterAndTakesItsColorFromTheDepth) {
    // A near flake (z = 0): white, alpha 1/2 at its center. A far one (z = 1): (0.8, 0.8, 1),
    // alpha 0.3 at its center. At the edge, alpha is e^-4 of that.
    Scene s;
    s.shading = Shading::Snow;
    s.add({0.5f / 4, 0.5f / 4, 0.f, 0.125f}, kRed);  // centered on pixel (0, 0); the color is ignored
    s.add({2.5f / 4, 2.5f / 4, 1.f, 0.25f}, kRed);  // centered on pixel (2, 2); pixel (3, 2) on its edge
    const auto image = render_scene(s, 4, 4);
    const Rgba near = at(image, 4, 0, 0);
    EXPECT_FLOAT_EQ(near.r, 1.f);  // white on white
    EXPECT_FLOAT_EQ(near.a, 1.f);
    const Rgba far = at(image, 4, 2, 2);
    EXPECT_FLOAT_EQ(far.r, 0.3f * 0.8f + 0.7f);
    EXPECT_FLOAT_EQ(far.g, 0.3f * 0.8f + 0.7f);
    EXPECT_FLOAT_EQ(far.b, 1.f);
    const float edge_alpha = 0.3f * std::exp(-4.f);
    const Rgba edge = at(image, 4, 3, 2);
    EXPECT_NEAR(edge.r, edge_alpha * 0.8f + (1.f - edge_alpha), 1e-6f);
    const Rgb mid = circle_math::snow_color(0.375f);  // halfway from white to (0.8, 0.9, 1)
    EXPECT_FLOAT_EQ(mid.r, 0.9f);
    EXPECT_FLOAT_EQ(mid.g, 0.95f);
}

TEST(CpuRenderer, EmptyImagesAreNotTouched) {
    const Scene s = flat({{{0.5f, 0.5f, 0.f, 0.25f}, kRed}});
    render_cpu(s.view(), 0, 5, nullptr);
    render_cpu(s.view(), 5, 0, nullptr);
}

TEST(CpuRenderer, GivesTheSameImageWithOneThreadOrMany) {
    const Scene s = make_scene(find_scene("rand10k"), 3);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const auto one = render_scene(s, 301, 203);
    omp_set_num_threads(threads > 1 ? threads : 4);
    const auto many = render_scene(s, 301, 203);
    omp_set_num_threads(threads);
    EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(Rgba)), 0);
}
