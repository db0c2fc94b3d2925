// saxpy_harness.cu: inputs, the check and the benchmark of exercise 01.
#include "saxpy_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/report.h"

#include <algorithm>
#include <vector>

namespace saxpy {

using namespace pmpp;

namespace {

struct Inputs {
    float a = 0;
    std::vector<float> x, y;
};

// a on [-4, 4) in steps of 2^-21, never 0; x and y from the case's distribution.
Inputs make_inputs(std::size_t n, Distribution dist, std::uint64_t seed) {
    Inputs in;
    Rng rng(derive_seed(seed, 0xA));
    do in.a = rng.signed_unit_float() * 4.0f;
    while (in.a == 0.0f);
    in.x = generate<float>(n, dist, derive_seed(seed, 1));
    in.y = generate<float>(n, dist, derive_seed(seed, 2));
    return in;
}

std::vector<float> expected_output(const Inputs& in) {
    std::vector<float> z(in.x.size());
    saxpy_cpu(in.x.size(), in.a, in.x.data(), in.y.data(), z.data());
    return z;
}

CheckResult check_inputs_unchanged(const Inputs& in, const std::vector<float>& x, const std::vector<float>& y) {
    if (compare_exact(in.x, x).ok && compare_exact(in.y, y).ok) return CheckResult::pass(in.x.size());
    return CheckResult::fail("the inputs x or y were modified: only z may be written");
}

// Element offsets of x, y, z inside their allocations, per variant.
void offsets_for(int variant, std::size_t& ox, std::size_t& oy, std::size_t& oz) {
    ox = oy = oz = 0;
    if (variant == kMisalignedSame) ox = oy = oz = 1;
    if (variant == kMisalignedMixed) ox = 1, oy = 2, oz = 3;
}

const char* variant_label(int variant) {
    switch (variant) {
        case kMisalignedSame: return " misaligned+1";
        case kMisalignedMixed: return " misaligned+1/+2/+3";
        case kFromHostPageable: return " from-host pageable";
        case kFromHostPinned: return " from-host pinned";
        default: return "";
    }
}

}  // namespace

SaxpyImpl impl_by_name(const std::string& name) {
    SaxpyImpl impl;
    if (name == "student") {
        impl.device = saxpy_student;
        impl.from_host = saxpy_student_from_host;
    } else if (name == "naive") {
        impl.device = saxpy_naive;
        impl.from_host = [](std::size_t n, float a, const float* x, const float* y, float* z) {
            saxpy_from_host_with(saxpy_naive, n, a, x, y, z);
        };
    } else if (name == "vectorized") {
        impl.device = saxpy_vectorized;
        impl.from_host = [](std::size_t n, float a, const float* x, const float* y, float* z) {
            saxpy_from_host_with(saxpy_vectorized, n, a, x, y, z);
        };
    } else if (name == "cublas") {
        // In place: z receives y first (the check counts that copy as part of the call).
        auto run = [](std::size_t n, float a, const float* x, const float* y, float* z) {
            if (n) PMPP_CUDA_CHECK(cudaMemcpy(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice));
            saxpy_cublas_in_place(n, a, x, z);
        };
        impl.device = run;
        impl.from_host = [run](std::size_t n, float a, const float* x, const float* y, float* z) {
            saxpy_from_host_with(run, n, a, x, y, z);
        };
    } else {
        throw std::logic_error("saxpy: no implementation named " + name);
    }
    return impl;
}

CheckResult check_case(const SaxpyImpl& impl, const Case& c, std::uint64_t seed) {
    const std::size_t n = c.n;
    const Inputs in = make_inputs(n, c.dist, seed);
    const std::vector<float> expected = expected_output(in);

    if (c.variant == kFromHostPageable || c.variant == kFromHostPinned) {
        const bool pinned = c.variant == kFromHostPinned;
        PinnedBuffer<float> px(pinned ? n : 0), py(pinned ? n : 0), pz(pinned ? n : 0);
        std::vector<float> vx, vy, vz;
        float *hx, *hy, *hz;
        if (pinned) {
            std::copy(in.x.begin(), in.x.end(), px.data());
            std::copy(in.y.begin(), in.y.end(), py.data());
            hx = px.data(), hy = py.data(), hz = pz.data();
        } else {
            vx = in.x, vy = in.y, vz.assign(n, 0.0f);
            hx = vx.data(), hy = vy.data(), hz = vz.data();
        }
        std::fill(hz, hz + n, std::numeric_limits<float>::quiet_NaN());  // poison
        impl.from_host(n, in.a, hx, hy, hz);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult r = compare_close(expected.data(), hz, n, kTolerance);
        if (!r.ok) return r;
        return check_inputs_unchanged(in, std::vector<float>(hx, hx + n), std::vector<float>(hy, hy + n));
    }

    std::size_t ox, oy, oz;
    offsets_for(c.variant, ox, oy, oz);
    DeviceBuffer<float> dx(n + ox), dy(n + oy), dz(n + oz);
    PMPP_CUDA_CHECK(cudaMemcpy(dx.data() + ox, in.x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    PMPP_CUDA_CHECK(cudaMemcpy(dy.data() + oy, in.y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dz.poison();
    impl.device(n, in.a, dx.data() + ox, dy.data() + oy, dz.data() + oz);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> z(n + oz), x(n + ox), y(n + oy);
    dz.download(z.data(), n + oz);
    CheckResult r = compare_close(expected.data(), z.data() + oz, n, kTolerance);
    if (!r.ok) return r;
    for (std::size_t i = 0; i < oz; ++i)
        if (!std::isnan(z[i])) return CheckResult::fail("wrote z[" + std::to_string(static_cast<long>(i) - static_cast<long>(oz)) + "], before the start of z");
    dx.download(x.data(), n + ox);
    dy.download(y.data(), n + oy);
    return check_inputs_unchanged(in, std::vector<float>(x.begin() + ox, x.end()), std::vector<float>(y.begin() + oy, y.end()));
}

namespace {

std::vector<Case> saxpy_cases(const Options&) {
    // Every power-of-two edge up to 2^20, then large sizes past 2^24 and 2^26.
    std::vector<std::size_t> sizes = edge_sizes({2, 5, 8, 10, 16, 20});
    sizes.push_back((std::size_t{1} << 24) + 1);
    sizes.push_back((std::size_t{1} << 26) + 3);
    std::vector<Case> cases = make_cases(sizes, {Distribution::Uniform, Distribution::FewDistinct,
                                                 Distribution::AllEqual, Distribution::Sorted},
                                         {1000, (std::size_t{1} << 20) + 1});
    for (int variant : {kMisalignedSame, kMisalignedMixed})
        for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{255}, std::size_t{4097}, (std::size_t{1} << 20) + 3})
            cases.push_back({"n=" + format_size(n) + " uniform" + variant_label(variant), n, Distribution::Uniform, variant});
    for (int variant : {kFromHostPageable, kFromHostPinned})
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{257}, (std::size_t{1} << 20) + 1})
            cases.push_back({"n=" + format_size(n) + " uniform" + variant_label(variant), n, Distribution::Uniform, variant});
    return cases;
}

// Kernel timing (device pointers) plus, for the student and the fastest reference, the
// end-to-end time from host memory (pageable and pinned), with where that time goes.
std::vector<Measurement> saxpy_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    const Inputs in = make_inputs(n, Distribution::Uniform, ctx.seed);
    const std::vector<float> expected = expected_output(in);
    const double bytes = 12.0 * static_cast<double>(n);
    std::vector<Measurement> rows;

    if (impl.kind == ImplKind::Cpu) {
        std::vector<float> z(n);
        const TimingOptions t = ctx.slow_timing();
        Measurement m;
        m.ms = time_host(t, [&] { saxpy_cpu(n, in.a, in.x.data(), in.y.data(), z.data()); });
        m.bytes = bytes;
        m.items = static_cast<double>(n);
        m.note = "one CPU thread, for scale";
        rows.push_back(m);
        return rows;
    }

    const SaxpyImpl fn = impl_by_name(impl.name);
    DeviceBuffer<float> dx, dy, dz(n);
    dx.upload(in.x);
    dy.upload(in.y);
    Measurement kernel;
    kernel.bytes = bytes;
    kernel.items = static_cast<double>(n);
    if (impl.name == "cublas") {
        // Restore z = y untimed before each run; time cublasSaxpy alone.
        kernel.ms = time_device(
            ctx.timing, &ctx.flusher, [&] { saxpy_cublas_in_place(n, in.a, dx.data(), dz.data()); },
            [&] { PMPP_CUDA_CHECK(cudaMemcpyAsync(dz.data(), dy.data(), n * sizeof(float), cudaMemcpyDeviceToDevice)); });
    } else {
        kernel.ms = time_device(ctx.timing, &ctx.flusher, [&] { fn.device(n, in.a, dx.data(), dy.data(), dz.data()); },
                                [&] { dz.poison(); });
    }
    const CheckResult r = compare_close(expected, dz.to_host(), kTolerance);
    kernel.record_check(r);
    rows.push_back(kernel);

    if (impl.kind != ImplKind::Student && impl.name != "vectorized") return rows;

    // End to end from host memory, timed on the host (the function is synchronous).
    const TimingOptions t = ctx.slow_timing();
    for (bool pinned : {false, true}) {
        PinnedBuffer<float> px(pinned ? n : 0), py(pinned ? n : 0), pz(pinned ? n : 0);
        std::vector<float> vz(pinned ? 0 : n);
        const float* hx = pinned ? px.data() : in.x.data();
        const float* hy = pinned ? py.data() : in.y.data();
        float* hz = pinned ? pz.data() : vz.data();
        if (pinned) {
            std::copy(in.x.begin(), in.x.end(), px.data());
            std::copy(in.y.begin(), in.y.end(), py.data());
        }
        Measurement e2e;
        e2e.section = "end to end from host memory (allocate, copy in, compute, copy out, free)";
        e2e.label = impl.name + (pinned ? " pinned" : " pageable");
        e2e.bytes = bytes;
        e2e.items = static_cast<double>(n);
        e2e.ms = time_host(t, [&] { fn.from_host(n, in.a, hx, hy, hz); },
                           [&] { std::fill(hz, hz + n, std::numeric_limits<float>::quiet_NaN()); });
        const CheckResult er = compare_close(expected.data(), hz, n, kTolerance);
        e2e.record_check(er);
        if (impl.name == "vectorized") {
            // Where the time goes: each phase alone, timed with events.
            DeviceBuffer<float> bx(n), by(n), bz(n);
            const Stats h2d = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(bx.data(), hx, n * sizeof(float), cudaMemcpyHostToDevice));
                PMPP_CUDA_CHECK(cudaMemcpy(by.data(), hy, n * sizeof(float), cudaMemcpyHostToDevice));
            });
            const Stats d2h = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(hz, bz.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
            });
            e2e.note = format("copy in %.2f ms (%.1f GB/s), kernel %.3f ms, copy out %.2f ms (%.1f GB/s): the kernel is "
                              "%.1f%% of the whole",
                              h2d.median, gigabytes_per_second(8.0 * n, h2d.median), kernel.ms.median, d2h.median,
                              gigabytes_per_second(4.0 * n, d2h.median),
                              100.0 * kernel.ms.median / std::max(e2e.ms.median, 1e-9));
        }
        rows.push_back(e2e);
    }
    return rows;
}

}  // namespace

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "01_saxpy";
    def.title = "SAXPY, z = a * x + y (PMPP chapter 2)";
    def.impls = {
        {"student", ImplKind::Student, "your saxpy_student.cu"},
        {"naive", ImplKind::Reference, "one thread per element, 4-byte accesses (saxpy_1_naive.cu)"},
        {"vectorized", ImplKind::Reference, "float4, two per thread per array, any alignment (saxpy_2_vectorized.cu)"},
        {"cublas", ImplKind::Library, "cublasSaxpy, in place on a copy of y (saxpy_cublas.cu)"},
        {"cpu", ImplKind::Cpu, "a plain loop: the definition of correct (saxpy_cpu.cpp)"},
    };
    def.baseline = "cublas";
    def.items_unit = "Gelem/s";
    def.max_size = std::size_t{1} << 32;
    def.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};
    def.cases = saxpy_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl_by_name(impl.name), c, seed);
    };
    def.bench = saxpy_bench;
    def.device_bytes = [](std::size_t n) { return 12.0 * static_cast<double>(n) + 64.0; };
    return def;
}

}  // namespace saxpy
