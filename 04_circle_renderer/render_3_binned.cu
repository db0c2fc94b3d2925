// render_3_binned.cu: bin every circle to every tile at once, then each tile blends its own list.
//
// Idea over render_2_tiled: variant 2 makes each of the 4,096 tiles read the whole scene; here
// the scene is read a constant number of times, whatever the number of tiles:
//   1. count: one thread per circle counts the tiles it touches (tiles::for_each_touched_tile,
//      the same conservative test as variant 2);
//   2. scan: an exclusive scan of the counts gives each circle the place of its first
//      (tile, circle) pair (02_scan's single-pass scan, ../02_scan/scan_3_single_pass.cu);
//   3. emit: each circle writes its pairs there. The pairs are now in circle order;
//   4. sort: a radix sort of the pairs by tile (cub::DeviceRadixSort::SortPairs over just the
//      bits of a tile number) is stable, so each tile's circles stay in input order (PMPP 13);
//   5. ranges: where each tile's run of pairs starts and ends;
//   6. render: one block per tile stages its list in shared memory, 256 circles at a time, and
//      every thread blends them into its pixel; each warp first keeps only the staged circles
//      that touch its own 8x4 pixels (render_2_tile_blend.cuh), so small circles cost a warp only
//      where they are, and blends the circles that cover all of its 8x4 pixels without testing
//      each pixel (flat shading), so big circles cost only the blend.
// A pixel still sees every circle that covers it, in order: the tile's list holds all of them
// (conservative test) in input order (stable sort), and one thread owns the pixel.
// Work: the scene is read 3 times; pairs = sum over circles of the tiles each touches (6 million
// for rand1M at 1024, 2.2 million for micro2M); each pixel tests only its tile's list, not the
// scene. Below BinnedConfig::min_circles the fixed cost of six launches and the read of the
// pair count (one host synchronization) is more than variant 2 spends: such scenes go to it,
// and so do scenes of big circles (more pairs than BinnedConfig::max_pair_fraction of tiles x
// circles), where sorting the pairs costs more than variant 2's tests save.
// Measured (H200, 2026-11-30, 1024x1024): rand1M 1.15 ms (15.6x variant 2), micro2M 0.41 ms (84x),
// snowsingle 0.50 ms (4.7x); biglittle goes to variant 2 (README.md has every scene).
#include "render.h"
#include "render_3_binned.h"

#include "render_2_tile_blend.cuh"
#include "tiles.h"

#include "../02_scan/scan.h"
#include "common/primitives/scan.cuh"

#include "common/cuda_check.h"

#include <cub/cub.cuh>

#include <cstdint>

namespace render {

namespace {

constexpr int kCircleThreads = 256;
// Beyond this many pairs (2 GiB of them, sorted twice) the binned lists would not be worth
// their memory: the tiled renderer takes the scene.
constexpr long long kMaxPairs = 1ll << 28;

// Workspace slots.
enum Slot { kCounts, kOffsets, kScanWorkspace, kTotal, kRanges, kPairsIn, kPairsOut, kSortTemp };

__global__ void __launch_bounds__(kCircleThreads)
    count_tiles(SceneView scene, tiles::TileGrid grid, int* __restrict__ counts,
                unsigned long long* __restrict__ total) {
    const int i = blockIdx.x * kCircleThreads + threadIdx.x;
    int n = 0;
    if (i < scene.count) {
        n = tiles::for_each_touched_tile(scene.circles[i], grid, [](int) {});
        counts[i] = n;
    }
    // The total, in 64 bits (the scan's 32-bit sums could wrap): one atomic per warp.
    const unsigned warp_total = scan_primitives::warp_sum(static_cast<unsigned>(n));
    if ((threadIdx.x & 31u) == 0 && warp_total != 0) atomicAdd(total, static_cast<unsigned long long>(warp_total));
}

__global__ void __launch_bounds__(kCircleThreads)
    emit_pairs(SceneView scene, tiles::TileGrid grid, const int* __restrict__ offsets, unsigned* __restrict__ keys,
               unsigned* __restrict__ circles) {
    const int i = blockIdx.x * kCircleThreads + threadIdx.x;
    if (i >= scene.count) return;
    unsigned place = static_cast<unsigned>(offsets[i]);
    tiles::for_each_touched_tile(scene.circles[i], grid, [&](int tile) {
        keys[place] = static_cast<unsigned>(tile);
        circles[place] = static_cast<unsigned>(i);
        ++place;
    });
}

// The sorted keys are runs of equal tiles: a run's first and last pair mark its ends. Tiles
// with no pair keep start = end = 0 (cleared before).
__global__ void tile_ranges(const unsigned* __restrict__ keys, int pairs, int* __restrict__ start,
                            int* __restrict__ end) {
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pairs) return;
    const unsigned tile = keys[p];
    if (p == 0 || keys[p - 1] != tile) start[tile] = p;
    if (p == pairs - 1 || keys[p + 1] != tile) end[tile] = p + 1;
}

// One block per tile, TILE x TILE threads; warp w covers an 8x4 rectangle of the tile (a row of
// TILE / 8 of them per 4 pixel rows), so its box is compact and each row of 8 pixels is one
// 128-byte store.
template <Shading SHADING, int TILE, bool WARP_CULL, bool SKIP_INTERIOR>
__global__ void __launch_bounds__(TILE* TILE)
    render_tiles(SceneView scene, tiles::TileGrid grid, const int* __restrict__ start, const int* __restrict__ end,
                 const unsigned* __restrict__ list, Rgba* __restrict__ image) {
    static_assert(TILE % 8 == 0, "tiles are whole 8x4 warp rectangles");
    constexpr int kThreads = TILE * TILE, kWarpsPerRow = TILE / 8;
    __shared__ StagedCircle staged[kThreads];
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int wx = grid.x0(blockIdx.x) + (warp % kWarpsPerRow) * 8,
              wy = grid.y0(blockIdx.y) + (warp / kWarpsPerRow) * 4;
    const int x = wx + lane % 8, y = wy + lane / 8;
    const tiles::Box warp_box = tiles::pixel_box(wx, wy, wx + 8, wy + 4, grid.width);
    const float px = circle_math::pixel_center(x, grid.width), py = circle_math::pixel_center(y, grid.width);
    Rgba pixel = circle_math::background_color(scene.background, y, grid.height);

    const int tile = static_cast<int>(blockIdx.y) * grid.tiles_x + static_cast<int>(blockIdx.x);
    const int first = start[tile], last = end[tile];
    for (int base = first; base < last; base += kThreads) {
        const int n = last - base < kThreads ? last - base : kThreads;
        if (static_cast<int>(threadIdx.x) < n) {
            const unsigned i = list[base + threadIdx.x];
            staged[threadIdx.x] = stage(scene.circles[i], scene.colors[i]);
        }
        __syncthreads();
        if (WARP_CULL)
            blend_touching_warp<SHADING, SKIP_INTERIOR>(staged, n, warp_box, wx, wy, grid.width, px, py, pixel);
        else
            blend_all<SHADING>(staged, n, px, py, pixel);
        __syncthreads();
    }
    if (x < grid.width && y < grid.height) image[static_cast<std::size_t>(y) * grid.width + x] = pixel;
}

template <int TILE>
void launch_render(const BinnedConfig& config, const SceneView& scene, const tiles::TileGrid& grid, const int* start,
                   const int* end, const unsigned* list, Rgba* image) {
    const dim3 blocks(grid.tiles_x, grid.tiles_y);
    constexpr int kThreads = TILE * TILE;
    const bool flat = scene.shading == Shading::Flat;
    if (!config.warp_cull) {
        if (flat)
            render_tiles<Shading::Flat, TILE, false, false><<<blocks, kThreads>>>(scene, grid, start, end, list, image);
        else
            render_tiles<Shading::Snow, TILE, false, false><<<blocks, kThreads>>>(scene, grid, start, end, list, image);
    } else if (!flat) {
        render_tiles<Shading::Snow, TILE, true, false><<<blocks, kThreads>>>(scene, grid, start, end, list, image);
    } else if (config.skip_interior) {
        render_tiles<Shading::Flat, TILE, true, true><<<blocks, kThreads>>>(scene, grid, start, end, list, image);
    } else {
        render_tiles<Shading::Flat, TILE, true, false><<<blocks, kThreads>>>(scene, grid, start, end, list, image);
    }
    PMPP_CHECK_LAUNCH();
}

// Events between the phases, only when the caller asked for the times.
class Timeline {
public:
    explicit Timeline(bool on) : on_(on) {}
    ~Timeline() {
        for (int k = 0; k < used_; ++k) cudaEventDestroy(events_[k]);
    }
    void mark() {
        if (!on_) return;
        PMPP_CUDA_CHECK(cudaEventCreate(&events_[used_]));
        PMPP_CUDA_CHECK(cudaEventRecord(events_[used_++]));
    }
    float since_previous(int k) {  // ms between mark k - 1 and mark k
        float ms = 0;
        if (on_ && k > 0 && k < used_) PMPP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[k - 1], events_[k]));
        return ms;
    }
    void finish() {
        if (on_ && used_ > 0) PMPP_CUDA_CHECK(cudaEventSynchronize(events_[used_ - 1]));
    }

private:
    bool on_;
    int used_ = 0;
    cudaEvent_t events_[8];
};

int bits_for(int values) {  // bits of the largest tile number, at least 1
    int bits = 1;
    while (bits < 31 && (1 << bits) < values) ++bits;
    return bits;
}

}  // namespace

void render_binned_with(const SceneView& scene, int width, int height, Rgba* image, Workspace& ws,
                        const BinnedConfig& config, BinnedTimes* times) {
    if (width <= 0 || height <= 0) return;
    if (config.tile != 8 && config.tile != 16 && config.tile != 32)
        throw std::invalid_argument("render_binned_with: tile must be 8, 16 or 32");
    if (times) *times = BinnedTimes{};
    if (scene.count == 0 || scene.count < config.min_circles) {
        render_tiled(scene, width, height, image, ws);
        return;
    }
    const tiles::TileGrid grid = tiles::tile_grid(width, height, config.tile);
    const std::size_t n = static_cast<std::size_t>(scene.count);
    const int circle_blocks = static_cast<int>((n + kCircleThreads - 1) / kCircleThreads);
    Timeline timeline(times != nullptr);
    timeline.mark();

    // 1. Count the tiles each circle touches (and their total).
    int* counts = ws.get<int>(kCounts, n);
    int* offsets = ws.get<int>(kOffsets, n);
    void* scan_workspace = ws.get<unsigned char>(kScanWorkspace, scan::scan_single_pass_workspace_bytes(n));
    unsigned long long* total = ws.get<unsigned long long>(kTotal, 1);
    PMPP_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(unsigned long long)));
    count_tiles<<<circle_blocks, kCircleThreads>>>(scene, grid, counts, total);
    PMPP_CHECK_LAUNCH();
    timeline.mark();

    // 2. Where each circle's pairs start.
    scan::exclusive_scan_single_pass(counts, offsets, n, scan_workspace);
    timeline.mark();

    // The number of pairs sizes the sort: the one synchronization with the host.
    unsigned long long pairs_ull = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&pairs_ull, total, sizeof pairs_ull, cudaMemcpyDeviceToHost));
    timeline.mark();
    const long long pairs = static_cast<long long>(pairs_ull);
    const double combinations = static_cast<double>(grid.count()) * static_cast<double>(n);
    if (pairs > kMaxPairs || static_cast<double>(pairs) > config.max_pair_fraction * combinations) {
        render_tiled(scene, width, height, image, ws);
        return;
    }
    if (times) times->pairs = pairs, times->binned = true;

    // 3. Every (tile, circle) pair, in circle order.
    const std::size_t stride =
        (static_cast<std::size_t>(pairs) + 64) / 64 * 64;  // keeps the second array 256-byte aligned
    unsigned* keys_in = ws.get<unsigned>(kPairsIn, 2 * stride);
    unsigned* circles_in = keys_in + stride;
    unsigned* keys_out = ws.get<unsigned>(kPairsOut, 2 * stride);
    unsigned* circles_out = keys_out + stride;
    if (pairs > 0) {
        emit_pairs<<<circle_blocks, kCircleThreads>>>(scene, grid, offsets, keys_in, circles_in);
        PMPP_CHECK_LAUNCH();
    }
    timeline.mark();

    // 4. Stable sort by tile: each tile's circles stay in input order.
    const int key_bits = bits_for(grid.count());
    std::size_t sort_bytes = 0;
    PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_in, keys_out, circles_in, circles_out,
                                                    static_cast<int>(pairs), 0, key_bits));
    void* sort_temp = ws.get<unsigned char>(kSortTemp, sort_bytes);
    if (pairs > 0)
        PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp, sort_bytes, keys_in, keys_out, circles_in,
                                                        circles_out, static_cast<int>(pairs), 0, key_bits));
    timeline.mark();

    // 5. Each tile's run of pairs.
    int* start = ws.get<int>(kRanges, 2 * static_cast<std::size_t>(grid.count()));
    int* end = start + grid.count();
    PMPP_CUDA_CHECK(cudaMemsetAsync(start, 0, 2 * static_cast<std::size_t>(grid.count()) * sizeof(int)));
    if (pairs > 0) {
        tile_ranges<<<static_cast<unsigned>((pairs + 255) / 256), 256>>>(keys_out, static_cast<int>(pairs), start, end);
        PMPP_CHECK_LAUNCH();
    }
    timeline.mark();

    // 6. Each tile blends its list.
    switch (config.tile) {
        case 8: launch_render<8>(config, scene, grid, start, end, circles_out, image); break;
        case 16: launch_render<16>(config, scene, grid, start, end, circles_out, image); break;
        default: launch_render<32>(config, scene, grid, start, end, circles_out, image); break;
    }
    timeline.mark();

    if (times) {
        timeline.finish();
        times->count = timeline.since_previous(1);
        times->scan = timeline.since_previous(2);
        times->read_total = timeline.since_previous(3);
        times->emit = timeline.since_previous(4);
        times->sort = timeline.since_previous(5);
        times->ranges = timeline.since_previous(6);
        times->render = timeline.since_previous(7);
    }
}

void render_binned(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace) {
    render_binned_with(scene, width, height, image, workspace, BinnedConfig{});
}

}  // namespace render
