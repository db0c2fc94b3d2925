// Renderers for the tests: each wrong one makes one classic mistake, and the check must reject
// it; the last one is right in a way the CPU is not bit for bit (fused multiply-adds), and the
// check must accept it. The per-pixel ones are in wrong_renderers.cu, the tiled ones (the tiled
// reference with one mistake) in wrong_tiled.cu. Each comment ends with the mistake as its
// author would put it.
#pragma once

#include "../render.h"

#include <functional>

namespace render::wrong {
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
// The grid's block counts swapped, dim3((height + 15) / 16, (width + 15) / 16): right on square
// images; on the others the grid stops short on one axis. "x blocks, y blocks: I had it the
// other way round."
void grid_axes_swapped(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Every pixel computed and never stored. "The pixel is blended in a register; I forgot to write
// it back."
void forgets_to_store(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Every pixel starts from (0, 0, 0, 0), not from the background. "Rgba p{} is a fine start."
void starts_from_zero(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Every pixel starts from white, also on the sky. "The background is white."
void white_sky(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Every circle but the last one, in order. "k < count - 1." A mistake that fits no pattern of
// the check's hints: it must get none.
void drops_the_last_circle(const SceneView&, int width, int height, Rgba* image, Workspace&);
// The tiled reference, but the threads whose pixel lies outside the image (in a partial tile)
// test no circle of the batch: the circles of their places are lost for that tile. "A thread
// without a pixel has nothing to do in the culling."
void partial_tile_skips_culling(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Right image, but it moves the first circle (a renderer may only write the image).
void writes_the_scene(const SceneView&, int width, int height, Rgba* image, Workspace&);
// One thread per pixel in a 1D grid of 256-thread blocks, bounded by `i <= width * height`, the
// grid pixels / 256 + 1 blocks: right image, and one pixel written past its end, whether or not
// the pixel count is a multiple of the block.
void one_past_the_end(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Rows handed out from the bottom up (row = height - 1 - thread row), bounded by row < height
// only: right image, but where the grid's last tile row sticks out (height not a multiple of
// 16) its threads get negative rows and write before the start of the image.
void rows_from_the_bottom(const SceneView&, int width, int height, Rgba* image, Workspace&);
// Right on its first call (the tiled reference); a later call with the same scene, size and
// image returns at once, leaving the image as it is: it remembers its answers. The check calls
// it once per image and passes it; only a benchmark that poisons and checks every run sees it.
// Each call of this function gives a renderer with a memory of its own.
std::function<void(const SceneView&, int, int, Rgba*, Workspace&)> remembers_its_calls();
// Right, the natural way: plain arithmetic (fused by the compiler), the pixel center as
// (x + 1/2) * (1 / width), expf. Must pass.
void fused_and_reciprocal(const SceneView&, int width, int height, Rgba* image, Workspace&);
}  // namespace render::wrong
