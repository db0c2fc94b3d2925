// render_harness.cu: exercise 04's options and scenes as check cases, each case's problem, the
// check of one variant on it (with its hints and pictures), and the table of variants.
#include "render_harness.h"

#include "common/cuda_check.h"
#include "common/list_option.h"
#include "common/picture_folder.h"
#include "common/report.h"

#include <algorithm>
#include <cctype>
#include <memory>

namespace render {

using pmpp::CheckResult;
using pmpp::format;
using pmpp::Options;
using pmpp::UsageError;

// ---- Options and scenes ---------------------------------------------------------------------------

namespace {

constexpr int kDefaultFrames = 3;  // --frames' default

// --frames (a UsageError if not in [1, 1000]).
int frames_option(const Options& opts) {
    int frames = 0;
    const std::string& text = opts.get("frames");
    if (!pmpp::parse_int(text, frames) || frames < 1 || frames > 1000)
        throw UsageError("option --frames: '" + text + "' is not a count in [1, 1000]");
    return frames;
}

// --scene-file's scene, read from its file.
Scene file_scene(const Options& opts) {
    try {
        return load_scene(opts.get("scene-file"));
    } catch (const SceneFileError& e) {
        throw UsageError(std::string("option --scene-file: ") + e.what());
    }
}

// The scenes of the catalog by name: --scene's choices.
std::vector<std::string> catalog_names() {
    std::vector<std::string> names;
    for (const auto& info : scene_catalog()) names.push_back(info.name);
    return names;
}

}  // namespace

int frames_of(int id, const Options& opts) {
    return id != kFileScene && scene_catalog()[id].animated ? frames_option(opts) : 1;
}

std::string picture_dir(const Options& opts) { return opts.flag("no-images") ? std::string() : opts.get("images"); }

std::string file_stem(const std::string& name) {
    std::string out = name;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
    return out;
}

Scene scene_frame(int id, std::uint64_t seed, int frame, const Options& opts) {
    return id == kFileScene ? file_scene(opts) : make_scene(id, seed, frame);
}

std::vector<int> selected_scenes(const Options& opts) {
    const bool catalog_named = !opts.get("scene").empty();  // --scene's default is empty
    const bool file = !opts.get("scene-file").empty();
    std::vector<int> ids;
    // --scene-file alone renders the file's scene only; an empty --scene is every scene otherwise.
    if (catalog_named || !file)
        for (const std::string& name : pmpp::list_option(opts, "scene", catalog_names())) {
            // The command line's parser refuses an unknown name already; Options a test fills in
            // may still hold one.
            const int id = find_scene(name);
            if (id < 0)
                throw UsageError("option --scene: unknown scene '" + name + "' (scenes: " + scene_names() + ", all)");
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    if (file) {
        file_scene(opts);  // a malformed file is a usage error, now
        ids.push_back(kFileScene);
    }
    return ids;
}

int image_height(int width, Shape shape) {
    switch (shape) {
        case kWide: return std::max(1, width * 9 / 16);
        case kTall: return width + width / 2 + 1;
        default: return width;
    }
}

// ---- Cases and their problems ---------------------------------------------------------------------

RenderCase make_case(int id, int width, Shape shape, const Options& opts) {
    RenderCase c;
    c.n = static_cast<std::size_t>(width);
    c.spec = {id, shape, id == kFileScene ? file_scene(opts).name : scene_catalog()[id].name};
    return c;
}

namespace {

std::vector<RenderCase> render_cases(const Options& opts) {
    const std::vector<int> scenes = selected_scenes(opts);
    frames_option(opts);  // refuse a bad --frames before any case runs
    struct Size {
        int width;
        Shape shape;
    };
    std::vector<Size> sizes;
    if (opts.size) {
        const int w = static_cast<int>(*opts.size);
        sizes = {{w, kSquare}, {w, kWide}, {w, kTall}};
    } else {
        for (int w : {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1024, 1150}) sizes.push_back({w, kSquare});
        sizes.push_back({1150, kWide});
        sizes.push_back({333, kTall});
    }
    std::vector<RenderCase> cases;
    for (int id : scenes) {
        const RenderCase scene = make_case(id, 1, kSquare, opts);  // the file read once
        for (const Size& s : sizes) {
            RenderCase c = scene;
            c.n = static_cast<std::size_t>(s.width);
            c.spec.shape = s.shape;
            cases.push_back(c);
        }
    }
    return cases;
}

// Pictures of a failure: the difference, the image rendered, the CPU's. At most 3 failures per
// implementation get pictures (a count over the whole run).
std::string write_pictures(const CheckSettings& settings, const ImageDiff& d, const PixelFacts* facts,
                           const std::vector<Rgba>& expected, const std::vector<Rgba>& actual) {
    static std::map<std::string, int> written;
    if (settings.pictures.empty() || written[settings.impl]++ >= 3) return "";
    try {
        pmpp::PictureFolder folder(settings.pictures, settings.format);
        folder.write(settings.label + "_diff", diff_picture(d, facts, expected.data()));
        folder.write(settings.label + "_actual", picture(actual.data(), d.width, d.height));
        folder.write(settings.label + "_expected", picture(expected.data(), d.width, d.height));
        return folder.path(settings.label + "_diff") +
               " (red: wrong, orange: wrong on a circle's edge, yellow: never written; "
               "beside it _actual and _expected)";
    } catch (const std::exception& e) {
        return std::string("none: ") + e.what();
    }
}

}  // namespace

RenderProblem make_problem(const RenderCase& c, std::uint64_t seed, const Options& opts) {
    RenderProblem p;
    p.name = c.spec.name;
    p.width = static_cast<int>(c.n);
    p.height = image_height(p.width, c.spec.shape);
    const std::size_t pixels = static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height);
    const int frames = frames_of(c.spec.scene, opts);
    for (int f = 0; f < frames; ++f) {
        p.frames.push_back(scene_frame(c.spec.scene, seed, f, opts));
        p.expected.emplace_back(pixels);
        render_cpu(p.frames.back().view(), p.width, p.height, p.expected.back().data());
    }
    return p;
}

// ---- The check ------------------------------------------------------------------------------------

CheckResult judge_image(const Scene& scene, int width, int height, const std::vector<Rgba>& expected,
                        const std::vector<Rgba>& actual, const CheckSettings& settings) {
    const ImageDiff diff = diff_images(expected.data(), actual.data(), width, height);
    // The facts about each pixel are needed when there are differences an edge might excuse.
    std::unique_ptr<PixelFacts> facts;
    if (diff.differing > diff.never_written)
        facts = std::make_unique<PixelFacts>(pixel_facts(scene.view(), width, height));
    CheckResult r = image_verdict(diff, facts.get(), expected.data(), actual.data());
    if (!r.ok) {
        r.hint = explain_difference(scene, width, height, settings.tile, diff, facts.get(), expected, actual);
        const std::string where = write_pictures(settings, diff, facts.get(), expected, actual);
        if (!where.empty()) r.hint += std::string(r.hint.empty() ? "" : "\n    ") + "pictures: " + where;
    }
    return r;
}

namespace {

// Renders `scene` with `fn` into a poisoned width x height image between guard zones and judges
// it against `expected` (the CPU's image of the same scene): fails first if it wrote outside the
// image ("wrote 1 element past the end of image ..."), then by judge_image, then if the scene's
// arrays changed. A wrong image is drawn a second time, and the hint says so when the two differ
// (a race).
CheckResult check_render(const RenderCall& fn, const Scene& scene, int width, int height,
                         const std::vector<Rgba>& expected, const CheckSettings& settings) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    DeviceScene device(scene);
    // Guard zones of 16 rows: a kernel that flips the rows lands there, not in another allocation.
    pmpp::GuardedBuffer<Rgba> image(pixels, "image", 16 * static_cast<std::size_t>(width));
    image.poison();
    Workspace workspace;
    fn(device.view, width, height, image.data(), workspace);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    // The guards first: a write outside the image is the mistake to name, whatever the image holds.
    const CheckResult guards = image.check_guards();
    if (!guards.ok) return guards;
    const std::vector<Rgba> actual = image.to_host();
    CheckResult r = judge_image(scene, width, height, expected, actual, settings);
    if (r.ok && !device.unchanged(scene))
        return CheckResult::fail("the scene's circles or colors were modified: a renderer may only write the image");
    if (!r.ok) {
        // A wrong image: draw it once more, as the first time. An image that changes from one run
        // to the next is what a race leaves, and no single image shows it.
        image.poison();
        fn(device.view, width, height, image.data(), workspace);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<Rgba> again = image.to_host();
        std::size_t changed = 0;
        for (std::size_t i = 0; i < pixels; ++i) changed += std::memcmp(&actual[i], &again[i], sizeof(Rgba)) != 0;
        if (changed > 0)
            r.hint = format(
                         "a second run of the same case drew another image (%zu of %zu pixels differ between the two "
                         "runs): the result depends on timing, a race (a missing __syncthreads(), two threads "
                         "updating one pixel), or on something kept from an earlier call",
                         changed, pixels) +
                     (r.hint.empty() ? "" : "\n    " + r.hint);
    }
    return r;
}

}  // namespace

CheckResult check(const RenderVariant& v, const RenderProblem& p, const RenderCase&, const Options& opts) {
    const int frames = static_cast<int>(p.frames.size());
    CheckResult all = CheckResult::pass(0);
    for (int f = 0; f < frames; ++f) {
        const Scene& scene = p.frames[f];
        CheckSettings settings;
        settings.pictures = picture_dir(opts);
        settings.format = opts.get("image-format");
        settings.impl = v.name;
        settings.label = format("%s_%s_%dx%d", v.name.c_str(), file_stem(scene.name).c_str(), p.width, p.height) +
                         (frames > 1 ? format("_frame%03d", f) : "");
        CheckResult r = check_render(v.fn.render, scene, p.width, p.height, p.expected[f], settings);
        if (!r.ok) {
            if (frames > 1) r.message = format("frame %d of %d: ", f, frames) + r.message;
            return r;
        }
        all.checked += r.checked;
    }
    return all;
}

// ---- The exercise ---------------------------------------------------------------------------------

namespace {

RenderExercise make_exercise() {
    using pmpp::ImplKind;
    RenderExercise ex;
    ex.id = "04_circle_renderer";
    ex.title = "an order-correct, fast renderer of semi-transparent circles (PMPP chapters 3-6, 11; CS149 asst3)";
    ex.variants = {
        {"student", ImplKind::Student, "your render_student.cu", {render_student, ""}},
        {"per_pixel",
         ImplKind::Reference,
         "one thread per pixel, every circle in order (render_1_per_pixel.cu)",
         {render_per_pixel, ""}},
        {"tiled",
         ImplKind::Reference,
         "a block per 16x16 tile culls the scene with a scan into shared memory (render_2_tiled.cu)",
         {render_tiled, ""}},
        {"binned",
         ImplKind::Reference,
         "every circle binned to its tiles at once: count, scan, stable radix sort (render_3_binned.cu)",
         {render_binned, "tiled"}},
        {"cpu", ImplKind::Cpu, "circle after circle on the CPU: the definition of correct (render_cpu.cpp)", {}},
    };
    ex.baseline = "binned";
    ex.items_unit = "Gpix/s";
    ex.extra_options = {
        {"scene", "NAME[,NAME]|all", "scenes to check and benchmark (default: all; only the file's with --scene-file)",
         "", catalog_names(), true},
        {"scene-file", "FILE", "also render the scene of FILE (its format: README.md)", ""},
        {"frames", "N", "frames of each animated scene, each one checked and timed", std::to_string(kDefaultFrames)},
        {"images", "DIR", "pictures: every benchmarked scene, and the difference when a check fails", "build/images"},
        {"image-format", "FORMAT", "format of the pictures", pmpp::png_supported() ? "png" : "ppm", {"png", "ppm"}},
        {"no-images", "", "write no pictures", ""},
    };
    ex.max_size = 8192;
    ex.bench_sizes = {1024};
    ex.cases = render_cases;
    ex.size_in_label = false;
    ex.describe = [](const RenderCase& c) {
        const int width = static_cast<int>(c.n);
        return format("%s %dx%d", c.spec.name.c_str(), width, image_height(width, c.spec.shape));
    };
    ex.make_problem = make_problem;
    ex.check = check;
    ex.make_bench_problem = make_bench_problem;
    ex.bench = [](const RenderVariant& v, RenderBenchProblem& p, std::size_t, pmpp::BenchContext& ctx) {
        return bench(v, p, ctx);
    };
    ex.device_bytes = render_device_bytes;
    ex.host_bytes = render_host_bytes;
    return ex;
}

}  // namespace

const RenderExercise& exercise() {
    static const RenderExercise ex = make_exercise();
    return ex;
}

}  // namespace render
