// Bad submission for the grader's GPU check: every pixel blends its circles in the reverse of
// the scene's order (a per-pixel renderer of its own, looping from the last circle). Blending
// is not commutative, so the images differ wherever circles overlap.
// Expected: 04_circle_renderer correctness "wrong result", its performance "skipped";
// 01_saxpy full marks.
#include "render.h"

#include "circle_math.h"

#include "common/cuda_check.h"

namespace render {

template <Shading SHADING>
__global__ void per_pixel_reversed(SceneView scene, int width, int height, Rgba* image) {
    const int x = blockIdx.x * 16 + threadIdx.x;
    const int y = blockIdx.y * 16 + threadIdx.y;
    if (x >= width || y >= height) return;
    const float px = circle_math::pixel_center(x, width), py = circle_math::pixel_center(y, width);
    Rgba pixel = circle_math::background_color(scene.background, y, height);
    for (int i = scene.count - 1; i >= 0; --i)
        circle_math::shade(SHADING, scene.circles[i], scene.colors[i], px, py, pixel);
    image[static_cast<std::size_t>(y) * width + x] = pixel;
}

void render_student(const SceneView& scene, int width, int height, Rgba* image, Workspace&) {
    if (width <= 0 || height <= 0) return;
    const dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    if (scene.shading == Shading::Flat)
        per_pixel_reversed<Shading::Flat><<<grid, block>>>(scene, width, height, image);
    else
        per_pixel_reversed<Shading::Snow><<<grid, block>>>(scene, width, height, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace render
