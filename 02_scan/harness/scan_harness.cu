// scan_harness.cu: inputs, the check and the benchmark of exercise 02.
//
// What a scan may write, `out` (also the input, in place) and the workspace, lies between guard
// zones; both are poisoned before every run and checked after every run, by one rule
// (verify_run): the check's one run, and every warm-up and timed run of the benchmark.
#include "scan_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"

#include <algorithm>

namespace scan {

using namespace pmpp;

namespace {

// What the hints of a failed check name (check_hints.h): the blocks of 256 threads the Blelloch
// levels launch (the reference answer's), the tiles of the fast variants, and the total of the
// input, which a down-sweep from a root left unset adds to every element.
HintContext scan_hint_context(const std::vector<int>& input) {
    unsigned total = 0;  // wraps around, as the scan's sums do
    for (int x : input) total += static_cast<unsigned>(x);
    HintContext ctx;
    ctx.boundaries = {{256, "block"}, {2048, "hierarchical-scan tile"}, {8192, "single-pass tile"}};
    ctx.quantities = {{static_cast<double>(static_cast<int>(total)), "the total of the input"}};
    return ctx;
}

// The check of one run: the guard zones of out and of the workspace (a write past either end),
// then out against `expected` (a device array of out.size() ints), exactly, on the device.
CheckResult verify_run(const int* expected, const GuardedBuffer<int>& out,
                       const GuardedBuffer<unsigned char>& workspace) {
    CheckResult r = out.check_guards();
    if (!r.ok) return r;
    r = workspace.check_guards();
    if (!r.ok) return r;
    return compare_exact_on_device(expected, out.data(), out.size());
}

}  // namespace

ScanProblem make_problem(std::size_t n, scan_inputs::Kind kind, std::uint64_t seed) {
    ScanProblem p;
    p.input = scan_inputs::make(n, kind, seed);
    std::vector<int> expected(n);
    exclusive_scan_cpu(p.input.data(), expected.data(), n);
    p.expected.upload(expected);
    p.hints = scan_hint_context(p.input);
    return p;
}

CheckResult check(const ScanFn& fn, const ScanProblem& p, bool in_place) {
    const std::size_t n = p.input.size();
    HintScope hints(p.hints);
    GuardedBuffer<unsigned char> workspace(fn.workspace_bytes(n), "the workspace");
    workspace.poison();  // an implementation must not rely on zeroed scratch memory
    DeviceBuffer<int> in;
    GuardedBuffer<int> out(n, "out");  // in place, it holds the input too
    if (in_place) {
        out.upload(p.input);
    } else {
        in.upload(p.input);
        out.poison();
    }
    fn.run(in_place ? out.data() : in.data(), out.data(), n, workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_run(p.expected.data(), out, workspace);
    if (!r.ok || in_place) return r;
    if (!compare_exact(p.input, in.to_host()).ok)
        return CheckResult::fail("the input was modified by an out-of-place scan");
    return r;
}

Measurement bench(const ScanFn& fn, const ScanProblem& p, BenchContext& ctx) {
    const std::size_t n = p.input.size();
    Measurement m;
    m.bytes = 8.0 * static_cast<double>(n);  // read n ints, write n ints
    m.items = static_cast<double>(n);
    DeviceBuffer<int> in;
    in.upload(p.input);
    GuardedBuffer<unsigned char> workspace(fn.workspace_bytes(n), "the workspace");
    GuardedBuffer<int> out(n, "out");
    TimedCall call;
    call.prepare = [&] {
        out.poison();
        workspace.poison();  // as in the check: nothing left from the run before
    };
    call.run = [&] { fn.run(in.data(), out.data(), n, workspace.data()); };
    call.verify = [&] {
        HintScope hints(p.hints);
        return verify_run(p.expected.data(), out, workspace);
    };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return m;
}

ScanCase make_case(std::size_t n, scan_inputs::Kind kind, bool in_place) {
    return scan_inputs::case_of<ScanSpec>(n, kind, in_place);
}

namespace {

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------

// The largest workspace any variant asks for at n: each one's own workspace_bytes(), so CUB's is
// its size query and the student's is what the student's scan asks for (the solution, like the
// Blelloch reference: the next power of two of n, 4 bytes each, up to 8n).
double largest_workspace(const ScanExercise& ex, std::size_t n) {
    std::size_t most = 0;
    for (const auto& v : ex.variants)
        if (v.fn.workspace_bytes) most = std::max(most, v.fn.workspace_bytes(n));
    return static_cast<double>(most);
}

// The most device memory one size holds at once: the size's problem (its expected scan) and one
// variant's benchmark, with the largest workspace. The check holds the same buffers (in place,
// without `in`).
double scan_device_bytes(const ScanExercise& ex, std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);  // n ints
    return committed_device_bytes(array)  // in
           + committed_device_bytes(array)  // the expected scan, for every run's check
           + committed_device_bytes(array + 2.0 * guard_bytes<int>())  // out between its guard zones (4 KiB each)
           + committed_device_bytes(largest_workspace(ex, n) + 2.0 * guard_bytes<unsigned char>());  // the workspace
}

// The most host memory one size holds at once: the problem's input, and its expected scan while
// it is made (freed once uploaded); in the check the input read back takes its place; the CPU's
// row holds its own output.
double scan_host_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);
    return array  // the input
           + array;  // the expected scan; or the input read back; or the CPU's output
}

ScanExercise make_exercise() {
    ScanExercise ex;
    ex.id = "02_scan";
    ex.title = "exclusive scan of int32 (PMPP chapter 11)";
    ex.variants = {
        {"student",
         ImplKind::Student,
         "your scan_student.cu (Blelloch, one launch per level)",
         {scan_student_workspace_bytes, exclusive_scan_student}},
        {"blelloch",
         ImplKind::Reference,
         "up-sweep/down-sweep in global memory, one launch per level (scan_1_blelloch.cu)",
         {scan_blelloch_workspace_bytes, exclusive_scan_blelloch}},
        {"hierarchical",
         ImplKind::Reference,
         "tiles scanned in shared memory, tile sums scanned, added back (scan_2_hierarchical.cu)",
         {scan_hierarchical_workspace_bytes, exclusive_scan_hierarchical}},
        {"single_pass",
         ImplKind::Reference,
         "one pass, decoupled look-back, 16-byte vectors (scan_3_single_pass.cu)",
         {scan_single_pass_workspace_bytes, exclusive_scan_single_pass}},
        {"cub",
         ImplKind::Library,
         "cub::DeviceScan::ExclusiveSum (scan_cub.cu)",
         {scan_cub_workspace_bytes, exclusive_scan_cub}},
        {"cpu", ImplKind::Cpu, "a running sum: the definition of correct (scan_cpu.cpp)", {}},
    };
    ex.baseline = "cub";
    ex.max_size = std::size_t{1} << 31;
    ex.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};
    ex.cases = [](const Options&) {
        std::vector<ScanCase> cases = scan_inputs::cases<ScanSpec>(scan_inputs::kFullRange);
        for (std::size_t n :
             {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{4097}, (std::size_t{1} << 20) + 7})
            cases.push_back(make_case(n, scan_inputs::kFullRange, /*in_place=*/true));
        return cases;
    };
    ex.describe = [](const ScanCase& c) {
        return std::string(scan_inputs::name(c.spec.kind)) + (c.in_place ? " in-place" : "");
    };
    ex.make_problem = [](const ScanCase& c, std::uint64_t seed, const Options&) {
        return make_problem(c.n, c.spec.kind, seed);
    };
    ex.check = [](const ScanExercise::Row& v, const ScanProblem& p, const ScanCase& c, const Options&) {
        return check(v.fn, p, c.in_place);
    };
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        return make_problem(n, scan_inputs::kFullRange, ctx.seed);
    };
    ex.bench = [](const ScanExercise::Row& v, ScanProblem& p, std::size_t n,
                  BenchContext& ctx) -> std::vector<Measurement> {
        if (v.kind != ImplKind::Cpu) return {bench(v.fn, p, ctx)};
        std::vector<int> out(n);
        Measurement m;
        m.bytes = 8.0 * static_cast<double>(n);
        m.items = static_cast<double>(n);
        m.ms = time_host(ctx.slow_timing(), [&] { exclusive_scan_cpu(p.input.data(), out.data(), n); });
        m.note = "one CPU thread, for scale";
        return {m};
    };
    // 16 bytes per element on the device at a power of two (Blelloch's workspace: 4n), up to 20
    // just above one; 8 on the host.
    ex.device_bytes = [](std::size_t n, const Options&) { return scan_device_bytes(exercise(), n); };
    ex.host_bytes = [](std::size_t n, const Options&) { return scan_host_bytes(n); };
    return ex;
}

}  // namespace

const ScanExercise& exercise() {
    static const ScanExercise ex = make_exercise();
    return ex;
}

}  // namespace scan
