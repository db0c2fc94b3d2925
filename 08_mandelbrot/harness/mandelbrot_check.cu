// mandelbrot_check.cu: the check of exercise 08: one pixel's verdict (on the host and on the
// device), an image's verdict and the hints its pattern supports, and the image's guard zones.
#include "mandelbrot_harness.h"

#include "common/cuda_check.h"
#include "common/device_check.cuh"
#include "common/device_tally.cuh"
#include "common/image_guards.h"
#include "common/report.h"
#include "common/unwritten_edges.h"

#include <algorithm>
#include <array>

namespace mandelbrot {

using namespace pmpp;

PMPP_HD_EXTERN bool away_from_boundary(const std::uint32_t* reference, int width, int height, int x, int y) {
    const int r = kBoundaryRadius;
    if (x < r || y < r || x >= width - r || y >= height - r) return false;
    const std::uint32_t v = reference[static_cast<std::size_t>(y) * width + x];
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (reference[static_cast<std::size_t>(y + dy) * width + (x + dx)] != v) return false;
    return true;
}

namespace {

// At most this fraction of the pixels, plus a slack for tiny images, may differ. Measured
// (NOTES.md): FMA against pinned arithmetic changes at most 1.1% of a preset's pixels and 0.83%
// of a random view's where the check is Tolerant (every one of them at the boundary), and at
// most 14% where it is Loose.
constexpr double kTolerantFraction = 0.05;
constexpr double kLooseFraction = 0.25;
constexpr std::size_t kDifferingSlack = 2;

std::string pixel_label(std::uint32_t value, std::size_t index, int width) {
    if (value == kPoison) return "never written";
    return format("%u (pixel x=%zu, y=%zu)", value, index % static_cast<std::size_t>(width),
                  index / static_cast<std::size_t>(width));
}

// ---- One pixel as the check sees it ------------------------------------------------------------
// The same code decides on the host (compare_counts, the definition) and on the device
// (compare_counts_on_device, the benchmark's check of every run): one rule, compiled twice.

enum PixelVerdict : unsigned {
    kPixelNeverWritten = 1u,  // still the poison
    kPixelAboveMaxIter = 2u,  // written, but not a count
    kPixelDiffers = 4u,  // a count other than the reference's (every mode but Completeness)
    kPixelDiffersAway = 8u,  // ...away from the boundary (with kPixelDiffers)
};

// One pixel's verdict, as the host loop and the device tally (tally_on_device) ask for it: 0 when
// pixel i passes on its own, otherwise the PixelVerdict bits that say why not.
struct PixelRule {
    const std::uint32_t *expected, *actual;
    int width, height, max_iter;
    CheckMode mode;
    __host__ __device__ unsigned operator()(std::size_t i) const {
        const std::uint32_t a = actual[i], e = expected[i];
        if (a == kPoison) return kPixelNeverWritten;
        if (a > static_cast<std::uint32_t>(max_iter)) return kPixelAboveMaxIter;
        if (mode == CheckMode::Completeness || a == e) return 0;
        const int x = static_cast<int>(i % static_cast<std::size_t>(width)),
                  y = static_cast<int>(i / static_cast<std::size_t>(width));
        return kPixelDiffers | (away_from_boundary(expected, width, height, x, y) ? kPixelDiffersAway : 0u);
    }
};

// What the verdict of an image depends on: how many pixels of each kind (by PixelVerdict bit).
struct CountTally {
    std::array<unsigned long long, 4> n{};
    void add(unsigned verdict) {
        for (int k = 0; k < 4; ++k) n[k] += (verdict >> k) & 1u;
    }
    std::size_t never_written() const { return n[0]; }
    std::size_t above_max_iter() const { return n[1]; }
    std::size_t differ() const { return n[2]; }
    std::size_t away_differ() const { return n[3]; }  // differ, away from the boundary
};

// The image's verdict from its tally: empty when it passes, else why not (the first rule it breaks).
std::string failure_of(const CountTally& t, std::size_t pixels, int max_iter, CheckMode mode) {
    if (t.never_written() > 0)
        return format("%zu of %zu pixels were never written (still 0xFFFFFFFF)", t.never_written(), pixels);
    if (t.above_max_iter() > 0)
        return format("%zu of %zu pixels have a count above max_iter = %d", t.above_max_iter(), pixels, max_iter);
    if (mode == CheckMode::Exact && t.differ() > 0)
        return format("%zu of %zu pixels differ from the CPU (this kernel must match it exactly)", t.differ(), pixels);
    if (mode == CheckMode::Tolerant && t.away_differ() > 0)
        return format(
            "%zu pixel(s) away from the boundary differ (every pixel within 2 of them has the same "
            "reference count); %zu of %zu differ in all",
            t.away_differ(), t.differ(), pixels);
    const std::size_t allowed = allowed_differences(pixels, mode);
    if (mode != CheckMode::Exact && t.differ() > allowed)
        return format(
            "%zu of %zu pixels differ: more than the %zu (%s + 2) that rounding may account for "
            "(%s check)",
            t.differ(), pixels, allowed, mode == CheckMode::Tolerant ? "5%" : "25%", to_string(mode));
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
    auto at = [width](const std::uint32_t* image, int x, int y) {
        return image[static_cast<std::size_t>(y) * width + x];
    };
    if (never_written == pixels)
        return format("no pixel was written: all %zu still hold 0xFFFFFFFF, the poison written before the run", pixels);
    if (never_written > 0) {  // exactly the last columns or rows unwritten: a grid that stops short
        const auto edges = unwritten_edges(width, height, [&](int x, int y) { return at(actual, x, y) == kPoison; });
        if (!edges) return "";
        const int cols = edges->cols, rows = edges->rows;
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
                const std::uint32_t e = at(expected, x, y);
                ++total;
                transposed += actual[static_cast<std::size_t>(x) * height + y] == e;
                straight += expected[static_cast<std::size_t>(x) * height + y] == e;
            }
        if (transposed * 10 >= total * 9 && straight * 10 < total * 9)
            return format(
                "the image is transposed: at %zu of %zu sampled pixels (px, py), index px * height + py "
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
        return format(
            "the counts are off by one: %zu of the %zu pixels that escape (reference count below max_iter "
            "= %d) hold the reference count %s 1",
            std::max(plus_one, minus_one), escaped, max_iter, plus_one >= minus_one ? "+" : "-");
    return "";
}

}  // namespace

// ---- The check ---------------------------------------------------------------------------------

const char* to_string(CheckMode mode) {
    static const char* const names[] = {"exact", "tolerant", "loose", "completeness"};
    return names[static_cast<int>(mode)];
}

CheckMode mode_for(bool pinned_arithmetic, const Preset* preset, Precision precision, int image_width) {
    if (pinned_arithmetic) return CheckMode::Exact;
    if (precision == Precision::Double) return CheckMode::Tolerant;
    if (preset == nullptr) return CheckMode::Loose;
    if (image_width <= preset->float_tolerant_width) return CheckMode::Tolerant;
    return preset->float_resolves ? CheckMode::Loose : CheckMode::Completeness;
}

std::size_t allowed_differences(std::size_t pixels, CheckMode mode) {
    if (mode == CheckMode::Exact) return 0;
    if (mode == CheckMode::Completeness) return pixels;
    const double fraction = mode == CheckMode::Tolerant ? kTolerantFraction : kLooseFraction;
    return static_cast<std::size_t>(fraction * static_cast<double>(pixels)) + kDifferingSlack;
}

CheckResult compare_counts(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                           int max_iter, CheckMode mode) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    const PixelRule verdict_of{expected, actual, width, height, max_iter, mode};
    CountTally tally;
    std::vector<Mismatch> any, away;
    for (std::size_t i = 0; i < pixels; ++i) {
        const unsigned verdict = verdict_of(i);
        if (verdict == 0) continue;
        tally.add(verdict);
        Mismatch m{i, pixel_label(expected[i], i, width), pixel_label(actual[i], i, width)};
        if ((verdict & kPixelDiffersAway) && away.size() < 5) away.push_back(m);
        if (any.size() < 5) any.push_back(m);
    }
    CheckResult r;
    r.checked = pixels;
    r.message = failure_of(tally, pixels, max_iter, mode);
    r.ok = r.message.empty();
    if (r.ok) return r;
    r.mismatches = tally.never_written() + tally.above_max_iter() + tally.differ();
    r.first = !away.empty() && tally.never_written() == 0 && tally.above_max_iter() == 0 ? away : any;
    r.hint = hint_for(expected, actual, width, height, max_iter, tally.never_written());
    return r;
}

CheckResult compare_counts_on_device(const std::uint32_t* expected, const std::uint32_t* actual, int width, int height,
                                     int max_iter, CheckMode mode) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    CountTally tally;
    tally.n = tally_on_device<4>(pixels, PixelRule{expected, actual, width, height, max_iter, mode});
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

GuardedBuffer<std::uint32_t> guarded_image(const View& v) {
    return GuardedBuffer<std::uint32_t>(static_cast<std::size_t>(v.image_width) * v.image_height, "counts",
                                        kGuardRows * static_cast<std::size_t>(v.image_width));
}

CheckResult check_image_guards(const GuardedBuffer<std::uint32_t>& counts, int width, int height) {
    return pmpp::check_image_guards(counts, "counts", width, height, kGuardRows * static_cast<std::size_t>(width));
}

std::vector<std::uint32_t> reference_counts(const View& view, Precision precision) {
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(view.image_width) * view.image_height);
    mandelbrot_cpu_omp(view, precision, counts.data());
    return counts;
}

CheckResult check_render(const Render& render, const View& view, Precision precision, CheckMode mode,
                         const std::vector<std::uint32_t>& expected) {
    GuardedBuffer<std::uint32_t> counts = guarded_image(view);
    counts.poison();
    render(view, precision, counts.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    const CheckResult guards = check_image_guards(counts, view.image_width, view.image_height);
    if (!guards.ok) return guards;
    const std::vector<std::uint32_t> actual = counts.to_host();
    return compare_counts(expected.data(), actual.data(), view.image_width, view.image_height, view.max_iter, mode);
}

}  // namespace mandelbrot
