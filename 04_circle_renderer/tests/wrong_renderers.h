// Renderers for the tests: each wrong one makes one classic mistake, and the check must reject
// it; the last one is right in a way the CPU is not bit for bit (fused multiply-adds), and the
// check must accept it.
#pragma once

#include "../render.h"

namespace wrong {
// One thread per pixel, the circles last to first: unordered.
void reverse_order(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Each run of 32 consecutive circles blended last to first (as if a warp's lanes went in reverse).
void warp_reversed(const SceneView&, int width, int height, Rgba* image, Workspace&);
// The starter's: one thread per circle, racing on the pixels it covers.
void one_thread_per_circle(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Pixel (x, y)'s center taken at (x, y) / width: half a pixel off.
void off_by_half_pixel(const SceneView&, int width, int height, Rgba* image, Workspace&);
// py = (y + 1/2) / height: right only for square images.
void y_in_heights(const SceneView&, int width, int height, Rgba* image, Workspace&);
// The grid rounded down: the last partial column and row of blocks never run.
void grid_rounds_down(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Right image, but it moves the first circle (a renderer may only write the image).
void writes_the_scene(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Right, the natural way: plain arithmetic (fused by the compiler), the pixel center as
// (x + 1/2) * (1 / width), expf. Must pass.
void fused_and_reciprocal(const SceneView&, int width, int height, Rgba* image, Workspace&);
}  // namespace wrong
