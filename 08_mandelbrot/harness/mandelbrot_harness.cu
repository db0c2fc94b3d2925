// mandelbrot_harness.cu: exercise 08's cases, its variants and their problems: the views the
// check renders, the memory one width needs, and the table the runner runs.
#include "mandelbrot_harness.h"

#include "common/image_guards.h"
#include "common/list_option.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>

namespace mandelbrot {

using namespace pmpp;

namespace {

std::string view_words(const View& v, Precision p) {
    return format("%s: center (%.17g, %.17g), width %.6g, %dx%d, max_iter %d, %s", v.name.c_str(), v.center_re,
                  v.center_im, v.width, v.image_width, v.image_height, v.max_iter, to_string(p));
}

// ---- Which views, shapes and precisions the check uses ----------------------------------------

const std::vector<Shape> kShapes = {{0, 0},     {1, 1},     {17, 13},   {31, 33},     {32, 32},  {33, 31},
                                    {255, 143}, {256, 144}, {257, 145}, {1920, 1080}, {900, 600}};
constexpr std::size_t kSeedShape = 10;  // kShapes[10] = 900x600, the seed's size: only for the full view
const std::vector<Shape> kRandomShapes = {{320, 180}, {97, 61}};
constexpr int kRandomViewsPerShape = 3;

// The CPU's count of the point c itself: a 1x1 view of width 0 has its one pixel's center at c.
std::uint32_t count_at(double re, double im, int max_iter) {
    const View v{"", re, im, 0.0, 1, 1, max_iter};
    std::uint32_t count = 0;
    mandelbrot_cpu(v, Precision::Double, &count);
    return count;
}

// A view near the boundary, drawn from `seed`: a center whose escape time at 256 iterations
// lies in [24, 256), a width log-uniform in [1e-4, 0.5], max_iter in [64, 600]. Double only:
// float does not reproduce most such views. (Deeper and longer views make the share of
// rounding-sensitive pixels grow past 3%: NOTES.md; the deep preset covers them.)
View random_view(std::uint64_t seed, Shape shape) {
    Rng rng(seed);
    View v;
    v.name = "random";
    std::uint32_t k;
    do {
        v.center_re = -2.0 + 2.5 * rng.unit_double();
        v.center_im = -1.2 + 2.4 * rng.unit_double();
        k = count_at(v.center_re, v.center_im, 256);
    } while (k < 24 || k >= 256);
    v.width = std::exp(std::log(1e-4) + (std::log(0.5) - std::log(1e-4)) * rng.unit_double());
    v.max_iter = 64 + static_cast<int>(rng.below(537));
    v.image_width = shape.width;
    v.image_height = shape.height;
    return v;
}

// The image of a case: its shape, or n wide at the preset's aspect.
Shape image_shape(const MandelbrotCase& c) {
    if (c.spec.shape) return *c.spec.shape;
    const View v = at_width(*c.spec.preset, static_cast<int>(c.n));
    return {v.image_width, v.image_height};
}

MandelbrotCase make_case(std::size_t n, const Preset* preset, Precision p, std::optional<Shape> shape,
                         int random_index = 0) {
    return {n, Distribution::Uniform, {preset, random_index, shape, p}};
}

std::vector<MandelbrotCase> mandelbrot_cases(const Options& opts) {
    std::vector<MandelbrotCase> cases;
    // --size N that is not a width of the list: width N, the height from each view's aspect.
    bool listed = false;
    for (const Shape& s : kShapes) listed = listed || (opts.size && static_cast<std::size_t>(s.width) == *opts.size);
    for (const std::string& name : selected_views(opts, !opts.size.has_value())) {
        if (name == "random") {
            for (const Shape& sh : kRandomShapes)
                for (int i = 0; i < kRandomViewsPerShape; ++i)
                    cases.push_back(
                        make_case(static_cast<std::size_t>(sh.width), nullptr, Precision::Double, sh, i + 1));
            continue;
        }
        const Preset* preset = find_preset(name);
        for (Precision p : {Precision::Float, Precision::Double}) {
            if (opts.size && !listed) cases.push_back(make_case(*opts.size, preset, p, std::nullopt));
            for (std::size_t s = 0; s < kShapes.size(); ++s)
                if (s != kSeedShape || name == "full")
                    cases.push_back(make_case(static_cast<std::size_t>(kShapes[s].width), preset, p, kShapes[s]));
        }
    }
    return cases;
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

double mandelbrot_device_bytes(std::size_t n, const Options&) {
    const ViewsAtWidth w = views_at_width(n);
    const ViewsAtWidth pictured = views_at_width(kImageWidth);
    // The largest view's moment, the seed kernel's profiling after its row: warp trips, warp
    // efficiency and the profiled twin's counts, 12 bytes per pixel. (Its row before it holds the
    // image and the pinned counts, 8 bytes per pixel, and the image's guard zones, 16 rows each
    // side; the problem's reference, the pinned counts downloaded, 4.)
    const double guards = 2.0 * static_cast<double>(guard_zone_bytes<std::uint32_t>(kGuardRows * n));
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

double mandelbrot_host_bytes(std::size_t n, const Options&) {
    const ViewsAtWidth w = views_at_width(n);
    const ViewsAtWidth pictured = views_at_width(kImageWidth);
    // The problem's references (every view of the size): the pinned kernel's counts, 4 bytes
    // per pixel, and 8 bytes per row of iteration totals.
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

const std::vector<Shape>& check_shapes() { return kShapes; }

std::vector<std::string> selected_views(const Options& opts, bool with_random) {
    std::vector<std::string> names;
    for (const std::string& name : list_option(opts, "view", view_names()))
        if (with_random || name != "random") names.push_back(name);
    return names;
}

CaseView case_view(const MandelbrotCase& c, std::uint64_t seed) {
    const Shape sh = image_shape(c);
    if (c.spec.preset == nullptr) return {random_view(derive_seed(seed, 0x5EED), sh), c.spec.precision, nullptr};
    View v = c.spec.preset->view;
    v.image_width = sh.width;
    v.image_height = sh.height;
    return {v, c.spec.precision, c.spec.preset};
}

namespace {

MandelbrotExercise make_exercise() {
    MandelbrotExercise ex;
    ex.id = "08_mandelbrot";
    ex.title = "Mandelbrot escape time: one thread per pixel, divergence, fast iteration (PMPP chapters 3-6)";
    // MandelbrotFn: {render, every_iteration, profile, pinned, seed, cpu, threaded}.
    ex.variants = {
        {"student", ImplKind::Student, "your mandelbrot_student.cu", {mandelbrot_student}},
        {"pinned",
         ImplKind::Reference,
         "the CPU's arithmetic on the GPU (-fmad=false): matches it bit for bit (mandelbrot_0_pinned.cu)",
         {mandelbrot_pinned, true, nullptr, true}},
        {"seed",
         ImplKind::Reference,
         "the seed's kernel: one thread per pixel, 16x16 blocks (mandelbrot_1_seed.cu)",
         {mandelbrot_seed, true, profile_seed, false, true}},
        {"refill",
         ImplKind::Reference,
         "persistent threads: idle lanes take pixels from a work queue (mandelbrot_2_refill.cu)",
         {mandelbrot_refill, true, profile_refill}},
        {"unrolled",
         ImplKind::Reference,
         "16 steps per escape test, exact count restored (mandelbrot_3_unrolled.cu)",
         {mandelbrot_unrolled, true}},
        {"shortcuts",
         ImplKind::Reference,
         "+ cardioid and bulb test, periodicity check (mandelbrot_4_shortcuts.cu)",
         {mandelbrot_shortcuts}},
        {"border",
         ImplKind::Reference,
         "Mariani-Silver border tracing, a work queue of tiles (mandelbrot_5_border_tracing.cu)",
         {mandelbrot_border_tracing}},
        {"cpu",
         ImplKind::Cpu,
         "one CPU thread: the definition of correct (mandelbrot_cpu.cpp)",
         {nullptr, false, nullptr, false, false, mandelbrot_cpu}},
        {"cpu_omp",
         ImplKind::Cpu,
         "every CPU core (OpenMP), the same counts (mandelbrot_cpu.cpp)",
         {nullptr, false, nullptr, false, false, mandelbrot_cpu_omp, true}},
    };
    ex.baseline = "seed";
    ex.items_unit = "Giter/s";
    ex.extra_options = {
        {"view", "NAME[,NAME]|all", "views (random: only in the check)", "all", view_names(), true},
        {"images", "DIR", "where the benchmark writes the pictures of its views", "build/images"},
        {"no-images", "", "do not write pictures", ""},
        {"palette", "NAME", "palette of the pictures", "ocean", {"ocean", "fire", "gray", "seed"}},
    };
    ex.max_size = std::size_t{1} << 14;
    ex.bench_sizes = {3840};
    ex.cases = mandelbrot_cases;
    ex.describe = [](const MandelbrotCase& c) {
        const Shape sh = image_shape(c);
        const char* p = to_string(c.spec.precision);
        if (c.spec.preset == nullptr)
            return format("random view %d %s %dx%d", c.spec.random_index, p, sh.width, sh.height);
        return format("%s %s %dx%d", c.spec.preset->view.name.c_str(), p, sh.width, sh.height);
    };
    ex.size_in_label = false;
    ex.at_size = [](MandelbrotCase c, std::size_t n) {  // a preset at width n, in the preset's own shape
        c.n = n;
        if (c.spec.preset != nullptr) c.spec.shape.reset();
        return c;
    };
    ex.make_problem = [](const MandelbrotCase& c, std::uint64_t seed, const Options&) {
        MandelbrotProblem p;
        p.what = case_view(c, seed);
        p.expected = reference_counts(p.what.view, p.what.precision);
        return p;
    };
    ex.check = [](const MandelbrotRow& v, const MandelbrotProblem& p, const MandelbrotCase&, const Options&) {
        const CaseView& cv = p.what;
        const CheckMode mode = mode_for(v.fn.pinned, cv.preset, cv.precision, cv.view.image_width);
        CheckResult r = check_render(v.fn.render, cv.view, cv.precision, mode, p.expected);
        if (!r.ok && cv.preset == nullptr) r.message = view_words(cv.view, cv.precision) + ": " + r.message;
        return r;
    };
    ex.make_bench_problem = make_bench;
    ex.bench = bench;
    // The benchmark at width n, counted above: 12 bytes per pixel of an n x n image on the device,
    // 20.1 on the host (at 3840: 179 MiB and 298 MiB).
    ex.device_bytes = mandelbrot_device_bytes;
    ex.host_bytes = mandelbrot_host_bytes;
    return ex;
}

}  // namespace

const MandelbrotExercise& exercise() {
    static const MandelbrotExercise ex = make_exercise();
    return ex;
}

}  // namespace mandelbrot
