// mandelbrot_harness.h: exercise 08 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests: the check's rules (README, "How the check decides";
// mandelbrot_check.cu), its cases, its variants, their problems and the benchmark.
#pragma once

#include "mandelbrot.h"
#include "mandelbrot_color.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mandelbrot {

constexpr std::uint32_t kPoison = 0xFFFFFFFFu;  // every pixel before a run: "never written"

// Any device implementation, as the check and the benchmark call it.
using Render = std::function<void(const View&, Precision, std::uint32_t*)>;

// ---- The check (mandelbrot_check.cu) -----------------------------------------------------------
//
// Before any mode, the check (check_render, and the benchmark after every run) requires nothing
// written outside the image (check_image_guards); then every mode requires every pixel written,
// with a count in [0, max_iter].
enum class CheckMode {
    Exact,  // every pixel equal: the pinned kernel, whose arithmetic is the CPU's
    Tolerant,  // every pixel away from the boundary equal, at most 5% + 2 differ in all
    Loose,  // at most 25% + 2 differ: float on views whose counts it cannot reproduce
    Completeness,  // nothing more: float on the deep zoom, where it cannot tell pixels apart
};
const char* to_string(CheckMode mode);
// Exact for the pinned kernel; Tolerant in double; in float, what the preset allows at the
// image's width (Preset::float_tolerant_width, float_resolves). A random view: preset nullptr.
CheckMode mode_for(bool pinned_arithmetic, const Preset* preset, Precision precision, int image_width);
// How many of `pixels` may differ from the reference under `mode`.
std::size_t allowed_differences(std::size_t pixels, CheckMode mode);

// A pixel is away from the boundary when it is at least kBoundaryRadius pixels from the image's
// edge and every pixel within that distance (the 5x5 square around it) has its reference count:
// the level curves of the count pass at least two pixels away, so the rounding of the
// arithmetic cannot move it to another count. One pixel (the 8 neighbours) is not enough at a
// deep zoom: there a 1-ulp change of c moves 1% of the counts, and an H200 run found a pixel
// whose 8 neighbours agreed but whose FMA count differed (NOTES.md).
constexpr int kBoundaryRadius = 2;
PMPP_HD_EXTERN bool away_from_boundary(const std::uint32_t* reference, int width, int height, int x, int y);

pmpp::CheckResult compare_counts(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                                 int max_iter, CheckMode mode);
// The same rule on two device images, from the same per-pixel code compiled for the GPU (the
// benchmark's check of every run): only a failure downloads both, for compare_counts' report.
pmpp::CheckResult compare_counts_on_device(const std::uint32_t* expected, const std::uint32_t* actual, int width,
                                           int height, int max_iter, CheckMode mode);

// The image of a view between guard zones (GuardedBuffer, named "counts" as mandelbrot.h names
// the array) of kGuardRows rows each, at least 1024 elements: a 2-D grid rounded up to blocks of
// 16 rows with no bounds test writes up to 15 rows past the end, into the zone.
constexpr std::size_t kGuardRows = 16;
pmpp::GuardedBuffer<std::uint32_t> guarded_image(const View& v);
// GuardedBuffer's verdict on the zones, with a hint that places the farthest stray write on each
// side as a pixel of the rows continued past the image's ends.
pmpp::CheckResult check_image_guards(const pmpp::GuardedBuffer<std::uint32_t>& counts, int width, int height);

// The CPU reference counts of a view (on every core).
std::vector<std::uint32_t> reference_counts(const View& view, Precision precision);

// Runs `render` into a poisoned guarded_image, checks the guards, then compares with `expected`
// (the CPU's counts of the view).
pmpp::CheckResult check_render(const Render& render, const View& view, Precision precision, CheckMode mode,
                               const std::vector<std::uint32_t>& expected);

// ---- The exercise (mandelbrot_harness.cu, mandelbrot_bench.cu) ------------------------------

// The shapes every preset is checked at (n = the width), in both precisions.
struct Shape {
    int width, height;
};
const std::vector<Shape>& check_shapes();

// What tells two cases apart besides n. The default: the full view n pixels wide, in float.
struct MandelbrotSpec {
    const Preset* preset = &presets().front();  // nullptr: a random view near the boundary, drawn from the case's seed
    int random_index = 0;  // a random view's number in its label
    std::optional<Shape> shape;  // none: n pixels wide, the height from the preset's aspect
    Precision precision = Precision::Float;
};
using MandelbrotCase = pmpp::CaseOf<MandelbrotSpec>;

// One variant as the check and the benchmark call it, and what its benchmark row notes.
struct MandelbrotFn {
    Render render;  // a device variant; empty for the CPU's rows
    bool every_iteration = false;  // executes every iteration step: its rate is a share of the FP32 peak
    // The profiled twin of the kernel, for its row's warp efficiency: renders into `counts`.
    WarpActivity (*profile)(const View&, Precision, std::uint32_t* counts) = nullptr;
    bool pinned = false;  // the CPU's arithmetic: held to it exactly; the benchmark's reference
    bool seed = false;  // the seed's kernel: the CPU rows' speedup and the FP32 peak's note
    void (*cpu)(const View&, Precision, std::uint32_t*, RowSample) = nullptr;  // the CPU's rows (on a sample of rows)
    bool threaded = false;  // ...on every core
};
using MandelbrotRow = pmpp::Variant<MandelbrotFn>;

// A check case's view (a random one drawn from the case's seed), and one case's problem: the
// view and the CPU's counts of it, made once for every variant.
struct CaseView {
    View view;
    Precision precision = Precision::Float;
    const Preset* preset = nullptr;  // nullptr: a random view
};
CaseView case_view(const MandelbrotCase& c, std::uint64_t seed);
struct MandelbrotProblem {
    CaseView what;
    std::vector<std::uint32_t> expected;
};

// The pinned kernel's counts of a benchmark view (proven equal to the CPU by the check, and
// again here on a sample of rows): the reference of every timed output.
struct BenchReference {
    std::vector<std::uint32_t> counts;
    std::vector<double> row_iterations;
    double iterations = 0;
    pmpp::CheckResult verified;  // against the CPU on a sample of rows
    int verified_rows = 0;
};

// One benchmark width's problem: the views' references, made on first use, and what the rows of
// this width share (the GPU times the CPU rows compare with).
struct MandelbrotBench {
    std::size_t n = 0;
    std::vector<std::string> views;  // --view
    std::optional<Palette> pictures;  // the pictures' palette, when they are written
    std::map<std::string, BenchReference> references;  // by view name
    // Per section, each correct GPU row's median ms and whether it is the seed kernel's.
    std::map<std::string, std::map<std::string, std::pair<double, bool>>> gpu_ms;
    bool peak_noted = false;  // the first seed row of the width notes the FP32 peak
    const BenchReference& reference(const View& v, Precision p);
};
MandelbrotBench make_bench(std::size_t n, pmpp::BenchContext& ctx);

// --view: the preset names it lists (and "random" for the check), or all of them.
std::vector<std::string> selected_views(const pmpp::Options& opts, bool with_random);

// Times one device variant on one benchmark view (a preset's name) at the problem's width:
// before every warm-up and timed run the image is poisoned and its guards re-armed; after every
// run, untimed, the guards are checked and the counts compared on the device with the pinned
// kernel's, under mode_for's rule. The first wrong run makes the row wrong and its message names
// the run. Returns the row with its time and check (no rate notes). The tests hand it wrong kernels.
pmpp::Measurement bench_render(const MandelbrotFn& fn, MandelbrotBench& p, const std::string& view_name,
                               pmpp::BenchContext& ctx);
// One variant's rows: one per view (and the student's pictures, when they are written).
std::vector<pmpp::Measurement> bench(const MandelbrotRow& v, MandelbrotBench& p, std::size_t n,
                                     pmpp::BenchContext& ctx);

// The profiled twins: the seed's (per-pixel buffers of its own) and the refill kernel's.
WarpActivity profile_seed(const View& v, Precision p, std::uint32_t* counts);
WarpActivity profile_refill(const View& v, Precision p, std::uint32_t* counts);

// The pictures are kImageWidth wide (mandelbrot_bench.cu writes them).
constexpr int kImageWidth = 960;

// Its case labels are describe()'s words alone ("full float 17x13": the shape says the size), as
// the results files and the cases' seeds (derived from the labels) have always had them.
using MandelbrotExercise = pmpp::Exercise<MandelbrotSpec, MandelbrotFn, MandelbrotProblem, MandelbrotBench>;
const MandelbrotExercise& exercise();

}  // namespace mandelbrot
