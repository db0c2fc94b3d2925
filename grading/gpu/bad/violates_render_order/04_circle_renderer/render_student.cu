// Bad submission for the grader's GPU check: every pixel blends its circles in the reverse of
// the scene's order (the reference per-pixel renderer on a reversed copy of the scene). Blending
// is not commutative, so the images differ wherever circles overlap.
// Expected: 04_circle_renderer correctness "wrong result", its performance "skipped";
// 01_saxpy full marks.
#include "render.h"

#include "common/cuda_check.h"

__global__ void reverse_scene(const Circle* circles, const Rgb* colors, int count, Circle* rcircles, Rgb* rcolors) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        rcircles[count - 1 - i] = circles[i];
        rcolors[count - 1 - i] = colors[i];
    }
}

void render_student(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace) {
    SceneView reversed = scene;
    if (scene.count > 0) {
        Circle* circles = workspace.get<Circle>(0, static_cast<std::size_t>(scene.count));
        Rgb* colors = workspace.get<Rgb>(1, static_cast<std::size_t>(scene.count));
        reverse_scene<<<(scene.count + 255) / 256, 256>>>(scene.circles, scene.colors, scene.count, circles, colors);
        PMPP_CHECK_LAUNCH();
        reversed.circles = circles;
        reversed.colors = colors;
    }
    render_per_pixel(reversed, width, height, image, workspace);
}
