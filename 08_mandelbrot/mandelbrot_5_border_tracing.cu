// mandelbrot_5_border_tracing.cu: Mariani-Silver border tracing, with a work queue of tiles.
// Idea over the per-pixel kernels: compute only the border of a rectangle; if every border
// pixel has the same count, so does every pixel inside, and the inside is filled without
// iterating. Otherwise split the inside into four and look again. With dynamic parallelism
// (PMPP 21) a tile would launch a child grid per split; here each level of the subdivision is
// one launch that reads the tiles of the previous level from a list in device memory and
// appends its own (no -rdc=true, no device-side launches, the same adaptive work).
//
// Why a uniform border is enough: {c : count(c) >= n} is connected and has no holes (it is a
// filled polynomial lemniscate), so a rectangle whose border is all count n can hold neither
// a point of count < n (it would reach infinity through the border) nor one of count > n (it
// would reach the set through the border). On a grid of pixels a filament thinner than a pixel
// can still slip between two border samples: NOTES.md measured how rarely that changes a pixel.
// Border pixels are computed with variant 4's per-pixel engine (escape_time_fast).
// Measured (H200, 2026-11-30): full view at 4096 iterations 0.601 ms, 6.6x the seed kernel.
#include "mandelbrot.h"
#include "mandelbrot_device.cuh"

#include "common/device_buffer.h"

#include <vector>

namespace mandelbrot {

namespace {

struct Tile {
    int x, y, w, h;
};

constexpr int kFirstTile = 64;  // the image is cut into tiles of 64x64 pixels (NOTES.md: 64, 128, 256)
constexpr int kLeafTile = 16;  // a tile this narrow is computed pixel by pixel
constexpr int kTileThreads = 128;

// Sides of the tiles at each level: 64, 31, 15 (the inside of a tile, halved).
std::vector<int> level_sizes() {
    std::vector<int> sizes = {kFirstTile};
    while (sizes.back() > kLeafTile) sizes.push_back((sizes.back() - 1) / 2);
    return sizes;
}

template <typename T>
__device__ __forceinline__ std::uint32_t count_at(const Frame<T>& f, int px, int py) {
    return escape_time_fast(f.re(px), f.im(py), f.max_iter);
}

// The i-th pixel of the tile's border ring: top row, bottom row, then the two sides.
__device__ __forceinline__ void ring_pixel(const Tile& t, int i, int& px, int& py) {
    if (i < t.w) {
        px = t.x + i, py = t.y;
    } else if (i < 2 * t.w) {
        px = t.x + i - t.w, py = t.y + t.h - 1;
    } else if (i < 2 * t.w + t.h - 2) {
        px = t.x, py = t.y + 1 + (i - 2 * t.w);
    } else {
        px = t.x + t.w - 1, py = t.y + 1 + (i - 2 * t.w - (t.h - 2));
    }
}

// One block per tile (looping while tiles are left). Level 0 (in == nullptr) takes the tiles
// of a grid of kFirstTile squares; later levels read the list the previous level appended to.
template <typename T>
__global__ void __launch_bounds__(kTileThreads)
    trace_tiles(Frame<T> f, std::uint32_t* counts, const Tile* in, const unsigned* in_count, unsigned first_level_tiles,
                int tiles_across, Tile* out, unsigned* out_count) {
    __shared__ unsigned lowest, highest;
    const unsigned n = in == nullptr ? first_level_tiles : *in_count;
    for (unsigned index = blockIdx.x; index < n; index += gridDim.x) {
        Tile t;
        if (in == nullptr) {
            t.x = static_cast<int>(index % tiles_across) * kFirstTile;
            t.y = static_cast<int>(index / tiles_across) * kFirstTile;
            t.w = min(kFirstTile, f.width - t.x);
            t.h = min(kFirstTile, f.height - t.y);
        } else {
            t = in[index];
        }
        if (t.w <= kLeafTile || t.h <= kLeafTile) {  // small: every pixel
            for (int i = threadIdx.x; i < t.w * t.h; i += blockDim.x) {
                const int px = t.x + i % t.w, py = t.y + i / t.w;
                counts[static_cast<std::size_t>(py) * f.width + px] = count_at(f, px, py);
            }
            continue;
        }
        if (threadIdx.x == 0) {
            lowest = ~0u;
            highest = 0;
        }
        __syncthreads();
        unsigned lo = ~0u, hi = 0;
        for (int i = threadIdx.x; i < 2 * t.w + 2 * (t.h - 2); i += blockDim.x) {
            int px, py;
            ring_pixel(t, i, px, py);
            const std::uint32_t c = count_at(f, px, py);
            counts[static_cast<std::size_t>(py) * f.width + px] = c;
            lo = min(lo, c);
            hi = max(hi, c);
        }
        atomicMin(&lowest, lo);
        atomicMax(&highest, hi);
        __syncthreads();
        lo = lowest;
        hi = highest;
        __syncthreads();  // everyone has read them before the next tile resets them

        const int iw = t.w - 2, ih = t.h - 2;  // the inside
        if (lo == hi) {
            for (int i = threadIdx.x; i < iw * ih; i += blockDim.x)
                counts[static_cast<std::size_t>(t.y + 1 + i / iw) * f.width + t.x + 1 + i % iw] = lo;
        } else if (threadIdx.x == 0) {
            const int hw = iw / 2, hh = ih / 2;
            const unsigned slot = atomicAdd(out_count, 4u);
            out[slot + 0] = Tile{t.x + 1, t.y + 1, hw, hh};
            out[slot + 1] = Tile{t.x + 1 + hw, t.y + 1, iw - hw, hh};
            out[slot + 2] = Tile{t.x + 1, t.y + 1 + hh, hw, ih - hh};
            out[slot + 3] = Tile{t.x + 1 + hw, t.y + 1 + hh, iw - hw, ih - hh};
        }
    }
}

template <typename T>
void trace(const View& view, std::uint32_t* counts) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    static const int resident_blocks = [] {
        return pmpp::device_limits().sm_count * pmpp::resident_blocks_per_sm(trace_tiles<T>, kTileThreads, 0);
    }();
    static const std::vector<int> sizes = level_sizes();
    // Tile lists of the levels after the first (a tile has at most four children), and their
    // lengths; kept between calls, grown when an image needs more.
    static std::vector<pmpp::DeviceBuffer<Tile>> lists(sizes.size());
    static pmpp::DeviceBuffer<unsigned> lengths(sizes.size());

    const Frame<T> f = make_frame<T>(view);
    const int across = (view.image_width + kFirstTile - 1) / kFirstTile;
    const int down = (view.image_height + kFirstTile - 1) / kFirstTile;
    const std::size_t first = static_cast<std::size_t>(across) * down;
    std::size_t bound = first;
    for (std::size_t level = 1; level < sizes.size(); ++level) {
        bound *= 4;
        if (lists[level].size() < bound) lists[level].resize(bound);
    }
    PMPP_CUDA_CHECK(cudaMemsetAsync(lengths.data(), 0, sizes.size() * sizeof(unsigned)));

    bound = first;
    for (std::size_t level = 0; level < sizes.size(); ++level) {
        const bool last = level + 1 == sizes.size();
        const unsigned blocks =
            static_cast<unsigned>(bound < static_cast<std::size_t>(resident_blocks) ? bound : resident_blocks);
        trace_tiles<T><<<blocks, kTileThreads>>>(
            f, counts, level == 0 ? nullptr : lists[level].data(), lengths.data() + level, static_cast<unsigned>(first),
            across, last ? nullptr : lists[level + 1].data(), last ? nullptr : lengths.data() + level + 1);
        PMPP_CHECK_LAUNCH();
        bound *= 4;
    }
}

}  // namespace

void mandelbrot_border_tracing(const View& view, Precision precision, std::uint32_t* counts) {
    if (precision == Precision::Float)
        trace<float>(view, counts);
    else
        trace<double>(view, counts);
}

}  // namespace mandelbrot
