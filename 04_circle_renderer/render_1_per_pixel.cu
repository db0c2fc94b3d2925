// render_1_per_pixel.cu: correct first. One thread per pixel (PMPP 3.2, a 2D grid of 16x16
// blocks); each thread starts from the background, goes through every circle in input order and
// blends those that cover its pixel, in a register, then writes the pixel once.
//
// Why it is right: a pixel is owned by one thread, so there is no race, and that thread sees the
// circles in order, so the blend order is the definition's. Why it is slow: every thread tests
// every circle: width x height x count tests (10^12 for rand1M at 1024), although a circle
// covers a tiny part of the image. The circles are read by all threads of a warp at once (one
// broadcast load), so the cost is the arithmetic of the test, not memory.
// Measured (H200, 2026-11-30, 1024x1024): rand10k 9.35 ms, rand1M 948 ms, micro2M 1.9 s: every pixel
// tests every circle (README.md has every scene).
#include "render.h"

#include "circle_math.h"

#include "common/cuda_check.h"

namespace render {

namespace {

constexpr int kBlock = 16;

template <Shading SHADING>
__global__ void __launch_bounds__(kBlock* kBlock)
    per_pixel(SceneView scene, int width, int height, Rgba* __restrict__ image) {
    const int x = blockIdx.x * kBlock + threadIdx.x;
    const int y = blockIdx.y * kBlock + threadIdx.y;
    if (x >= width || y >= height) return;
    const float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
    Rgba pixel = circle_math::background_color(scene.background, y, height);
    for (int i = 0; i < scene.count; ++i) circle_math::shade(SHADING, scene.circles[i], scene.colors[i], px, py, pixel);
    image[static_cast<std::size_t>(y) * width + x] = pixel;
}

}  // namespace

void render_per_pixel(const SceneView& scene, int width, int height, Rgba* image, Workspace&) {
    if (width <= 0 || height <= 0) return;
    const dim3 block(kBlock, kBlock);
    const dim3 grid((width + kBlock - 1) / kBlock, (height + kBlock - 1) / kBlock);
    if (scene.shading == Shading::Flat)
        per_pixel<Shading::Flat><<<grid, block>>>(scene, width, height, image);
    else
        per_pixel<Shading::Snow><<<grid, block>>>(scene, width, height, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace render
