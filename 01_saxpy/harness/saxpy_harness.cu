// saxpy_harness.cu: inputs, the check, the benchmark and the table of variants of exercise 01.
//
// Every z the harness hands to an implementation, in device or host memory, lies between two
// guard zones (GuardedBuffer on the device, GuardedHostArray<float> on the host), is poisoned
// before every run and checked after every run: the check's one run, and every warm-up and
// timed run of the benchmark (verify_z, the same rule for both).
#include "saxpy_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/guarded_host_array.h"
#include "common/host_timing.h"
#include "common/report.h"

#include <algorithm>
#include <string>
#include <vector>

namespace saxpy {

using namespace pmpp;

namespace {

// The tolerance of the check: GPUs fuse a * x + y into one FMA (one rounding), the CPU
// rounds twice; inputs lie in [-1, 1) and |a| < 4, so |z| < 5 and the two differ by at most
// an ulp of 4, about 5e-7.
constexpr Tolerance kTolerance{2e-6, 1e-6};

using HostArray = GuardedHostArray<float>;

bool is_from_host(Memory m) { return m == kFromHostPageable || m == kFromHostPinned; }

// Per Memory: the words a case's label adds after its distribution, and the element offsets of
// x, y and z inside their allocations.
struct MemoryLayout {
    const char* words;
    std::size_t x, y, z;
};
constexpr MemoryLayout kLayouts[] = {
    {"", 0, 0, 0},
    {" misaligned+1", 1, 1, 1},
    {" misaligned+1/+2/+3", 1, 2, 3},
    {" from-host pageable", 0, 0, 0},
    {" from-host pinned", 0, 0, 0},
};

// a on [-4, 4) in steps of 2^-21, never 0; x and y from the case's distribution; the CPU's z,
// also on the device unless the case is from host memory (every device-memory run is compared
// with it there).
SaxpyProblem make_problem(const SaxpyCase& c, std::uint64_t seed, const Options&) {
    SaxpyProblem p;
    Rng rng(derive_seed(seed, 0xA));
    do p.a = rng.signed_unit_float() * 4.0f;
    while (p.a == 0.0f);
    p.x = generate<float>(c.n, c.dist, derive_seed(seed, 1));
    p.y = generate<float>(c.n, c.dist, derive_seed(seed, 2));
    p.expected.resize(c.n);
    saxpy_cpu(c.n, p.a, p.x.data(), p.y.data(), p.expected.data());
    if (!is_from_host(c.spec.memory)) p.expected_dev.upload(p.expected);
    return p;
}

// x and y: what the arrays handed out hold after the run (host memory, n floats each). Compared
// in place, without copies: at n = 2^28 a copy of both would be 2 GiB more host memory.
CheckResult check_inputs_unchanged(const SaxpyProblem& p, const float* x, const float* y) {
    const std::size_t n = p.x.size();
    if (compare_exact(p.x.data(), x, n).ok && compare_exact(p.y.data(), y, n).ok) return CheckResult::pass(n);
    return CheckResult::fail("the inputs x or y were modified: only z may be written");
}

// The check of one run's z on the device: both guard zones, the `offset` elements before the
// pointer handed out (the misaligned variants: z = data() + offset), then z against `expected`
// (a device array of z.size() - offset floats) within kTolerance, on the device.
CheckResult verify_z(const float* expected, const GuardedBuffer<float>& z, std::size_t offset) {
    CheckResult r = z.check_guards();
    if (!r.ok) {
        // The guard check counts from the start of the allocation; z begins `offset` into it.
        if (offset > 0)
            r.message += "; z was handed out " + std::to_string(offset) +
                         " element(s) into it, so index i there is z[i - " + std::to_string(offset) + "]";
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
CheckResult verify_host_z(const std::vector<float>& expected, const HostArray& z) {
    CheckResult r = z.check_guards();
    if (r.ok) return compare_close(expected.data(), z.data(), z.size(), kTolerance);
    r.hint = "a copy of the wrong length: z has n elements, copy n * sizeof(float) bytes back";
    return r;
}

// What the check's hints may name (check_hints.h): the block of 256 threads, one element each,
// that the starter suggests and the naive reference launches. (The vectorized reference's
// blocks of 2048 elements are left out: only a correct kernel uses them, and a student's tail
// from index 2^26 on would be named after them.)
HintContext saxpy_hint_context() { return {{{256, "block"}}, {}}; }

// One variant on one case, z poisoned first, compared with the CPU's within kTolerance. z
// (device or host memory) lies between guard zones: a write outside it fails the case ("wrote
// 1 element past the end of z ..."), as does a write into the offset before a misaligned z.
// Also fails when the inputs x or y were modified.
CheckResult check(const SaxpyExercise::Row& v, const SaxpyProblem& p, const SaxpyCase& c, const Options&) {
    const SaxpyFn& fn = v.fn;
    const HintScope hint_scope(saxpy_hint_context());
    const std::size_t n = c.n;
    if (is_from_host(c.spec.memory)) {
        const bool pinned = c.spec.memory == kFromHostPinned;
        const HostArray hx(p.x, pinned, "x"), hy(p.y, pinned, "y");  // copies: the problem stays as made
        HostArray hz(n, pinned, "z");  // poisoned, guards armed
        fn.from_host(n, p.a, hx.data(), hy.data(), hz.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult r = verify_host_z(p.expected, hz);
        if (!r.ok) return r;
        return check_inputs_unchanged(p, hx.data(), hy.data());
    }
    const MemoryLayout& o = kLayouts[c.spec.memory];
    DeviceBuffer<float> dx(n + o.x), dy(n + o.y);
    GuardedBuffer<float> dz(n + o.z, "z");  // z = dz.data() + o.z: the o.z elements before it are checked too
    PMPP_CUDA_CHECK(cudaMemcpy(dx.data() + o.x, p.x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    PMPP_CUDA_CHECK(cudaMemcpy(dy.data() + o.y, p.y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dz.poison();
    fn.device(n, p.a, dx.data() + o.x, dy.data() + o.y, dz.data() + o.z);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_z(p.expected_dev.data(), dz, o.z);
    if (!r.ok) return r;
    const std::vector<float> x = dx.to_host(), y = dy.to_host();  // n + o.x and n + o.y floats
    return check_inputs_unchanged(p, x.data() + o.x, y.data() + o.y);
}

// The rows of one variant at size n: the kernel row, and when its Fn says so the end-to-end rows
// from host memory (pageable and pinned), with where that time goes. z is poisoned before every
// warm-up and timed run and checked after every one (its guard zones, then its values, on the
// device for the kernel row); the first wrong run makes the row wrong, its message naming the
// run ("timed run 3 of 20: ...").
std::vector<Measurement> bench(const SaxpyExercise::Row& v, SaxpyProblem& p, std::size_t n, BenchContext& ctx) {
    const double bytes = 12.0 * static_cast<double>(n);
    if (v.kind == ImplKind::Cpu) {
        std::vector<float> z(n);
        return {time_cpu_for_scale(ctx, bytes, n, [&] { saxpy_cpu(n, p.a, p.x.data(), p.y.data(), z.data()); })};
    }
    const SaxpyFn& fn = v.fn;
    const HintScope hint_scope(saxpy_hint_context());  // every run's check reports as the check does
    std::vector<Measurement> rows;

    DeviceBuffer<float> dx, dy;
    GuardedBuffer<float> dz(n, "z");
    dx.upload(p.x);
    dy.upload(p.y);
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
        call.run = [&] { fn.in_place(n, p.a, dx.data(), dz.data()); };
    } else {
        call.prepare = [&] { dz.poison(); };
        call.run = [&] { fn.device(n, p.a, dx.data(), dy.data(), dz.data()); };
    }
    call.verify = [&] { return verify_z(p.expected_dev.data(), dz, 0); };
    kernel.record(time_checked(ctx.timing, &ctx.flusher, call));
    rows.push_back(kernel);

    const std::string end_to_end = "end to end from host memory (allocate, copy in, compute, copy out, free)";
    // Untimed when the run asks for another table (the grader's --section kernel): at 2^26 these
    // rows are most of the benchmark's time, pageable copies and pinned allocations.
    if (!fn.from_host || fn.end_to_end == kKernelOnly || !ctx.times_section(end_to_end)) return rows;

    // End to end from host memory, timed on the host (the function is synchronous).
    const TimingOptions t = ctx.slow_timing();
    for (bool pinned : {false, true}) {
        const HostArray hx(p.x, pinned, "x"), hy(p.y, pinned, "y");  // as in the check
        HostArray hz(n, pinned, "z");
        Measurement e2e;
        e2e.section = end_to_end;
        e2e.label = v.name + (pinned ? " pinned" : " pageable");
        e2e.bytes = bytes;
        e2e.items = static_cast<double>(n);
        TimedCall host_call;
        host_call.prepare = [&] { hz.poison(); };
        host_call.run = [&] { fn.from_host(n, p.a, hx.data(), hy.data(), hz.data()); };
        host_call.verify = [&] { return verify_host_z(p.expected, hz); };
        e2e.record(time_host_checked(t, host_call));
        if (fn.end_to_end == kEndToEndWithPhases) {
            // Where the time goes: each phase alone, timed with events (the harness's own copies).
            DeviceBuffer<float> bx(n), by(n), bz(n);
            const Stats h2d = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(bx.data(), hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
                PMPP_CUDA_CHECK(cudaMemcpy(by.data(), hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
            });
            const Stats d2h = time_device(t, nullptr, [&] {
                PMPP_CUDA_CHECK(cudaMemcpy(hz.data(), bz.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
            });
            e2e.note = format(
                "copy in %.2f ms (%.1f GB/s), kernel %.3f ms, copy out %.2f ms (%.1f GB/s): the kernel is "
                "%.1f%% of the whole",
                h2d.median, gigabytes_per_second(8.0 * n, h2d.median), kernel.ms.median, d2h.median,
                gigabytes_per_second(4.0 * n, d2h.median), 100.0 * kernel.ms.median / std::max(e2e.ms.median, 1e-9));
        }
        rows.push_back(e2e);
    }
    return rows;
}

std::vector<SaxpyCase> saxpy_cases(const Options&) {
    // Every power-of-two edge up to 2^20, then large sizes past 2^24 and 2^26; the other
    // distributions at two sizes; misaligned pointers; the from-host function.
    std::vector<std::size_t> sizes = edge_sizes({2, 5, 8, 10, 16, 20});
    sizes.push_back((std::size_t{1} << 24) + 1);
    sizes.push_back((std::size_t{1} << 26) + 3);
    std::vector<SaxpyCase> cases;
    for (std::size_t n : sizes) cases.push_back(make_case(n));
    for (Distribution d : {Distribution::FewDistinct, Distribution::AllEqual, Distribution::Sorted})
        for (std::size_t n : {std::size_t{1000}, (std::size_t{1} << 20) + 1})
            cases.push_back(make_case(n, kAligned, d));
    for (Memory m : {kMisalignedSame, kMisalignedMixed})
        for (std::size_t n :
             {std::size_t{1}, std::size_t{3}, std::size_t{255}, std::size_t{4097}, (std::size_t{1} << 20) + 3})
            cases.push_back(make_case(n, m));
    for (Memory m : {kFromHostPageable, kFromHostPinned})
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{257}, (std::size_t{1} << 20) + 1})
            cases.push_back(make_case(n, m));
    return cases;
}

// ---- The variants ------------------------------------------------------------------------------

// A device-pointer variant from host memory: the reference answer to task 3 around it.
template <SaxpyDeviceFn F>
void from_host_of(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(F, n, a, x, y, z);
}

// cuBLAS as the check calls it: z receives y first (the check counts that copy as part of the call).
void cublas_on_a_copy_of_y(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n) PMPP_CUDA_CHECK(cudaMemcpy(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice));
    saxpy_cublas_in_place(n, a, x, z);
}

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------

// The most device memory one size holds at once: the problem's expected z and the benchmark of
// the student (the solution: "vectorized" and saxpy_from_host_with) or of "vectorized", during an
// end-to-end row. The check holds less (x, y, z and the expected z: 16n bytes; from host memory,
// the from-host function's x, y, z: 12n), cuBLAS no more than the kernel row (its handle's
// workspace is allocated once per process, by the first call, at the smallest size).
double saxpy_device_bytes(std::size_t n, const Options&) {
    const double array = 4.0 * static_cast<double>(n);  // n floats
    return 3 * committed_device_bytes(array)  // the kernel row's x and y; the expected z
           + committed_device_bytes(array + 2.0 * guard_bytes<float>())  // z between its guard zones (4 KiB each)
           // end to end, while those four stay: the from-host function's own x, y, z, then (freed
           // first) the phase timing's bx, by, bz
           + 3 * committed_device_bytes(array);
}

// The most host memory one size holds at once: an end-to-end row (the student and "vectorized"),
// from pageable or pinned memory alike. The CPU's row holds 16n (the problem and its own z); the
// check at most as much as here (from host memory: the same six arrays; on the device: the
// problem and the copies of x and y read back, 20n).
double saxpy_host_bytes(std::size_t n, const Options&) {
    const double array = 4.0 * static_cast<double>(n);
    return 3 * array  // the problem's x, y and expected z
           + 3 * (array + 2.0 * guard_bytes<float>());  // the run's copies of x and y, and z (GuardedHostArray)
}

SaxpyExercise make_exercise() {
    SaxpyExercise ex;
    ex.id = "01_saxpy";
    ex.title = "SAXPY, z = a * x + y (PMPP chapter 2)";
    ex.variants = {
        {"student",
         ImplKind::Student,
         "your saxpy_student.cu",
         {saxpy_student, saxpy_student_from_host, nullptr, kEndToEnd}},
        {"naive",
         ImplKind::Reference,
         "one thread per element, 4-byte accesses (saxpy_1_naive.cu)",
         {saxpy_naive, from_host_of<saxpy_naive>}},
        {"vectorized",
         ImplKind::Reference,
         "float4, two per thread per array, any alignment (saxpy_2_vectorized.cu)",
         {saxpy_vectorized, from_host_of<saxpy_vectorized>, nullptr, kEndToEndWithPhases}},
        {"cublas",
         ImplKind::Library,
         "cublasSaxpy, in place on a copy of y (saxpy_cublas.cu)",
         {cublas_on_a_copy_of_y, from_host_of<cublas_on_a_copy_of_y>, saxpy_cublas_in_place}},
        {"cpu", ImplKind::Cpu, "a plain loop: the definition of correct (saxpy_cpu.cpp)", {}},
    };
    ex.baseline = "cublas";  // items in Gelem/s, sizes up to 2^32: the defaults
    ex.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};
    ex.cases = saxpy_cases;
    ex.describe = [](const SaxpyCase& c) { return std::string(to_string(c.dist)) + kLayouts[c.spec.memory].words; };
    ex.make_problem = make_problem;
    ex.check = check;
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        return make_problem(make_case(n), ctx.seed, ctx.opts);
    };
    ex.bench = bench;
    ex.device_bytes = saxpy_device_bytes;  // 28 bytes per element
    ex.host_bytes = saxpy_host_bytes;  // 24 bytes per element
    return ex;
}

}  // namespace

const SaxpyExercise& exercise() {
    static const SaxpyExercise ex = make_exercise();
    return ex;
}

}  // namespace saxpy
