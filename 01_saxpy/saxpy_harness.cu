// saxpy_harness.cu: inputs, the check and the benchmark of exercise 01.
//
// Every z the harness hands to an implementation, in device or host memory, lies between two
// guard zones (GuardedBuffer on the device, GuardedHostArray on the host), is poisoned
// before every run and checked after every run: the check's one run, and every warm-up and
// timed run of the benchmark (verify_z, the same rule for both).
#include "saxpy_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
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

// x and y: what the arrays handed out hold after the run (host memory, n floats each). Compared
// in place, without copies: at n = 2^28 a copy of both would be 2 GiB more host memory.
CheckResult check_inputs_unchanged(const Inputs& in, const float* x, const float* y) {
    const std::size_t n = in.x.size();
    if (compare_exact(in.x.data(), x, n).ok && compare_exact(in.y.data(), y, n).ok) return CheckResult::pass(n);
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

// The check of one run's z on the device: both guard zones, the `offset` elements before the
// pointer handed out (the misaligned variants: z = data() + offset), then z against `expected`
// (a device array of z.size() - offset floats) within kTolerance, on the device.
CheckResult verify_z(const float* expected, const GuardedBuffer<float>& z, std::size_t offset) {
    CheckResult r = z.check_guards();
    if (!r.ok) {
        // The guard check counts from the start of the allocation; z begins `offset` into it.
        if (offset > 0)
            r.message += "; z was handed out " + std::to_string(offset) + " element(s) into it, so index i there is z[i - " +
                         std::to_string(offset) + "]";
        return r;
    }
    if (offset > 0) {
        std::vector<float> head(offset);
        z.download(head.data(), offset);
        for (std::size_t i = 0; i < offset; ++i)
            if (!is_poison(head[i]))
                return CheckResult::fail("wrote z[" + std::to_string(static_cast<long>(i) - static_cast<long>(offset)) +
                                         "], before the start of z");
    }
    return compare_close_on_device(expected, z.data() + offset, z.size() - offset, kTolerance);
}

// The check of one from-host run: z's guard zones, then z against the expected output.
CheckResult verify_host_z(const std::vector<float>& expected, const GuardedHostArray& z) {
    CheckResult r = z.check_guards();
    if (!r.ok) return r;
    return compare_close(expected.data(), z.data(), z.size(), kTolerance);
}

// What the check's hints may name (check_hints.h): the block of 256 threads, one element each,
// that the starter suggests and the naive reference launches. (The vectorized reference's
// blocks of 2048 elements are left out: only a correct kernel uses them, and a student's tail
// from index 2^26 on would be named after them.)
HintContext saxpy_hint_context() { return {{{256, "block"}}, {}}; }

// Where a run stands in a timing of `t`, as time_checked names it: "warm-up run 1 of 1",
// "timed run 3 of 5".
std::string run_name(int index, const TimingOptions& t) {
    if (index < t.warmup) return format("warm-up run %d of %d", index + 1, t.warmup);
    return format("timed run %d of %d", index - t.warmup + 1, std::max(t.repeats, 1));
}

// time_host with every run checked, since time_host has no verify: the untimed prepare before
// each run first checks the run before it, then poisons; the last run is checked after the
// timing. `wrong` receives the first wrong run's result, named, else a pass.
Stats time_host_checked(const TimingOptions& t, const std::function<void()>& run, GuardedHostArray& z,
                        const std::vector<float>& expected, CheckResult& wrong) {
    wrong = CheckResult::pass(z.size());
    int runs_done = 0;
    auto check_last_run = [&] {
        if (runs_done == 0 || !wrong.ok) return;  // nothing ran yet, or a wrong run is already kept
        CheckResult r = verify_host_z(expected, z);
        if (!r.ok) {
            r.message = run_name(runs_done - 1, t) + ": " + r.message;
            wrong = r;
        }
    };
    const Stats ms = time_host(
        t,
        [&] {
            run();
            ++runs_done;
        },
        [&] {
            check_last_run();
            z.poison();
        });
    check_last_run();
    return ms;
}

}  // namespace

GuardedHostArray::GuardedHostArray(std::size_t n, bool pinned, std::string name)
    : n_(n),
      name_(std::move(name)),
      pinned_(pinned ? PinnedBuffer<float>(kGuard + n + kGuard) : PinnedBuffer<float>()),
      pageable_(pinned ? 0 : kGuard + n + kGuard) {
    base_ = pinned ? pinned_.data() : pageable_.data();
    poison();
}

void GuardedHostArray::poison() {
    std::memset(data(), 0xFF, n_ * sizeof(float));
    std::memset(base_, kGuardByte, kGuard * sizeof(float));
    std::memset(data() + n_, kGuardByte, kGuard * sizeof(float));
}

// GuardedBuffer::check_guards()'s rule and wording, for host memory.
CheckResult GuardedHostArray::check_guards() const {
    auto written = [this](std::size_t i) {  // element i of the allocation no longer holds the guard
        unsigned char bytes[sizeof(float)];
        std::memcpy(bytes, base_ + i, sizeof bytes);
        return std::any_of(bytes, bytes + sizeof bytes, [](unsigned char b) { return b != kGuardByte; });
    };
    std::size_t past = 0, before = 0;  // elements, up to the farthest one written
    for (std::size_t i = 0; i < kGuard; ++i)
        if (written(kGuard + n_ + i)) past = i + 1;
    for (std::size_t i = 0; i < kGuard && before == 0; ++i)
        if (written(i)) before = kGuard - i;
    auto elements = [](std::size_t k) { return std::to_string(k) + (k == 1 ? " element" : " elements"); };
    std::string message;
    if (past > 0)
        message = "wrote " + elements(past) + " past the end of " + name_ + " (index " + std::to_string(n_) +
                  (past > 1 ? " to " + std::to_string(n_ + past - 1) : "") + "; it has " + std::to_string(n_) +
                  " elements)";
    if (before > 0)
        message += std::string(message.empty() ? "wrote " : "; and ") + elements(before) + " before the start of " +
                   name_ + " (index -" + std::to_string(before) + (before > 1 ? " to -1" : "") + ")";
    if (message.empty()) return CheckResult::pass(n_);
    CheckResult r = CheckResult::fail(message + ", in host memory");
    r.hint = "a copy of the wrong length: z has n elements, copy n * sizeof(float) bytes back";
    return r;
}

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
        impl.in_place = saxpy_cublas_in_place;
    } else {
        throw std::logic_error("saxpy: no implementation named " + name);
    }
    return impl;
}

CheckResult check_case(const SaxpyImpl& impl, const Case& c, std::uint64_t seed) {
    const HintScope hint_scope(saxpy_hint_context());
    const std::size_t n = c.n;
    const Inputs in = make_inputs(n, c.dist, seed);
    const std::vector<float> expected = expected_output(in);

    if (c.variant == kFromHostPageable || c.variant == kFromHostPinned) {
        const bool pinned = c.variant == kFromHostPinned;
        PinnedBuffer<float> px(pinned ? n : 0), py(pinned ? n : 0);
        std::vector<float> vx, vy;
        float *hx, *hy;
        if (pinned) {
            std::copy(in.x.begin(), in.x.end(), px.data());
            std::copy(in.y.begin(), in.y.end(), py.data());
            hx = px.data(), hy = py.data();
        } else {
            vx = in.x, vy = in.y;
            hx = vx.data(), hy = vy.data();
        }
        GuardedHostArray hz(n, pinned, "z");  // poisoned, guards armed
        impl.from_host(n, in.a, hx, hy, hz.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult r = verify_host_z(expected, hz);
        if (!r.ok) return r;
        return check_inputs_unchanged(in, hx, hy);
    }

    std::size_t ox, oy, oz;
    offsets_for(c.variant, ox, oy, oz);
    DeviceBuffer<float> dx(n + ox), dy(n + oy), expected_dev;
    GuardedBuffer<float> dz(n + oz, "z");  // z = dz.data() + oz: the oz elements before it are checked too
    expected_dev.upload(expected);
    PMPP_CUDA_CHECK(cudaMemcpy(dx.data() + ox, in.x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    PMPP_CUDA_CHECK(cudaMemcpy(dy.data() + oy, in.y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dz.poison();
    impl.device(n, in.a, dx.data() + ox, dy.data() + oy, dz.data() + oz);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_z(expected_dev.data(), dz, oz);
    if (!r.ok) return r;
    std::vector<float> x(n + ox), y(n + oy);
    dx.download(x.data(), n + ox);
    dy.download(y.data(), n + oy);
    return check_inputs_unchanged(in, x.data() + ox, y.data() + oy);
}

std::vector<Measurement> bench_impl(const Impl& impl, const SaxpyImpl& fn, std::size_t n, BenchContext& ctx) {
    const HintScope hint_scope(saxpy_hint_context());  // every run's check reports as the check does
    const Inputs in = make_inputs(n, Distribution::Uniform, ctx.seed);
    const std::vector<float> expected = expected_output(in);
    const double bytes = 12.0 * static_cast<double>(n);
    std::vector<Measurement> rows;

    DeviceBuffer<float> dx, dy, expected_dev;
    GuardedBuffer<float> dz(n, "z");
    dx.upload(in.x);
    dy.upload(in.y);
    expected_dev.upload(expected);  // once, outside the timed region: every run is compared with it
    Measurement kernel;
    kernel.bytes = bytes;
    kernel.items = static_cast<double>(n);
    TimedCall call;
    if (fn.in_place) {
        // cuBLAS's in-place form: z = y restored untimed before each run; cublasSaxpy timed alone.
        call.prepare = [&] {
            dz.arm_guards();
            dz.copy_from_device(dy.data());
        };
        call.run = [&] { fn.in_place(n, in.a, dx.data(), dz.data()); };
    } else {
        call.prepare = [&] { dz.poison(); };
        call.run = [&] { fn.device(n, in.a, dx.data(), dy.data(), dz.data()); };
    }
    call.verify = [&] { return verify_z(expected_dev.data(), dz, 0); };
    kernel.record(time_checked(ctx.timing, &ctx.flusher, call));
    rows.push_back(kernel);

    if (!fn.from_host || (impl.kind != ImplKind::Student && impl.name != "vectorized")) return rows;

    // End to end from host memory, timed on the host (the function is synchronous).
    const TimingOptions t = ctx.slow_timing();
    for (bool pinned : {false, true}) {
        PinnedBuffer<float> px(pinned ? n : 0), py(pinned ? n : 0);
        GuardedHostArray hz(n, pinned, "z");
        const float* hx = pinned ? px.data() : in.x.data();
        const float* hy = pinned ? py.data() : in.y.data();
        if (pinned) {
            std::copy(in.x.begin(), in.x.end(), px.data());
            std::copy(in.y.begin(), in.y.end(), py.data());
        }
        Measurement e2e;
        e2e.section = "end to end from host memory (allocate, copy in, compute, copy out, free)";
        e2e.label = impl.name + (pinned ? " pinned" : " pageable");
        e2e.bytes = bytes;
        e2e.items = static_cast<double>(n);
        CheckResult wrong;
        e2e.ms = time_host_checked(t, [&] { fn.from_host(n, in.a, hx, hy, hz.data()); }, hz, expected, wrong);
        e2e.record_check(wrong);
        if (impl.name == "vectorized") {
            // Where the time goes: each phase alone, timed with events (the harness's own copies).
            DeviceBuffer<float> bx(n), by(n), bz(n);
            const Stats h2d = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(bx.data(), hx, n * sizeof(float), cudaMemcpyHostToDevice));
                PMPP_CUDA_CHECK(cudaMemcpy(by.data(), hy, n * sizeof(float), cudaMemcpyHostToDevice));
            });
            const Stats d2h = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(hz.data(), bz.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
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
    if (impl.kind != ImplKind::Cpu) return bench_impl(impl, impl_by_name(impl.name), n, ctx);
    const Inputs in = make_inputs(n, Distribution::Uniform, ctx.seed);
    std::vector<float> z(n);
    Measurement m;
    m.ms = time_host(ctx.slow_timing(), [&] { saxpy_cpu(n, in.a, in.x.data(), in.y.data(), z.data()); });
    m.bytes = 12.0 * static_cast<double>(n);
    m.items = static_cast<double>(n);
    m.note = "one CPU thread, for scale";
    return {m};
}

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------

// The most device memory one size holds at once: the benchmark of the student (the solution:
// "vectorized" and saxpy_from_host_with) and of "vectorized", during their end-to-end rows. The
// check holds less (x, y, z and the expected z: 16n bytes; from host memory, the from-host
// function's x, y, z: 12n), cuBLAS no more than bench_impl's four arrays (its handle's workspace
// is allocated once per process, by the first call, at the smallest size).
double saxpy_device_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);  // n floats
    return 2 * committed_device_bytes(array)                                    // x, y (bench_impl)
           + committed_device_bytes(array)                                  // the expected z, on the device for every run's check
           + committed_device_bytes(array + 2.0 * guard_bytes<float>())     // z between its guard zones (4 KiB each)
           + 3 * committed_device_bytes(array);  // end to end, while those four stay: the from-host function's own x, y, z,
                                    // then (freed, and allocated again) the phase timing's bx, by, bz: one set
                                    // of 3 x 4n at a time
}

// The most host memory one size holds at once: the end-to-end row from pinned memory (the student
// and "vectorized"). The row from pageable memory holds 16n (its z is a std::vector), the CPU's
// 12n; the check at most as much as here (from pinned memory: the same five arrays; from pageable
// memory: the inputs, the expected z, the vector copies of x and y, z; on the device: the
// inputs, the expected z and the copies of x and y read back, 20n).
double saxpy_host_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);
    return 2 * array                                // the inputs x and y (make_inputs)
           + array                                  // the expected z (the CPU reference's output)
           + 2 * array                              // the pinned copies of x and y (cudaMallocHost)
           + array + 2.0 * guard_bytes<float>();    // the pinned z between its guard zones (GuardedHostArray)
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
    // 28 bytes per element on the device, 24 on the host (saxpy_device_bytes, saxpy_host_bytes).
    def.device_bytes = [](std::size_t n, const Options&) { return saxpy_device_bytes(n); };
    def.host_bytes = [](std::size_t n, const Options&) { return saxpy_host_bytes(n); };
    return def;
}

}  // namespace saxpy
