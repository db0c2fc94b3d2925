// mandelbrot_bench.cu: exercise 08's benchmark: the references of its views, the timed and
// checked rows of the device variants and of the CPU, the notes they carry, and the pictures
// `make run` writes to --images (the grader's report shows them: grading/pmpp_grading/pictures.py).
#include "mandelbrot_harness.h"

#include "common/cuda_check.h"
#include "common/fp32_peak.cuh"
#include "common/picture_folder.h"
#include "common/report.h"

#include <algorithm>

namespace mandelbrot {

using namespace pmpp;

namespace {

// Flops one iteration of z = z^2 + c with its escape test counts (README and NOTES.md).
constexpr double kFlopsPerIteration = 8;

// One benchmark view at the problem's width: the preset, the view and its precision, its pinned
// reference (made on first use) and the section of the table its rows go to.
struct BenchView {
    const Preset& preset;
    View view;
    Precision precision;
    const BenchReference& ref;
    std::string section;
};

BenchView bench_view(MandelbrotBench& p, const std::string& name) {
    const Preset* preset = find_preset(name);
    if (preset == nullptr) throw std::logic_error("mandelbrot: no view named " + name);
    const View v = at_width(*preset, static_cast<int>(p.n));
    const Precision prec = preset->bench_precision;
    return {*preset, v, prec, p.reference(v, prec),
            format("view %s %dx%d, max_iter %d, %s", v.name.c_str(), v.image_width, v.image_height, v.max_iter,
                   to_string(prec))};
}

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

// Runs a profiled twin into `activity` and returns what it counted.
template <class Run>
WarpActivity counted(Run run) {
    DeviceBuffer<WarpActivity> activity(1);
    PMPP_CUDA_CHECK(cudaMemset(activity.data(), 0, sizeof(WarpActivity)));
    run(activity.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    WarpActivity a;
    activity.download(&a, 1);
    return a;
}

// The CPU's row of one view: every run checked on the rows it computes (the sample), scaled to
// the image, and the GPU's speedups over it (the seed kernel's and the fastest, if they ran).
Measurement bench_cpu(const MandelbrotFn& fn, MandelbrotBench& p, const BenchView& b, BenchContext& ctx) {
    const View& v = b.view;
    const BenchReference& ref = b.ref;
    const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
    Measurement m;
    m.section = b.section;
    m.bytes = 4.0 * static_cast<double>(pixels);
    m.items = ref.iterations;
    const int stride = sample_stride(ref, v.image_height, fn.threaded ? 1e9 : 1e8);
    const double sampled = sampled_iterations(ref, v.image_height, stride);
    std::vector<std::uint32_t> out(pixels, kPoison);
    TimingOptions t = ctx.timing;
    t.warmup = 0;
    t.repeats = std::min(t.repeats, 2);
    // Every run checked on the rows it computes (the sample): the run before is checked in the
    // next one's prepare, untimed, just before the image is poisoned again.
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
            fn.cpu(v, b.precision, out.data(), RowSample{0, stride});
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
    const auto& times = p.gpu_ms[m.section];
    const auto fastest = std::min_element(times.begin(), times.end(),
                                          [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    for (const auto& [variant, row] : times)
        if (row.second) speedups = format("%s %.0fx", variant.c_str(), m.ms.median / row.first);
    if (fastest != times.end() && !fastest->second.second)
        speedups += format("%s%s %.0fx", speedups.empty() ? "" : ", ", fastest->first.c_str(),
                           m.ms.median / fastest->second.first);
    m.note = format("%s; timed on %s (%.1f%% of the iterations), scaled to the image%s%s",
                    fn.threaded ? format("%d threads", cpu_threads()).c_str() : "one thread",
                    stride == 1 ? "every row" : format("every %d%s row", stride, stride == 2 ? "nd" : "th").c_str(),
                    100.0 * sampled / std::max(ref.iterations, 1.0),
                    speedups.empty() ? "" : "; the GPU is faster by: ", speedups.c_str());
    return m;
}

// bench_render's row (below) of a view already looked up.
Measurement time_render(const MandelbrotFn& fn, const BenchView& b, BenchContext& ctx) {
    const View& v = b.view;
    const CheckMode mode = mode_for(fn.pinned, &b.preset, b.precision, v.image_width);
    Measurement m;
    m.section = b.section;
    m.bytes = 4.0 * static_cast<double>(b.ref.counts.size());
    m.items = b.ref.iterations;
    GuardedBuffer<std::uint32_t> counts = guarded_image(v);
    DeviceBuffer<std::uint32_t> expected;  // the pinned kernel's counts, uploaded once, untimed
    expected.upload(b.ref.counts);
    TimedCall call;
    call.prepare = [&] { counts.poison(); };
    call.run = [&] { fn.render(v, b.precision, counts.data()); };
    call.verify = [&]() -> CheckResult {
        const CheckResult guards = check_image_guards(counts, v.image_width, v.image_height);
        if (!guards.ok) return guards;
        return compare_counts_on_device(expected.data(), counts.data(), v.image_width, v.image_height, v.max_iter,
                                        mode);
    };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return m;
}

// A device variant's row of one view: time_render's, with its rate, its warp efficiency (the
// kernels with a profiled twin) and what its check was.
Measurement bench_gpu(const MandelbrotFn& fn, bool student, const std::string& variant, MandelbrotBench& p,
                      const BenchView& b, BenchContext& ctx) {
    const View& v = b.view;
    const Precision prec = b.precision;
    const BenchReference& ref = b.ref;
    Measurement m = time_render(fn, b, ctx);
    const CheckMode mode = mode_for(fn.pinned, &b.preset, prec, v.image_width);
    // The pinned kernel is the benchmark's reference: equal to its own counts of the view, and
    // those proven against the CPU on a sample of rows.
    if (m.correct && fn.pinned) m.record_check(ref.verified);
    if (!m.correct) return m;  // stopped at its first wrong run: no rate, no speedup against it
    p.gpu_ms[m.section][variant] = {m.ms.median, fn.seed};

    const double peak = fp32_peak_flops(ctx.device);
    const double rate = ref.iterations / (m.ms.median * 1e-3);
    m.items_ceiling = peak / kFlopsPerIteration;  // iterations per second at the FP32 peak
    m.items_ceiling_name = "FP32 peak";
    const std::string timing_note = m.note;  // time_checked's (work left running after the call)
    if (fn.every_iteration)
        m.note = format("%.2f T iter/s = %.0f%% of FP32 peak (%.0f flops/iter)", rate * 1e-12,
                        100.0 * rate * kFlopsPerIteration / peak, kFlopsPerIteration);
    else if (student)
        m.note = format("%.2f T iter/s (= %.0f%% of FP32 peak if every iteration is executed)", rate * 1e-12,
                        100.0 * rate * kFlopsPerIteration / peak);
    else
        m.note = format("%.2f T iter/s effective (the iterations it skips count as done)", rate * 1e-12);
    if (!timing_note.empty()) m.note += "; " + timing_note;
    if (fn.profile) {
        DeviceBuffer<std::uint32_t> profiled_counts(static_cast<std::size_t>(v.image_width) *
                                                    v.image_height);  // not looked at
        m.note += format("; warp efficiency %.1f%% (active lanes per iteration step, counted in the kernel)",
                         100 * fn.profile(v, prec, profiled_counts.data()).efficiency());
    }
    if (fn.pinned) m.note += format("; checked exactly against the CPU on %d rows", ref.verified_rows);
    if (mode == CheckMode::Loose || mode == CheckMode::Completeness)
        m.note += format("; %s does not reproduce this view's counts at this size (NOTES.md): %s check",
                         to_string(prec), to_string(mode));
    if (fn.seed && !p.peak_noted) {
        p.peak_noted = true;
        m.note += "\n    " + fp32_peak_note(ctx.device, ctx.timing);
    }
    return m;
}

// Writes the pictures of the selected views: smooth-colored counts, the seed kernel's per-warp
// cost and efficiency, and for a double view the float rendering beside it.
void write_images(const Options& opts, const std::vector<std::string>& views, Palette palette) {
    PictureFolder folder(opts.get("images"));
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
            folder.write(name + (p == preset.bench_precision ? "" : "_float"),
                         color_smooth(c.data(), m.data(), v.image_width, v.image_height, v.max_iter, palette));
            if (p == preset.bench_precision)  // the counts alone, beside which the student's are drawn
                folder.write(name + "_counts",
                             color_bands(c.data(), v.image_width, v.image_height, v.max_iter, palette));
        }
        DeviceBuffer<WarpActivity> activity(1);  // (the totals are the benchmark's note)
        PMPP_CUDA_CHECK(cudaMemset(activity.data(), 0, sizeof(WarpActivity)));
        mandelbrot_seed_profiled(v, preset.bench_precision, counts.data(), trips.data(), efficiency.data(),
                                 activity.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> t = trips.to_host();
        const std::vector<float> e = efficiency.to_host();
        folder.write(name + "_warp_cost", color_warp_cost(t.data(), v.image_width, v.image_height, v.max_iter));
        folder.write(name + "_warp_efficiency", color_warp_efficiency(e.data(), v.image_width, v.image_height));
    }
    folder.print_written(format("images (%d pixels wide, palette %s)", kImageWidth, to_string(palette)));
}

// The student's counts of every view, drawn as <view>_counts is (student_<view>_counts), so the
// two pictures can be put side by side (the grader's HTML report does).
void write_student_images(const Render& student, const Options& opts, const std::vector<std::string>& views,
                          Palette palette) {
    PictureFolder folder(opts.get("images"));
    for (const std::string& name : views) {
        const Preset& preset = *find_preset(name);
        const View v = at_width(preset, kImageWidth);
        // Untimed and unchecked (only a picture), but between guard zones all the same: a write
        // past the image lands there, not in the harness's own memory.
        GuardedBuffer<std::uint32_t> counts = guarded_image(v);
        counts.poison();
        student(v, preset.bench_precision, counts.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> c = counts.to_host();
        folder.write("student_" + name + "_counts",
                     color_bands(c.data(), v.image_width, v.image_height, v.max_iter, palette));
    }
    folder.print_written("your images");
}

}  // namespace

WarpActivity profile_seed(const View& v, Precision p, std::uint32_t* counts) {
    const std::size_t pixels = static_cast<std::size_t>(v.image_width) * v.image_height;
    DeviceBuffer<std::uint32_t> trips(pixels);
    DeviceBuffer<float> efficiency(pixels);
    return counted(
        [&](WarpActivity* a) { mandelbrot_seed_profiled(v, p, counts, trips.data(), efficiency.data(), a); });
}

WarpActivity profile_refill(const View& v, Precision p, std::uint32_t* counts) {
    return counted([&](WarpActivity* a) { mandelbrot_refill_profiled(v, p, counts, a); });
}

const BenchReference& MandelbrotBench::reference(const View& v, Precision p) {
    const auto found = references.find(v.name);
    if (found != references.end()) return found->second;
    BenchReference& ref = references[v.name];
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

MandelbrotBench make_bench(std::size_t n, BenchContext& ctx) {
    const Options& opts = ctx.opts;
    MandelbrotBench p;
    p.n = n;
    p.views = selected_views(opts, false);
    // Options that hold no exercise options (a bench called directly, as
    // pmpp::testing::expect_memory_estimates does with a default pmpp::Options): every view, and
    // no pictures.
    if (opts.extra.count("no-images") != 0 && !opts.flag("no-images")) {
        Palette palette = Palette::Ocean;  // --palette: one of the four names, the parser refused any other
        if (opts.extra.count("palette")) parse_palette(opts.get("palette"), palette);
        p.pictures = palette;
        write_images(opts, p.views, palette);
    }
    return p;
}

Measurement bench_render(const MandelbrotFn& fn, MandelbrotBench& p, const std::string& view_name, BenchContext& ctx) {
    return time_render(fn, bench_view(p, view_name), ctx);
}

std::vector<Measurement> bench(const MandelbrotRow& v, MandelbrotBench& p, std::size_t, BenchContext& ctx) {
    const bool student = v.kind == ImplKind::Student;
    if (p.pictures && student) write_student_images(v.fn.render, ctx.opts, p.views, *p.pictures);
    std::vector<Measurement> rows;
    for (const std::string& name : p.views) {
        const BenchView b = bench_view(p, name);
        rows.push_back(v.fn.render ? bench_gpu(v.fn, student, v.name, p, b, ctx) : bench_cpu(v.fn, p, b, ctx));
    }
    return rows;
}

}  // namespace mandelbrot
