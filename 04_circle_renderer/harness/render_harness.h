// render_harness.h: exercise 04 as the runner sees it (common/exercise.h's typed contract), shared
// by main.cu, the tests and tune/: its cases, its variants, the check and the benchmark, and what
// the harness's files share (render_harness.cu, render_bench.cu, render_memory.cu).
#pragma once

#include "image_check.h"
#include "scenes.h"

#include "render.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace render {

// Any GPU renderer, as the check and the benchmark call it.
using RenderCall = std::function<void(const SceneView&, int width, int height, Rgba* image, Workspace&)>;

// A variant as the harness runs it: its renderer, and the variant whose time per frame its
// benchmark note divides by its own on the scenes of many small circles (rand1M, micro2M: binned
// is to be 3x faster than tiled there); empty: no such note.
struct RenderFn {
    RenderCall render;
    std::string compared_with;
};
using RenderVariant = pmpp::Variant<RenderFn>;

// Image shapes of the check: square, and two that are not, so that a renderer that measures y in
// heights (not widths) or swaps the axes is caught.
enum Shape : int { kSquare = 0, kWide = 1, kTall = 2 };
int image_height(int width, Shape shape);
constexpr int kFileScene = 1000;  // the scene index of --scene-file's scene

// What tells two cases of one width apart: the scene and the shape.
struct RenderSpec {
    int scene = 0;  // a catalog index, or kFileScene
    Shape shape = kSquare;
    std::string name;  // the scene's name, for the label (a scene file names its own)
};
using RenderCase = pmpp::CaseOf<RenderSpec>;
// Scene `id` (kFileScene: --scene-file's) at width x image_height(width, shape).
RenderCase make_case(int id, int width, Shape shape, const pmpp::Options& opts);

// One case's problem: every frame of its scene (--frames of an animated one) and the CPU's image of each.
struct RenderProblem {
    std::string name;  // the scene's
    int width = 0, height = 0;
    std::vector<Scene> frames;
    std::vector<std::vector<Rgba>> expected;
};
RenderProblem make_problem(const RenderCase& c, std::uint64_t seed, const pmpp::Options& opts);

// One benchmark size's problem: the scenes it times (--scene's, not the adversarial ones), each
// made as the problem of a square case from the size's seed (its CPU's images pictured, unless
// --no-images) the first time a variant times it; and the medians per frame of the correct rows
// so far, by scene and variant, for the notes that compare two variants.
struct RenderBenchProblem {
    int width = 0;
    std::uint64_t seed = 0;
    std::vector<int> ids;
    std::map<int, RenderProblem> drawn;
    std::map<std::string, std::map<std::string, double>> medians;
    const RenderProblem& scene(int id, const pmpp::Options& opts);  // render_bench.cu
};
RenderBenchProblem make_bench_problem(std::size_t n, pmpp::BenchContext& ctx);

struct CheckSettings {
    std::string pictures;  // directory for the pictures of a failure; empty: none
    std::string impl;  // at most 3 failures per implementation get pictures
    std::string label;  // their file-name stem, e.g. "student_rgb_256x256"
    std::string format = "png";
    // The tile edge, in pixels, the hints name boundaries by ("the last, partial column of 16x16
    // tiles"): the starter's blocks, variant 2's tiles and variant 3's default. The hints try
    // 8, 32 and 64 after it.
    int tile = 16;
};

// Judges `actual`, a renderer's image of `scene`, against `expected`, the CPU's: the verdict of
// image_check.h, with its hint (explain_difference) when the pattern of the differences proves
// what went wrong, and pictures of a failure when settings.pictures is set.
pmpp::CheckResult judge_image(const Scene& scene, int width, int height, const std::vector<Rgba>& expected,
                              const std::vector<Rgba>& actual, const CheckSettings& settings = {});

// One variant on one case: every frame of the problem, by check_render, the first wrong frame
// failing the case (with pictures under --images, unless --no-images).
pmpp::CheckResult check(const RenderVariant& v, const RenderProblem& p, const RenderCase& c, const pmpp::Options& opts);

// image_check.h's counts of one image (device arrays of `pixels`), computed on the device with
// pixel_state(); `near_edge` (device, one byte per pixel: PixelFacts::near_edge) may be null,
// and then on_edge is 0. image_passes() of the result is image_verdict()'s verdict.
ImageCounts count_image_on_device(const Rgba* expected, const Rgba* actual, const std::uint8_t* near_edge,
                                  std::size_t pixels);

// The benchmark rows of variant `v` (one row per scene of the problem, and their total when more
// than one), at width x width. Every frame of every run, the first untimed one, the warm-ups and
// the timed ones, is checked on the device once the device is idle, outside the timed region:
// the image's guard zones, then image_check.h's rule. The images are poisoned before every run;
// the first wrong run makes the row WRONG, its message naming the run ("warm-up run 1 of 2: ...",
// "timed run 3 of 20: frame 1: ..."). The CPU's row times render_cpu.
std::vector<pmpp::Measurement> bench(const RenderVariant& v, RenderBenchProblem& p, pmpp::BenchContext& ctx);

// Memory at size n for the scenes, frames and pictures of `opts` (render_memory.cu).
double render_device_bytes(std::size_t n, const pmpp::Options& opts);
double render_host_bytes(std::size_t n, const pmpp::Options& opts);

// Its labels are describe()'s words alone ("rgb 256x256": the size is in them), as the results
// files and every case's seed have always had them.
using RenderExercise = pmpp::Exercise<RenderSpec, RenderFn, RenderProblem, RenderBenchProblem>;
const RenderExercise& exercise();

// ---- Shared by the harness's files ----------------------------------------------------------------

// The scenes --scene and --scene-file select (catalog indices; kFileScene for the file).
// Throws pmpp::UsageError for an unknown name or a malformed file.
std::vector<int> selected_scenes(const pmpp::Options& opts);
// Frame `frame` of scene `id` from `seed`: a catalog scene's, or --scene-file's (read from its
// file; a malformed one: pmpp::UsageError).
Scene scene_frame(int id, std::uint64_t seed, int frame, const pmpp::Options& opts);
int frames_of(int id, const pmpp::Options& opts);  // --frames for an animated scene, else 1
std::string picture_dir(const pmpp::Options& opts);  // --images, or empty with --no-images
std::string file_stem(const std::string& name);  // a scene's name as it may appear in a file name

// The device copy of a scene.
struct DeviceScene {
    pmpp::DeviceBuffer<Circle> circles;
    pmpp::DeviceBuffer<Rgb> colors;
    SceneView view;

    explicit DeviceScene(const Scene& s) {
        circles.upload(s.circles);
        colors.upload(s.colors);
        view = {s.count(), circles.data(), colors.data(), s.shading, s.background};
    }
    bool unchanged(const Scene& s) const {
        const std::vector<Circle> c = circles.to_host();
        const std::vector<Rgb> k = colors.to_host();
        return std::memcmp(c.data(), s.circles.data(), c.size() * sizeof(Circle)) == 0 &&
               std::memcmp(k.data(), s.colors.data(), k.size() * sizeof(Rgb)) == 0;
    }
};

}  // namespace render
