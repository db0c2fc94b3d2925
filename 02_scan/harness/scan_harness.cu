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
#include <cmath>
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
    const bool in_place = c.in_place || (c.variant & kInPlace) != 0;
    const std::vector<int> input = scan_inputs::make(c.n, kind, seed);
    HintScope hints(scan_hint_context(input));
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
    const HintContext hint_context = scan_hint_context(input);
    GuardedBuffer<unsigned char> workspace(fn.workspace_bytes(n), "the workspace");
    GuardedBuffer<int> out(n, "out");
    TimedCall call;
    call.prepare = [&] {
        out.poison();
        workspace.poison();  // as in the check: nothing left from the run before
    };
    call.run = [&] { fn.run(in.data(), out.data(), n, workspace.data()); };
    call.verify = [&] {
        HintScope hints(hint_context);
        return verify_run(expected.data(), out, workspace);
    };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return m;
}

namespace {

std::vector<Case> scan_cases(const Options&) {
    std::vector<Case> cases = scan_inputs::cases(scan_inputs::kFullRange);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{4097}, (std::size_t{1} << 20) + 7})
        cases.push_back({"n=" + format_size(n) + " full-range in-place", n, Distribution::Uniform,
                         scan_inputs::kFullRange | kInPlace, /*in_place=*/true});
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

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------

// The largest workspace any implementation asks for at n: each one's own workspace_bytes(), so
// CUB's is its size query and the student's is what the student's scan asks for (the solution,
// like the Blelloch reference: the next power of two of n, 4 bytes each, up to 8n).
double largest_workspace(std::size_t n) {
    std::size_t most = 0;
    for (const char* name : {"student", "blelloch", "hierarchical", "single_pass", "cub"})
        most = std::max(most, impl_by_name(name).workspace_bytes(n));
    return static_cast<double>(most);
}

// The most device memory one size holds at once: one implementation's benchmark (bench_impl),
// with the largest workspace. The check holds the same buffers (in place, without `in`).
double scan_device_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);  // n ints
    return committed_device_bytes(array)                                                      // in
           + committed_device_bytes(array)                                                    // the expected scan, for every run's check
           + committed_device_bytes(array + 2.0 * guard_bytes<int>())                         // out between its guard zones (4 KiB each)
           + committed_device_bytes(largest_workspace(n) + 2.0 * guard_bytes<unsigned char>());  // the workspace, between guard zones
}

// The most host memory one size holds at once: the input and its expected scan (freed once
// uploaded), in the benchmark and in the check, where the input read back after the run takes
// the expected scan's place; the CPU's row holds the input and its output. While the input is
// drawn, scan_inputs::make holds it twice (the zeroed vector and generate()'s result).
double scan_host_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);
    return array      // the input
           + array;   // the expected scan; or the input read back; or the CPU's output
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
    // 16 bytes per element on the device at a power of two (Blelloch's workspace: 4n), up to 20
    // just above one; 8 on the host (scan_device_bytes, scan_host_bytes).
    def.device_bytes = [](std::size_t n, const Options&) { return scan_device_bytes(n); };
    def.host_bytes = [](std::size_t n, const Options&) { return scan_host_bytes(n); };
    return def;
}

}  // namespace scan
