// Exercise 08: the definitions (pixel mapping, escape time, palettes), the check's tolerance
// (it accepts FMA arithmetic and rejects each classic mistake), every variant against the CPU,
// the divergence counters, and the harness end to end.
#include "../harness/mandelbrot_color.h"
#include "../harness/mandelbrot_harness.h"
#include "wrong_mandelbrot.h"

#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/readme_hints.h"
#include "common/testing.h"
#include "common/timing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <unistd.h>

using namespace mandelbrot;
using pmpp::CheckResult;

namespace {

View view_at(const std::string& preset, int width, int height) {
    View v = find_preset(preset)->view;
    v.image_width = width;
    v.image_height = height;
    return v;
}

View point(double re, double im, int max_iter) {
    View v;
    v.name = "point";
    v.center_re = re;
    v.center_im = im;
    v.width = 1e-9;
    v.image_width = v.image_height = 1;
    v.max_iter = max_iter;
    return v;
}

std::vector<std::uint32_t> cpu_counts(const View& v, Precision p) {
    std::vector<std::uint32_t> c(static_cast<std::size_t>(v.image_width) * v.image_height, kPoison);
    mandelbrot_cpu(v, p, c.data());
    return c;
}

std::size_t count_differences(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::size_t d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
    return d;
}

// The escape time with a GPU's fused multiply-adds (and the mapping fused too): what a
// correct student kernel may compute. The check must accept it.
template <typename T>
std::vector<std::uint32_t> fused_counts(const View& v) {
    const Frame<T> f = make_frame<T>(v);
    std::vector<std::uint32_t> out(f.pixels());
    for (int py = 0; py < f.height; ++py)
        for (int px = 0; px < f.width; ++px) {
            const T cr = std::fma(static_cast<T>(px) + static_cast<T>(0.5), f.step, f.left);
            const T ci = std::fma(-(static_cast<T>(py) + static_cast<T>(0.5)), f.step, f.top);
            T zr = 0, zi = 0;
            int k = 0;
            while (k < f.max_iter && std::fma(zr, zr, zi * zi) <= static_cast<T>(4)) {
                const T t = std::fma(zr, zr, -(zi * zi)) + cr;
                zi = std::fma(static_cast<T>(2) * zr, zi, ci);
                zr = t;
                ++k;
            }
            out[static_cast<std::size_t>(py) * f.width + px] = static_cast<std::uint32_t>(k);
        }
    return out;
}

// The check cases of the given widths (every preset, both precisions).
std::vector<MandelbrotCase> cases_of_width(std::initializer_list<std::size_t> widths) {
    std::vector<MandelbrotCase> out;
    for (const MandelbrotCase& c : exercise().cases(pmpp::Options{}))
        if (std::find(widths.begin(), widths.end(), c.n) != widths.end() && c.spec.preset != nullptr) out.push_back(c);
    return out;
}

MandelbrotCase preset_case(const std::string& preset, Precision p, int width, int height) {
    const std::string label = preset + " " + to_string(p) + " " + std::to_string(width) + "x" + std::to_string(height);
    for (const MandelbrotCase& c : exercise().cases(pmpp::Options{}))
        if (exercise().label(c) == label) return c;
    throw std::logic_error("no check case " + label);
}

// The check of a kernel that is none of the variants (a wrong one) on one case.
CheckResult check_case(const Render& render, const MandelbrotCase& c, std::uint64_t seed) {
    return exercise().check_case(MandelbrotRow{"wrong", pmpp::ImplKind::Student, "", {render}}, c, seed);
}

// check_render against the CPU's counts of the view.
CheckResult check_render(const Render& render, const View& v, Precision p, CheckMode mode) {
    return mandelbrot::check_render(render, v, p, mode, reference_counts(v, p));
}

// The benchmark's row of a kernel on one view at width n, from a problem of its own.
pmpp::Measurement bench_view(const Render& render, bool pinned, const std::string& view, std::size_t n,
                             pmpp::BenchContext& ctx) {
    MandelbrotFn fn{render};
    fn.pinned = pinned;
    MandelbrotBench problem = make_bench(n, ctx);
    return bench_render(fn, problem, view, ctx);
}

}  // namespace

// ---- host: the view-to-pixel mapping ----------------------------------------------------------

TEST(PixelMapping, PutsTheSeedViewsPixelCentersHalfAPixelInsideItsCorners) {
    const Frame<double> f = make_frame<double>(find_preset("full")->view);
    const double half = 0.5 / 300;  // 3.0 / 900 / 2
    EXPECT_NEAR(f.re(0), -2.2 + half, 1e-12);
    EXPECT_NEAR(f.im(0), 1.0 - half, 1e-12);  // row 0 is the top
    EXPECT_NEAR(f.re(899), 0.8 - half, 1e-12);
    EXPECT_NEAR(f.im(599), -1.0 + half, 1e-12);
}

TEST(PixelMapping, PutsTheCenterOfAnOddImageOnTheViewsCenter) {
    View v = point(-0.5, 0.25, 10);
    v.width = 3.0;
    v.image_width = 3;
    v.image_height = 5;
    const Frame<double> f = make_frame<double>(v);
    EXPECT_NEAR(f.re(1), -0.5, 1e-15);
    EXPECT_NEAR(f.im(2), 0.25, 1e-15);
}

TEST(PixelMapping, KeepsPixelsSquareInNonSquareImages) {
    View v = point(0, 0, 10);
    v.width = 4.0;
    v.image_width = 4;
    v.image_height = 2;
    const Frame<float> f = make_frame<float>(v);
    EXPECT_EQ(f.step, 1.0f);
    EXPECT_EQ(f.re(0), -1.5f);
    EXPECT_EQ(f.re(3), 1.5f);
    EXPECT_EQ(f.im(0), 0.5f);
    EXPECT_EQ(f.im(1), -0.5f);
}

TEST(Presets, IncludeTheSeedsViewAndKeepTheirAspectAtAnyWidth) {
    const View& full = find_preset("full")->view;
    EXPECT_EQ(full.center_re - full.width / 2, -2.2);
    EXPECT_EQ(full.image_width, 900);
    EXPECT_EQ(full.image_height, 600);
    EXPECT_EQ(full.max_iter, 200);
    EXPECT_EQ(at_width(*find_preset("full"), 3840).image_height, 2560);
    EXPECT_EQ(at_width(*find_preset("deep"), 3840).image_height, 2160);
    EXPECT_EQ(at_width(*find_preset("inside"), 3840).image_height, 3840);
    std::set<std::string> names;
    for (const Preset& p : presets()) EXPECT_TRUE(names.insert(p.view.name).second) << p.view.name;
    for (const char* n : {"full", "full_4096", "seahorse", "elephant", "deep", "inside"})
        EXPECT_NE(find_preset(n), nullptr) << n;
}

// ---- host: the CPU reference on hand-checked points ----------------------------------------------

TEST(CpuReference, KeepsPointsOfTheSetForMaxIter) {
    for (Precision p : {Precision::Float, Precision::Double}) {
        EXPECT_EQ(cpu_counts(point(0, 0, 500), p)[0], 500u) << "0 is a fixed point";
        EXPECT_EQ(cpu_counts(point(-1, 0, 500), p)[0], 500u) << "-1: 0, -1, 0, -1, ...";
        EXPECT_EQ(cpu_counts(point(0, 1, 500), p)[0], 500u) << "i: 0, i, -1+i, -i, -1+i, ...";
        EXPECT_EQ(cpu_counts(point(-2, 0, 500), p)[0], 500u) << "-2: 0, -2, 2, 2, ... |z|^2 = 4 is not > 4";
    }
}

TEST(CpuReference, CountsTheStepsUntilTheOrbitLeavesTheDiscOfRadius2) {
    for (Precision p : {Precision::Float, Precision::Double}) {
        EXPECT_EQ(cpu_counts(point(2, 0, 500), p)[0], 2u) << "2: z_1 = 2 (|z|^2 = 4 stays), z_2 = 6 escapes";
        EXPECT_EQ(cpu_counts(point(-2.1, 0, 500), p)[0], 1u) << "|c| > 2 escapes at z_1 = c";
        EXPECT_EQ(cpu_counts(point(0.3, 0, 500), p)[0], 12u) << "0.3 lies just right of the cusp at 0.25";
        EXPECT_EQ(cpu_counts(point(0.3, 0, 7), p)[0], 7u) << "capped at max_iter";
        EXPECT_EQ(cpu_counts(point(0.3, 0, 0), p)[0], 0u);
    }
}

TEST(CpuReference, ThreadedAndSampledRowsGiveTheSameCounts) {
    for (const Preset& preset : presets())
        for (Precision p : {Precision::Float, Precision::Double}) {
            const View v = at_width(preset, 96);
            const std::vector<std::uint32_t> one = cpu_counts(v, p);
            std::vector<std::uint32_t> all(one.size(), kPoison), sampled(one.size(), kPoison);
            mandelbrot_cpu_omp(v, p, all.data());
            EXPECT_EQ(count_differences(one, all), 0u) << v.name << " " << to_string(p);
            mandelbrot_cpu_omp(v, p, sampled.data(), RowSample{0, 4});
            for (int y = 0; y < v.image_height; ++y)
                for (int x = 0; x < v.image_width; ++x) {
                    const std::size_t i = static_cast<std::size_t>(y) * v.image_width + x;
                    ASSERT_EQ(sampled[i], y % 4 == 0 ? one[i] : kPoison) << v.name << " x=" << x << " y=" << y;
                }
        }
}

TEST(CpuReference, ReportsTheMagnitudeWhereTheOrbitStopped) {
    const View v = at_width(*find_preset("full"), 64);
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(v.image_width) * v.image_height);
    std::vector<double> m2(counts.size());
    escape_values_cpu(v, counts.data(), m2.data());
    EXPECT_EQ(count_differences(counts, cpu_counts(v, Precision::Double)), 0u);
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (static_cast<int>(counts[i]) < v.max_iter)
            EXPECT_GT(m2[i], 4.0) << i;
        else
            EXPECT_LE(m2[i], 4.0) << i;
}

TEST(Precision, FloatFailsVisiblyOnTheDeepZoomWhereDoubleDoesNot) {
    const View v = at_width(*find_preset("deep"), 192);
    // The pixels are closer than a float can tell apart: a row of 192 pixels has fewer distinct c.
    const Frame<float> f = make_frame<float>(v);
    std::set<float> distinct;
    for (int px = 0; px < v.image_width; ++px) distinct.insert(f.re(px));
    EXPECT_LT(distinct.size(), static_cast<std::size_t>(v.image_width));
    // Counts: float disagrees with double on most pixels; double agrees with extended precision.
    const std::size_t n = static_cast<std::size_t>(v.image_width) * v.image_height;
    std::vector<std::uint32_t> flt(n), dbl(n), ext(n);
    std::vector<float> mf(n);
    std::vector<double> md(n);
    std::vector<long double> ml(n);
    escape_values_cpu(v, flt.data(), mf.data());
    escape_values_cpu(v, dbl.data(), md.data());
    escape_values_cpu(v, ext.data(), ml.data());
    EXPECT_GT(count_differences(flt, dbl), n / 4) << "float should fail on the deep zoom";
    EXPECT_LT(count_differences(dbl, ext), n / 50) << "double should hold";
    const CheckResult r =
        compare_counts(ext.data(), dbl.data(), v.image_width, v.image_height, v.max_iter, CheckMode::Tolerant);
    EXPECT_TRUE(r.ok) << r.report();
}

// ---- host: palettes and pictures ---------------------------------------------------------------

TEST(Palettes, PaintTheInsideOfTheSetBlack) {
    const std::uint32_t counts[4] = {1, 50, 100, 100};
    const float m2[4] = {5, 5, 1, 1};
    for (Palette p : all_palettes()) {
        if (p == Palette::Seed) continue;  // the seed's palette has no special case for the set
        const pmpp::Image bands = color_bands(counts, 4, 1, 100, p);
        const pmpp::Image smooth = color_smooth(counts, m2, 4, 1, 100, p);
        for (int x = 2; x < 4; ++x)
            for (int ch = 0; ch < 3; ++ch) {
                EXPECT_EQ(bands.at(x, 0)[ch], 0) << to_string(p);
                EXPECT_EQ(smooth.at(x, 0)[ch], 0) << to_string(p);
            }
    }
}

TEST(Palettes, ReproduceTheSeedsColorsAndWrapTheCyclicOne) {
    EXPECT_EQ(palette_color(Palette::Seed, 0.0), (Rgb{0, 0, 128}));
    EXPECT_EQ(palette_color(Palette::Seed, 1.0), (Rgb{255, 127, 1}));
    EXPECT_EQ(palette_color(Palette::Ocean, 0.3), palette_color(Palette::Ocean, 1.3));
    EXPECT_EQ(palette_color(Palette::Fire, 0.0), (Rgb{0, 0, 0}));
    EXPECT_EQ(palette_color(Palette::Fire, 1.0), (Rgb{255, 255, 255}));
    EXPECT_EQ(palette_color(Palette::Gray, 0.5), (Rgb{128, 128, 128}));
    Palette parsed;
    for (Palette p : all_palettes()) {
        ASSERT_TRUE(parse_palette(to_string(p), parsed));
        EXPECT_EQ(parsed, p);
    }
    EXPECT_FALSE(parse_palette("rainbow", parsed));
}

TEST(Palettes, SmoothValueIsContinuousWhereTheCountStepsByOne) {
    // An orbit that leaves at |z_n| = 2 exactly is the limit of one that stays at step n and
    // leaves at n + 1 with |z_{n+1}| = 4: both sides give the same value.
    for (std::uint32_t n : {1u, 10u, 100u})
        EXPECT_NEAR(smooth_value(n, 4.0f, 1000), smooth_value(n + 1, 16.0f, 1000), 1e-6);
    EXPECT_LT(smooth_value(10, 1000.0f, 1000), smooth_value(10, 5.0f, 1000));
    EXPECT_LT(smooth_value(1000, 1.0f, 1000), 0.0);
}

TEST(Pictures, ShowCostlierWarpsBrighterAndIdleLanesRed) {
    const std::uint32_t trips[3] = {1, 30, 1000};
    const pmpp::Image cost = color_warp_cost(trips, 3, 1, 1000);
    auto brightness = [&](int x) { return cost.at(x, 0)[0] + cost.at(x, 0)[1] + cost.at(x, 0)[2]; };
    EXPECT_LT(brightness(0), brightness(1));
    EXPECT_LT(brightness(1), brightness(2));
    const float eff[2] = {0.0f, 1.0f};
    const pmpp::Image e = color_warp_efficiency(eff, 2, 1);
    EXPECT_GT(e.at(0, 0)[0], e.at(0, 0)[1]);  // red
    EXPECT_GT(e.at(1, 0)[1], e.at(1, 0)[0]);  // green
}

// ---- host: the check itself ---------------------------------------------------------------------

namespace {
// A 13x9 reference: count 5 left of column 6, count 9 from it on (the boundary runs between).
constexpr int kRegionsWidth = 13, kRegionsHeight = 9;
std::vector<std::uint32_t> two_regions() {
    std::vector<std::uint32_t> r(kRegionsWidth * kRegionsHeight);
    for (int y = 0; y < kRegionsHeight; ++y)
        for (int x = 0; x < kRegionsWidth; ++x) r[static_cast<std::size_t>(y) * kRegionsWidth + x] = x < 6 ? 5 : 9;
    return r;
}
}  // namespace

TEST(Check, DefinesAwayFromTheBoundaryAsTwoPixelsFromAnyOtherCount) {
    const std::vector<std::uint32_t> r = two_regions();
    const auto away = [&](int x, int y) { return away_from_boundary(r.data(), kRegionsWidth, kRegionsHeight, x, y); };
    EXPECT_TRUE(away(3, 4));
    EXPECT_FALSE(away(4, 4)) << "a pixel two to its right has 9";
    EXPECT_FALSE(away(5, 4)) << "its right neighbours have 9";
    EXPECT_FALSE(away(6, 4)) << "its left neighbours have 5";
    EXPECT_FALSE(away(7, 4)) << "a pixel two to its left has 5";
    EXPECT_TRUE(away(8, 4));
    EXPECT_FALSE(away(0, 4)) << "the image's edge counts as boundary";
    EXPECT_FALSE(away(1, 4)) << "so does a pixel whose 5x5 square leaves the image";
    EXPECT_FALSE(away(8, 7)) << "so does a pixel whose 5x5 square leaves the image";
    EXPECT_EQ(kBoundaryRadius, 2);
}

TEST(Check, ToleratesADifferenceAtTheBoundaryButNotAwayFromIt) {
    const std::vector<std::uint32_t> r = two_regions();
    std::vector<std::uint32_t> a = r;
    a[4 * kRegionsWidth + 6] = 7;  // at the boundary
    EXPECT_TRUE(compare_counts(r.data(), a.data(), kRegionsWidth, kRegionsHeight, 100, CheckMode::Tolerant).ok);
    EXPECT_FALSE(compare_counts(r.data(), a.data(), kRegionsWidth, kRegionsHeight, 100, CheckMode::Exact).ok);
    a = r;
    a[4 * kRegionsWidth + 8] = 10;  // away from it
    const CheckResult bad = compare_counts(r.data(), a.data(), kRegionsWidth, kRegionsHeight, 100, CheckMode::Tolerant);
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("away from the boundary"), std::string::npos) << bad.report();
    EXPECT_EQ(bad.first.at(0).index, 4u * kRegionsWidth + 8);
}

TEST(Check, RejectsMoreBoundaryDifferencesThanRoundingExplains) {
    // A checkerboard is all boundary: only the cap on the number of differences applies.
    const int w = 100, h = 100;
    std::vector<std::uint32_t> r(w * h), a;
    for (int i = 0; i < w * h; ++i) r[i] = ((i % w) + (i / w)) % 2 ? 3u : 4u;
    a = r;
    const std::size_t allowed = allowed_differences(r.size(), CheckMode::Tolerant);
    EXPECT_EQ(allowed, 502u);  // 5% of 10000, plus 2
    for (std::size_t i = 0; i < allowed; ++i) a[i * 3] += 10;
    EXPECT_TRUE(compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Tolerant).ok);
    a[allowed * 3] += 10;
    EXPECT_FALSE(compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Tolerant).ok);
    EXPECT_TRUE(compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Loose).ok);
    EXPECT_TRUE(compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Completeness).ok);
}

TEST(Check, FindsUnwrittenPixelsAndCountsAboveMaxIterInEveryMode) {
    const std::vector<std::uint32_t> r = two_regions();
    for (CheckMode mode : {CheckMode::Exact, CheckMode::Tolerant, CheckMode::Loose, CheckMode::Completeness}) {
        std::vector<std::uint32_t> a = r;
        a[10] = kPoison;
        const CheckResult never = compare_counts(r.data(), a.data(), kRegionsWidth, kRegionsHeight, 100, mode);
        ASSERT_FALSE(never.ok) << to_string(mode);
        EXPECT_NE(never.message.find("never written"), std::string::npos) << never.report();
        a = r;
        a[10] = 101;
        EXPECT_FALSE(compare_counts(r.data(), a.data(), kRegionsWidth, kRegionsHeight, 100, mode).ok)
            << to_string(mode);
    }
    std::vector<std::uint32_t> shifted = r;
    for (auto& v : shifted) v += 1;
    EXPECT_TRUE(
        compare_counts(r.data(), shifted.data(), kRegionsWidth, kRegionsHeight, 100, CheckMode::Completeness).ok);
}

TEST(Check, SaysWhatThePatternOfAWrongImageShows) {
    const std::vector<std::uint32_t> r = two_regions();
    const int w = kRegionsWidth, h = kRegionsHeight;
    auto hint = [&](const std::vector<std::uint32_t>& a) {
        const CheckResult c = compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Tolerant);
        EXPECT_FALSE(c.ok);
        return c.hint;
    };
    std::vector<std::uint32_t> a(r.size(), kPoison);
    EXPECT_EQ(hint(a), "no pixel was written: all 117 still hold 0xFFFFFFFF, the poison written before the run");
    a = r;
    for (int y = 0; y < h; ++y) a[static_cast<std::size_t>(y) * w + w - 1] = kPoison;  // the last column
    EXPECT_EQ(hint(a),
              "the pixels never written are exactly the last 1 column (x >= 12); every other pixel was written");
    for (int x = 0; x < w; ++x)
        a[static_cast<std::size_t>(h - 1) * w + x] = a[static_cast<std::size_t>(h - 2) * w + x] = kPoison;
    EXPECT_EQ(hint(a),
              "the pixels never written are exactly the last 1 column (x >= 12) and the last 2 rows (y >= 7); every "
              "other pixel was written");
    a = r;
    a[40] = kPoison;  // one pixel inside the image: no pattern
    EXPECT_EQ(hint(a), "");
    a = r;
    for (auto& v : a) v += 1;
    EXPECT_EQ(hint(a),
              "the counts are off by one: 117 of the 117 pixels that escape (reference count below max_iter = 100) "
              "hold the reference count + 1");
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) a[static_cast<std::size_t>(x) * h + y] = r[static_cast<std::size_t>(y) * w + x];
    EXPECT_NE(
        hint(a).find("the image is transposed: at 117 of 117 sampled pixels (px, py), index px * height + py holds"),
        std::string::npos)
        << hint(a);
}

TEST(Check, NamesNoPatternForScatteredWrongCountsInAnImageOfOneCount) {
    // Every pixel of the reference is 7: its transposed image is itself, so only the off-by-one
    // count (every pixel + 1 or more) may be named; scattered wrong counts get no hint.
    const int w = 20, h = 10;
    const std::vector<std::uint32_t> r(w * h, 7);
    std::vector<std::uint32_t> a = r;
    for (std::size_t i = 0; i < a.size(); i += 3) a[i] = 7 + 1 + static_cast<std::uint32_t>(i % 5);
    const CheckResult c = compare_counts(r.data(), a.data(), w, h, 100, CheckMode::Tolerant);
    ASSERT_FALSE(c.ok);
    EXPECT_EQ(c.hint, "") << c.report();
}

TEST(Check, AcceptsFusedMultiplyAddArithmeticOnEveryCase) {
    // The tolerance is there for exactly this: a correct kernel whose compiler fused the
    // arithmetic. On every preset, in both precisions, at the check's shapes up to 257 pixels
    // wide (NOTES.md has the larger ones), the mode the check picks must pass it. (The inside
    // view, all max_iter and no boundary, only up to 33: it is the costliest to emulate.)
    for (const Preset& preset : presets())
        for (Precision p : {Precision::Float, Precision::Double})
            for (const Shape& s : check_shapes()) {
                if (s.width > (preset.view.name == "inside" ? 33 : 257) || s.width == 32 || s.width == 255 ||
                    s.width == 256)
                    continue;  // (the same as their neighbours, for this purpose)
                View v = preset.view;
                v.image_width = s.width;
                v.image_height = s.height;
                const CheckMode mode = mode_for(false, &preset, p, s.width);
                const std::vector<std::uint32_t> fused =
                    p == Precision::Float ? fused_counts<float>(v) : fused_counts<double>(v);
                const CheckResult r = compare_counts(reference_counts(v, p).data(), fused.data(), v.image_width,
                                                     v.image_height, v.max_iter, mode);
                EXPECT_TRUE(r.ok) << v.name << " " << to_string(p) << " " << s.width << "x" << s.height << " ("
                                  << to_string(mode) << "): " << r.report();
            }
}

TEST(Check, HoldsFloatToTheToleranceOnlyWhereItReproducesTheView) {
    EXPECT_EQ(mode_for(true, find_preset("deep"), Precision::Float, 1920), CheckMode::Exact);
    EXPECT_EQ(mode_for(false, find_preset("deep"), Precision::Double, 1920), CheckMode::Tolerant);
    EXPECT_EQ(mode_for(false, find_preset("deep"), Precision::Float, 17), CheckMode::Completeness);
    EXPECT_EQ(mode_for(false, find_preset("full"), Precision::Float, 1920), CheckMode::Tolerant);
    EXPECT_EQ(mode_for(false, find_preset("full"), Precision::Float, 3840), CheckMode::Loose);
    EXPECT_EQ(mode_for(false, find_preset("seahorse"), Precision::Float, 17), CheckMode::Loose);
    EXPECT_EQ(mode_for(false, find_preset("inside"), Precision::Float, 3840), CheckMode::Tolerant);
    EXPECT_EQ(mode_for(false, nullptr, Precision::Double, 320), CheckMode::Tolerant);
}

TEST(Cases, CoverEveryPresetInBothPrecisionsAtTheEdgeShapesAndRandomViews) {
    const auto cases = exercise().cases(pmpp::Options{});
    std::set<std::string> labels;
    for (const MandelbrotCase& c : cases)
        EXPECT_TRUE(labels.insert(exercise().label(c)).second) << "duplicate " << exercise().label(c);
    for (const Preset& preset : presets())
        for (const char* p : {"float", "double"})
            for (const char* shape :
                 {"0x0", "1x1", "17x13", "31x33", "32x32", "33x31", "255x143", "256x144", "257x145", "1920x1080"})
                EXPECT_TRUE(labels.count(preset.view.name + " " + p + " " + shape))
                    << preset.view.name << " " << p << " " << shape;
    EXPECT_TRUE(labels.count("full float 900x600"));
    std::size_t random = 0;
    for (const MandelbrotCase& c : cases) random += exercise().label(c).rfind("random view", 0) == 0;
    EXPECT_GE(random, 6u);
}

TEST(Cases, CheckAWidthGivenWithSizeInEveryViewAtItsAspect) {
    pmpp::Options opts;
    opts.size = 100;
    std::set<std::string> labels;
    for (const MandelbrotCase& c : exercise().cases(opts)) {
        if (c.n != 100) continue;
        const std::string label = exercise().label(c);
        labels.insert(label);
        const CaseView cv = case_view(c, 1);
        EXPECT_EQ(cv.view.image_width, 100) << label;
        ASSERT_NE(cv.preset, nullptr) << label;
        EXPECT_EQ(cv.view.image_height, at_width(*cv.preset, 100).image_height) << label;
    }
    for (const char* l : {"full float 100x67", "full double 100x67", "deep double 100x56", "inside float 100x100"})
        EXPECT_TRUE(labels.count(l)) << l;
    EXPECT_EQ(labels.size(), 2 * presets().size());
    // The default case (what the runner's resize keeps of a case's spec) is the full view at its
    // width, in float.
    MandelbrotCase plain;
    plain.n = 100;
    const CaseView fallback = case_view(plain, 1);
    EXPECT_EQ(fallback.view.name, "full");
    EXPECT_EQ(fallback.view.image_width, 100);
    EXPECT_EQ(fallback.precision, Precision::Float);
}

// ---- device: every variant against the CPU ---------------------------------------------------------

class Variant : public ::testing::TestWithParam<std::string> {};

TEST_P(Variant, MatchesTheCpuOnEveryPresetAt1x1And17x13And1920x1080) {
    PMPP_REQUIRE_GPU();
    for (const MandelbrotCase& c : cases_of_width({1, 17, 1920})) {
        const CheckResult r = exercise().check_case(GetParam(), c, pmpp::testing::test_seed());
        EXPECT_TRUE(r.ok) << GetParam() << " on " << exercise().label(c) << ": " << r.report();
    }
}

TEST_P(Variant, MatchesTheCpuOnRandomViews) {
    PMPP_REQUIRE_GPU();
    std::uint64_t stream = 0;
    for (const MandelbrotCase& c : exercise().cases(pmpp::Options{})) {
        if (c.spec.preset != nullptr) continue;
        const CheckResult r = exercise().check_case(GetParam(), c, pmpp::testing::test_seed(++stream));
        EXPECT_TRUE(r.ok) << GetParam() << " on " << exercise().label(c) << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllReferences, Variant,
                         ::testing::Values("pinned", "seed", "refill", "unrolled", "shortcuts", "border", "student"),
                         [](const auto& info) {
                             return info.param == "student" ? std::string("solution") : info.param;
                         });

TEST(Pinned, MatchesTheCpuExactlyEvenWhereFloatFails) {
    PMPP_REQUIRE_GPU();
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CheckResult r = check_render(mandelbrot_pinned, view_at("deep", 1920, 1080), p, CheckMode::Exact);
        EXPECT_TRUE(r.ok) << to_string(p) << ": " << r.report();
    }
}

TEST(WorkQueue, IsReadyForTheNextLaunchAfterEachOne) {
    PMPP_REQUIRE_GPU();
    // The queue kernels leave their counter at zero for the next launch: alternate views and
    // kernels, each result must still be right.
    const View views[] = {view_at("full", 257, 145), view_at("seahorse", 33, 31), view_at("full", 257, 145),
                          view_at("inside", 1, 1), view_at("elephant", 320, 180)};
    for (const char* name : {"refill", "unrolled", "shortcuts"})
        for (const View& v : views) {
            const CheckResult r =
                check_render(exercise().variant(name).fn.render, v, Precision::Double, CheckMode::Tolerant);
            EXPECT_TRUE(r.ok) << name << " " << v.name << ": " << r.report();
        }
}

// ---- device: the check rejects each classic mistake ------------------------------------------------

TEST(CheckRejects, AKernelWithXAndYSwapped) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong::swaps_x_and_y, preset_case("full", Precision::Float, 17, 13), 1);
    EXPECT_FALSE(r.ok);
    const CheckResult big = check_case(wrong::swaps_x_and_y, preset_case("full", Precision::Float, 1920, 1080), 1);
    ASSERT_FALSE(big.ok);
}

TEST(CheckRejects, ACountOffByOne) {
    PMPP_REQUIRE_GPU();
    for (auto [w, h] : {std::pair{17, 13}, std::pair{1920, 1080}}) {
        const CheckResult r = check_case(wrong::counts_one_too_many, preset_case("full", Precision::Float, w, h), 1);
        ASSERT_FALSE(r.ok) << w << "x" << h;
    }
    const CheckResult r =
        check_case(wrong::counts_one_too_many, preset_case("seahorse", Precision::Double, 1920, 1080), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("off by one"), std::string::npos) << r.report();
}

TEST(CheckRejects, AKernelWithoutBoundsCheckOnASizeThatIsNotAMultipleOfTheBlock) {
    PMPP_REQUIRE_GPU();
    for (auto [w, h] : {std::pair{17, 13}, std::pair{1920, 1080}, std::pair{33, 31}}) {
        const CheckResult r = check_case(wrong::has_no_bounds_check, preset_case("full", Precision::Float, w, h), 1);
        ASSERT_FALSE(r.ok) << w << "x" << h;
        EXPECT_NE(r.message.find("past the end of counts"), std::string::npos) << r.report();
    }
    // 17x13 in blocks of 16x16: threads up to (31, 15) write index 15 * 17 + 31 = 286, which is
    // pixel (14, 16) of the rows continued below the image.
    const CheckResult small = check_case(wrong::has_no_bounds_check, preset_case("full", Precision::Float, 17, 13), 1);
    EXPECT_NE(small.hint.find("counts is 17 x 13 pixels: the farthest write past the end, index 286, is pixel (x = 14, "
                              "y = 16) of rows continued below the last one (y = 12)"),
              std::string::npos)
        << small.report();
    // ...and the same kernel passes on a multiple of the block: the case list needs the others.
    const CheckResult fits = check_case(wrong::has_no_bounds_check, preset_case("full", Precision::Float, 32, 32), 1);
    EXPECT_TRUE(fits.ok) << fits.report();
}

TEST(CheckRejects, TheClassicIndexBoundIOrEqualNThatWritesOneElementPastTheEnd) {
    PMPP_REQUIRE_GPU();
    // 17x13 = 221 pixels is not a multiple of the 256-thread block; 32x32 and 1920x1080 are.
    for (auto [w, h] : {std::pair{17, 13}, std::pair{32, 32}, std::pair{1920, 1080}}) {
        const CheckResult r =
            check_case(wrong::writes_one_past_the_end, preset_case("full", Precision::Float, w, h), 1);
        ASSERT_FALSE(r.ok) << w << "x" << h;
        const std::string pixels = std::to_string(w * h);
        EXPECT_NE(r.message.find("wrote 1 element past the end of counts (index " + pixels + "; it has " + pixels +
                                 " elements)"),
                  std::string::npos)
            << r.report();
    }
}

TEST(CheckRejects, RowsFilledBottomUpThatWriteBeforeTheStart) {
    PMPP_REQUIRE_GPU();
    // 13 rows in a 16-row block: 3 thread rows past the image, image rows -1 to -3 (17 pixels each).
    const CheckResult r = check_case(wrong::fills_rows_bottom_up, preset_case("full", Precision::Float, 17, 13), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("wrote 51 elements before the start of counts (index -51 to -1)"), std::string::npos)
        << r.report();
    EXPECT_NE(
        r.hint.find("the farthest write before the start, index -51, is pixel (x = 0, y = -3) of rows continued above"),
        std::string::npos)
        << r.report();
    const CheckResult tall = check_case(wrong::fills_rows_bottom_up, preset_case("full", Precision::Double, 33, 31), 1);
    ASSERT_FALSE(tall.ok);
    EXPECT_NE(tall.message.find("before the start of counts"), std::string::npos) << tall.report();
    // The image itself is right: on a height that is a multiple of the block nothing is wrong.
    const CheckResult fits = check_case(wrong::fills_rows_bottom_up, preset_case("full", Precision::Float, 32, 32), 1);
    EXPECT_TRUE(fits.ok) << fits.report();
}

TEST(CheckRejects, FloatWhereDoubleWasAskedFor) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong::always_uses_float, preset_case("deep", Precision::Double, 1920, 1080), 1);
    EXPECT_FALSE(r.ok);
}

TEST(CheckRejects, AnOutputNeverWritten) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong::never_launches, preset_case("full", Precision::Float, 17, 13), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("no pixel was written: all 221 still hold 0xFFFFFFFF"), std::string::npos) << r.report();
}

// ---- README hints: each one is what the check prints for its mistake -----------------------

namespace {

struct HintedMistake {
    std::string symptom;  // as README.md's "## Hints" quotes it
    std::string mistake;  // the wrong kernel, for the failure message
    Render render;
};

// One wrong kernel per hint of README.md, with the symptom the hint quotes.
const std::vector<HintedMistake>& hinted_mistakes() {
    static const std::vector<HintedMistake> table = {
        {"no pixel was written", "never_launches", wrong::never_launches},
        {"the pixels never written are exactly the last", "rounds_the_grid_down", wrong::rounds_the_grid_down},
        {"wrote 1 element past the end of counts", "writes_one_past_the_end", wrong::writes_one_past_the_end},
        {"elements past the end of counts", "has_no_bounds_check", wrong::has_no_bounds_check},
        {"before the start of counts", "fills_rows_bottom_up", wrong::fills_rows_bottom_up},
        {"the counts are off by one", "counts_one_too_many", wrong::counts_one_too_many},
        {"the image is transposed", "swaps_x_and_y", wrong::swaps_x_and_y},
        {"pixel(s) away from the boundary differ", "drops_the_2_of_2_zr_zi", wrong::drops_the_2_of_2_zr_zi},
    };
    return table;
}

// What `make run` prints about `render` over the preset cases up to 257 pixels wide (every
// shape but 900x600 and 1920x1080, every preset, both precisions).
std::string check_output_of(const Render& render) {
    std::vector<MandelbrotCase> cases;
    for (const MandelbrotCase& c : exercise().cases(pmpp::Options{}))
        if (c.n <= 257 && c.spec.preset != nullptr) cases.push_back(c);
    const std::uint64_t seed = pmpp::testing::test_seed();
    return pmpp::check_output(exercise(), cases, [&](const MandelbrotCase& c) {
        return check_case(render, c, pmpp::case_seed(seed, exercise().untyped(c)));
    });
}

}  // namespace

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    for (const HintedMistake& h : hinted_mistakes()) {
        const std::string output = check_output_of(h.render);
        EXPECT_TRUE(pmpp::shows_symptom(output, h.symptom))
            << "\"" << h.symptom << "\" is not what the check prints for " << h.mistake << ":\n"
            << output;
    }
}

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hinted_mistakes());
}

TEST(ReadmeHints, AWrongIterationThatFitsNoPatternGetsNoHint) {
    PMPP_REQUIRE_GPU();
    // Without the 2 of 2 zr zi the map is another one: counts differ all over, by varying
    // amounts, in place. Neither off by one nor transposed nor unwritten.
    const CheckResult r =
        check_case(wrong::drops_the_2_of_2_zr_zi, preset_case("full", Precision::Double, 257, 145), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("away from the boundary differ"), std::string::npos) << r.report();
    EXPECT_EQ(r.hint, "") << r.report();
}

// ---- device: the benchmark's check of every run ------------------------------------------------

namespace {

// Runs compare_counts and compare_counts_on_device on the same images in every mode: the two must
// give the same verdict and the same message. Counts each mode's passes and failures in `seen`.
struct Verdicts {
    std::map<CheckMode, int> passed, failed;
};

void expect_same_verdict(const std::string& label, const std::vector<std::uint32_t>& expected,
                         const std::vector<std::uint32_t>& actual, int width, int height, int max_iter,
                         Verdicts& seen) {
    pmpp::DeviceBuffer<std::uint32_t> e, a;
    e.upload(expected);
    a.upload(actual);
    for (CheckMode mode : {CheckMode::Exact, CheckMode::Tolerant, CheckMode::Loose, CheckMode::Completeness}) {
        const CheckResult host = compare_counts(expected.data(), actual.data(), width, height, max_iter, mode);
        const CheckResult device = compare_counts_on_device(e.data(), a.data(), width, height, max_iter, mode);
        EXPECT_EQ(host.ok, device.ok) << label << " (" << to_string(mode) << "): host " << host.report() << "; device "
                                      << device.report();
        EXPECT_EQ(host.message, device.message) << label << " (" << to_string(mode) << ")";
        ++(host.ok ? seen.passed : seen.failed)[mode];
    }
}

// What the benchmark hands bench_render (pmpp::testing::BenchFixture): 2 warm-ups, 3 timed runs.
const pmpp::TimingOptions kBenchTiming{2, 3, true};

}  // namespace

TEST(DeviceCheck, GivesTheHostChecksVerdictOnCraftedImagesInEveryMode) {
    PMPP_REQUIRE_GPU();
    Verdicts seen;
    const std::vector<std::uint32_t> r = two_regions();
    auto changed = [&](std::vector<std::pair<int, std::uint32_t>> pixels) {
        std::vector<std::uint32_t> a = r;
        for (auto [i, v] : pixels) a[static_cast<std::size_t>(i)] = v;
        return a;
    };
    const int w = kRegionsWidth, h = kRegionsHeight;
    expect_same_verdict("identical", r, r, w, h, 100, seen);
    expect_same_verdict("at the boundary", r, changed({{4 * w + 6, 7}}), w, h, 100, seen);
    expect_same_verdict("away from it", r, changed({{4 * w + 8, 10}}), w, h, 100, seen);
    expect_same_verdict("on the image's edge", r, changed({{4 * w + 0, 6}, {4 * w + 12, 8}}), w, h, 100, seen);
    expect_same_verdict("one pixel in from the edge", r, changed({{1 * w + 3, 6}}), w, h, 100, seen);
    expect_same_verdict("never written", r, changed({{10, kPoison}}), w, h, 100, seen);
    expect_same_verdict("above max_iter", r, changed({{10, 101}}), w, h, 100, seen);
    expect_same_verdict("max_iter itself", r, changed({{4 * w + 6, 100}}), w, h, 100, seen);
    std::vector<std::uint32_t> shifted = r;
    for (auto& v : shifted) v += 1;
    expect_same_verdict("shifted by one", r, shifted, w, h, 100, seen);
    expect_same_verdict("empty", {}, {}, 0, 0, 100, seen);
    expect_same_verdict("one pixel, wrong", {3}, {4}, 1, 1, 100, seen);
    // All boundary: only the cap on the number of differences decides, on both sides of it.
    const int cw = 100, ch = 100;
    std::vector<std::uint32_t> board(cw * ch);
    for (int i = 0; i < cw * ch; ++i) board[i] = ((i % cw) + (i / cw)) % 2 ? 3u : 4u;
    for (std::size_t extra : {0, 1}) {
        std::vector<std::uint32_t> a = board;
        const std::size_t differing = allowed_differences(board.size(), CheckMode::Tolerant) + extra;
        for (std::size_t i = 0; i < differing; ++i) a[i * 3] += 10;
        expect_same_verdict("checkerboard, " + std::to_string(differing) + " differ", board, a, cw, ch, 100, seen);
    }
    // An HD image of bands, larger than the device check's grid (common/device_tally.cuh: at most
    // 8 blocks of 256 threads per SM, 270K threads on an H200): the differences lie past its first
    // stride, one at a band's edge, one inside a band.
    const int bw = 1920, bh = 1080;
    std::vector<std::uint32_t> bands(static_cast<std::size_t>(bw) * bh);
    for (int y = 0; y < bh; ++y)
        for (int x = 0; x < bw; ++x)
            bands[static_cast<std::size_t>(y) * bw + x] = static_cast<std::uint32_t>((x / 37 + y / 23) % 7);
    std::vector<std::uint32_t> edge = bands, inside = bands;
    edge[static_cast<std::size_t>(1000) * bw + 37 * 20] += 1;  // x = 740: the first column of a band
    inside[static_cast<std::size_t>(1000) * bw + 37 * 20 + 18] += 1;  // the middle of that band
    expect_same_verdict("bands", bands, bands, bw, bh, 10, seen);
    expect_same_verdict("bands, a band's edge", bands, edge, bw, bh, 10, seen);
    expect_same_verdict("bands, inside a band", bands, inside, bw, bh, 10, seen);
    // Every mode both accepted and rejected something: the comparison above is not vacuous.
    for (CheckMode mode : {CheckMode::Exact, CheckMode::Tolerant, CheckMode::Loose, CheckMode::Completeness}) {
        EXPECT_GT(seen.passed[mode], 0) << to_string(mode);
        EXPECT_GT(seen.failed[mode], 0) << to_string(mode);
    }
}

TEST(DeviceCheck, GivesTheHostChecksVerdictOnFusedArithmeticAgainstTheCpu) {
    PMPP_REQUIRE_GPU();
    Verdicts seen;
    for (const char* name : {"full", "seahorse", "deep"})
        for (Precision p : {Precision::Float, Precision::Double}) {
            const View v = view_at(name, 257, 145);
            const std::vector<std::uint32_t> fused =
                p == Precision::Float ? fused_counts<float>(v) : fused_counts<double>(v);
            expect_same_verdict(std::string(name) + " " + to_string(p), reference_counts(v, p), fused, v.image_width,
                                v.image_height, v.max_iter, seen);
        }
}

TEST(BenchmarkRejects, AKernelThatReturnsAtOnceWhenItSeesTheSameArgumentsAgain) {
    PMPP_REQUIRE_GPU();
    wrong::forget_remembered_calls();
    // The check calls it once per case: there it is right.
    const CheckResult checked =
        check_case(wrong::remembers_its_last_call, preset_case("full", Precision::Float, 257, 145), 1);
    EXPECT_TRUE(checked.ok) << checked.report();
    pmpp::testing::BenchFixture bench(kBenchTiming);
    const pmpp::Measurement warm = bench_view(wrong::remembers_its_last_call, false, "full", 256, bench.ctx);
    EXPECT_FALSE(warm.correct);
    EXPECT_NE(warm.check_message.find("warm-up run 2 of 2: 43776 of 43776 pixels were never written"),
              std::string::npos)
        << warm.check_message;
    wrong::forget_remembered_calls();
    bench.ctx.timing.warmup = 0;
    const pmpp::Measurement timed = bench_view(wrong::remembers_its_last_call, false, "full", 256, bench.ctx);
    EXPECT_FALSE(timed.correct);
    EXPECT_NE(timed.check_message.find("timed run 2 of 3: "), std::string::npos) << timed.check_message;
    // The same benchmark passes the kernel it copies, run after run.
    const pmpp::Measurement seed = bench_view(mandelbrot_seed, false, "full", 256, bench.ctx);
    EXPECT_TRUE(seed.correct) << seed.check_message;
    EXPECT_EQ(seed.ms.count, 3u);
}

TEST(BenchmarkRejects, AWriteOutsideTheImageAtItsFirstRun) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::BenchFixture bench(kBenchTiming);
    // full at 256 wide is 256x171 = 43776 pixels, a multiple of the flat kernel's 256-thread block.
    const pmpp::Measurement past = bench_view(wrong::writes_one_past_the_end, false, "full", 256, bench.ctx);
    EXPECT_FALSE(past.correct);
    EXPECT_NE(past.check_message.find("warm-up run 1 of 2: wrote 1 element past the end of counts"), std::string::npos)
        << past.check_message;
    // full at 64 wide is 64x43: the last block row has 5 thread rows past the image, which this
    // kernel turns into image rows -1 to -5 (320 elements, inside the guard zone).
    const pmpp::Measurement before = bench_view(wrong::fills_rows_bottom_up, false, "full", 64, bench.ctx);
    EXPECT_FALSE(before.correct);
    EXPECT_NE(before.check_message.find("warm-up run 1 of 2: wrote 320 elements before the start of counts"),
              std::string::npos)
        << before.check_message;
}

TEST(BenchmarkRejects, CountsTheCheckRejectsByTheSameRule) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::BenchFixture bench(kBenchTiming);
    bench.ctx.timing.warmup = 0;
    // Off by one: rejected away from the boundary (the tolerant rule: full in float at 256 wide).
    ASSERT_EQ(mode_for(false, find_preset("full"), Precision::Float, 256), CheckMode::Tolerant);
    const pmpp::Measurement off = bench_view(wrong::counts_one_too_many, false, "full", 256, bench.ctx);
    EXPECT_FALSE(off.correct);
    EXPECT_NE(off.check_message.find("timed run 1 of 3: "), std::string::npos) << off.check_message;
    EXPECT_NE(off.check_message.find("away from the boundary differ"), std::string::npos) << off.check_message;
    // The pinned kernel is held to its own counts exactly (Exact, in double here), and passes.
    const pmpp::Measurement pinned = bench_view(mandelbrot_pinned, true, "deep", 256, bench.ctx);
    EXPECT_TRUE(pinned.correct) << pinned.check_message;
}

// ---- device: divergence made visible -------------------------------------------------------------

TEST(Divergence, SeedCountersAddUpToTheCountsOfEachWarp) {
    PMPP_REQUIRE_GPU();
    const View v = view_at("seahorse", 200, 77);  // partial blocks on both axes
    const std::size_t n = static_cast<std::size_t>(v.image_width) * v.image_height;
    pmpp::DeviceBuffer<std::uint32_t> counts(n), trips(n);
    pmpp::DeviceBuffer<float> eff(n);
    pmpp::DeviceBuffer<WarpActivity> activity(1);
    PMPP_CUDA_CHECK(cudaMemset(activity.data(), 0, sizeof(WarpActivity)));
    // In double: float cannot reproduce seahorse's counts (NOTES.md), and the tolerant check
    // below is the one for counts that can be reproduced.
    mandelbrot_seed_profiled(v, Precision::Double, counts.data(), trips.data(), eff.data(), activity.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    const auto c = counts.to_host();
    const auto t = trips.to_host();
    const auto e = eff.to_host();
    WarpActivity a;
    activity.download(&a, 1);
    EXPECT_EQ(a.lane_iterations, std::accumulate(c.begin(), c.end(), 0ull)) << "every iteration of every lane, once";
    // The warps of 16x16 blocks hold 16 x 2 pixels: a warp runs at least as long as its slowest lane.
    for (int y = 0; y < v.image_height; ++y)
        for (int x = 0; x < v.image_width; ++x) {
            const int y0 = y / 2 * 2;
            std::uint32_t slowest = 0;
            std::uint64_t sum = 0;
            for (int yy = y0; yy < y0 + 2 && yy < v.image_height; ++yy)
                for (int xx = x / 16 * 16; xx < x / 16 * 16 + 16 && xx < v.image_width; ++xx) {
                    slowest = std::max(slowest, c[static_cast<std::size_t>(yy) * v.image_width + xx]);
                    sum += c[static_cast<std::size_t>(yy) * v.image_width + xx];
                }
            const std::size_t i = static_cast<std::size_t>(y) * v.image_width + x;
            ASSERT_GE(t[i], slowest) << "x=" << x << " y=" << y;
            if (t[i] > 0) {
                ASSERT_NEAR(e[i], static_cast<double>(sum) / (32.0 * t[i]), 1e-6) << "x=" << x << " y=" << y;
            }
        }
    const CheckResult r = check_render(
        [&](const View&, Precision, std::uint32_t* out) {
            PMPP_CUDA_CHECK(cudaMemcpy(out, counts.data(), n * 4, cudaMemcpyDeviceToDevice));
        },
        v, Precision::Double, CheckMode::Tolerant);
    EXPECT_TRUE(r.ok) << "the profiled kernel computes the same counts: " << r.report();
}

TEST(Divergence, RefillKeepsMoreLanesBusyThanTheSeedAtTheBoundary) {
    PMPP_REQUIRE_GPU();
    for (const char* name : {"seahorse", "deep"}) {
        const View v = view_at(name, 1920, 1080);
        const Precision p = find_preset(name)->bench_precision;
        const std::size_t n = static_cast<std::size_t>(v.image_width) * v.image_height;
        pmpp::DeviceBuffer<std::uint32_t> counts(n), trips(n);
        pmpp::DeviceBuffer<float> eff(n);
        pmpp::DeviceBuffer<WarpActivity> activity(2);
        PMPP_CUDA_CHECK(cudaMemset(activity.data(), 0, 2 * sizeof(WarpActivity)));
        mandelbrot_seed_profiled(v, p, counts.data(), trips.data(), eff.data(), activity.data());
        mandelbrot_refill_profiled(v, p, counts.data(), activity.data() + 1);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const auto c = counts.to_host();  // the refill kernel's
        WarpActivity a[2];
        activity.download(a, 2);
        EXPECT_EQ(a[1].lane_iterations, std::accumulate(c.begin(), c.end(), 0ull)) << name;
        EXPECT_GT(a[1].efficiency(), a[0].efficiency())
            << name << ": seed " << a[0].efficiency() << ", refill " << a[1].efficiency();
    }
}

// ---- device: the whole harness, as `make run` uses it ------------------------------------------

TEST(Harness, AcceptsTheReferenceAnswerAndEveryVariantOnEveryCase) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"mandelbrot", "--impl", "student,pinned,seed,refill,unrolled,shortcuts,border",
                          "--check",    "--seed", seed.c_str()};
    pmpp::Json results;
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 6, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    for (const auto& impl : results.at("check_summary").items())
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
}

TEST(Harness, BenchmarksEveryImplementationWithCorrectTimedOutputs) {
    PMPP_REQUIRE_GPU();
    const char* argv[] = {"mandelbrot", "--impl",    "all",       "--bench", "--size",     "256",
                          "--view",     "full,deep", "--repeats", "2",       "--no-images"};
    pmpp::Json results;
    ASSERT_EQ(pmpp::run_exercise(exercise().erase(), 11, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    EXPECT_EQ(results.at("items_unit").as_string(), "Giter/s");
    std::set<std::string> seen;
    std::set<double> ceilings;  // make plot's red line: the FP32 peak in iterations per second
    double seed_rate = 0;  // the seed kernel executes every iteration: it cannot pass the peak
    for (const auto& row : results.at("bench").elements()) {
        const std::string impl = row.at("impl").as_string();
        seen.insert(impl + " " + row.at("section").as_string().substr(0, 9));
        EXPECT_TRUE(row.at("correct").as_bool()) << row.dump();
        EXPECT_GT(row.at("items_per_second").as_number(), 0) << row.dump();
        if (impl == "seed") seed_rate = std::max(seed_rate, row.at("items_per_second").as_number());
        if (impl.rfind("cpu", 0) == 0) {
            EXPECT_FALSE(row.contains("items_ceiling_per_second"))
                << "the GPU's peak bounds no CPU row: " << row.dump();
        } else {
            ASSERT_TRUE(row.contains("items_ceiling_per_second")) << row.dump();
            EXPECT_EQ(row.at("items_ceiling_name").as_string(), "FP32 peak");
            ceilings.insert(row.at("items_ceiling_per_second").as_number());
        }
    }
    ASSERT_EQ(ceilings.size(), 1u) << "one FP32 peak for every GPU row";
    EXPECT_GT(*ceilings.begin(), seed_rate);
    for (const char* impl :
         {"student", "pinned", "seed", "refill", "unrolled", "shortcuts", "border", "cpu", "cpu_omp"})
        for (const char* view : {"view full", "view deep"})
            EXPECT_TRUE(seen.count(std::string(impl) + " " + view)) << impl << " " << view;
}

TEST(Harness, WritesThePicturesOfEachViewItBenchmarks) {
    PMPP_REQUIRE_GPU();
    const std::string dir = std::filesystem::temp_directory_path() / ("mandelbrot_images_" + std::to_string(getpid()));
    const char* argv[] = {"mandelbrot", "--impl",    "seed", "--bench",  "--size",    "64",        "--view",
                          "full,deep",  "--repeats", "1",    "--images", dir.c_str(), "--palette", "fire"};
    pmpp::Json results;
    ASSERT_EQ(pmpp::run_exercise(exercise().erase(), 14, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    const std::string ext = pmpp::png_supported() ? ".png" : ".ppm";
    for (const char* name : {"full", "full_warp_cost", "full_warp_efficiency", "deep", "deep_float", "deep_warp_cost",
                             "deep_warp_efficiency"}) {
        const std::string file = dir + "/" + name + ext;
        ASSERT_TRUE(std::filesystem::exists(file)) << file;
        const pmpp::Image img = pmpp::png_supported() ? pmpp::read_png(file) : pmpp::read_ppm(file);
        EXPECT_EQ(img.width, 960) << file;
    }
    std::filesystem::remove_all(dir);
}

TEST(Harness, RejectsAnUnknownViewOrPaletteAsAUsageErrorBeforeLookingForAGpu) {
    const char* view[] = {"mandelbrot", "--check", "--view", "sunflower"};
    pmpp::Json results;
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 4, const_cast<char**>(view), results), pmpp::kExitUsage);
    const char* palette[] = {"mandelbrot", "--bench", "--impl",   "seed",
                             "--size",     "32",      "--view",   "full",
                             "--palette",  "rainbow", "--images", "/tmp/mandelbrot_never_written"};
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 12, const_cast<char**>(palette), results), pmpp::kExitUsage);
}

// The bench and the case list called without a command line (as expect_memory_estimates calls
// def.bench, with a default pmpp::Options): every option at its default, and no pictures. No
// GPU needed.
TEST(Harness, TakesEachOptionsDefaultWhereTheOptionsHoldNone) {
    const pmpp::ExerciseDef def = exercise().erase();
    const std::vector<pmpp::Case> parsed = def.cases(pmpp::default_options(def.extra_options));
    const std::vector<pmpp::Case> unparsed = def.cases(pmpp::Options{});
    ASSERT_EQ(parsed.size(), unparsed.size());
    for (std::size_t i = 0; i < parsed.size(); ++i) EXPECT_EQ(parsed[i].label, unparsed[i].label);
}

// ---- device: what fits() reckons a width needs --------------------------------------------------

// Last in the file: by now every kernel is loaded and border tracing's tile lists are small, so
// the peaks measured are the benchmark's own. 8192 wide (inside: 8192 x 8192) makes the images
// outweigh every fixed buffer; the CPU rows time a sample of rows: a few seconds in all.
TEST(MandelbrotMemory, EstimatesBoundThePeaksOfTheBenchmarkAt8192PixelsWide) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(exercise().erase(), 8192);
}
