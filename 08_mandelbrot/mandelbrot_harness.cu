// mandelbrot_harness.cu: the views, the check, the benchmark and the pictures of exercise 08.
#include "mandelbrot_harness.h"

#include "mandelbrot_color.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace mandelbrot {

using namespace pmpp;

namespace {

constexpr std::uint32_t kPoison = 0xFFFFFFFFu;

std::string view_key(const View& v, Precision p) {
    return format("%a %a %a %d %d %d %s", v.center_re, v.center_im, v.width, v.image_width, v.image_height, v.max_iter,
                  to_string(p));
}

std::string describe(const View& v, Precision p) {
    return format("%s: center (%.17g, %.17g), width %.6g, %dx%d, max_iter %d, %s", v.name.c_str(), v.center_re,
                  v.center_im, v.width, v.image_width, v.image_height, v.max_iter, to_string(p));
}

std::string pixel_label(std::uint32_t value, std::size_t index, int width) {
    if (value == kPoison) return "never written";
    return format("%u (pixel x=%zu, y=%zu)", value, index % static_cast<std::size_t>(width),
                  index / static_cast<std::size_t>(width));
}

// ---- Which views, shapes and precisions the check uses ----------------------------------------

// Case::variant = (view * 32 + shape) * 2 + (double ? 1 : 0). view: a preset's index, or
// kRandomView; shape: 0 for width n with the view's aspect (so variant 0, which the common
// harness uses for a --size it finds no case of, is the full view at that width in float),
// else 1 + an index into kShapes (kRandomShapes for a random view).
constexpr int kRandomView = 31;
constexpr int kShapeFromWidth = 0;
constexpr int kSeedShape = 10;  // kShapes[10] = 900x600, the seed's size: only for the full view

const std::vector<Shape> kShapes = {{0, 0},      {1, 1},      {17, 13},    {31, 33},     {32, 32},    {33, 31},
                                    {255, 143},  {256, 144},  {257, 145},  {1920, 1080}, {900, 600}};
const std::vector<Shape> kRandomShapes = {{320, 180}, {97, 61}};
constexpr int kRandomViewsPerShape = 3;

int encode(int view, int shape, Precision p) { return ((view * 32) + shape) * 2 + (p == Precision::Double ? 1 : 0); }
void decode(int variant, int& view, int& shape, Precision& p) {
    p = variant % 2 ? Precision::Double : Precision::Float;
    shape = (variant / 2) % 32;
    view = variant / 64;
}

// --view: a comma-separated list of preset names (and "random" for the check), or "all".
std::vector<std::string> selected_views(const Options& opts, bool with_random) {
    const std::string text = opts.extra.count("view") ? opts.get("view") : "all";
    std::vector<std::string> names;
    if (text == "all") {
        for (const auto& p : presets()) names.push_back(p.view.name);
        if (with_random) names.push_back("random");
        return names;
    }
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item == "random") {
            if (with_random) names.push_back(item);
            continue;
        }
        if (find_preset(item) == nullptr) {
            std::string known;
            for (const auto& p : presets()) known += (known.empty() ? "" : ", ") + p.view.name;
            throw UsageError("option --view: unknown view '" + item + "' (views: " + known + ", random, all)");
        }
        names.push_back(item);
    }
    return names;
}

int preset_index(const std::string& name) {
    for (std::size_t i = 0; i < presets().size(); ++i)
        if (presets()[i].view.name == name) return static_cast<int>(i);
    return -1;
}

// A view near the boundary, drawn from `seed`: a center whose escape time at 256 iterations
// lies in [24, 256), a width log-uniform in [1e-4, 0.5], max_iter in [64, 600]. Double only:
// float does not reproduce most such views. (Deeper and longer views make the share of
// rounding-sensitive pixels grow past 3%: NOTES.md; the deep preset covers them.)
View random_view(std::uint64_t seed, Shape shape) {
    Rng rng(seed);
    View v;
    v.name = "random";
    do {
        v.center_re = -2.0 + 2.5 * rng.unit_double();
        v.center_im = -1.2 + 2.4 * rng.unit_double();
        const std::uint32_t k = escape_time(v.center_re, v.center_im, 256);
        if (k >= 24 && k < 256) break;
    } while (true);
    v.width = std::exp(std::log(1e-4) + (std::log(0.5) - std::log(1e-4)) * rng.unit_double());
    v.max_iter = 64 + static_cast<int>(rng.below(537));
    v.image_width = shape.width;
    v.image_height = shape.height;
    return v;
}

std::vector<Case> mandelbrot_cases(const Options& opts) {
    std::vector<Case> cases;
    const std::vector<std::string> names = selected_views(opts, !opts.size.has_value());
    for (const std::string& name : names) {
        if (name == "random") {
            for (std::size_t s = 0; s < kRandomShapes.size(); ++s)
                for (int i = 0; i < kRandomViewsPerShape; ++i) {
                    const Shape sh = kRandomShapes[s];
                    cases.push_back({format("random view %d double %dx%d", i + 1, sh.width, sh.height),
                                     static_cast<std::size_t>(sh.width), Distribution::Uniform,
                                     encode(kRandomView, 1 + static_cast<int>(s), Precision::Double)});
                }
            continue;
        }
        const int index = preset_index(name);
        for (Precision p : {Precision::Float, Precision::Double}) {
            if (opts.size) {  // --size N that is not a shape of the list: width N, height from the aspect
                const View v = at_width(presets()[index], static_cast<int>(*opts.size));
                cases.push_back({format("%s %s %dx%d", name.c_str(), to_string(p), v.image_width, v.image_height), *opts.size,
                                 Distribution::Uniform, encode(index, kShapeFromWidth, p)});
            }
            for (std::size_t s = 0; s < kShapes.size(); ++s) {
                if (static_cast<int>(s) == kSeedShape && name != "full") continue;
                const Shape sh = kShapes[s];
                cases.push_back({format("%s %s %dx%d", name.c_str(), to_string(p), sh.width, sh.height),
                                 static_cast<std::size_t>(sh.width), Distribution::Uniform,
                                 encode(index, 1 + static_cast<int>(s), p)});
            }
        }
    }
    if (opts.size) {  // the harness keeps the cases of width N; drop the generated ones if N is a listed width
        bool listed = false;
        for (const Shape& s : kShapes) listed = listed || static_cast<std::size_t>(s.width) == *opts.size;
        if (listed)
            cases.erase(std::remove_if(cases.begin(), cases.end(),
                                       [](const Case& c) {
                                           int view, shape;
                                           Precision p;
                                           decode(c.variant, view, shape, p);
                                           return shape == kShapeFromWidth;
                                       }),
                        cases.end());
    }
    return cases;
}

// ---- One pixel as the check sees it ------------------------------------------------------------
// The same code decides on the host (compare_counts, the definition) and on the device
// (compare_counts_on_device, the benchmark's check of every run): one rule, compiled twice.

enum PixelVerdict : unsigned {
    kPixelNeverWritten = 1u,     // still the poison
    kPixelAboveMaxIter = 2u,     // written, but not a count
    kPixelDiffers = 4u,          // a count other than the reference's (every mode but Completeness)
    kPixelDiffersAway = 8u,      // ...away from the boundary (with kPixelDiffers)
};

__host__ __device__ bool pixel_away_from_boundary(const std::uint32_t* reference, int width, int height, int x, int y) {
    const int r = kBoundaryRadius;
    if (x < r || y < r || x >= width - r || y >= height - r) return false;
    const std::uint32_t v = reference[static_cast<std::size_t>(y) * width + x];
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (reference[static_cast<std::size_t>(y + dy) * width + (x + dx)] != v) return false;
    return true;
}

// 0 when pixel i passes on its own; otherwise the PixelVerdict bits that say why not.
__host__ __device__ unsigned classify_pixel(const std::uint32_t* expected, const std::uint32_t* actual, int width,
                                            int height, std::size_t i, int max_iter, CheckMode mode) {
    const std::uint32_t a = actual[i], e = expected[i];
    if (a == kPoison) return kPixelNeverWritten;
    if (a > static_cast<std::uint32_t>(max_iter)) return kPixelAboveMaxIter;
    if (mode == CheckMode::Completeness || a == e) return 0;
    const int x = static_cast<int>(i % static_cast<std::size_t>(width)), y = static_cast<int>(i / static_cast<std::size_t>(width));
    return kPixelDiffers | (pixel_away_from_boundary(expected, width, height, x, y) ? kPixelDiffersAway : 0u);
}

// What the verdict of an image depends on: how many pixels of each kind.
struct CountTally {
    std::size_t never_written = 0, above_max_iter = 0, differ = 0, away_differ = 0;
    void add(unsigned verdict) {
        never_written += (verdict & kPixelNeverWritten) != 0;
        above_max_iter += (verdict & kPixelAboveMaxIter) != 0;
        differ += (verdict & kPixelDiffers) != 0;
        away_differ += (verdict & kPixelDiffersAway) != 0;
    }
};

// The image's verdict from its tally: empty when it passes, else why not (the first rule it breaks).
std::string failure_of(const CountTally& t, std::size_t pixels, int max_iter, CheckMode mode) {
    if (t.never_written > 0)
        return format("%zu of %zu pixels were never written (still 0xFFFFFFFF)", t.never_written, pixels);
    if (t.above_max_iter > 0)
        return format("%zu of %zu pixels have a count above max_iter = %d", t.above_max_iter, pixels, max_iter);
    if (mode == CheckMode::Exact && t.differ > 0)
        return format("%zu of %zu pixels differ from the CPU (this kernel must match it exactly)", t.differ, pixels);
    if (mode == CheckMode::Tolerant && t.away_differ > 0)
        return format("%zu pixel(s) away from the boundary differ (every pixel within 2 of them has the same "
                      "reference count); %zu of %zu differ in all",
                      t.away_differ, t.differ, pixels);
    const std::size_t allowed = allowed_differences(pixels, mode);
    if (mode != CheckMode::Exact && t.differ > allowed)
        return format("%zu of %zu pixels differ: more than the %zu (%s + 2) that rounding may account for "
                      "(%s check)",
                      t.differ, pixels, allowed, mode == CheckMode::Tolerant ? "5%" : "25%", to_string(mode));
    return "";
}

// ---- Hints: what the pattern of a wrong image shows ---------------------------------------------
// Facts that the numbers prove, never likely causes (as check_hints.h does for arrays): no
// pattern, no hint.

// "the last 2 columns (x >= 31)": the trailing columns or rows of an image, counted.
std::string trailing(int count, const char* noun, const char* axis, int from) {
    return format("the last %d %s%s (%s >= %d)", count, noun, count == 1 ? "" : "s", axis, from);
}

std::string hint_for(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height, int max_iter,
                     std::size_t never_written) {
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    if (never_written == pixels)
        return format("no pixel was written: all %zu still hold 0xFFFFFFFF, the poison written before the run", pixels);
    if (never_written > 0) {
        // Unwritten pixels that fill the last columns or rows, every other pixel written: the
        // written pixels are a rectangle at the top left.
        auto unwritten = [&](int x, int y) { return actual[static_cast<std::size_t>(y) * width + x] == kPoison; };
        auto column_unwritten = [&](int x) {
            for (int y = 0; y < height; ++y)
                if (!unwritten(x, y)) return false;
            return true;
        };
        auto row_unwritten = [&](int y) {
            for (int x = 0; x < width; ++x)
                if (!unwritten(x, y)) return false;
            return true;
        };
        int cols = 0, rows = 0;
        while (cols < width && column_unwritten(width - 1 - cols)) ++cols;
        while (rows < height && row_unwritten(height - 1 - rows)) ++rows;
        bool rectangle = cols > 0 || rows > 0;
        for (int y = 0; y < height - rows && rectangle; ++y)
            for (int x = 0; x < width - cols && rectangle; ++x) rectangle = !unwritten(x, y);
        if (!rectangle) return "";
        std::string which;
        if (cols > 0) which = trailing(cols, "column", "x", width - cols);
        if (rows > 0) which += (which.empty() ? "" : " and ") + trailing(rows, "row", "y", height - rows);
        return "the pixels never written are exactly " + which + "; every other pixel was written";
    }
    // Written transposed: pixel (px, py)'s count at index px * height + py. Claimed only where the
    // image says so on a sample of pixels and the reference itself does not (a view of one count
    // looks transposed too).
    if (width > 1 && height > 1) {
        std::size_t transposed = 0, straight = 0, total = 0;
        for (int y = 0; y < height; y += std::max(1, height / 16))
            for (int x = 0; x < width; x += std::max(1, width / 16)) {
                const std::uint32_t e = expected[static_cast<std::size_t>(y) * width + x];
                ++total;
                transposed += actual[static_cast<std::size_t>(x) * height + y] == e;
                straight += expected[static_cast<std::size_t>(x) * height + y] == e;
            }
        if (transposed * 10 >= total * 9 && straight * 10 < total * 9)
            return format("the image is transposed: at %zu of %zu sampled pixels (px, py), index px * height + py "
                          "holds the reference count of (px, py), where py * width + px is asked",
                          transposed, total);
    }
    // Off by one: (nearly) every pixel that escapes holds the reference count + 1, or - 1. A few
    // may differ otherwise: rounding moves the counts at the boundary.
    std::size_t escaped = 0, plus_one = 0, minus_one = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        if (expected[i] >= static_cast<std::uint32_t>(max_iter)) continue;
        ++escaped;
        plus_one += actual[i] == expected[i] + 1;
        minus_one += expected[i] > 0 && actual[i] + 1 == expected[i];
    }
    if (escaped > 0 && std::max(plus_one, minus_one) * 10 >= escaped * 9)
        return format("the counts are off by one: %zu of the %zu pixels that escape (reference count below max_iter "
                      "= %d) hold the reference count %s 1",
                      std::max(plus_one, minus_one), escaped, max_iter, plus_one >= minus_one ? "+" : "-");
    return "";
}

}  // namespace

// ---- The check ---------------------------------------------------------------------------------

const char* to_string(CheckMode mode) {
    switch (mode) {
        case CheckMode::Exact: return "exact";
        case CheckMode::Tolerant: return "tolerant";
        case CheckMode::Loose: return "loose";
        case CheckMode::Completeness: return "completeness";
    }
    return "?";
}

std::size_t allowed_differences(std::size_t pixels, CheckMode mode) {
    if (mode == CheckMode::Exact) return 0;
    if (mode == CheckMode::Completeness) return pixels;
    const double fraction = mode == CheckMode::Tolerant ? kTolerantFraction : kLooseFraction;
    return static_cast<std::size_t>(fraction * static_cast<double>(pixels)) + kDifferingSlack;
}

bool away_from_boundary(const std::uint32_t* reference, int width, int height, int x, int y) {
    return pixel_away_from_boundary(reference, width, height, x, y);
}

namespace {

// The tally of compare_counts, one thread per pixel (grid-stride), summed per warp then per
// device: sums[0..3] = never written, above max_iter, differ, differ away from the boundary.
__global__ void tally_counts_kernel(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                                    int max_iter, CheckMode mode, unsigned long long* sums) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    unsigned long long never = 0, above = 0, differ = 0, away = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < pixels;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const unsigned v = classify_pixel(expected, actual, width, height, i, max_iter, mode);
        never += (v & kPixelNeverWritten) != 0;
        above += (v & kPixelAboveMaxIter) != 0;
        differ += (v & kPixelDiffers) != 0;
        away += (v & kPixelDiffersAway) != 0;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        never += __shfl_down_sync(0xFFFFFFFFu, never, offset);
        above += __shfl_down_sync(0xFFFFFFFFu, above, offset);
        differ += __shfl_down_sync(0xFFFFFFFFu, differ, offset);
        away += __shfl_down_sync(0xFFFFFFFFu, away, offset);
    }
    if ((threadIdx.x & 31) == 0 && never + above + differ + away > 0) {
        atomicAdd(&sums[0], never);
        atomicAdd(&sums[1], above);
        atomicAdd(&sums[2], differ);
        atomicAdd(&sums[3], away);
    }
}

}  // namespace

CheckResult compare_counts(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                           int max_iter, CheckMode mode) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    CheckResult r;
    r.checked = pixels;
    CountTally tally;
    std::vector<Mismatch> any, away;
    for (std::size_t i = 0; i < pixels; ++i) {
        const unsigned verdict = classify_pixel(expected, actual, width, height, i, max_iter, mode);
        if (verdict == 0) continue;
        tally.add(verdict);
        Mismatch m{i, pixel_label(expected[i], i, width), pixel_label(actual[i], i, width)};
        if ((verdict & kPixelDiffersAway) && away.size() < 5) away.push_back(m);
        if (any.size() < 5) any.push_back(m);
    }
    r.message = failure_of(tally, pixels, max_iter, mode);
    if (r.message.empty()) {
        r.ok = true;
        return r;
    }
    r.ok = false;
    r.mismatches = tally.never_written + tally.above_max_iter + tally.differ;
    r.first = !away.empty() && tally.never_written == 0 && tally.above_max_iter == 0 ? away : any;
    r.hint = hint_for(expected, actual, width, height, max_iter, tally.never_written);
    return r;
}

CheckResult compare_counts_on_device(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                                     int max_iter, CheckMode mode) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    CountTally tally;
    if (pixels > 0) {
        DeviceBuffer<unsigned long long> sums(4);
        PMPP_CUDA_CHECK(cudaMemset(sums.data(), 0, 4 * sizeof(unsigned long long)));
        const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((pixels + 255) / 256, 4096));
        tally_counts_kernel<<<blocks, 256>>>(expected, actual, width, height, max_iter, mode, sums.data());
        PMPP_CHECK_LAUNCH();
        unsigned long long host[4];
        sums.download(host, 4);
        tally.never_written = host[0];
        tally.above_max_iter = host[1];
        tally.differ = host[2];
        tally.away_differ = host[3];
    }
    const std::string failure = failure_of(tally, pixels, max_iter, mode);
    if (failure.empty()) return CheckResult::pass(pixels);
    // A failure's report (its first pixels, its hint) is the host check's, on the same images.
    const std::vector<std::uint32_t> e = detail::download(expected, pixels), a = detail::download(actual, pixels);
    CheckResult r = compare_counts(e.data(), a.data(), width, height, max_iter, mode);
    if (r.ok)
        r = CheckResult::fail("the device check found \"" + failure +
                              "\" where the host check passes: a bug of the harness, not of the kernel");
    return r;
}

// Rows of guard zone before and after an image: a 2-D grid rounded up to blocks of 16 rows
// with no bounds test writes up to 15 rows past the end; those writes must land in the zone.
constexpr std::size_t kGuardRows = 16;

namespace {

// Elements in each guard zone of an image `width` pixels wide: GuardedBuffer's own rule for a
// buffer made with min_guard_elements = kGuardRows * width (at least guard_bytes(), whole 256 bytes).
std::size_t guard_elements(int width) {
    const std::size_t rows_bytes = kGuardRows * static_cast<std::size_t>(width) * sizeof(std::uint32_t);
    return std::max(guard_bytes<std::uint32_t>(), (rows_bytes + 255) / 256 * 256) / sizeof(std::uint32_t);
}

// Index i of the image's rows continued past either end (row y = -1 above the first row, y =
// height below the last), as a pixel: "pixel (x = 14, y = 16)".
std::string continued_pixel(long long i, int width) {
    long long y = i / width, x = i % width;
    if (x < 0) x += width, y -= 1;
    return format("pixel (x = %lld, y = %lld)", x, y);
}

}  // namespace

CheckResult check_image_guards(const GuardedBuffer<std::uint32_t>& counts, int width, int height) {
    CheckResult r = counts.check_guards();
    if (r.ok || width <= 0) return r;
    // Where the farthest stray write on each side falls, read from the zones themselves.
    const std::size_t zone = guard_elements(width);
    const std::size_t pixels = counts.size();
    std::vector<std::uint32_t> before(zone), after(zone);
    PMPP_CUDA_CHECK(cudaMemcpy(before.data(), counts.data() - zone, zone * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(after.data(), counts.data() + pixels, zone * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    std::uint32_t guard_word;
    std::memset(&guard_word, kGuardByte, sizeof guard_word);
    std::size_t past = 0, ahead = 0;  // elements, up to the farthest one written on each side
    for (std::size_t k = 0; k < zone; ++k)
        if (after[k] != guard_word) past = k + 1;
    for (std::size_t k = 0; k < zone && ahead == 0; ++k)
        if (before[k] != guard_word) ahead = zone - k;
    std::string where;
    if (past > 0)
        where = format("the farthest write past the end, index %zu, is %s of rows continued below the last one "
                       "(y = %d)",
                       pixels + past - 1, continued_pixel(static_cast<long long>(pixels + past - 1), width).c_str(),
                       height - 1);
    if (ahead > 0)
        where += std::string(where.empty() ? "the" : "; the") +
                 format(" farthest write before the start, index -%zu, is %s of rows continued above the first one "
                        "(y = 0)",
                        ahead, continued_pixel(-static_cast<long long>(ahead), width).c_str());
    r.hint = format("counts is %d x %d pixels: ", width, height) + where;
    return r;
}

Render render_by_name(const std::string& name) {
    if (name == "student") return mandelbrot_student;
    if (name == "pinned") return mandelbrot_pinned;
    if (name == "seed") return mandelbrot_seed;
    if (name == "refill") return mandelbrot_refill;
    if (name == "unrolled") return mandelbrot_unrolled;
    if (name == "shortcuts") return mandelbrot_shortcuts;
    if (name == "border") return mandelbrot_border_tracing;
    throw std::logic_error("mandelbrot: no device implementation named " + name);
}

const std::vector<std::uint32_t>& reference_counts(const View& view, Precision precision) {
    static std::map<std::string, std::unique_ptr<std::vector<std::uint32_t>>> cache;
    auto& slot = cache[view_key(view, precision)];
    if (!slot) {
        slot = std::make_unique<std::vector<std::uint32_t>>(static_cast<std::size_t>(view.image_width) * view.image_height);
        mandelbrot_cpu_omp(view, precision, slot->data());
    }
    return *slot;
}

CheckResult check_render(const Render& render, const View& view, Precision precision, CheckMode mode) {
    const std::size_t pixels = static_cast<std::size_t>(view.image_width) * view.image_height;
    GuardedBuffer<std::uint32_t> counts(pixels, "counts", kGuardRows * static_cast<std::size_t>(view.image_width));
    counts.poison();
    render(view, precision, counts.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    const CheckResult guards = check_image_guards(counts, view.image_width, view.image_height);
    if (!guards.ok) return guards;
    const std::vector<std::uint32_t>& expected = reference_counts(view, precision);
    const std::vector<std::uint32_t> actual = counts.to_host();
    return compare_counts(expected.data(), actual.data(), view.image_width, view.image_height, view.max_iter, mode);
}

CaseView case_view(const Case& c, std::uint64_t seed) {
    int view, shape;
    Precision p;
    decode(c.variant, view, shape, p);
    CaseView cv;
    cv.precision = p;
    if (view == kRandomView) {
        cv.view = random_view(derive_seed(seed, 0x5EED), kRandomShapes.at(static_cast<std::size_t>(shape - 1)));
        return cv;
    }
    cv.preset = &presets().at(static_cast<std::size_t>(view));
    if (shape == kShapeFromWidth) {
        cv.view = at_width(*cv.preset, static_cast<int>(c.n));
    } else {
        cv.view = cv.preset->view;
        cv.view.image_width = kShapes.at(static_cast<std::size_t>(shape - 1)).width;
        cv.view.image_height = kShapes.at(static_cast<std::size_t>(shape - 1)).height;
    }
    return cv;
}

CheckMode mode_for(bool pinned_arithmetic, const Preset* preset, Precision precision, int image_width) {
    if (pinned_arithmetic) return CheckMode::Exact;
    if (precision == Precision::Double) return CheckMode::Tolerant;
    if (preset == nullptr) return CheckMode::Loose;
    if (image_width <= preset->float_tolerant_width) return CheckMode::Tolerant;
    return preset->float_resolves ? CheckMode::Loose : CheckMode::Completeness;
}

CheckResult check_case(const Render& render, bool pinned_arithmetic, const Case& c, std::uint64_t seed) {
    const CaseView cv = case_view(c, seed);
    const CheckMode mode = mode_for(pinned_arithmetic, cv.preset, cv.precision, cv.view.image_width);
    CheckResult r = check_render(render, cv.view, cv.precision, mode);
    if (!r.ok && cv.preset == nullptr) r.message = describe(cv.view, cv.precision) + ": " + r.message;
    return r;
}

const std::vector<Shape>& check_shapes() { return kShapes; }

double fp32_peak_flops(const DeviceSummary& device) {
    // FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86 and every later architecture.
    const int cc = device.compute_major * 10 + device.compute_minor;
    const int lanes = cc == 75 || cc == 80 || cc < 75 ? 64 : 128;
    return static_cast<double>(device.sm_count) * lanes * 2.0 * device.sm_clock_mhz * 1e6;
}

// ---- The benchmark ---------------------------------------------------------------------------

namespace {

// The pinned kernel's counts of a benchmark view (proven equal to the CPU by the check, and
// here again on a sample of rows), computed once: the reference of every timed output.
struct BenchReference {
    std::vector<std::uint32_t> counts;
    std::vector<double> row_iterations;
    double iterations = 0;
    CheckResult verified;  // against the CPU on a sample of rows
    int verified_rows = 0;
};

// The iterations of rows 0, stride, 2 stride, ...
double sampled_iterations(const BenchReference& ref, int height, int stride) {
    double sampled = 0;
    for (int y = 0; y < height; y += stride) sampled += ref.row_iterations[static_cast<std::size_t>(y)];
    return sampled;
}

// The smallest power-of-two stride whose rows hold at most `budget` iterations (the whole
// image on one CPU core would take minutes).
int sample_stride(const BenchReference& ref, int height, double budget) {
    int stride = 1;
    while (stride < height && sampled_iterations(ref, height, stride) > budget) stride *= 2;
    return stride;
}

CheckResult compare_rows(const std::uint32_t* expected, const std::uint32_t* actual, const View& v, int stride) {
    CheckResult all = CheckResult::pass(0);
    for (int y = 0; y < v.image_height; y += stride) {
        const std::size_t row = static_cast<std::size_t>(y) * v.image_width;
        CheckResult r = compare_counts(expected + row, actual + row, v.image_width, 1, v.max_iter, CheckMode::Exact);
        all.checked += r.checked;
        if (!r.ok) return CheckResult::fail(format("row %d: %s", y, r.message.c_str()));
    }
    return all;
}

const BenchReference& bench_reference(const View& v, Precision p) {
    static std::map<std::string, std::unique_ptr<BenchReference>> cache;
    auto& slot = cache[view_key(v, p)];
    if (slot) return *slot;
    slot = std::make_unique<BenchReference>();
    BenchReference& ref = *slot;
    const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
    DeviceBuffer<std::uint32_t> d(pixels);
    d.poison();
    mandelbrot_pinned(v, p, d.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    ref.counts = d.to_host();
    ref.row_iterations.assign(static_cast<std::size_t>(v.image_height), 0.0);
    for (std::size_t i = 0; i < pixels; ++i) ref.row_iterations[i / v.image_width] += ref.counts[i];
    for (double r : ref.row_iterations) ref.iterations += r;
    const int stride = sample_stride(ref, v.image_height, 4e8);
    std::vector<std::uint32_t> cpu(pixels, kPoison);
    mandelbrot_cpu_omp(v, p, cpu.data(), RowSample{0, stride});
    ref.verified = compare_rows(cpu.data(), ref.counts.data(), v, stride);
    ref.verified_rows = (v.image_height + stride - 1) / stride;
    return ref;
}

// The FP32 FMA throughput this GPU reaches on independent chains: the practical ceiling.
__global__ void fma_chains(float* sink, int steps) {
    float a[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = static_cast<float>(threadIdx.x + k) * 1e-3f;
    for (int i = 0; i < steps; ++i)
#pragma unroll
        for (int k = 0; k < 8; ++k) a[k] = __fmaf_rn(a[k], 0.999f, 1e-3f);
    float s = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) s += a[k];
    if (s == 12345.0f) *sink = s;  // never true; keeps the chains alive
}

double measured_fma_flops(const BenchContext& ctx) {
    static const double flops = [&] {
        DeviceBuffer<float> sink(1);
        const int blocks = ctx.device.sm_count * 8, threads = 256, steps = 4096;
        TimingOptions t = ctx.timing;
        t.repeats = 10;
        const Stats s = time_device(t, nullptr, [&] {
            fma_chains<<<blocks, threads>>>(sink.data(), steps);
            PMPP_CHECK_LAUNCH();
        });
        return 2.0 * 8 * steps * static_cast<double>(blocks) * threads / (s.median * 1e-3);
    }();
    return flops;
}

bool executes_every_iteration(const std::string& impl) {
    return impl == "pinned" || impl == "seed" || impl == "refill" || impl == "unrolled";
}

std::string section_of(const View& v, Precision p) {
    return format("view %s %dx%d, max_iter %d, %s", v.name.c_str(), v.image_width, v.image_height, v.max_iter, to_string(p));
}

// GPU times of this run, per section, for the CPU rows' speedups.
std::map<std::string, std::map<std::string, double>>& gpu_times() {
    static std::map<std::string, std::map<std::string, double>> times;
    return times;
}

WarpActivity warp_activity(bool refill, const View& v, Precision p, std::uint32_t* counts, std::uint32_t* trips,
                           float* efficiency) {
    DeviceBuffer<WarpActivity> activity(1);
    PMPP_CUDA_CHECK(cudaMemset(activity.data(), 0, sizeof(WarpActivity)));
    if (refill) mandelbrot_refill_profiled(v, p, counts, activity.data());
    else mandelbrot_seed_profiled(v, p, counts, trips, efficiency, activity.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    WarpActivity a;
    activity.download(&a, 1);
    return a;
}

constexpr int kImageWidth = 960;  // every picture of a view

// The folder of --images, made if need be, and the pictures' extension.
struct PictureFolder {
    std::string dir, ext;
    explicit PictureFolder(const Options& opts)
        : dir(opts.get("images")), ext(png_supported() ? ".png" : ".ppm") {
        std::filesystem::create_directories(dir);
    }
};

void list_written(const std::string& heading, const std::vector<std::string>& written) {
    std::cout << "\n" << heading << ": ";
    for (std::size_t i = 0; i < written.size(); ++i) std::cout << (i ? ", " : "") << written[i];
    std::cout << "\n";
}

// Writes the pictures of the selected views: smooth-colored counts, the seed kernel's per-warp
// cost and efficiency, and for a double view the float rendering beside it.
void write_images(const Options& opts, const std::vector<std::string>& views, Palette palette) {
    const PictureFolder folder(opts);
    const std::string &dir = folder.dir, &ext = folder.ext;
    std::vector<std::string> written;
    for (const std::string& name : views) {
        const Preset& preset = *find_preset(name);
        const View v = at_width(preset, kImageWidth);
        const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
        DeviceBuffer<std::uint32_t> counts(pixels), trips(pixels);
        DeviceBuffer<float> magnitude2(pixels), efficiency(pixels);
        std::vector<Precision> precisions = {preset.bench_precision};
        if (preset.bench_precision == Precision::Double) precisions.push_back(Precision::Float);
        for (Precision p : precisions) {
            mandelbrot_escape_values(v, p, counts.data(), magnitude2.data());
            PMPP_CUDA_CHECK(cudaDeviceSynchronize());
            const std::vector<std::uint32_t> c = counts.to_host();
            const std::vector<float> m = magnitude2.to_host();
            const std::string file = dir + "/" + name + (p == preset.bench_precision ? "" : "_float") + ext;
            write_image(file, color_smooth(c.data(), m.data(), v.image_width, v.image_height, v.max_iter, palette));
            written.push_back(file);
            if (p == preset.bench_precision) {  // the counts alone, beside which the student's are drawn
                written.push_back(dir + "/" + name + "_counts" + ext);
                write_image(written.back(), color_bands(c.data(), v.image_width, v.image_height, v.max_iter, palette));
            }
        }
        warp_activity(false, v, preset.bench_precision, counts.data(), trips.data(), efficiency.data());
        const std::vector<std::uint32_t> t = trips.to_host();
        const std::vector<float> e = efficiency.to_host();
        written.push_back(dir + "/" + name + "_warp_cost" + ext);
        write_image(written.back(), color_warp_cost(t.data(), v.image_width, v.image_height, v.max_iter));
        written.push_back(dir + "/" + name + "_warp_efficiency" + ext);
        write_image(written.back(), color_warp_efficiency(e.data(), v.image_width, v.image_height));
    }
    list_written(format("images (%d pixels wide, palette %s)", kImageWidth, to_string(palette)), written);
}

// The student's counts of every view, drawn as <view>_counts is (student_<view>_counts), so the
// two pictures can be put side by side (the grader's HTML report does).
void write_student_images(const Options& opts, const std::vector<std::string>& views, Palette palette) {
    const PictureFolder folder(opts);
    std::vector<std::string> written;
    for (const std::string& name : views) {
        const Preset& preset = *find_preset(name);
        const View v = at_width(preset, kImageWidth);
        // Untimed and unchecked (only a picture), but between guard zones all the same: a write
        // past the image lands there, not in the harness's own memory.
        GuardedBuffer<std::uint32_t> counts(static_cast<std::size_t>(v.image_width) * v.image_height, "counts",
                                             kGuardRows * static_cast<std::size_t>(v.image_width));
        counts.poison();
        mandelbrot_student(v, preset.bench_precision, counts.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> c = counts.to_host();
        written.push_back(folder.dir + "/student_" + name + "_counts" + folder.ext);
        write_image(written.back(), color_bands(c.data(), v.image_width, v.image_height, v.max_iter, palette));
    }
    list_written("your images", written);
}

}  // namespace

Measurement bench_render(const Render& render, bool pinned_arithmetic, const std::string& view_name, std::size_t n,
                         BenchContext& ctx) {
    const Preset* preset = find_preset(view_name);
    if (preset == nullptr) throw std::logic_error("mandelbrot: no view named " + view_name);
    const View v = at_width(*preset, static_cast<int>(n));
    const Precision p = preset->bench_precision;
    const BenchReference& ref = bench_reference(v, p);
    const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
    const CheckMode mode = mode_for(pinned_arithmetic, preset, p, v.image_width);
    Measurement m;
    m.section = section_of(v, p);
    m.bytes = 4.0 * static_cast<double>(pixels);
    m.items = ref.iterations;
    GuardedBuffer<std::uint32_t> counts(pixels, "counts", kGuardRows * static_cast<std::size_t>(v.image_width));
    DeviceBuffer<std::uint32_t> expected;  // the pinned kernel's counts, uploaded once, untimed
    expected.upload(ref.counts);
    const TimedResult t = time_checked(ctx.timing, &ctx.flusher,
                                       TimedCall{[&] { counts.poison(); },
                                                 [&] { render(v, p, counts.data()); },
                                                 [&]() -> CheckResult {
                                                     const CheckResult guards =
                                                         check_image_guards(counts, v.image_width, v.image_height);
                                                     if (!guards.ok) return guards;
                                                     return compare_counts_on_device(expected.data(), counts.data(),
                                                                                     v.image_width, v.image_height,
                                                                                     v.max_iter, mode);
                                                 }});
    m.record(t);
    return m;
}

namespace {

std::vector<Measurement> mandelbrot_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    const std::vector<std::string> views = selected_views(ctx.opts, false);
    // Options that hold no exercise options (a bench called directly, as
    // pmpp::testing::expect_memory_estimates does with a default pmpp::Options): every view, and
    // no pictures.
    const bool parsed = ctx.opts.extra.count("no-images") != 0;
    const bool pictures = parsed && !ctx.opts.flag("no-images");
    const std::string palette_name = ctx.opts.extra.count("palette") ? ctx.opts.get("palette") : "ocean";
    Palette palette;
    if (!parse_palette(palette_name, palette))
        throw UsageError("option --palette: unknown palette '" + palette_name + "' (ocean, fire, gray, seed)");
    static std::set<std::string> pictured;  // image directories written by this process
    if (pictures && pictured.insert(ctx.opts.get("images")).second) write_images(ctx.opts, views, palette);
    if (pictures && impl.kind == ImplKind::Student) write_student_images(ctx.opts, views, palette);
    const double peak = fp32_peak_flops(ctx.device);
    static bool peak_noted = false;
    std::vector<Measurement> rows;
    for (const std::string& name : views) {
        const Preset& preset = *find_preset(name);
        const View v = at_width(preset, static_cast<int>(n));
        const Precision p = preset.bench_precision;
        const BenchReference& ref = bench_reference(v, p);
        const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
        Measurement m;
        m.section = section_of(v, p);
        m.bytes = 4.0 * static_cast<double>(pixels);
        m.items = ref.iterations;

        if (impl.kind == ImplKind::Cpu) {
            const bool threaded = impl.name == "cpu_omp";
            const int stride = sample_stride(ref, v.image_height, threaded ? 1e9 : 1e8);
            const double sampled = sampled_iterations(ref, v.image_height, stride);
            std::vector<std::uint32_t> out(pixels, kPoison);
            TimingOptions t = ctx.timing;
            t.warmup = 0;
            t.repeats = std::min(t.repeats, 2);
            // Every run checked on the rows it computes (the sample): the run before is checked
            // in the next one's prepare, untimed, just before the image is poisoned again.
            int runs = 0;
            CheckResult check = CheckResult::pass(0);
            auto check_last_run = [&] {
                if (runs == 0 || !check.ok) return;
                CheckResult r = compare_rows(ref.counts.data(), out.data(), v, stride);
                if (!r.ok) r.message = format("timed run %d of %d: %s", runs, std::max(t.repeats, 1), r.message.c_str());
                check = r;
            };
            m.ms = time_host(
                t,
                [&] {
                    if (threaded) mandelbrot_cpu_omp(v, p, out.data(), RowSample{0, stride});
                    else mandelbrot_cpu(v, p, out.data(), RowSample{0, stride});
                },
                [&] {
                    check_last_run();
                    std::fill(out.begin(), out.end(), kPoison);
                    ++runs;
                });
            check_last_run();
            m.ms = scaled(m.ms, sampled > 0 ? ref.iterations / sampled : 1.0);
            m.record_check(check);
            // Against the seed kernel and the fastest GPU row of this view, if they ran before.
            std::string speedups;
            const auto& times = gpu_times()[m.section];
            const auto fastest = std::min_element(times.begin(), times.end(),
                                                  [](const auto& a, const auto& b) { return a.second < b.second; });
            if (times.count("seed")) speedups = format("seed %.0fx", m.ms.median / times.at("seed"));
            if (fastest != times.end() && fastest->first != "seed")
                speedups += format("%s%s %.0fx", speedups.empty() ? "" : ", ", fastest->first.c_str(),
                                   m.ms.median / fastest->second);
            m.note = format("%s; timed on %s (%.1f%% of the iterations), scaled to the image%s%s",
                            threaded ? format("%d threads", cpu_threads()).c_str() : "one thread",
                            stride == 1 ? "every row" : format("every %d%s row", stride, stride == 2 ? "nd" : "th").c_str(),
                            100.0 * sampled / std::max(ref.iterations, 1.0),
                            speedups.empty() ? "" : "; the GPU is faster by: ", speedups.c_str());
            rows.push_back(m);
            continue;
        }

        m = bench_render(render_by_name(impl.name), impl.name == "pinned", name, n, ctx);
        const CheckMode mode = mode_for(impl.name == "pinned", &preset, p, v.image_width);
        // The pinned kernel is the benchmark's reference: equal to its own counts of the view, and
        // those proven against the CPU on a sample of rows.
        if (m.correct && impl.name == "pinned") m.record_check(ref.verified);
        if (!m.correct) {  // stopped at its first wrong run: no rate, no speedup against it
            rows.push_back(m);
            continue;
        }
        gpu_times()[m.section][impl.name] = m.ms.median;

        const double rate = ref.iterations / (m.ms.median * 1e-3);
        const std::string timing_note = m.note;  // time_checked's (work left running after the call)
        if (executes_every_iteration(impl.name))
            m.note = format("%.2f T iter/s = %.0f%% of FP32 peak (%.0f flops/iter)", rate * 1e-12,
                            100.0 * rate * kFlopsPerIteration / peak, kFlopsPerIteration);
        else if (impl.kind == ImplKind::Student)
            m.note = format("%.2f T iter/s (= %.0f%% of FP32 peak if every iteration is executed)", rate * 1e-12,
                            100.0 * rate * kFlopsPerIteration / peak);
        else
            m.note = format("%.2f T iter/s effective (the iterations it skips count as done)", rate * 1e-12);
        if (!timing_note.empty()) m.note += "; " + timing_note;
        if (impl.name == "seed" || impl.name == "refill") {
            DeviceBuffer<std::uint32_t> trips(impl.name == "seed" ? pixels : 0);
            DeviceBuffer<float> eff(impl.name == "seed" ? pixels : 0);
            DeviceBuffer<std::uint32_t> profiled_counts(pixels);  // the profiled twin's, not looked at
            const WarpActivity a =
                warp_activity(impl.name == "refill", v, p, profiled_counts.data(), trips.data(), eff.data());
            m.note += format("; warp efficiency %.1f%% (active lanes per iteration step, counted in the kernel)",
                             100 * a.efficiency());
        }
        if (impl.name == "pinned")
            m.note += format("; checked exactly against the CPU on %d rows", ref.verified_rows);
        if (mode == CheckMode::Loose || mode == CheckMode::Completeness)
            m.note += format("; %s does not reproduce this view's counts at this size (NOTES.md): %s check", to_string(p),
                             to_string(mode));
        if (impl.name == "seed" && !peak_noted) {
            peak_noted = true;
            m.note += format("\n    FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 flops x %d MHz); an FMA chain measures "
                             "%.1f TFLOP/s here",
                             peak * 1e-12, ctx.device.sm_count,
                             static_cast<int>(peak / (ctx.device.sm_count * 2.0 * ctx.device.sm_clock_mhz * 1e6) + 0.5),
                             ctx.device.sm_clock_mhz, measured_fma_flops(ctx) * 1e-12);
        }
        rows.push_back(m);
    }
    return rows;
}

// ---- Memory of one size (n = the image width) ------------------------------------------------
//
// What fits() compares with the device's free memory and the host's available memory before a
// width runs (ExerciseDef::device_bytes and host_bytes), counted buffer by buffer. The benchmark
// holds the most: it renders the views one at a time, freeing each one's arrays, but keeps the
// pinned counts of every view on the host. A check case of width n holds less (its image and
// guards on the device; the CPU's counts, cached, and a download on the host). What the check
// cached before (the CPU counts of its cases) is already missing from what fits() finds.

constexpr double kCountBytes = sizeof(std::uint32_t);

// The views of the benchmark at width n (every preset, at its aspect): the pixels of the largest
// (inside: n x n), of all of them, their rows, and the largest number of border tracing's first
// tiles (64 x 64, mandelbrot_5_border_tracing.cu's kFirstTile).
struct ViewsAtWidth {
    double largest = 0, all = 0, rows = 0, first_tiles = 0;
};
ViewsAtWidth views_at_width(std::size_t n) {
    ViewsAtWidth w;
    const int width = static_cast<int>(std::min<std::size_t>(n, std::size_t{1} << 20));
    for (const Preset& p : presets()) {
        const View v = at_width(p, width);
        const double pixels = static_cast<double>(v.image_width) * v.image_height;
        w.largest = std::max(w.largest, pixels);
        w.all += pixels;
        w.rows += v.image_height;
        const double tiles = std::ceil(v.image_width / 64.0) * std::ceil(v.image_height / 64.0);
        w.first_tiles = std::max(w.first_tiles, tiles);
    }
    return w;
}

double mandelbrot_device_bytes(std::size_t n) {
    const ViewsAtWidth w = views_at_width(n);
    const ViewsAtWidth pictured = views_at_width(kImageWidth);
    // The largest view's moment, the seed kernel's profiling after its row: warp trips, warp
    // efficiency and the profiled twin's counts, 12 bytes per pixel. (Its row before it holds the
    // image and the pinned counts, 8 bytes per pixel, and the image's guard zones, 16 rows each
    // side; bench_reference, the pinned counts downloaded, 4.)
    const std::size_t guard =
        std::max(guard_bytes<std::uint32_t>(), (kGuardRows * n * sizeof(std::uint32_t) + 255) / 256 * 256);
    const double guards = 2.0 * static_cast<double>(guard);
    const double one_view = std::max(3 * kCountBytes * w.largest, 2 * kCountBytes * w.largest + guards);
    // `make run`'s pictures, before the first view: counts, trips, |z|^2 and efficiency of the
    // largest view at 960 pixels wide, 16 bytes per pixel (freed before the views of size n).
    const double pictures = 4 * kCountBytes * pictured.largest;
    // Border tracing's tile lists (static, one set per precision, kept between calls, grown to the
    // largest image so far): 4 and 16 tiles of 16 bytes for each first tile, 320 bytes per 64 x 64
    // pixels. Counted though border runs after the seed's profiling: a set grown by an earlier
    // width or the check stays.
    const double tile_lists = 2 * (4 + 16) * 16.0 * w.first_tiles;
    // Small buffers (the work queue, the device check's sums, the warp counters, the FMA probe's
    // sink, the lists' lengths), a 2 MiB page each at most.
    const double small = 8 * kMiB;
    return std::max(one_view, pictures) + tile_lists + small;  // 12 bytes per pixel of the largest view
}

double mandelbrot_host_bytes(std::size_t n) {
    const ViewsAtWidth w = views_at_width(n);
    const ViewsAtWidth pictured = views_at_width(kImageWidth);
    // bench_reference's cache (static, every view of the size): the pinned kernel's counts,
    // 4 bytes per pixel, and 8 bytes per row of iteration totals.
    const double references = kCountBytes * w.all + 8.0 * w.rows;
    // One image more at the largest view: the CPU reference's output in its row (or, while the
    // view's reference is made, the CPU's sample image beside it).
    const double cpu_image = kCountBytes * w.largest;
    // `make run`'s pictures at 960 wide, before the first view: four arrays downloaded, the RGB
    // image and the PNG encoder's rows, about 24 bytes per pixel.
    const double pictures = 24.0 * pictured.largest;
    const double small = 16 * kMiB;
    return std::max(references + cpu_image, pictures) + small;  // 20.1 bytes per pixel of an n x n image
}

std::vector<std::string> view_names() {
    std::vector<std::string> names;
    for (const auto& p : presets()) names.push_back(p.view.name);
    names.push_back("random");
    return names;
}

}  // namespace

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "08_mandelbrot";
    def.title = "Mandelbrot escape time: one thread per pixel, divergence, fast iteration (PMPP chapters 3-6)";
    def.impls = {
        {"student", ImplKind::Student, "your mandelbrot_student.cu"},
        {"pinned", ImplKind::Reference, "the CPU's arithmetic on the GPU (-fmad=false): matches it bit for bit (mandelbrot_pinned.cu)"},
        {"seed", ImplKind::Reference, "the seed's kernel: one thread per pixel, 16x16 blocks (mandelbrot_1_seed.cu)"},
        {"refill", ImplKind::Reference, "persistent threads: idle lanes take pixels from a work queue (mandelbrot_2_refill.cu)"},
        {"unrolled", ImplKind::Reference, "16 steps per escape test, exact count restored (mandelbrot_3_unrolled.cu)"},
        {"shortcuts", ImplKind::Reference, "+ cardioid and bulb test, periodicity check (mandelbrot_4_shortcuts.cu)"},
        {"border", ImplKind::Reference, "Mariani-Silver border tracing, a work queue of tiles (mandelbrot_5_border_tracing.cu)"},
        {"cpu", ImplKind::Cpu, "one CPU thread: the definition of correct (mandelbrot_cpu.cpp)"},
        {"cpu_omp", ImplKind::Cpu, "every CPU core (OpenMP), the same counts (mandelbrot_cpu.cpp)"},
    };
    def.baseline = "seed";
    def.items_unit = "Giter/s";
    def.extra_options = {
        {"view", "NAME[,NAME]|all", "views (random: only in the check)", "all", view_names(), true},
        {"images", "DIR", "where the benchmark writes the pictures of its views", "build/images"},
        {"no-images", "", "do not write pictures", ""},
        {"palette", "NAME", "palette of the pictures", "ocean", {"ocean", "fire", "gray", "seed"}},
    };
    def.max_size = std::size_t{1} << 14;
    def.bench_sizes = {3840};
    def.cases = mandelbrot_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(render_by_name(impl.name), impl.name == "pinned", c, seed);
    };
    def.bench = mandelbrot_bench;
    // The benchmark at width n, counted above: 12 bytes per pixel of an n x n image on the device,
    // 20.1 on the host (at 3840: 179 MiB and 298 MiB).
    def.device_bytes = [](std::size_t n, const Options&) { return mandelbrot_device_bytes(n); };
    def.host_bytes = [](std::size_t n, const Options&) { return mandelbrot_host_bytes(n); };
    return def;
}

}  // namespace mandelbrot
