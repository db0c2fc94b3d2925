// A tiled renderer for the tests: the tiled reference (render_2_tiled.cu) with one classic
// mistake of tasks 2 and 3 (wrong_renderers.h says which). (A renderer without the barrier
// before blending was tried and left out: on the H200 it read a circle index from stale shared
// memory and crashed the run, so no check message can be held to it.)
#include "wrong_renderers.h"

#include "../render_2_tile_blend.cuh"
#include "../tiles.h"

#include "common/primitives/scan.cuh"

#include "common/cuda_check.h"

namespace render {

namespace {

constexpr int kTile = 16;
constexpr int kThreads = kTile * kTile;

template <Shading SHADING>
__global__ void __launch_bounds__(kThreads) tiled(SceneView scene, tiles::TileGrid grid, Rgba* __restrict__ image) {
    __shared__ scan_primitives::BlockScanStorage<kThreads> scan;
    __shared__ StagedCircle staged[kThreads];
    const int x = grid.x0(blockIdx.x) + static_cast<int>(threadIdx.x) % kTile;
    const int y = grid.y0(blockIdx.y) + static_cast<int>(threadIdx.x) / kTile;
    const bool in_image = x < grid.width && y < grid.height;
    const tiles::Box box = grid.box(blockIdx.x, blockIdx.y);
    const float px = circle_math::pixel_center(x, grid.width), py = circle_math::pixel_center(y, grid.width);
    Rgba pixel = circle_math::background_color(scene.background, y, grid.height);

    for (long long first = 0; first < scene.count; first += kThreads) {
        const int i = static_cast<int>(first) + static_cast<int>(threadIdx.x);
        Circle c;
        bool touches = false;
        // The mistake: a thread without a pixel tests no circle, so in a partial tile the
        // circles of its places in the batch are never staged.
        if (i < scene.count && in_image) {
            c = scene.circles[i];
            touches = tiles::touches(c, box);
        }
        unsigned survivors;
        const unsigned place = scan_primitives::block_exclusive_scan<kThreads>(touches ? 1u : 0u, survivors, scan);
        if (touches) staged[place] = stage(c, scene.colors[i]);
        __syncthreads();
        blend_all<SHADING>(staged, static_cast<int>(survivors), px, py, pixel);
        __syncthreads();
    }
    if (in_image) image[static_cast<std::size_t>(y) * grid.width + x] = pixel;
}

void launch_tiled(const SceneView& scene, int width, int height, Rgba* image) {
    if (width <= 0 || height <= 0) return;
    const tiles::TileGrid grid = tiles::tile_grid(width, height, kTile);
    const dim3 blocks(grid.tiles_x, grid.tiles_y);
    if (scene.shading == Shading::Flat)
        tiled<Shading::Flat><<<blocks, kThreads>>>(scene, grid, image);
    else
        tiled<Shading::Snow><<<blocks, kThreads>>>(scene, grid, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

namespace wrong {

void partial_tile_skips_culling(const SceneView& s, int w, int h, Rgba* image, Workspace&) {
    launch_tiled(s, w, h, image);
}

}  // namespace wrong

}  // namespace render
