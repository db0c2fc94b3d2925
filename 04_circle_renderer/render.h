// render.h: the functions of exercise 04. Render a scene of semi-transparent circles.
//
// A scene is a list of circles: a center (x, y), a depth z, a radius and a color. An image is
// width x height RGBA float pixels, row-major, top row first. Every pixel starts as the scene's
// background and then blends every circle that covers its center, one at a time, in the
// circles' order (circle_math.h says exactly what "covers", the shading and the blend are;
// render_cpu.cpp applies them). Blending is not commutative: a pixel that sees two of its
// circles in the other order, or two threads that update one pixel at the same time, give a
// different image.
//
// Device pointers everywhere except render_cpu (host pointers). All GPU work goes on the
// default stream. Everything here is in namespace render, as each exercise's functions are in the
// namespace its header is named after (saxpy.h: saxpy, ..., mandelbrot.h: mandelbrot).
#pragma once

#include "common/device_buffer.h"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace render {

// Lengths are in image widths: x = 0 is the left edge of the image, x = 1 the right edge,
// y = 0 the top edge, y grows downward (a square image ends at y = 1). z is the depth, from
// 0 (near) to 1 (far); only snow shading uses it. 16 bytes, so a kernel loads one in one access.
struct alignas(16) Circle {
    float x, y, z, radius;
};

struct Rgb {
    float r, g, b;
};

// A pixel: red, green, blue and alpha, each in [0, 1] (alpha is 1 for every scene here: the
// backgrounds are opaque).
struct alignas(16) Rgba {
    float r, g, b, a;
};

enum class Shading : int {
    Flat,  // alpha 1/2 everywhere in the circle, the circle's color
    Snow,  // alpha falls off from the center; color from a ramp of the depth z
};

enum class Background : int {
    White,  // (1, 1, 1, 1)
    Sky,  // a vertical gradient, dark at the top (circle_math.h)
};

// A scene as the renderers see it: pointers to its arrays (device pointers for the GPU
// functions, host pointers for render_cpu). colors has `count` entries for every scene; snow
// shading ignores them.
struct SceneView {
    int count = 0;
    const Circle* circles = nullptr;
    const Rgb* colors = nullptr;
    Shading shading = Shading::Flat;
    Background background = Background::White;
};

// Scratch device memory that outlives one call: get<T>(slot, n) returns room for n values of T
// in slot `slot` (0 to 7), reallocating that slot only when it must grow (its contents are not
// kept then). The harness keeps one Workspace per implementation and scene and renders once,
// untimed, before it times: memory sized on the first call is never allocated inside a timed run.
class Workspace {
public:
    static constexpr int kSlots = 8;

    template <typename T>
    T* get(int slot, std::size_t count) {
        if (slot < 0 || slot >= kSlots)
            throw std::out_of_range("Workspace::get: slot " + std::to_string(slot) + " is not in [0, 7]");
        buffers_[slot].resize(count * sizeof(T));
        return reinterpret_cast<T*>(buffers_[slot].data());
    }

private:
    pmpp::DeviceBuffer<unsigned char> buffers_[kSlots];
};

// ---- Your part: render_student.cu -------------------------------------------------------------
// Write every pixel of `image` (width * height of them): the background, then the circles.
void render_student(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace);

// ---- Reference variants, from correct to fast -------------------------------------------------
// 1. One thread per pixel, every circle in order (render_1_per_pixel.cu)
void render_per_pixel(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace);
// 2. One block per 16x16 tile: the block culls the circles against its tile 256 at a time,
//    compacts the survivors with a scan into shared memory, and every pixel blends them in order
//    (render_2_tiled.cu)
void render_tiled(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace);
// 3. Binned: every circle is listed under every tile it touches at once (count, scan, emit, a
//    stable radix sort by tile), then each tile blends only its own list (render_3_binned.cu)
void render_binned(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace);

// The definition of correct: circle after circle, in order, over the pixels each one covers
// (host arrays; OpenMP splits the image into bands of rows, which changes no pixel's sequence).
// `coverage`, if not null, receives the number of circles covering each pixel.
void render_cpu(const SceneView& scene, int width, int height, Rgba* image, unsigned* coverage = nullptr);

}  // namespace render
