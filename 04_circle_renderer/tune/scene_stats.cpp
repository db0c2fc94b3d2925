// tune/scene_stats.cpp: the work each scene asks of each variant at one image size, counted on
// the CPU with the kernels' own culling functions (tiles.h). No GPU needed; NOTES.md quotes it.
//   make -C 04_circle_renderer tune && 04_circle_renderer/build/scene_stats 1024
// (from the repository root; tune/gpu_run.sh runs it too)
// Columns: circles; blends = (pixel, circle) pairs where the circle covers the pixel (the work
// every variant must do); per_pixel = its tests, pixels x circles; tiled: its circle-tile tests
// (tiles x circles) and the mean list a pixel walks (the same list as binned's, tiles of 16);
// binned: the (tile, circle) pairs to sort, the mean list a pixel walks after its warp's 8x4
// culling, and the pairs with tiles of 8 and 32.
#include "circle_math.h"
#include "harness/scenes.h"
#include "tiles.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace render;

int main(int argc, char** argv) {
    const int w = argc > 1 ? std::atoi(argv[1]) : 1024, h = w;
    const double pixels = static_cast<double>(w) * h;
    std::printf("image %dx%d\n%-14s %9s %10s %10s | %11s %8s | %10s %9s | %10s %10s\n", w, h, "scene", "circles",
                "blends", "per_pixel", "tiled tests", "list/px", "pairs(16)", "culled/px", "pairs(8)", "pairs(32)");
    for (const auto& info : scene_catalog()) {
        const Scene s = make_scene(find_scene(info.name), 1, 0);
        const int n = s.count();
        // Blends: pixels each circle covers, by its pixel range.
        double blends = 0;
#pragma omp parallel for reduction(+ : blends) schedule(dynamic, 1024)
        for (int i = 0; i < n; ++i) {
            const tiles::PixelRange r = tiles::pixel_range(s.circles[i], w, h);
            for (int y = r.y0; y < r.y1; ++y)
                for (int x = r.x0; x < r.x1; ++x)
                    blends += circle_math::covers(s.circles[i], circle_math::pixel_center(x, w),
                                                  circle_math::pixel_center(y, w));
        }
        double pairs[3] = {0, 0, 0};
        const int sizes[3] = {8, 16, 32};
        double tile_pixel_walk = 0, warp_pixel_walk = 0;
        for (int k = 0; k < 3; ++k) {
            const tiles::TileGrid g = tiles::tile_grid(w, h, sizes[k]);
            std::vector<long long> per_tile(g.count(), 0);
            for (int i = 0; i < n; ++i) tiles::for_each_touched_tile(s.circles[i], g, [&](int t) { ++per_tile[t]; });
            for (int t = 0; t < g.count(); ++t) {
                pairs[k] += per_tile[t];
                if (sizes[k] == 16) {
                    const int tx = t % g.tiles_x, ty = t / g.tiles_x;
                    tile_pixel_walk += static_cast<double>(per_tile[t]) * (g.x1(tx) - g.x0(tx)) * (g.y1(ty) - g.y0(ty));
                }
            }
        }
        // Warp culling (8x4 boxes) for tiles of 16: each pixel walks the circles touching its box.
        {
            const tiles::TileGrid boxes = {w, h, 8, (w + 7) / 8, (h + 3) / 4};
            std::vector<long long> per_box(static_cast<std::size_t>(boxes.tiles_x) * boxes.tiles_y, 0);
            for (int i = 0; i < n; ++i) {
                const tiles::PixelRange r = tiles::pixel_range(s.circles[i], w, h);
                if (r.empty()) continue;
                for (int by = r.y0 / 4; by <= (r.y1 - 1) / 4; ++by)
                    for (int bx = r.x0 / 8; bx <= (r.x1 - 1) / 8; ++bx)
                        per_box[static_cast<std::size_t>(by) * boxes.tiles_x + bx] +=
                            tiles::touches(s.circles[i], tiles::pixel_box(bx * 8, by * 4, bx * 8 + 8, by * 4 + 4, w));
            }
            for (long long c : per_box) warp_pixel_walk += 32.0 * c;
        }
        std::printf("%-14s %9d %10.3g %10.3g | %11.3g %8.0f | %10.3g %9.0f | %10.3g %10.3g\n", info.name.c_str(), n,
                    blends, pixels * n, static_cast<double>(tiles::tile_grid(w, h, 16).count()) * n,
                    tile_pixel_walk / pixels, pairs[1], warp_pixel_walk / pixels, pairs[0], pairs[2]);
    }
}
