// find_repeats_harness.cu: inputs, the check and the benchmark of exercise 03.
#include "find_repeats_harness.h"

#include "../02_scan/scan_inputs.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

#include <algorithm>
#include <vector>

namespace find_repeats {

using namespace pmpp;

RepeatsImpl impl_by_name(const std::string& name) {
    if (name == "student") return {find_repeats_student_workspace_bytes, find_repeats_student};
    if (name == "scan") return {find_repeats_scan_workspace_bytes, find_repeats_scan};
    if (name == "fused") return {find_repeats_fused_workspace_bytes, find_repeats_fused};
    if (name == "cub") return {find_repeats_cub_workspace_bytes, find_repeats_cub};
    throw std::logic_error("find_repeats: no implementation named " + name);
}

namespace {

struct Expected {
    std::vector<int> indices;  // exactly count entries
};

Expected expected_repeats(const std::vector<int>& a) {
    Expected e;
    e.indices.resize(a.size());
    e.indices.resize(find_repeats_cpu(a.data(), a.size(), e.indices.data()));
    return e;
}

// Compares the returned count and the output buffer (room for n) with the expected indices.
CheckResult compare_output(const Expected& e, std::size_t count, const std::vector<int>& out) {
    if (count != e.indices.size())
        return CheckResult::fail("count: expected " + std::to_string(e.indices.size()) + ", got " + std::to_string(count));
    CheckResult r = compare_exact(e.indices.data(), out.data(), count);
    if (!r.ok) {
        if (std::is_permutation(e.indices.begin(), e.indices.end(), out.begin()))
            r.hint = "the right indices in the wrong order: the output must be ascending";
        return r;
    }
    for (std::size_t i = count; i < out.size(); ++i)
        if (out[i] != -1)
            return CheckResult::fail("indices[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                                     " was written, past the count " + std::to_string(count));
    return r;
}

}  // namespace

CheckResult check_case(const RepeatsImpl& impl, const Case& c, std::uint64_t seed) {
    const auto kind = static_cast<scan_inputs::Kind>(c.variant & scan_inputs::kKindMask);
    const std::vector<int> input = scan_inputs::make(c.n, kind, seed);
    const Expected expected = expected_repeats(input);
    DeviceBuffer<unsigned char> workspace(impl.workspace_bytes(c.n));
    workspace.poison();
    DeviceBuffer<int> a, indices(c.n);
    a.upload(input);
    indices.poison();
    const std::size_t count = impl.run(a.data(), c.n, indices.data(), workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = compare_output(expected, count, indices.to_host());
    if (!r.ok) return r;
    if (!compare_exact(input, a.to_host()).ok) return CheckResult::fail("the input was modified");
    return r;
}

namespace {

std::vector<Measurement> repeats_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kSmallValues, ctx.seed);
    const Expected expected = expected_repeats(input);
    Measurement m;
    // The fewest bytes: read a once, write the indices.
    m.bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(expected.indices.size());
    m.items = static_cast<double>(n);
    if (impl.kind == ImplKind::Cpu) {
        std::vector<int> out(n);
        const TimingOptions t = ctx.slow_timing();
        m.ms = time_host(t, [&] { find_repeats_cpu(input.data(), n, out.data()); });
        m.note = "one CPU thread, for scale";
        return {m};
    }
    const RepeatsImpl fn = impl_by_name(impl.name);
    DeviceBuffer<unsigned char> workspace(fn.workspace_bytes(n));
    DeviceBuffer<int> a, indices(n);
    a.upload(input);
    std::size_t count = 0;
    m.ms = time_device(ctx.timing, &ctx.flusher, [&] { count = fn.run(a.data(), n, indices.data(), workspace.data()); },
                       [&] { indices.poison(); });
    const CheckResult r = compare_output(expected, count, indices.to_host());
    m.record_check(r);
    return {m};
}

}  // namespace

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "03_find_repeats";
    def.title = "find repeats: the indices i with a[i] == a[i+1] (PMPP chapter 11)";
    def.impls = {
        {"student", ImplKind::Student, "your find_repeats_student.cu on your scan (02_scan/scan_student.cu)"},
        {"scan", ImplKind::Reference, "mark, scan (02's single pass), scatter: three passes (find_repeats_1_scan.cu)"},
        {"fused", ImplKind::Reference, "flags and compaction inside one single-pass scan (find_repeats_2_fused.cu)"},
        {"cub", ImplKind::Library, "cub::DeviceSelect::If over the indices (find_repeats_cub.cu)"},
        {"cpu", ImplKind::Cpu, "one loop: the definition of correct (find_repeats_cpu.cpp)"},
    };
    def.baseline = "cub";
    def.items_unit = "Gelem/s";
    def.max_size = std::size_t{1} << 31;
    def.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28};
    def.cases = [](const Options&) { return scan_inputs::cases(scan_inputs::kSmallValues); };
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl_by_name(impl.name), c, seed);
    };
    def.bench = repeats_bench;
    // a + indices + the largest workspace (the student's Blelloch: places plus up to 2n).
    def.device_bytes = [](std::size_t n) { return 20.0 * static_cast<double>(n) + (1 << 20); };
    return def;
}

}  // namespace find_repeats
