// render_2_tiled.cu: each block culls the circles against its own tile, then blends only those.
//
// Idea over render_1_per_pixel: a 16x16 block owns a 16x16 tile of pixels. It reads the circles
// 256 at a time, one per thread; each thread tests its circle against the tile's box
// (tiles::touches, a conservative circle-box test: it never drops a circle that covers one of
// the tile's pixels); an exclusive scan of the 0/1 results over the block gives each surviving
// circle its place (PMPP 11, stream compaction; the block scan is 02_scan's, shared:
// common/primitives/scan.cuh), so the survivors land in shared memory in input order; then
// every thread blends them into its pixel. A pixel still sees every circle that covers it, in
// order, and a tile now does a few tests per circle instead of 256.
// The cost left: every block still reads and tests every circle of the scene, count / 256
// rounds of load, test, scan and five barriers per tile, whatever the tile's own list: 4,096 tiles
// x 4,000 rounds for rand1M at 1024. Variant 3 removes that.
// Measured (H200, 2026-11-30, 1024x1024): rand10k 0.267 ms, rand1M 17.9 ms, micro2M 34.9 ms, biglittle
// 1.23 ms (the fastest there: README.md has every scene).
#include "render.h"

#include "render_2_tile_blend.cuh"
#include "tiles.h"

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
    const tiles::Box box = grid.box(blockIdx.x, blockIdx.y);
    const float px = circle_math::pixel_center(x, grid.width), py = circle_math::pixel_center(y, grid.width);
    Rgba pixel = circle_math::background_color(scene.background, y, grid.height);

    for (long long first = 0; first < scene.count; first += kThreads) {
        const int i = static_cast<int>(first) + static_cast<int>(threadIdx.x);
        Circle c;
        bool touches = false;
        if (i < scene.count) {
            c = scene.circles[i];
            touches = tiles::touches(c, box);
        }
        unsigned survivors;
        // Ends with a barrier: `scan` may be reused, and staged[] is free to overwrite.
        const unsigned place = scan_primitives::block_exclusive_scan<kThreads>(touches ? 1u : 0u, survivors, scan);
        if (touches) staged[place] = stage(c, scene.colors[i]);
        __syncthreads();
        blend_all<SHADING>(staged, static_cast<int>(survivors), px, py, pixel);
        __syncthreads();  // everyone is done with this batch before the next one overwrites it
    }
    if (x < grid.width && y < grid.height) image[static_cast<std::size_t>(y) * grid.width + x] = pixel;
}

}  // namespace

void render_tiled(const SceneView& scene, int width, int height, Rgba* image, Workspace&) {
    if (width <= 0 || height <= 0) return;
    const tiles::TileGrid grid = tiles::tile_grid(width, height, kTile);
    const dim3 blocks(grid.tiles_x, grid.tiles_y);
    if (scene.shading == Shading::Flat)
        tiled<Shading::Flat><<<blocks, kThreads>>>(scene, grid, image);
    else
        tiled<Shading::Snow><<<blocks, kThreads>>>(scene, grid, image);
    PMPP_CHECK_LAUNCH();
}

}  // namespace render
