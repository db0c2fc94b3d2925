// render_2_tile_blend.cuh: the inner loop of the tiled renderers (variants 2 and 3). A block owns a tile;
// it copies a batch of the circles that touch the tile into shared memory (staged, in order),
// then every thread blends the batch into its own pixel, held in registers until the end.
#pragma once

#include "circle_math.h"
#include "tiles.h"

namespace render {

// A circle as the inner loop wants it: its squared radius computed once, and its color beside
// it. 32 bytes, two 16-byte shared-memory accesses.
struct alignas(16) StagedCircle {
    float x, y, z, r2;
    Rgb color;
    float unused;
};

__device__ __forceinline__ StagedCircle stage(const Circle& c, const Rgb& color) {
    return {c.x, c.y, c.z, circle_math::radius2(c), color, 0.f};
}

// Every thread tests every staged circle against its pixel, in order.
template <Shading SHADING>
__device__ __forceinline__ void blend_all(const StagedCircle* staged, int n, float px, float py, Rgba& pixel) {
    for (int k = 0; k < n; ++k) {
        const StagedCircle& s = staged[k];
        circle_math::shade(SHADING, s.x, s.y, s.z, s.r2, s.color, px, py, pixel);
    }
}

// The same, culled per warp: each lane tests one of 32 staged circles against the box of the
// warp's pixels, a ballot collects the circles that touch it, and the warp blends only those,
// lowest index first, so still in order. Worth it when circles are small next to the tile: a
// warp then skips most of the tile's list. With SKIP_INTERIOR (flat shading), a second ballot
// marks the circles that cover every pixel of the warp's block (tiles::covers_block): those
// are blended without the per-pixel test. Every lane of the warp must call it.
template <Shading SHADING, bool SKIP_INTERIOR>
__device__ __forceinline__ void blend_touching_warp(const StagedCircle* staged, int n, const tiles::Box& warp_box,
                                                    int wx, int wy, int width, float px, float py, Rgba& pixel) {
    static_assert(!SKIP_INTERIOR || SHADING == Shading::Flat, "snow's alpha needs each pixel's distance");
    const unsigned lane = threadIdx.x & 31u;
    for (int first = 0; first < n; first += 32) {
        const int k = first + static_cast<int>(lane);
        bool touches = false, interior = false;
        if (k < n) {
            const StagedCircle& s = staged[k];
            touches = tiles::touches(s.x, s.y, s.r2, warp_box);
            if (SKIP_INTERIOR && touches) interior = tiles::covers_block(s.x, s.y, s.r2, wx, wy, wx + 8, wy + 4, width);
        }
        unsigned hits = __ballot_sync(0xFFFFFFFFu, touches);
        const unsigned inside = SKIP_INTERIOR ? __ballot_sync(0xFFFFFFFFu, interior) : 0u;
        while (hits != 0) {
            const int bit = __ffs(hits) - 1;
            hits &= hits - 1;
            const StagedCircle& s = staged[first + bit];
            if (SKIP_INTERIOR && (inside >> bit & 1u))
                circle_math::average(pixel, s.color);
            else
                circle_math::shade(SHADING, s.x, s.y, s.z, s.r2, s.color, px, py, pixel);
        }
    }
}

}  // namespace render
