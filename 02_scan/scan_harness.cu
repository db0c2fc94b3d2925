// scan_harness.cu: inputs, the check and the benchmark of exercise 02.
//
// What a scan may write, `out` (also the input, in place) and the workspace, lies between guard
// zones; both are poisoned before every run and checked after every run, by one rule
// (verify_run): the check's one run, and every warm-up and timed run of the benchmark.
#include "scan_harness.h"
#include "scan_inputs.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"

#include <algorithm>
#include <vector>

namespace scan {

using namespace pmpp;

ScanImpl impl_by_name(const std::string& name) {
    if (name == "student") return {scan_student_workspace_bytes, exclusive_scan_student};
    if (name == "blelloch") return {scan_blelloch_workspace_bytes, exclusive_scan_blelloch};
    if (name == "hierarchical") return {scan_hierarchical_workspace_bytes, exclusive_scan_hierarchical};
    if (name == "single_pass") return {scan_single_pass_workspace_bytes, exclusive_scan_single_pass};
    if (name == "cub") return {scan_cub_workspace_bytes, exclusive_scan_cub};
    throw std::logic_error("scan: no implementation named " + name);
}

namespace {

std::vector<int> expected_scan(const std::vector<int>& in) {
    std::vector<int> out(in.size());
    exclusive_scan_cpu(in.data(), out.data(), in.size());
    return out;
}

// The check of one run: the guard zones of out and of the workspace (a write past either end),
// then out against `expected` (a device array of out.size() ints), exactly, on the device.
CheckResult verify_run(const int* expected, const GuardedBuffer<int>& out, const GuardedBuffer<unsigned char>& workspace) {
    CheckResult r = out.check_guards();
    if (!r.ok) return r;
    r = workspace.check_guards();
    if (!r.ok) return r;
    return compare_exact_on_device(expected, out.data(), out.size());
}

}  // namespace

CheckResult check_case(const ScanImpl& impl, const Case& c, std::uint64_t seed) {
    const auto kind = static_cast<scan_inputs::Kind>(c.variant & scan_inputs::kKindMask);
    const bool in_place = (c.variant & kInPlace) != 0;
    const std::vector<int> input = scan_inputs::make(c.n, kind, seed);
    DeviceBuffer<int> expected;
    expected.upload(expected_scan(input));

    GuardedBuffer<unsigned char> workspace(impl.workspace_bytes(c.n), "the workspace");
    workspace.poison();  // an implementation must not rely on zeroed scratch memory
    DeviceBuffer<int> in;
    GuardedBuffer<int> out(c.n, "out");  // in place, it holds the input too
    if (in_place) {
        out.upload(input);
    } else {
        in.upload(input);
        out.poison();
    }
    impl.run(in_place ? out.data() : in.data(), out.data(), c.n, workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_run(expected.data(), out, workspace);
    if (!r.ok || in_place) return r;
    if (!compare_exact(input, in.to_host()).ok) return CheckResult::fail("the input was modified by an out-of-place scan");
    return r;
}

Measurement bench_impl(const ScanImpl& fn, std::size_t n, BenchContext& ctx) {
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kFullRange, ctx.seed);
    Measurement m;
    m.bytes = 8.0 * static_cast<double>(n);  // read n ints, write n ints
    m.items = static_cast<double>(n);
    DeviceBuffer<int> in, expected;
    in.upload(input);
    expected.upload(expected_scan(input));  // once, outside the timed region: every run is compared with it
    GuardedBuffer<unsigned char> workspace(fn.workspace_bytes(n), "the workspace");
    GuardedBuffer<int> out(n, "out");
    TimedCall call;
    call.prepare = [&] {
        out.poison();
        workspace.poison();  // as in the check: nothing left from the run before
    };
    call.run = [&] { fn.run(in.data(), out.data(), n, workspace.data()); };
    call.verify = [&] { return verify_run(expected.data(), out, workspace); };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return m;
}

namespace {

std::vector<Case> scan_cases(const Options&) {
    std::vector<Case> cases = scan_inputs::cases(scan_inputs::kFullRange);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{4097}, (std::size_t{1} << 20) + 7})
        cases.push_back({"n=" + format_size(n) + " full-range in-place", n, Distribution::Uniform,
                         scan_inputs::kFullRange | kInPlace});
    return cases;
}

std::vector<Measurement> scan_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    if (impl.kind != ImplKind::Cpu) return {bench_impl(impl_by_name(impl.name), n, ctx)};
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kFullRange, ctx.seed);
    std::vector<int> out(n);
    Measurement m;
    m.bytes = 8.0 * static_cast<double>(n);
    m.items = static_cast<double>(n);
    m.ms = time_host(ctx.slow_timing(), [&] { exclusive_scan_cpu(input.data(), out.data(), n); });
    m.note = "one CPU thread, for scale";
    return {m};
}

}  // namespace

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "02_scan";
    def.title = "exclusive scan of int32 (PMPP chapter 11)";
    def.impls = {
        {"student", ImplKind::Student, "your scan_student.cu (Blelloch, one launch per level)"},
        {"blelloch", ImplKind::Reference, "up-sweep/down-sweep in global memory, one launch per level (scan_1_blelloch.cu)"},
        {"hierarchical", ImplKind::Reference, "tiles scanned in shared memory, tile sums scanned, added back (scan_2_hierarchical.cu)"},
        {"single_pass", ImplKind::Reference, "one pass, decoupled look-back, 16-byte vectors (scan_3_single_pass.cu)"},
        {"cub", ImplKind::Library, "cub::DeviceScan::ExclusiveSum (scan_cub.cu)"},
        {"cpu", ImplKind::Cpu, "a running sum: the definition of correct (scan_cpu.cpp)"},
    };
    def.baseline = "cub";
    def.items_unit = "Gelem/s";
    def.max_size = std::size_t{1} << 31;
    def.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};
    def.cases = scan_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl_by_name(impl.name), c, seed);
    };
    def.bench = scan_bench;
    // in + out + the expected out the benchmark compares every run with + the largest workspace
    // (Blelloch: the next power of two, up to 2n); guard zones are a few KiB.
    def.device_bytes = [](std::size_t n) { return 20.0 * static_cast<double>(n) + (1 << 20); };
    return def;
}

}  // namespace scan
