// tiles.h: which circles can touch which pixels, for the renderers that cull (variants 2 and 3)
// and for the CPU reference's loops. Host and device, so the host tests can check by brute force
// that no test here ever drops a circle that covers a pixel (tests/test_tiles.cpp).
#pragma once

#include "circle_math.h"

namespace tiles {

using render::Circle;

using circle_math::add;
using circle_math::mul;
using circle_math::quotient;
using circle_math::sub;

// A rectangle in image widths.
struct Box {
    float x0, y0, x1, y1;
};

// The rectangle of pixels [px0, px1) x [py0, py1): its outer edges, so it holds every one of
// those pixel centers with half a pixel to spare on each side.
PMPP_HD Box pixel_box(int px0, int py0, int px1, int py1, int width) {
    const float w = static_cast<float>(width);
    return {quotient(static_cast<float>(px0), w), quotient(static_cast<float>(py0), w),
            quotient(static_cast<float>(px1), w), quotient(static_cast<float>(py1), w)};
}

// Does circle c reach into the box? The distance from its center to the nearest point of the
// box, computed as covers() computes the distance to a pixel center. Conservative: a pixel center
// p inside the box is at least as far from c on each axis as the box is, every rounding is
// monotone, so covers(c, p) implies touches(c, box). (It may say yes for a circle that covers
// none of the box's pixel centers.)
PMPP_HD bool touches(float cx, float cy, float r2, const Box& b) {
    const float dx = cx < b.x0 ? sub(b.x0, cx) : (cx > b.x1 ? sub(cx, b.x1) : 0.f);
    const float dy = cy < b.y0 ? sub(b.y0, cy) : (cy > b.y1 ? sub(cy, b.y1) : 0.f);
    return add(mul(dx, dx), mul(dy, dy)) <= r2;
}

PMPP_HD bool touches(const Circle& c, const Box& b) { return touches(c.x, c.y, circle_math::radius2(c), b); }

// Does the circle cover every pixel center of the block [px0, px1) x [py0, py1), with room to
// spare? Its four corner centers lie inside with a margin of 1/256 of radius^2, and so, the disc
// being convex, does every center between them; the margin is far more than any rounding of a
// center's distance (tests/test_tiles.cpp), so covers() is true for each one. A renderer may
// then skip the test for those pixels. It may say no for a circle that does cover them all.
PMPP_HD bool covers_block(float cx, float cy, float r2, int px0, int py0, int px1, int py1, int width) {
    const float inner = mul(r2, 1.f - 1.f / 256.f);
    const float x0 = circle_math::pixel_center(px0, width), x1 = circle_math::pixel_center(px1 - 1, width);
    const float y0 = circle_math::pixel_center(py0, width), y1 = circle_math::pixel_center(py1 - 1, width);
    return circle_math::distance2(x0, y0, cx, cy) <= inner && circle_math::distance2(x1, y0, cx, cy) <= inner &&
           circle_math::distance2(x0, y1, cx, cy) <= inner && circle_math::distance2(x1, y1, cx, cy) <= inner;
}

// The pixels a circle may cover: [x0, x1) x [y0, y1), clamped to the image (empty when x0 >= x1
// or y0 >= y1). A pixel's center is within radius of the circle's center, so its column lies in
// ((cx - r) w - 1/2, (cx + r) w - 1/2); one more pixel on each side absorbs any rounding here.
struct PixelRange {
    int x0, y0, x1, y1;
    PMPP_HD bool empty() const { return x0 >= x1 || y0 >= y1; }
};

PMPP_HD int clamped_floor(float v, int hi) {  // floor(v) in [0, hi]; NaN-free input assumed
    const float f = floorf(v);
    return f <= 0.f ? 0 : (f >= static_cast<float>(hi) ? hi : static_cast<int>(f));
}

PMPP_HD PixelRange pixel_range(const Circle& c, int width, int height) {
    const float w = static_cast<float>(width);
    PixelRange r;
    r.x0 = clamped_floor((c.x - c.radius) * w - 1.f, width);
    r.x1 = clamped_floor((c.x + c.radius) * w + 2.f, width);
    r.y0 = clamped_floor((c.y - c.radius) * w - 1.f, height);
    r.y1 = clamped_floor((c.y + c.radius) * w + 2.f, height);
    return r;
}

// The image cut into tile x tile squares (the last row and column may be partial).
struct TileGrid {
    int width, height, tile, tiles_x, tiles_y;
    PMPP_HD int count() const { return tiles_x * tiles_y; }
    // Tile t's pixels: [x0, x1) x [y0, y1).
    PMPP_HD int x0(int tx) const { return tx * tile; }
    PMPP_HD int y0(int ty) const { return ty * tile; }
    PMPP_HD int x1(int tx) const { return (tx + 1) * tile < width ? (tx + 1) * tile : width; }
    PMPP_HD int y1(int ty) const { return (ty + 1) * tile < height ? (ty + 1) * tile : height; }
    PMPP_HD Box box(int tx, int ty) const { return pixel_box(x0(tx), y0(ty), x1(tx), y1(ty), width); }
};

inline TileGrid tile_grid(int width, int height, int tile) {
    return {width, height, tile, (width + tile - 1) / tile, (height + tile - 1) / tile};
}

// Calls visit(tile index) for every tile circle c touches, in row-major tile order, and returns
// how many it visited. The same function counts (variant 3's first pass) and lists (its second
// pass), so the two always agree.
template <typename Visit>
PMPP_HD int for_each_touched_tile(const Circle& c, const TileGrid& g, Visit&& visit) {
    const PixelRange r = pixel_range(c, g.width, g.height);
    if (r.empty()) return 0;
    int n = 0;
    for (int ty = r.y0 / g.tile; ty <= (r.y1 - 1) / g.tile; ++ty)
        for (int tx = r.x0 / g.tile; tx <= (r.x1 - 1) / g.tile; ++tx)
            if (touches(c, g.box(tx, ty))) {
                visit(ty * g.tiles_x + tx);
                ++n;
            }
    return n;
}

}  // namespace tiles
