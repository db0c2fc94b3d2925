// tune/sweep_binned.cu: the questions NOTES.md asks of variant 3, answered in one run at 1024x1024
// (frame 0 of each scene, seed 1):
//   - tile size 8, 16 or 32; warp culling on or off; the interior skip on or off (flat scenes);
//   - where binning stops paying: variant 2 against binning forced (min_circles = 0) on every
//     scene, so BinnedConfig::min_circles can be set from data;
//   - where the binned time goes: count, scan, the read of the pair count, emit, sort, ranges,
//     render, for the default configuration.
// Every rendered image is checked against the CPU (no pixel may differ). Built by `make tune`
// (build/sweep_binned), run by tune/gpu_run.sh.
#include "../render.h"
#include "../render_3_binned.h"
#include "../harness/image_check.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/report.h"
#include "common/timing.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace render;

namespace {

struct Variant {
    std::string name;
    bool tiled;
    BinnedConfig config;
};

}  // namespace

int main(int argc, char** argv) {
    const int width = argc > 1 ? std::atoi(argv[1]) : 1024;
    std::vector<Variant> variants = {{"tiled(2)", true, {}}};
    for (int tile : {8, 16, 32}) {
        variants.push_back({pmpp::format("b%d", tile), false, {tile, false, false, 0, 1.0}});
        variants.push_back({pmpp::format("b%d+w", tile), false, {tile, true, false, 0, 1.0}});
        variants.push_back({pmpp::format("b%d+w+i", tile), false, {tile, true, true, 0, 1.0}});
    }
    pmpp::TimingOptions timing;
    timing.warmup = 2;
    timing.repeats = 15;
    pmpp::L2Flusher flusher;
    std::printf(
        "sweep of variant 3 at %dx%d: median ms of %d runs, L2 flushed; b<tile>: binned, +w: warp culling, "
        "+i: interior skip (flat scenes only; the same as +w on snow); binning forced on every scene\n",
        width, width, timing.repeats);
    std::printf("%-13s %8s", "scene", "circles");
    for (const auto& v : variants) std::printf(" %9s", v.name.c_str());
    std::printf("  | default config: count scan read emit sort ranges render (ms), pairs\n");
    bool all_right = true;
    for (const auto& info : scene_catalog()) {
        if (info.adversarial) continue;
        const Scene scene = make_scene(find_scene(info.name), 1);
        std::vector<Rgba> expected(static_cast<std::size_t>(width) * width);
        render_cpu(scene.view(), width, width, expected.data());
        pmpp::DeviceBuffer<Circle> circles;
        pmpp::DeviceBuffer<Rgb> colors;
        circles.upload(scene.circles);
        colors.upload(scene.colors);
        const SceneView view{scene.count(), circles.data(), colors.data(), scene.shading, scene.background};
        pmpp::DeviceBuffer<Rgba> image(static_cast<std::size_t>(width) * width);
        std::printf("%-13s %8d", info.name.c_str(), scene.count());
        for (const auto& v : variants) {
            Workspace ws;
            auto run = [&] {
                if (v.tiled)
                    render_tiled(view, width, width, image.data(), ws);
                else
                    render_binned_with(view, width, width, image.data(), ws, v.config);
            };
            run();  // sizes the workspace
            const pmpp::Stats t = pmpp::time_device(timing, &flusher, run, [&] { image.poison(); });
            const std::vector<Rgba> actual = image.to_host();
            const ImageDiff d = diff_images(expected.data(), actual.data(), width, width);
            std::printf(" %9.4f%s", t.median, d.differing ? "!" : "");
            if (d.differing) all_right = false;
        }
        Workspace ws;
        BinnedConfig defaults;
        defaults.min_circles = 0;
        defaults.max_pair_fraction = 1.0;
        BinnedTimes times;
        render_binned_with(view, width, width, image.data(), ws, defaults, &times);  // sizes the workspace
        render_binned_with(view, width, width, image.data(), ws, defaults, &times);
        std::printf("  | %.4f %.4f %.4f %.4f %.4f %.4f %.4f, %lld\n", times.count, times.scan, times.read_total,
                    times.emit, times.sort, times.ranges, times.render, times.pairs);
    }
    std::printf("%s\n",
                all_right ? "every image equals the CPU's" : "WRONG: a '!' marks an image that differs from the CPU's");
    return all_right ? 0 : 1;
}
