// render_student.cu: YOUR FILE. Make it correct (task 1), then fast (tasks 2-4); README.md.
// Your code stays inside namespace render.
//
// As given, it is fast and wrong, like the classic starter: one thread per circle, each
// blending its circle into every pixel it covers. Run `make run` and read what the check says:
// threads of different circles update the same pixel at the same time (a race: one update is
// lost), and nothing makes circle 7 reach a pixel before circle 8 does (the order is lost).
//
// The rules your renderer must keep, at every pixel (circle_math.h has the exact arithmetic):
//   1. start from the background: circle_math::background_color(scene.background, y, height);
//   2. blend every circle that covers the pixel's center, in increasing circle index:
//      circle_math::shade(scene.shading, circle, color, px, py, pixel);
//   3. one circle at a time: no two updates of one pixel may overlap (atomicity).
// You may use the helpers of circle_math.h and tiles.h (the conservative circle-box test).
#include "render.h"

#include "circle_math.h"
#include "tiles.h"

#include "common/cuda_check.h"

namespace render {

namespace {

__global__ void clear_to_background(Background background, int width, int height, Rgba* image) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        image[static_cast<std::size_t>(y) * width + x] = circle_math::background_color(background, y, height);
}

// WRONG: one thread per circle. Two circles that overlap are blended by two threads that read,
// modify and write the same pixel with no order between them and no protection from each other.
__global__ void blend_one_circle_per_thread(SceneView scene, int width, int height, Rgba* image) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= scene.count) return;
    const Circle c = scene.circles[i];
    const Rgb color = scene.colors[i];
    const tiles::PixelRange box = tiles::pixel_range(c, width, height);  // the pixels it may cover
    for (int y = box.y0; y < box.y1; ++y) {
        const float py = circle_math::pixel_center(y, width);
        for (int x = box.x0; x < box.x1; ++x) {
            const float px = circle_math::pixel_center(x, width);
            Rgba* pixel = &image[static_cast<std::size_t>(y) * width + x];
            Rgba value = *pixel;  // read ...
            if (circle_math::shade(scene.shading, c, color, px, py, value)) *pixel = value;  // ... modify, write
        }
    }
}

}  // namespace

// TODO(task 1): make it correct (one thread per pixel is the simplest way: README.md, step 1).
// TODO(tasks 2-4): make it fast (tiles, shared memory, binning: README.md, steps 2-4).
void render_student(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace) {
    (void)workspace;  // scratch memory for later steps (render.h)
    if (width <= 0 || height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((width + 15) / 16, (height + 15) / 16);
    clear_to_background<<<grid, block>>>(scene.background, width, height, image);
    PMPP_CHECK_LAUNCH();
    if (scene.count == 0) return;
    blend_one_circle_per_thread<<<(scene.count + 255) / 256, 256>>>(scene, width, height, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace render
