// render_harness.h: the check and the benchmark of exercise 04, shared by main.cu and the tests.
#pragma once

#include "image_check.h"
#include "render.h"
#include "scenes.h"

#include "common/exercise.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace circles {

// Any GPU renderer, as the check sees it.
using RenderFn = std::function<void(const SceneView&, int width, int height, Rgba* image, Workspace&)>;
RenderFn renderer_by_name(const std::string& name);  // student, per_pixel, tiled, binned

// Image shapes of the check (Case::variant = scene * 4 + shape): square, and two that are not,
// so that a renderer that measures y in heights (not widths) or swaps the axes is caught.
enum Shape : int { kSquare = 0, kWide = 1, kTall = 2 };
int image_height(int width, int shape);
constexpr int kFileScene = 1000;  // the scene index of --scene-file's scene

struct CheckSettings {
    std::string pictures;  // directory for the pictures of a failure; empty: none
    std::string impl;      // at most 3 failures per implementation get pictures
    std::string label;     // their file-name stem, e.g. "student_rgb_256x256"
    std::string format = "png";
    // The tile edge, in pixels, the hints name boundaries by ("the last, partial column of 16x16
    // tiles"): the starter's blocks, variant 2's tiles and variant 3's default. The hints try
    // 8, 32 and 64 after it.
    int tile = 16;
};

// Judges `actual`, a renderer's image of `scene`, against `expected`, the CPU's: the verdict of
// image_check.h, with a hint when the pattern of the differences proves what went wrong (the
// pixels never written and where they stop, the wrong ones all in partial tiles or all under 2
// or more circles, the image a misdrawing of the scene: half a pixel off, y in heights, white
// for the sky), and pictures of a failure when settings.pictures is set.
pmpp::CheckResult judge_image(const Scene& scene, int width, int height, const std::vector<Rgba>& expected,
                              const std::vector<Rgba>& actual, const CheckSettings& settings = {});

// Renders `scene` with `fn` into a poisoned width x height image between guard zones and judges
// it against `expected` (the CPU's image of the same scene): fails first if it wrote outside the
// image ("wrote 1 element past the end of image ..."), then by judge_image, then if the scene's
// arrays changed. A wrong image is drawn a second time, and the hint says so when the two differ
// (a race).
pmpp::CheckResult check_render(const RenderFn& fn, const Scene& scene, int width, int height,
                               const std::vector<Rgba>& expected, const CheckSettings& settings = {});

// The CPU's image, computed once per scene, seed, frame and size (cached, up to 2 GiB).
const std::vector<Rgba>& reference_image(const Scene& scene, const std::string& key, int width, int height);

// Scene `id` of the catalog (or kFileScene) at `frame`, from `seed`, cached.
const Scene& cached_scene(int id, std::uint64_t seed, int frame, const pmpp::Options& opts);

// Empties the caches of reference_image() and cached_scene() (--scene-file's scene stays). For
// the memory tests: a benchmark whose new images evict older ones from a full cache reuses their
// memory, and its peak then depends on what earlier tests left there. Invalidates every reference
// either returned.
void clear_caches();

// One case of the check: every frame of the case's scene, at the case's size and shape.
pmpp::CheckResult check_case(const RenderFn& fn, const std::string& impl, const pmpp::Case& c, std::uint64_t seed,
                             const pmpp::Options& opts);

// image_check.h's counts of one image (device arrays of `pixels`), computed on the device with
// pixel_state(); `near_edge` (device, one byte per pixel: PixelFacts::near_edge) may be null,
// and then on_edge is 0. image_passes() of the result is image_verdict()'s verdict.
ImageCounts count_image_on_device(const Rgba* expected, const Rgba* actual, const std::uint8_t* near_edge,
                                  std::size_t pixels);

// The benchmark rows of `fn` as the harness times `impl` (one row per benchmarked scene of
// --scene, and their total), at width x width. Every frame of every run, the first untimed one,
// the warm-ups and the timed ones, is checked on the device once the device is idle, outside
// the timed region: the image's guard zones, then image_check.h's rule. The images are poisoned
// before every run; the first wrong run makes the row WRONG, its message naming the run
// ("warm-up run 1 of 2: ...", "timed run 3 of 20: frame 1: ..."). A Cpu impl ignores `fn`.
std::vector<pmpp::Measurement> bench_renderer(const RenderFn& fn, const pmpp::Impl& impl, std::size_t n,
                                              pmpp::BenchContext& ctx);

// The scenes --scene and --scene-file select (catalog indices; kFileScene for the file).
// Throws pmpp::UsageError for an unknown name or a malformed file.
std::vector<int> selected_scenes(const pmpp::Options& opts);

pmpp::ExerciseDef exercise();

}  // namespace circles
