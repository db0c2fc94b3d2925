// mandelbrot_harness.h: the check and the benchmark of exercise 08, shared by main.cu and the
// tests.
#pragma once

#include "mandelbrot.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mandelbrot {

// How an output is compared with the CPU reference (README, "How the check decides").
// Before any mode, the check (check_render, and the benchmark after every run) requires nothing
// written outside the image (check_image_guards); then every mode requires every pixel written,
// with a count in [0, max_iter].
enum class CheckMode {
    Exact,         // every pixel equal: the pinned kernel, whose arithmetic is the CPU's
    Tolerant,      // every pixel away from the boundary equal, at most 5% + 2 differ in all
    Loose,         // at most 25% + 2 differ: float on views whose counts it cannot reproduce
    Completeness,  // nothing more: float on the deep zoom, where it cannot tell pixels apart
};
const char* to_string(CheckMode mode);

// At most this fraction of the pixels, plus a slack for tiny images, may differ. Measured
// (NOTES.md): FMA against pinned arithmetic changes at most 1.1% of a preset's pixels and 0.83%
// of a random view's where the check is Tolerant (every one of them at the boundary), and at
// most 14% where it is Loose.
constexpr double kTolerantFraction = 0.05;
constexpr double kLooseFraction = 0.25;
constexpr std::size_t kDifferingSlack = 2;
std::size_t allowed_differences(std::size_t pixels, CheckMode mode);

// A pixel is away from the boundary when it is at least kBoundaryRadius pixels from the image's
// edge and every pixel within that distance (the 5x5 square around it) has its reference count:
// the level curves of the count pass at least two pixels away, so the rounding of the
// arithmetic cannot move it to another count. One pixel (the 8 neighbours) is not enough at a
// deep zoom: there a 1-ulp change of c moves 1% of the counts, and an H200 run found a pixel
// whose 8 neighbours agreed but whose FMA count differed (NOTES.md).
constexpr int kBoundaryRadius = 2;
bool away_from_boundary(const std::uint32_t* reference, int width, int height, int x, int y);

pmpp::CheckResult compare_counts(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                                 int max_iter, CheckMode mode);

// compare_counts of two device images (the benchmark's check of every run, without copying the
// image back): the same rule, from the same per-pixel code compiled for the GPU. Only a failure
// downloads both, and its report is compare_counts' own.
pmpp::CheckResult compare_counts_on_device(const std::uint32_t* expected, const std::uint32_t* actual, int width,
                                           int height, int max_iter, CheckMode mode);

// The image's guard zones (GuardedBuffer), named as mandelbrot.h names the array: "wrote 1
// element past the end of counts (index N; it has N elements)", with a hint that places the
// farthest stray write on each side as a pixel of the rows continued past the image's ends.
pmpp::CheckResult check_image_guards(const pmpp::GuardedBuffer<std::uint32_t>& counts, int width, int height);

// Any device implementation, as the check sees it.
using Render = std::function<void(const View&, Precision, std::uint32_t*)>;
Render render_by_name(const std::string& name);

// The CPU reference counts of a view, computed once per process (on every core).
const std::vector<std::uint32_t>& reference_counts(const View& view, Precision precision);

// Runs `render` into an image filled with 0xFF between guard zones (a GuardedBuffer named
// "counts"), checks the guards, then compares with the CPU reference.
pmpp::CheckResult check_render(const Render& render, const View& view, Precision precision, CheckMode mode);

// What a check case stands for (Case::variant encodes the view, the image shape and the
// precision; a random view is drawn from the case's seed).
struct CaseView {
    View view;
    Precision precision = Precision::Float;
    const Preset* preset = nullptr;  // nullptr: a random view
};
CaseView case_view(const pmpp::Case& c, std::uint64_t seed);

// Exact for the pinned kernel; Tolerant in double; in float, what the preset allows at the
// image's width (Preset::float_tolerant_width, float_resolves).
CheckMode mode_for(bool pinned_arithmetic, const Preset* preset, Precision precision, int image_width);

pmpp::CheckResult check_case(const Render& render, bool pinned_arithmetic, const pmpp::Case& c, std::uint64_t seed);

// The shapes every preset is checked at (n = the width), in both precisions.
struct Shape {
    int width, height;
};
const std::vector<Shape>& check_shapes();

// FP32 peak of the device: SMs x FP32 lanes per SM x 2 flops (an FMA) x the SM clock.
double fp32_peak_flops(const pmpp::DeviceSummary& device);
// Flops one iteration of z = z^2 + c with its escape test counts (README and NOTES.md).
constexpr double kFlopsPerIteration = 8;

// Times one device implementation on one benchmark view (a preset's name) at width n, as the
// benchmark times every one of them: before every warm-up and timed run the image is poisoned
// and its guards re-armed; after every run, untimed, the guards are checked and the counts
// compared on the device with the pinned kernel's, under mode_for's rule (Exact for the pinned
// kernel itself). The first wrong run makes the row wrong and its message names the run.
// Returns the row with its time and check (no rate notes). The tests hand it wrong kernels.
pmpp::Measurement bench_render(const Render& render, bool pinned_arithmetic, const std::string& view_name,
                               std::size_t n, pmpp::BenchContext& ctx);

// The exercise's definition for the common harness.
pmpp::ExerciseDef exercise();

}  // namespace mandelbrot
