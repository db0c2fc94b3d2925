// render_3_binned.h: the knobs of variant 3 and the time of each of its phases, for the sweep
// (tune/sweep_binned.cu) and the tests. render_binned() is render_binned_with(defaults).
#pragma once

#include "render.h"

struct BinnedConfig {
    int tile = 16;              // 8, 16 or 32 pixels square
    bool warp_cull = true;      // each warp blends only the staged circles that touch its 8x4 pixels
    bool skip_interior = true;  // with warp_cull, flat shading: no per-pixel test for a circle covering the whole 8x4
    int min_circles = 2048;     // below this, the tiled renderer (variant 2) is faster: no binning
    // Above this many pairs per (tile, circle) combination the circles are big (each touches a
    // large share of the tiles) and variant 2, which tests tiles x circles without sorting,
    // is faster: the scene goes to it after the count. Measured on an H200 at 1024x1024
    // (NOTES.md): binned wins at 0.012 (rand10k, rand100k: 1.1x, 2.0x), tiled wins at 0.15
    // (biglittle, littlebig: 1.6x).
    double max_pair_fraction = 0.05;
};

// Milliseconds of each phase of one render, measured with events (filled only if asked for:
// the events synchronize the host at the end).
struct BinnedTimes {
    float count = 0, scan = 0, read_total = 0, emit = 0, sort = 0, ranges = 0, render = 0;
    long long pairs = 0;        // (tile, circle) pairs listed
    bool binned = false;        // false: the scene went to the tiled renderer
};

void render_binned_with(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace,
                        const BinnedConfig& config, BinnedTimes* times = nullptr);
