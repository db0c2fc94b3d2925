// find_repeats_harness.cu: inputs, the check and the benchmark of exercise 03.
//
// What an implementation may write, `indices` and the workspace, lies between guard zones; both
// are poisoned before every run and checked after every run by one rule (verify_run): the
// check's one run, and every warm-up and timed run of the benchmark.
#include "find_repeats_harness.h"

#include "../02_scan/scan_inputs.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"

#include <algorithm>
#include <cmath>
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

// What a right run leaves: the count it returns, and the whole of `indices` (n entries): the
// count indices, ascending, then the poison (-1) in every entry past the count.
struct Expected {
    std::size_t count = 0;
    std::vector<int> output;
};

Expected expected_repeats(const std::vector<int>& a) {
    Expected e;
    e.output.assign(a.size(), -1);  // the poison: all bytes 0xFF
    e.count = find_repeats_cpu(a.data(), a.size(), e.output.data());
    return e;
}

// What the check's hints may name (check_hints.h): the count, as an amount every index could be
// off by. Not below 2: an offset of 1 with one repeat would be named the count when it is only
// an index one too high. No tile or block boundaries: entry k of indices is the k-th repeat,
// wherever in the input it lies, so a tile of the input starts at no fixed entry.
HintContext repeats_hint_context(const Expected& e) {
    HintContext ctx;
    if (e.count >= 2) ctx.quantities.push_back({static_cast<double>(e.count), "the count of repeats"});
    return ctx;
}

// The report of a wrong `indices` (host copy of all n entries): the first wrong indices, the
// order hint, or the first entry written past the count.
CheckResult compare_indices(const Expected& e, const std::vector<int>& out) {
    const std::size_t count = e.count;
    CheckResult r = compare_exact(e.output.data(), out.data(), count);
    if (!r.ok) {
        if (std::is_permutation(e.output.begin(), e.output.begin() + static_cast<std::ptrdiff_t>(count), out.begin()))
            r.add_hint("the right indices in the wrong order: the output must be ascending");
        return r;
    }
    for (std::size_t i = count; i < out.size(); ++i)
        if (out[i] != -1)
            return CheckResult::fail("indices[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                                     " was written, past the count " + std::to_string(count));
    return CheckResult::pass(out.size());
}

// What indices shows when the returned count is wrong (host copy of all n entries): only facts
// that the entries prove. Empty when they prove nothing.
std::string explain_wrong_count(const Expected& e, std::size_t count, const std::vector<int>& out) {
    const std::size_t n = out.size(), right = e.count;
    if (right > 0 && out == e.output)
        return (right == 1 ? std::string("indices holds the one repeat") : "indices holds all " + std::to_string(right) + " repeats") +
               ", right, and nothing past them: only the returned count is wrong";
    if (count >= right) return "";
    // The first `count` entries right and every entry after them still the poison: the search
    // found the first `count` repeats and none of the others.
    const auto found_end = out.begin() + static_cast<std::ptrdiff_t>(count);
    if (!std::equal(out.begin(), found_end, e.output.begin()) ||
        !std::all_of(found_end, out.end(), [](int v) { return v == -1; }))
        return "";
    const std::size_t missing = right - count;
    const int last = e.output[right - 1];
    const std::string found = count == 0 ? "nothing was written"
                                         : "the first " + std::to_string(count) + " indices are right and nothing else was written";
    if (missing == 1 && static_cast<std::size_t>(last) + 2 == n)
        return "the last repeat is missing: i = " + std::to_string(last) + " = n - 2, the last pair (a[n - 2] == a[n - 1]); " + found;
    return "the last " + hints::count_of(missing, "repeat") + " (from i = " + std::to_string(e.output[count]) +
           (missing == 1 ? ") is missing; " : ") are missing; ") + found;
}

// The check of one run: the guard zones of indices and of the workspace, the returned count,
// then all n entries of indices against `expected_output` (Expected::output on the device) on
// the device; only a failure copies indices back, for compare_indices's report.
CheckResult verify_run(const Expected& e, const int* expected_output, std::size_t count, const GuardedBuffer<int>& indices,
                       const GuardedBuffer<unsigned char>& workspace) {
    CheckResult r = indices.check_guards();
    if (!r.ok) return r;
    r = workspace.check_guards();
    if (!r.ok) return r;
    if (count != e.count) {
        CheckResult wrong = CheckResult::fail("count: expected " + std::to_string(e.count) + ", got " + std::to_string(count));
        wrong.add_hint(explain_wrong_count(e, count, indices.to_host()));
        return wrong;
    }
    if (count_differences_on_device(expected_output, indices.data(), indices.size()) == 0)
        return CheckResult::pass(indices.size());
    return compare_indices(e, indices.to_host());
}

}  // namespace

CheckResult check_case(const RepeatsImpl& impl, const Case& c, std::uint64_t seed) {
    const auto kind = static_cast<scan_inputs::Kind>(c.variant & scan_inputs::kKindMask);
    const std::vector<int> input = scan_inputs::make(c.n, kind, seed);
    const Expected expected = expected_repeats(input);
    const HintScope hint_scope(repeats_hint_context(expected));
    DeviceBuffer<int> a, expected_output;
    a.upload(input);
    expected_output.upload(expected.output);
    GuardedBuffer<unsigned char> workspace(impl.workspace_bytes(c.n), "the workspace");
    GuardedBuffer<int> indices(c.n, "indices");
    workspace.poison();
    indices.poison();
    const std::size_t count = impl.run(a.data(), c.n, indices.data(), workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_run(expected, expected_output.data(), count, indices, workspace);
    if (!r.ok) return r;
    // The input, on the device, in the expected output's place (no longer needed): no host copy
    // of `a` (at 2^28, 1 GiB more host memory).
    expected_output.upload(input);
    if (count_differences_on_device(expected_output.data(), a.data(), c.n) != 0)
        return CheckResult::fail("the input was modified");
    return r;
}

Measurement bench_impl(const RepeatsImpl& fn, std::size_t n, BenchContext& ctx) {
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kSmallValues, ctx.seed);
    const Expected expected = expected_repeats(input);
    const HintScope hint_scope(repeats_hint_context(expected));  // every run's check reports as the check does
    Measurement m;
    // The fewest bytes: read a once, write the indices.
    m.bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(expected.count);
    m.items = static_cast<double>(n);
    DeviceBuffer<int> a, expected_output;
    a.upload(input);
    expected_output.upload(expected.output);  // once, outside the timed region: every run is compared with it
    GuardedBuffer<unsigned char> workspace(fn.workspace_bytes(n), "the workspace");
    GuardedBuffer<int> indices(n, "indices");
    std::size_t count = 0;
    TimedCall call;
    call.prepare = [&] {
        indices.poison();
        workspace.poison();  // as in the check: nothing left from the run before
    };
    call.run = [&] { count = fn.run(a.data(), n, indices.data(), workspace.data()); };
    call.verify = [&] { return verify_run(expected, expected_output.data(), count, indices, workspace); };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return m;
}

namespace {

std::vector<Measurement> repeats_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    if (impl.kind != ImplKind::Cpu) return {bench_impl(impl_by_name(impl.name), n, ctx)};
    const std::vector<int> input = scan_inputs::make(n, scan_inputs::kSmallValues, ctx.seed);
    std::vector<int> out(n);
    std::size_t count = 0;
    Measurement m;
    m.ms = time_host(ctx.slow_timing(), [&] { count = find_repeats_cpu(input.data(), n, out.data()); });
    m.bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(count);
    m.items = static_cast<double>(n);
    m.note = "one CPU thread, for scale";
    return {m};
}

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------

// The largest workspace any implementation asks for at n: each one's own workspace_bytes(), so
// CUB's is its size query and the student's is what the student's code asks for (the solution:
// the places, 4n, then the Blelloch scan's next power of two of n, 4 bytes each: up to 12n).
double largest_workspace(std::size_t n) {
    std::size_t most = 0;
    for (const char* name : {"student", "scan", "fused", "cub"})
        most = std::max(most, impl_by_name(name).workspace_bytes(n));
    return static_cast<double>(most);
}

// The most device memory one size holds at once: one implementation's benchmark (bench_impl),
// with the largest workspace. The check holds the same buffers.
double repeats_device_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);  // n ints
    return committed_device_bytes(array)                                                      // a
           + committed_device_bytes(array)                                                    // the expected indices, for every run's check
           + committed_device_bytes(array + 2.0 * guard_bytes<int>())                         // indices between guard zones (4 KiB each)
           + committed_device_bytes(largest_workspace(n) + 2.0 * guard_bytes<unsigned char>());  // the workspace, between guard zones
}

// The most host memory one size holds at once: the input and the expected indices (all n
// entries), in the benchmark and in the check; the CPU's row holds the input and its output.
double repeats_host_bytes(std::size_t n) {
    const double array = 4.0 * static_cast<double>(n);
    return array      // the input
           + array;   // the expected indices (Expected::output); or the CPU's output
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
    // 20 bytes per element on the device at a power of two (the solution's workspace: 8n), up to
    // 24 just above one; 8 on the host (repeats_device_bytes, repeats_host_bytes).
    def.device_bytes = [](std::size_t n, const Options&) { return repeats_device_bytes(n); };
    def.host_bytes = [](std::size_t n, const Options&) { return repeats_host_bytes(n); };
    return def;
}

}  // namespace find_repeats
