// render_3_binned.h: the knobs of variant 3 and the time of each of its phases, for the sweep
// (tune/sweep_binned.cu) and the tests. render_binned() is render_binned_with(defaults).
#pragma once

#include "harness/binned_config.h"
#include "render.h"

namespace render {

// Milliseconds of each phase of one render, measured with events (filled only if asked for:
// the events synchronize the host at the end).
struct BinnedTimes {
    float count = 0, scan = 0, read_total = 0, emit = 0, sort = 0, ranges = 0, render = 0;
    long long pairs = 0;  // (tile, circle) pairs listed
    bool binned = false;  // false: the scene went to the tiled renderer
};

void render_binned_with(const SceneView& scene, int width, int height, Rgba* image, Workspace& workspace,
                        const BinnedConfig& config, BinnedTimes* times = nullptr);

}  // namespace render
