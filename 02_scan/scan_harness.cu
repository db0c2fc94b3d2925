// scan_harness.cu: inputs, the check and the benchmark of exercise 02.
#include "scan_harness.h"
#include "scan_inputs.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

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

}  // namespace

CheckResult check_case(const ScanImpl& impl, const Case& c, std::uint64_t seed) {
    const auto kind = static_cast<scan_inputs::Kind>(c.variant & scan_inputs::kKindMask);
    const bool in_place = (c.variant & kInPlace) != 0;
    const std::vector<int> input = scan_inputs::make(c.n, kind, seed);
    const std::vector<int> expected = expected_scan(input);

    DeviceBuffer<unsigned char> workspace(impl.workspace_bytes(c.n));
    workspace.poison();  // an implementation must not rely on zeroed scratch memory
    DeviceBuffer<int> in, out(c.n);
    if (in_place) {
        out.upload(input);
    } else {
        in.upload(input);
        out.poison();
    }
    impl.run(in_place ? out.data() : in.data(), out.data(), c.n, workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = compare_exact(expected, out.to_host());
    if (!r.ok || in_place) return r;
    if (!compare_exact(input, in.to_host()).ok) return CheckResult::fail("the input was modified by an out-of-place scan");
    return r;
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
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kFullRange, ctx.seed);
    const std::vector<int> expected = expected_scan(input);
    Measurement m;
    m.bytes = 8.0 * static_cast<double>(n);  // read n ints, write n ints
    m.items = static_cast<double>(n);
    if (impl.kind == ImplKind::Cpu) {
        std::vector<int> out(n);
        const TimingOptions t = ctx.slow_timing();
        m.ms = time_host(t, [&] { exclusive_scan_cpu(input.data(), out.data(), n); });
        m.note = "one CPU thread, for scale";
        return {m};
    }
    const ScanImpl fn = impl_by_name(impl.name);
    DeviceBuffer<unsigned char> workspace(fn.workspace_bytes(n));
    DeviceBuffer<int> in, out(n);
    in.upload(input);
    out.poison();
    m.ms = time_device(ctx.timing, &ctx.flusher, [&] { fn.run(in.data(), out.data(), n, workspace.data()); });
    const CheckResult r = compare_exact(expected, out.to_host());
    m.record_check(r);
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
    // in + out + the largest workspace (Blelloch: the next power of two, up to 2n).
    def.device_bytes = [](std::size_t n) { return 16.0 * static_cast<double>(n) + (1 << 20); };
    return def;
}

}  // namespace scan
