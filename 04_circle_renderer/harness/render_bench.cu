// render_bench.cu: exercise 04's benchmark: each size's problem (the scenes it times and the CPU's
// images of them, pictured), the rows of one variant, and the device check of every run.
#include "render_harness.h"

#include "common/cuda_check.h"
#include "common/device_tally.cuh"
#include "common/picture_folder.h"
#include "common/report.h"
#include "common/timing.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <memory>

namespace render {

using namespace pmpp;

// ---- The device check of every benchmark run ------------------------------------------------------

namespace {

// What image_passes() decides from (ImageCounts), counted by tally_on_device: the kinds of pixel
// i as bits, judged by pixel_state(), the rule diff_images applies on the host.
enum PixelKind : unsigned {
    kPixelDiffers = 1u,  // not kRight: ImageCounts::differing
    kPixelNeverWritten = 2u,  // (with kPixelDiffers) kNeverWritten: ImageCounts::never_written
    kPixelOnEdge = 4u,  // (with kPixelDiffers) kDiffers where near_edge is set: ImageCounts::on_edge
};

struct ClassifyPixel {
    const Rgba* expected;
    const Rgba* actual;
    const std::uint8_t* near_edge;  // may be null: then no pixel is kPixelOnEdge

    __device__ unsigned operator()(std::size_t i) const {
        const std::uint8_t state = pixel_state(expected[i], actual[i]);
        if (state == ImageDiff::kRight) return 0;
        if (state == ImageDiff::kNeverWritten) return kPixelDiffers | kPixelNeverWritten;
        const bool on_edge = near_edge != nullptr && near_edge[i] != 0;
        return kPixelDiffers | (on_edge ? kPixelOnEdge : 0u);
    }
};

}  // namespace

ImageCounts count_image_on_device(const Rgba* expected, const Rgba* actual, const std::uint8_t* near_edge,
                                  std::size_t pixels) {
    const std::array<unsigned long long, 3> kinds =
        tally_on_device<3>(pixels, ClassifyPixel{expected, actual, near_edge});
    ImageCounts c;
    c.pixels = pixels;
    c.differing = static_cast<std::size_t>(kinds[0]);
    c.never_written = static_cast<std::size_t>(kinds[1]);
    c.on_edge = static_cast<std::size_t>(kinds[2]);
    return c;
}

namespace {

// The benchmark's check of one frame, after every run (warm-up or timed), untimed: the image's
// guard zones, then image_check.h's rule counted on the device against the CPU's image,
// uploaded once. Which pixels lie on a circle's edge (PixelFacts, computed on the host) is
// needed only when some differences might be excused: then computed and uploaded once, and the
// count repeated with them. A wrong frame is judged again by the host's image_verdict, the
// definition, whose message it reports (no pictures: those are the check's).
class FrameCheck {
public:
    FrameCheck(const Scene& scene, const std::vector<Rgba>& expected, int width, int height)
        : scene_(scene), expected_host_(expected), width_(width), height_(height) {
        expected_.upload(expected);
    }

    CheckResult operator()(const GuardedBuffer<Rgba>& image) {
        CheckResult guards = image.check_guards();
        if (!guards.ok) return guards;
        const std::size_t pixels = expected_.size();
        ImageCounts counts = count_image_on_device(expected_.data(), image.data(), nullptr, pixels);
        if (counts.differing == 0) return CheckResult::pass(pixels);
        if (counts.never_written == 0 && counts.differing <= edge_allowance(pixels)) {  // edges might excuse them
            counts = count_image_on_device(expected_.data(), image.data(), near_edge(), pixels);
            if (image_passes(counts)) {
                CheckResult r = CheckResult::pass(pixels);
                r.mismatches = counts.differing;
                return r;
            }
        }
        const std::vector<Rgba> actual = image.to_host();
        const ImageDiff d = diff_images(expected_host_.data(), actual.data(), width_, height_);
        return image_verdict(d, d.differing > d.never_written ? &facts() : nullptr, expected_host_.data(),
                             actual.data());
    }

private:
    // Computed the first time a run needs them, kept for the runs after it, freed with the check
    // (6 bytes a pixel: not worth keeping for the whole process).
    const PixelFacts& facts() {
        if (!facts_) facts_ = std::make_unique<PixelFacts>(pixel_facts(scene_.view(), width_, height_));
        return *facts_;
    }
    const std::uint8_t* near_edge() {
        if (near_edge_.size() == 0) near_edge_.upload(facts().near_edge);
        return near_edge_.data();
    }

    const Scene& scene_;
    const std::vector<Rgba>& expected_host_;
    int width_, height_;
    DeviceBuffer<Rgba> expected_;
    DeviceBuffer<std::uint8_t> near_edge_;  // empty until needed
    std::unique_ptr<PixelFacts> facts_;  // null until needed
};

}  // namespace

// ---- The benchmark --------------------------------------------------------------------------------

namespace {

// The frames of one scene at one size as <dir>/<prefix><scene>_<W>x<H>[_frameNNN].<format>, and
// a line saying where (`what`).
void write_frames(const std::string& prefix, const std::string& scene, const std::vector<std::vector<Rgba>>& frames,
                  int width, const Options& opts, const char* what) {
    PictureFolder folder(picture_dir(opts), opts.get("image-format"));
    const std::string stem = prefix + file_stem(scene) + format("_%dx%d", width, width);
    const bool animated = frames.size() > 1;
    for (std::size_t f = 0; f < frames.size(); ++f)
        folder.write(stem + (animated ? format("_frame%03zu", f) : ""), picture(frames[f].data(), width, width));
    std::cout << "  " << what << ": "
              << folder.path(stem + (animated ? format("_frame000..%03zu", frames.size() - 1) : "")) << "\n";
}

// The notes of a correct row: against CS149's reference on a T4, and against the variant the
// row's variant is compared with (RenderFn::compared_with), timed before it on this scene.
std::string notes_for(const RenderVariant& v, int id, const std::string& scene, double ms,
                      const std::map<std::string, double>& times) {
    std::string note;
    if (id != kFileScene && scene_catalog()[id].cs149_t4_ms > 0) {
        const double t4 = scene_catalog()[id].cs149_t4_ms;
        note = format("%.0fx faster than CS149's reference on a T4 (%g ms; target >= 10x)", t4 / ms, t4);
    }
    const std::string& other = v.fn.compared_with;
    if (!other.empty() && times.count(other) && (scene == "rand1M" || scene == "micro2M"))
        note += format("%s%s / %s = %.1fx (target >= 3x)", note.empty() ? "" : "; ", other.c_str(), v.name.c_str(),
                       times.at(other) / ms);
    return note;
}

// Times `fn`, rendering every frame of the scene per run, and checks every frame of every run.
Measurement bench_frames(const RenderCall& fn, bool student, const RenderProblem& b, int width, BenchContext& ctx,
                         Measurement m) {
    const int frames = static_cast<int>(b.frames.size());
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(width);
    std::vector<std::unique_ptr<DeviceScene>> scenes;
    std::vector<GuardedBuffer<Rgba>> images;
    std::vector<FrameCheck> checks;
    images.reserve(static_cast<std::size_t>(frames));
    checks.reserve(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
        scenes.push_back(std::make_unique<DeviceScene>(b.frames[f]));
        images.emplace_back(pixels, "image");
        checks.emplace_back(b.frames[f], b.expected[f], width, width);
    }
    Workspace workspace;  // sized by the first run below
    TimedCall call;
    call.prepare = [&] {
        for (auto& image : images) image.poison();  // NaN, and the guards armed again
    };
    call.run = [&] {
        for (int f = 0; f < frames; ++f) fn(scenes[f]->view, width, width, images[f].data(), workspace);
    };
    call.verify = [&] {
        for (int f = 0; f < frames; ++f) {
            CheckResult r = checks[f](images[f]);
            if (!r.ok) {
                if (frames > 1) r.message = format("frame %d: ", f) + r.message;
                return r;
            }
        }
        return CheckResult::pass(pixels * frames);
    };
    // One checked run first, untimed: it sizes the workspace, and says how long a run takes.
    call.prepare();
    const Stats once = time_device(TimingOptions{0, 1, false}, nullptr, call.run);
    CheckResult first = call.verify();
    if (!first.ok) {
        first.message = "the first run (untimed: it sizes the workspace): " + first.message;
        m.record_check(first);
    } else {
        const TimingOptions timing = once.median > 200 ? ctx.slow_timing(3) : ctx.timing;
        m.record(time_checked(timing, &ctx.flusher, call));
        m.ms = scaled(m.ms, 1.0 / frames);
    }
    // The student's images of the scene (its last run), named as the CPU's with "student_" in front,
    // so that the two can be put side by side (the grader's HTML report does).
    if (student && !picture_dir(ctx.opts).empty() && width > 0) {
        std::vector<std::vector<Rgba>> actual;
        for (const auto& image : images) actual.push_back(image.to_host());
        write_frames("student_", b.name, actual, width, ctx.opts, "your picture");
    }
    return m;
}

}  // namespace

RenderBenchProblem make_bench_problem(std::size_t n, BenchContext& ctx) {
    RenderBenchProblem p;
    p.width = static_cast<int>(n);
    p.seed = ctx.seed;
    for (int id : selected_scenes(ctx.opts))
        if (id == kFileScene || !scene_catalog()[id].adversarial) p.ids.push_back(id);
    return p;
}

// Made the first time a variant times the scene, and then pictured (the CPU's images).
const RenderProblem& RenderBenchProblem::scene(int id, const Options& opts) {
    if (auto it = drawn.find(id); it != drawn.end()) return it->second;
    const RenderProblem& b = drawn[id] = make_problem(make_case(id, width, kSquare, opts), seed, opts);
    if (!picture_dir(opts).empty() && width > 0) write_frames("", b.name, b.expected, width, opts, "picture");
    return b;
}

std::vector<Measurement> bench(const RenderVariant& v, RenderBenchProblem& p, BenchContext& ctx) {
    const int width = p.width;
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(width);
    std::vector<Measurement> rows;
    Measurement total;
    total.section = "kernel";
    total.note = "all scenes: the sum of the median times per frame";
    int timed_scenes = 0;
    for (int id : p.ids) {
        const RenderProblem& b = p.scene(id, ctx.opts);
        const int frames = static_cast<int>(b.frames.size());
        const std::string& name = b.name;
        Measurement m;
        m.section = format("scene %s: %d circles%s", name.c_str(), b.frames[0].count(),
                           frames > 1 ? format(", %d frames (time per frame)", frames).c_str() : "");
        m.items = static_cast<double>(pixels);
        m.bytes = 16.0 * static_cast<double>(pixels) + 28.0 * b.frames[0].count();

        if (v.kind == ImplKind::Cpu) {
            std::vector<std::vector<Rgba>> out(frames, std::vector<Rgba>(pixels));
            m.ms = scaled(time_host(ctx.slow_timing(3),
                                    [&] {
                                        for (int f = 0; f < frames; ++f)
                                            render_cpu(b.frames[f].view(), width, width, out[f].data());
                                    }),
                          1.0 / frames);
            for (int f = 0; f < frames && m.correct; ++f) {
                const ImageDiff d = diff_images(b.expected[f].data(), out[f].data(), width, width);
                m.record_check(image_verdict(d, nullptr, b.expected[f].data(), out[f].data()));
            }
            m.note = "every core of the host (OpenMP)";
        } else {
            m = bench_frames(v.fn.render, v.kind == ImplKind::Student, b, width, ctx, m);
            if (m.correct) {  // a wrong row's time is not a time to compare with
                std::map<std::string, double>& times = p.medians[name];
                times[v.name] = m.ms.median;
                const std::string note = notes_for(v, id, name, m.ms.median, times);
                if (!note.empty()) m.note += (m.note.empty() ? "" : "; ") + note;
            }
        }
        total.ms = timed_scenes++ == 0 ? m.ms : summed(total.ms, m.ms);
        total.bytes += m.bytes;
        total.items += m.items;
        if (!m.correct && total.correct) total.record_check(CheckResult::fail(name + ": " + m.check_message));
        rows.push_back(m);
    }
    if (timed_scenes > 1) rows.push_back(total);
    return rows;
}

}  // namespace render
