// render_cpu.cpp: the CPU reference, the definition of correct. Circle after circle, in input
// order, each blended into the pixels it covers (circle_math.h), starting from the background.
//
// Work: for each circle, the pixels of its bounding box (tiles::pixel_range, one pixel wider than
// needed on each side). Threads (OpenMP) take bands of rows; inside its band a thread still goes
// through every circle in order, so each pixel sees exactly the sequence of a one-thread loop,
// and the image is the same bit for bit whatever the number of threads.
// Compiled with -ffp-contract=off (Makefile): the pinned arithmetic of circle_math.h.
#include "render.h"

#include "circle_math.h"
#include "tiles.h"

#include <algorithm>
#include <vector>

namespace render {

void render_cpu(const SceneView& scene, int width, int height, Rgba* image, unsigned* coverage) {
    if (width <= 0 || height <= 0) return;
    const std::size_t w = static_cast<std::size_t>(width);
    const int count = scene.count;
    std::vector<tiles::PixelRange> ranges(static_cast<std::size_t>(count > 0 ? count : 0));
#pragma omp parallel for schedule(static)
    for (int i = 0; i < count; ++i) ranges[i] = tiles::pixel_range(scene.circles[i], width, height);

    // Bands of rows: enough to keep every thread busy when circles crowd a few rows, few enough
    // that the pass over the circle list per band stays cheap.
    const int bands = std::min(height, 128);
#pragma omp parallel for schedule(dynamic, 1)
    for (int band = 0; band < bands; ++band) {
        const int y0 = static_cast<int>(static_cast<long long>(band) * height / bands);
        const int y1 = static_cast<int>(static_cast<long long>(band + 1) * height / bands);
        for (int y = y0; y < y1; ++y) {
            const Rgba background = circle_math::background_color(scene.background, y, height);
            for (std::size_t x = 0; x < w; ++x) {
                image[y * w + x] = background;
                if (coverage) coverage[y * w + x] = 0;
            }
        }
        for (int i = 0; i < count; ++i) {
            const tiles::PixelRange& r = ranges[i];
            const int ya = std::max(r.y0, y0), yb = std::min(r.y1, y1);
            if (ya >= yb || r.x0 >= r.x1) continue;
            const Circle c = scene.circles[i];
            const Rgb color = scene.colors[i];
            for (int y = ya; y < yb; ++y) {
                const float py = circle_math::pixel_center(y, width);
                for (int x = r.x0; x < r.x1; ++x) {
                    const float px = circle_math::pixel_center(x, width);
                    const std::size_t p = y * w + x;
                    if (circle_math::shade(scene.shading, c, color, px, py, image[p]) && coverage) ++coverage[p];
                }
            }
        }
    }
}

}  // namespace render
