// Exercise 04, host: the culling never drops a circle that covers a pixel, and variants 2 and 3,
// emulated step by step on the CPU with the same functions the kernels call (tiles.h,
// circle_math.h), give the CPU's image bit for bit; an unstable bin order is caught.
#include "../circle_math.h"
#include "../harness/render_harness.h"
#include "../harness/scenes.h"
#include "../tiles.h"
#include "render_tests.h"

#include "common/rng.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

using namespace render;

namespace {

bool same_image(const std::vector<Rgba>& a, const std::vector<Rgba>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba)) == 0;
}

// Circles that test the corners of the geometry: tiny, huge, radius 0, off the image, on pixel
// centers and tile edges, negative coordinates.
Scene awkward_circles(std::uint64_t seed, int width) {
    Scene s;
    pmpp::Rng rng(seed);
    const float w = static_cast<float>(width);
    for (int i = 0; i < 400; ++i) {
        const float x = rng.signed_unit_float() * 1.5f, y = rng.signed_unit_float() * 1.5f;
        float r;
        switch (i % 5) {
            case 0: r = 0.f; break;
            case 1: r = rng.unit_float() * 2.f / w; break;
            case 2: r = rng.unit_float() * 0.5f; break;
            case 3: r = 3.f + rng.unit_float(); break;
            default: r = std::floor(rng.unit_float() * 40.f) / w; break;  // a whole number of pixels
        }
        const bool on_grid = i % 3 == 0;  // center on a pixel center or a tile corner
        const float gx = on_grid ? (std::floor(x * w) + (i % 2 ? 0.5f : 0.f)) / w : x;
        const float gy = on_grid ? (std::floor(y * w) + (i % 2 ? 0.5f : 0.f)) / w : y;
        s.add({gx, gy, rng.unit_float(), r}, {rng.unit_float(), rng.unit_float(), rng.unit_float()});
    }
    return s;
}

// Every pixel every circle covers, found by brute force over the whole image, must be in the
// circle's pixel range, in a tile it touches, and in a warp box (8x4) it touches.
void expect_culling_keeps_every_covered_pixel(const Scene& s, int width, int height, const std::string& what) {
    for (int tile : {8, 16, 32}) {
        const tiles::TileGrid g = tiles::tile_grid(width, height, tile);
        std::size_t failures = 0;
        for (int i = 0; i < s.count() && failures < 5; ++i) {
            const Circle& c = s.circles[i];
            std::vector<char> listed(static_cast<std::size_t>(g.count()), 0);
            tiles::for_each_touched_tile(c, g, [&](int t) { listed[t] = 1; });
            const tiles::PixelRange range = tiles::pixel_range(c, width, height);
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x) {
                    if (!circle_math::covers(c, circle_math::pixel_center(x, width),
                                             circle_math::pixel_center(y, width)))
                        continue;
                    const bool in_range = x >= range.x0 && x < range.x1 && y >= range.y0 && y < range.y1;
                    const int wx = x / 8 * 8, wy = y / 4 * 4;
                    const bool warp = tiles::touches(c, tiles::pixel_box(wx, wy, wx + 8, wy + 4, width));
                    if (!in_range || !listed[(y / tile) * g.tiles_x + x / tile] || !warp) {
                        ADD_FAILURE() << what << ", tile " << tile << ": circle " << i << " (" << c.x << ", " << c.y
                                      << ", r " << c.radius << ") covers pixel (" << x << ", " << y << ") but "
                                      << (!in_range ? "its pixel range"
                                          : !warp   ? "the warp box test"
                                                    : "its tile list")
                                      << " leaves it out";
                        ++failures;
                    }
                }
        }
    }
}

// Variant 2 on the CPU: each tile blends, in order, the circles that touch its box.
std::vector<Rgba> emulate_tiled(const Scene& s, int width, int height) {
    std::vector<Rgba> image(static_cast<std::size_t>(width) * height);
    const tiles::TileGrid g = tiles::tile_grid(width, height, 16);
    for (int ty = 0; ty < g.tiles_y; ++ty)
        for (int tx = 0; tx < g.tiles_x; ++tx) {
            std::vector<int> list;
            for (int i = 0; i < s.count(); ++i)
                if (tiles::touches(s.circles[i], g.box(tx, ty))) list.push_back(i);
            for (int y = g.y0(ty); y < g.y1(ty); ++y)
                for (int x = g.x0(tx); x < g.x1(tx); ++x) {
                    Rgba p = circle_math::background_color(s.background, y, height);
                    for (int i : list)
                        circle_math::shade(s.shading, s.circles[i], s.colors[i], circle_math::pixel_center(x, width),
                                           circle_math::pixel_center(y, width), p);
                    image[static_cast<std::size_t>(y) * width + x] = p;
                }
        }
    return image;
}

// Variant 3 on the CPU, phase by phase: count, exclusive scan, emit, stable sort by tile, ranges,
// then per tile and 8x4 warp box, the listed circles that touch the box, in list order (what the
// kernel's batches of tile^2 and ballots of 32 keep). `shuffle_bins` reverses each tile's list: the mistake of an unstable sort.
std::vector<Rgba> emulate_binned(const Scene& s, int width, int height, int tile, bool shuffle_bins = false) {
    const tiles::TileGrid g = tiles::tile_grid(width, height, tile);
    const int n = s.count();
    std::vector<int> counts(n), offsets(n);
    for (int i = 0; i < n; ++i) counts[i] = tiles::for_each_touched_tile(s.circles[i], g, [](int) {});
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    const int pairs = n ? offsets[n - 1] + counts[n - 1] : 0;
    std::vector<unsigned> keys(pairs), values(pairs);
    for (int i = 0; i < n; ++i) {
        int place = offsets[i];
        const int emitted = tiles::for_each_touched_tile(s.circles[i], g, [&](int t) {
            keys[place] = static_cast<unsigned>(t);
            values[place] = static_cast<unsigned>(i);
            ++place;
        });
        EXPECT_EQ(emitted, counts[i]) << "count and emit disagree for circle " << i;
    }
    std::vector<int> order(pairs);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    std::vector<int> start(g.count(), 0), end(g.count(), 0);
    for (int p = 0; p < pairs; ++p) {
        const unsigned k = keys[order[p]];
        if (p == 0 || keys[order[p - 1]] != k) start[k] = p;
        if (p == pairs - 1 || keys[order[p + 1]] != k) end[k] = p + 1;
    }
    if (shuffle_bins)
        for (int t = 0; t < g.count(); ++t) std::reverse(order.begin() + start[t], order.begin() + end[t]);

    std::vector<Rgba> image(static_cast<std::size_t>(width) * height);
    const int warps = tile * tile / 32;
    for (int ty = 0; ty < g.tiles_y; ++ty)
        for (int tx = 0; tx < g.tiles_x; ++tx) {
            const int t = ty * g.tiles_x + tx;
            for (int warp = 0; warp < warps; ++warp) {
                const int wx = g.x0(tx) + (warp % (tile / 8)) * 8, wy = g.y0(ty) + (warp / (tile / 8)) * 4;
                const tiles::Box box = tiles::pixel_box(wx, wy, wx + 8, wy + 4, width);
                std::vector<int> touching;  // what the warp's ballots keep, in order (batches keep the order too)
                std::vector<char> interior;  // ... and which of those cover the whole 8x4 block (flat shading)
                for (int k = start[t]; k < end[t]; ++k) {
                    const int i = static_cast<int>(values[order[k]]);
                    const Circle& c = s.circles[i];
                    if (!tiles::touches(c, box)) continue;
                    touching.push_back(i);
                    interior.push_back(
                        s.shading == Shading::Flat &&
                        tiles::covers_block(c.x, c.y, circle_math::radius2(c), wx, wy, wx + 8, wy + 4, width));
                }
                for (int lane = 0; lane < 32; ++lane) {
                    const int x = wx + lane % 8, y = wy + lane / 8;
                    if (x >= width || y >= height) continue;
                    Rgba p = circle_math::background_color(s.background, y, height);
                    for (std::size_t j = 0; j < touching.size(); ++j) {
                        const int i = touching[j];
                        if (interior[j])
                            circle_math::average(p, s.colors[i]);
                        else
                            circle_math::shade(s.shading, s.circles[i], s.colors[i],
                                               circle_math::pixel_center(x, width), circle_math::pixel_center(y, width),
                                               p);
                    }
                    image[static_cast<std::size_t>(y) * width + x] = p;
                }
            }
        }
    return image;
}

}  // namespace

TEST(Tiles, PixelRangeTileListsAndWarpBoxesKeepEveryCoveredPixel) {
    for (int w : {37, 64, 100}) {
        const int h = w * 3 / 4 + 1;
        expect_culling_keeps_every_covered_pixel(awkward_circles(pmpp::testing::test_seed(w), w), w, h,
                                                 "awkward circles at " + std::to_string(w));
    }
    for (const auto& info : scene_catalog()) {
        if (info.name == "rand1M" || info.name == "micro2M" || info.name == "rand100k" || info.name == "snow" ||
            info.name == "snowsingle")
            continue;  // brute force over every pixel: below
        expect_culling_keeps_every_covered_pixel(make_scene(find_scene(info.name), 3, 1), 61, 45, info.name);
    }
}

TEST(Tiles, CullingKeepsEveryCoveredPixelOfTheLargeScenes) {
    for (const char* name : {"rand100k", "rand1M", "micro2M", "snowsingle"}) {
        Scene s = make_scene(find_scene(name), 4);
        s.circles.resize(20000);  // the first 20,000: brute force costs circles x pixels
        s.colors.resize(20000);
        expect_culling_keeps_every_covered_pixel(s, 96, 96, name);
    }
}

TEST(Tiles, CoversBlockNeverClaimsAPixelItDoesNotCover) {
    pmpp::Rng rng(pmpp::testing::test_seed());
    std::size_t claimed = 0;
    for (int width : {64, 1024, 1150, 8192})
        for (int trial = 0; trial < 20000; ++trial) {
            const int bx = static_cast<int>(rng.below(static_cast<std::uint64_t>(width))) / 8 * 8;
            const int by = static_cast<int>(rng.below(static_cast<std::uint64_t>(width))) / 4 * 4;
            const float w = static_cast<float>(width);
            // A circle whose edge passes near the block's farthest pixel center: its center up to
            // 30 pixels off, its radius that distance plus or minus 0.05 or 2 pixels.
            const float cx = (bx + 4 + rng.signed_unit_float() * 30.f) / w,
                        cy = (by + 2 + rng.signed_unit_float() * 30.f) / w;
            const float far = std::hypot(std::max(std::fabs(cx * w - bx - 0.5f), std::fabs(cx * w - bx - 7.5f)),
                                         std::max(std::fabs(cy * w - by - 0.5f), std::fabs(cy * w - by - 3.5f)));
            const float radius = (far + rng.signed_unit_float() * (trial % 2 ? 0.05f : 2.f)) / w;
            const Circle c = {cx, cy, 0.f, std::max(radius, 0.f)};
            if (!tiles::covers_block(c.x, c.y, circle_math::radius2(c), bx, by, bx + 8, by + 4, width)) continue;
            ++claimed;
            for (int y = by; y < by + 4; ++y)
                for (int x = bx; x < bx + 8; ++x)
                    ASSERT_TRUE(circle_math::covers(c, circle_math::pixel_center(x, width),
                                                    circle_math::pixel_center(y, width)))
                        << "width " << width << ", block (" << bx << ", " << by << "), pixel (" << x << ", " << y
                        << ")";
        }
    EXPECT_GT(claimed, 10000u);  // it does say yes, often
}

TEST(Tiles, TiledRendererEmulatedOnTheCpuGivesTheCpusImage) {
    for (const char* name :
         {"rgb", "rgby", "pattern", "rand10k", "biglittle", "stacks", "pileup", "fireworks", "hypnosis"})
        for (int w : {17, 97, 256}) {
            const Scene s = make_scene(find_scene(name), pmpp::testing::test_seed(), 2);
            const int h = w == 97 ? 61 : w;
            EXPECT_TRUE(same_image(emulate_tiled(s, w, h), cpu_image(s, w, h))) << name << " " << w << "x" << h;
        }
    const Scene odd = awkward_circles(pmpp::testing::test_seed(), 77);
    EXPECT_TRUE(same_image(emulate_tiled(odd, 77, 50), cpu_image(odd, 77, 50))) << "awkward circles";
}

TEST(Tiles, BinnedRendererEmulatedOnTheCpuGivesTheCpusImage) {
    for (const char* name : {"rgb", "pattern", "rand10k", "micro2M", "snowsingle", "stacks", "pileup", "littlebig"})
        for (int tile : {8, 16, 32})
            for (int w : {33, 161}) {
                Scene s = make_scene(find_scene(name), pmpp::testing::test_seed(), 0);
                const int h = w == 161 ? 100 : w;
                EXPECT_TRUE(same_image(emulate_binned(s, w, h, tile), cpu_image(s, w, h)))
                    << name << " " << w << "x" << h << ", tile " << tile;
            }
    const Scene odd = awkward_circles(pmpp::testing::test_seed(), 77);
    for (int tile : {8, 16, 32})
        EXPECT_TRUE(same_image(emulate_binned(odd, 77, 50, tile), cpu_image(odd, 77, 50))) << tile;
}

TEST(Tiles, AnUnstableBinOrderIsCaughtByTheAdversarialScenes) {
    for (const char* name : {"stacks", "pileup"}) {
        const Scene s = make_scene(find_scene(name), pmpp::testing::test_seed(), 0);
        const pmpp::CheckResult r =
            judge_image(s, 128, 128, cpu_image(s, 128, 128), emulate_binned(s, 128, 128, 16, true));
        ASSERT_FALSE(r.ok) << name;
        EXPECT_NE(r.hint.find("out of order"), std::string::npos) << r.report();
    }
}
