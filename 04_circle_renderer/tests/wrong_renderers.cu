#include "wrong_renderers.h"

#include "../circle_math.h"
#include "../tiles.h"

#include "common/cuda_check.h"

#include <memory>
#include <set>
#include <tuple>

namespace render {

namespace {

enum Mistake {
    kReverseOrder,
    kWarpReversed,
    kOffByHalf,
    kYInHeights,
    kGridRoundsDown,
    kGridAxesSwapped,
    kWritesTheScene,
    kFused,
    kForgetsToStore,
    kStartsFromZero,
    kWhiteSky,
    kDropsTheLastCircle
};

__global__ void per_pixel(Mistake m, SceneView scene, int width, int height, Rgba* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
    if (m == kOffByHalf) px = static_cast<float>(x) / width, py = static_cast<float>(y) / width;
    if (m == kYInHeights) py = (y + 0.5f) / height;
    if (m == kFused) {
        const float inverse = 1.f / width;
        px = (x + 0.5f) * inverse, py = (y + 0.5f) * inverse;
    }
    Rgba p = circle_math::background_color(scene.background, y, height);
    if (m == kStartsFromZero) p = Rgba{0.f, 0.f, 0.f, 0.f};
    if (m == kWhiteSky) p = Rgba{1.f, 1.f, 1.f, 1.f};
    int runs = m == kWarpReversed ? scene.count / 32 * 32 : scene.count;  // whole runs of 32
    if (m == kDropsTheLastCircle && runs > 0) --runs;
    for (int k = 0; k < runs; ++k) {
        int i = k;
        if (m == kReverseOrder) i = scene.count - 1 - k;
        if (m == kWarpReversed) i = (k / 32) * 32 + 31 - k % 32;
        const Circle c = scene.circles[i];
        if (m != kFused) {
            circle_math::shade(scene.shading, c, scene.colors[i], px, py, p);
            continue;
        }
        const float dx = px - c.x, dy = py - c.y, d2 = dx * dx + dy * dy, r2 = c.radius * c.radius;
        if (d2 > r2) continue;
        float a = 0.5f;
        Rgb k3 = scene.colors[i];
        if (scene.shading == Shading::Snow) {
            a = 0.5f * fminf(fmaxf(0.6f + 0.4f * (1.f - c.z), 0.f), 1.f) * expf(-4.f * d2 / r2);
            k3 = circle_math::snow_color(c.z);
        }
        p.r = a * k3.r + (1.f - a) * p.r, p.g = a * k3.g + (1.f - a) * p.g, p.b = a * k3.b + (1.f - a) * p.b;
        p.a = a + (1.f - a) * p.a;
    }
    if (m == kWarpReversed)  // the last partial run, in order
        for (int i = runs; i < scene.count; ++i)
            circle_math::shade(scene.shading, scene.circles[i], scene.colors[i], px, py, p);
    if (m != kForgetsToStore) image[static_cast<std::size_t>(y) * width + x] = p;
    if (m == kWritesTheScene && x == 0 && y == 0 && scene.count > 0) const_cast<Circle*>(scene.circles)[0].x += 1.f;
}

void launch(Mistake m, const SceneView& scene, int width, int height, Rgba* image) {
    if (width <= 0 || height <= 0) return;
    const dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    if (m == kGridRoundsDown) grid = dim3(width / 16, height / 16);
    if (m == kGridAxesSwapped) grid = dim3((height + 15) / 16, (width + 15) / 16);
    if (grid.x == 0 || grid.y == 0) return;
    per_pixel<<<grid, block>>>(m, scene, width, height, image);
    PMPP_CHECK_LAUNCH();
}

__global__ void clear(Background background, int width, int height, Rgba* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        image[static_cast<std::size_t>(y) * width + x] = circle_math::background_color(background, y, height);
}

__global__ void racing_circles(SceneView scene, int width, int height, Rgba* image) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= scene.count) return;
    const Circle c = scene.circles[i];
    const tiles::PixelRange r = tiles::pixel_range(c, width, height);
    for (int y = r.y0; y < r.y1; ++y)
        for (int x = r.x0; x < r.x1; ++x) {
            Rgba* pixel = &image[static_cast<std::size_t>(y) * width + x];
            Rgba v = *pixel;
            if (circle_math::shade(scene.shading, c, scene.colors[i], circle_math::pixel_center(x, width),
                                   circle_math::pixel_center(y, width), v))
                *pixel = v;
        }
}

// The pixel of a thread of one_past_the_end: i <= pixels lets thread `pixels` through.
__global__ void one_past_the_end_kernel(SceneView scene, int width, int height, Rgba* image) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= width * height) {
        const int x = i % width, y = i / width;
        const float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
        Rgba p = circle_math::background_color(scene.background, y, height);
        for (int k = 0; k < scene.count; ++k)
            circle_math::shade(scene.shading, scene.circles[k], scene.colors[k], px, py, p);
        image[i] = p;
    }
}

__global__ void rows_from_the_bottom_kernel(SceneView scene, int width, int height, Rgba* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = height - 1 - static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height) return;  // forgets y < 0
    const float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
    Rgba p = circle_math::background_color(scene.background, y, height);
    for (int k = 0; k < scene.count; ++k)
        circle_math::shade(scene.shading, scene.circles[k], scene.colors[k], px, py, p);
    image[y * width + x] = p;
}

}  // namespace

namespace wrong {

void one_past_the_end(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    if (w <= 0 || h <= 0) return;
    one_past_the_end_kernel<<<w * h / 256 + 1, 256>>>(s, w, h, image);
    PMPP_CHECK_LAUNCH();
}

void rows_from_the_bottom(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    if (w <= 0 || h <= 0) return;
    rows_from_the_bottom_kernel<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(s, w, h, image);
    PMPP_CHECK_LAUNCH();
}

std::function<void(const SceneView&, int, int, Rgba*, Workspace&)> remembers_its_calls() {
    using Call = std::tuple<const Circle*, const Rgb*, int, int, Rgba*>;
    auto seen = std::make_shared<std::set<Call>>();
    return [seen](const SceneView& s, int w, int h, Rgba* image, Workspace& ws) {
        if (!seen->insert(Call{s.circles, s.colors, w, h, image}).second) return;  // "already drawn"
        render_tiled(s, w, h, image, ws);
    };
}

void reverse_order(const SceneView& s, int w, int h, Rgba* image, Workspace&) { launch(kReverseOrder, s, w, h, image); }
void warp_reversed(const SceneView& s, int w, int h, Rgba* image, Workspace&) { launch(kWarpReversed, s, w, h, image); }
void off_by_half_pixel(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kOffByHalf, s, w, h, image);
}
void y_in_heights(const SceneView& s, int w, int h, Rgba* image, Workspace&) { launch(kYInHeights, s, w, h, image); }
void grid_rounds_down(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kGridRoundsDown, s, w, h, image);
}
void grid_axes_swapped(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kGridAxesSwapped, s, w, h, image);
}
void writes_the_scene(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kWritesTheScene, s, w, h, image);
}
void forgets_to_store(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kForgetsToStore, s, w, h, image);
}
void starts_from_zero(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kStartsFromZero, s, w, h, image);
}
void white_sky(const SceneView& s, int w, int h, Rgba* image, Workspace&) { launch(kWhiteSky, s, w, h, image); }
void drops_the_last_circle(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch(kDropsTheLastCircle, s, w, h, image);
}
void fused_and_reciprocal(const SceneView& s, int w, int h, Rgba* image, Workspace&) { launch(kFused, s, w, h, image); }

void one_thread_per_circle(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    if (w <= 0 || h <= 0) return;
    clear<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(s.background, w, h, image);
    PMPP_CHECK_LAUNCH();
    if (s.count == 0) return;
    racing_circles<<<(s.count + 255) / 256, 256>>>(s, w, h, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace wrong

}  // namespace render
