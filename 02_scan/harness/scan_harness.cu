// scan_harness.cu: inputs, the check, the benchmark and the table of variants of exercise 02.
//
// What a scan may write, `out` (also the input, in place) and the workspace, lies between guard
// zones (OutputAndWorkspace); both are poisoned before every run and checked after every run, by
// one rule (verify_run): the check's one run, and every warm-up and timed run of the benchmark.
#include "scan_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/guarded_workspace.h"
#include "common/host_timing.h"

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
CheckResult verify_run(const int* expected, const OutputAndWorkspace<int>& buffers) {
    CheckResult r = buffers.check_guards();
    if (!r.ok) return r;
    return compare_exact_on_device(expected, buffers.output.data(), buffers.output.size());
}

// The case's input, and the CPU's scan of it (on the device, for every run's comparison).
ScanProblem make_problem(const ScanCase& c, std::uint64_t seed, const Options&) {
    ScanProblem p;
    p.input = scan_inputs::make(c.n, c.spec.kind, seed);
    std::vector<int> expected(c.n);
    exclusive_scan_cpu(p.input.data(), expected.data(), c.n);
    p.expected.upload(expected);
    p.hints = scan_hint_context(p.input);
    return p;
}

// One variant on one case, out and the workspace poisoned first, compared with the CPU exactly.
// A write outside either fails the case ("wrote 1 element past the end of out ...", "... before
// the start of the workspace ..."). Out of place, the input must be unchanged.
CheckResult check(const ScanExercise::Row& v, const ScanProblem& p, const ScanCase& c, const Options&) {
    const std::size_t n = p.input.size();
    HintScope hints(p.hints);
    OutputAndWorkspace<int> buffers(n, "out", v.fn.workspace_bytes(n));
    GuardedBuffer<int>& out = buffers.output;  // in place, it holds the input too
    buffers.poison();
    DeviceBuffer<int> in;
    if (c.in_place) {
        out.upload(p.input);
    } else {
        in.upload(p.input);
    }
    v.fn.run(c.in_place ? out.data() : in.data(), out.data(), n, buffers.workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_run(p.expected.data(), buffers);
    if (!r.ok || c.in_place) return r;
    if (!compare_exact(p.input, in.to_host()).ok)
        return CheckResult::fail("the input was modified by an out-of-place scan");
    return r;
}

// The row of one variant on a (full-range) problem: out and the workspace poisoned before every
// warm-up and timed run, checked after every one as check() checks; the first wrong run makes
// the row wrong, its message naming the run ("timed run 3 of 20: ...").
std::vector<Measurement> bench(const ScanExercise::Row& v, ScanProblem& p, std::size_t n, BenchContext& ctx) {
    const double bytes = 8.0 * static_cast<double>(n);  // read n ints, write n ints
    if (v.kind == ImplKind::Cpu) {
        std::vector<int> out(n);
        return {time_cpu_for_scale(ctx, bytes, n, [&] { exclusive_scan_cpu(p.input.data(), out.data(), n); })};
    }
    Measurement m;
    m.bytes = bytes;
    m.items = static_cast<double>(n);
    DeviceBuffer<int> in;
    in.upload(p.input);
    OutputAndWorkspace<int> buffers(n, "out", v.fn.workspace_bytes(n));
    TimedCall call;
    call.prepare = [&] { buffers.poison(); };  // as in the check: nothing left from the run before
    call.run = [&] { v.fn.run(in.data(), buffers.output.data(), n, buffers.workspace.data()); };
    call.verify = [&] {
        HintScope hints(p.hints);
        return verify_run(p.expected.data(), buffers);
    };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return {m};
}

// The most device memory one size holds at once: the size's problem (its expected scan) and one
// variant's benchmark, with the largest workspace (the solution's, like the Blelloch reference's:
// the next power of two of n, 4 bytes each, up to 8n). The check holds the same buffers (in
// place, without `in`). 16 bytes per element at a power of two, up to 20 just above one.
double scan_device_bytes(std::size_t n, const Options&) {
    const double array = 4.0 * static_cast<double>(n);  // n ints
    return 2 * committed_device_bytes(array)  // in; the expected scan, for every run's check
           + OutputAndWorkspace<int>::committed_bytes(n, largest_workspace(exercise().variants, n));
}

// The most host memory one size holds at once: the problem's input, and its expected scan while
// it is made (freed once uploaded); in the check the input read back takes its place; the CPU's
// row holds its own output. 8 bytes per element.
double scan_host_bytes(std::size_t n, const Options&) { return 2 * 4.0 * static_cast<double>(n); }

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
        {"persistent",
         ImplKind::Reference,
         "single pass, resident blocks that load their next tiles while they wait (scan_4_persistent.cu)",
         {scan_persistent_workspace_bytes, exclusive_scan_persistent}},
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
    ex.make_problem = make_problem;
    ex.check = check;
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        return make_problem(make_case(n), ctx.seed, ctx.opts);
    };
    ex.bench = bench;
    ex.device_bytes = scan_device_bytes;
    ex.host_bytes = scan_host_bytes;
    return ex;
}

}  // namespace

const ScanExercise& exercise() {
    static const ScanExercise ex = make_exercise();
    return ex;
}

}  // namespace scan
