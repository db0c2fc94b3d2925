// find_repeats_harness.cu: inputs, the check, the benchmark and the table of variants of exercise 03.
//
// What an implementation may write, `indices` and the workspace, lies between guard zones
// (OutputAndWorkspace); both are poisoned before every run and checked after every run by one
// rule (verify_run): the check's one run, and every warm-up and timed run of the benchmark.
#include "find_repeats_harness.h"

#include "common/check_hints.h"
#include "common/cuda_check.h"
#include "common/device_check.cuh"
#include "common/guarded_workspace.h"
#include "common/host_timing.h"

#include <algorithm>
#include <vector>

namespace find_repeats {

using namespace pmpp;

namespace {

// What the check's hints may name (check_hints.h): the count, as an amount every index could be
// off by. Not below 2: an offset of 1 with one repeat would be named the count when it is only
// an index one too high. No tile or block boundaries: entry k of indices is the k-th repeat,
// wherever in the input it lies, so a tile of the input starts at no fixed entry.
HintContext repeats_hint_context(std::size_t count) {
    HintContext ctx;
    if (count >= 2) ctx.quantities.push_back({static_cast<double>(count), "the count of repeats"});
    return ctx;
}

// The report of a wrong `indices` against the right ones, `expected` (host copies of all n
// entries; `count` of them right): the first wrong indices, the order hint, or the first entry
// written past the count.
CheckResult compare_indices(const std::vector<int>& expected, std::size_t count, const std::vector<int>& out) {
    CheckResult r = compare_exact(expected.data(), out.data(), count);
    if (!r.ok) {
        if (std::is_permutation(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(count), out.begin()))
            r.add_hint("the right indices in the wrong order: the output must be ascending");
        return r;
    }
    for (std::size_t i = count; i < out.size(); ++i)
        if (out[i] != -1)
            return CheckResult::fail("indices[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                                     " was written, past the count " + std::to_string(count));
    return CheckResult::pass(out.size());
}

// What indices shows when the returned count is wrong (host copies of all n entries; `right` of
// the expected ones are repeats): only facts that the entries prove. Empty when they prove nothing.
std::string explain_wrong_count(const std::vector<int>& expected, std::size_t right, std::size_t count,
                                const std::vector<int>& out) {
    const std::size_t n = out.size();
    if (right > 0 && out == expected)
        return (right == 1 ? std::string("indices holds the one repeat")
                           : "indices holds all " + std::to_string(right) + " repeats") +
               ", right, and nothing past them: only the returned count is wrong";
    if (count >= right) return "";
    // The first `count` entries right and every entry after them still the poison: the search
    // found the first `count` repeats and none of the others.
    const auto found_end = out.begin() + static_cast<std::ptrdiff_t>(count);
    if (!std::equal(out.begin(), found_end, expected.begin()) ||
        !std::all_of(found_end, out.end(), [](int v) { return v == -1; }))
        return "";
    const std::size_t missing = right - count;
    const int last = expected[right - 1];
    const std::string found =
        count == 0 ? "nothing was written"
                   : "the first " + std::to_string(count) + " indices are right and nothing else was written";
    if (missing == 1 && static_cast<std::size_t>(last) + 2 == n)
        return "the last repeat is missing: i = " + std::to_string(last) +
               " = n - 2, the last pair (a[n - 2] == a[n - 1]); " + found;
    return "the last " + hints::count_of(missing, "repeat") + " (from i = " + std::to_string(expected[count]) +
           (missing == 1 ? ") is missing; " : ") are missing; ") + found;
}

// The check of one run: the guard zones of indices and of the workspace, the returned count,
// then all n entries of indices against the problem's expected ones on the device; only a
// failure copies both back, for the report.
CheckResult verify_run(const RepeatsProblem& p, std::size_t count, const OutputAndWorkspace<int>& buffers) {
    CheckResult r = buffers.check_guards();
    if (!r.ok) return r;
    const GuardedBuffer<int>& indices = buffers.output;
    if (count != p.count) {
        CheckResult wrong =
            CheckResult::fail("count: expected " + std::to_string(p.count) + ", got " + std::to_string(count));
        wrong.add_hint(explain_wrong_count(p.expected.to_host(), p.count, count, indices.to_host()));
        return wrong;
    }
    if (count_differences_on_device(p.expected.data(), indices.data(), indices.size()) == 0)
        return CheckResult::pass(indices.size());
    return compare_indices(p.expected.to_host(), p.count, indices.to_host());
}

// The case's input, the CPU's count and all n entries of its indices (RepeatsProblem).
RepeatsProblem make_problem(const RepeatsCase& c, std::uint64_t seed, const Options&) {
    RepeatsProblem p;
    p.input = scan_inputs::make(c.n, c.spec.kind, seed);
    std::vector<int> expected(c.n, -1);  // the poison: all bytes 0xFF
    p.count = find_repeats_cpu(p.input.data(), c.n, expected.data());
    p.expected.upload(expected);
    return p;
}

// One variant on one case; compares count and indices with the CPU exactly; the input must be
// unchanged and nothing past the count written. A write outside indices or the workspace fails
// the case ("wrote 1 element past the end of indices ...", "... before the start of the
// workspace ...").
CheckResult check(const RepeatsExercise::Row& v, const RepeatsProblem& p, const RepeatsCase&, const Options&) {
    const std::size_t n = p.input.size();
    const HintScope hint_scope(repeats_hint_context(p.count));
    DeviceBuffer<int> a;
    a.upload(p.input);
    OutputAndWorkspace<int> buffers(n, "indices", v.fn.workspace_bytes(n));
    buffers.poison();
    const std::size_t count = v.fn.run(a.data(), n, buffers.output.data(), buffers.workspace.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    CheckResult r = verify_run(p, count, buffers);
    if (!r.ok) return r;
    // The input, on the device, in the place of indices (checked, no longer needed): no host copy
    // of `a` (at 2^28, 1 GiB more host memory).
    buffers.output.upload(p.input);
    if (count_differences_on_device(buffers.output.data(), a.data(), n) != 0)
        return CheckResult::fail("the input was modified");
    return r;
}

// The row of one variant on a problem (small values 0..9): indices and the workspace poisoned
// before every warm-up and timed run, checked after every one as check() checks (guard zones, the
// count, all n entries of indices on the device, so nothing past the count either); the first
// wrong run makes the row wrong, its message naming the run ("timed run 3 of 20: ...").
std::vector<Measurement> bench(const RepeatsExercise::Row& v, RepeatsProblem& p, std::size_t n, BenchContext& ctx) {
    // The fewest bytes: read a once, write the indices.
    const double bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(p.count);
    if (v.kind == ImplKind::Cpu) {
        std::vector<int> out(n);
        return {time_cpu_for_scale(ctx, bytes, n, [&] { find_repeats_cpu(p.input.data(), n, out.data()); })};
    }
    const HintScope hint_scope(repeats_hint_context(p.count));  // every run's check reports as the check does
    Measurement m;
    m.bytes = bytes;
    m.items = static_cast<double>(n);
    DeviceBuffer<int> a;
    a.upload(p.input);
    OutputAndWorkspace<int> buffers(n, "indices", v.fn.workspace_bytes(n));
    std::size_t count = 0;
    TimedCall call;
    call.prepare = [&] { buffers.poison(); };  // as in the check: nothing left from the run before
    call.run = [&] { count = v.fn.run(a.data(), n, buffers.output.data(), buffers.workspace.data()); };
    call.verify = [&] { return verify_run(p, count, buffers); };
    m.record(time_checked(ctx.timing, &ctx.flusher, call));
    return {m};
}

// The most device memory one size holds at once: the size's problem (its expected indices) and
// one variant's benchmark, with the largest workspace (the solution's: the places, 4n, then the
// Blelloch scan's next power of two of n, 4 bytes each: up to 12n). The check holds the same
// buffers. 20 bytes per element at a power of two (the solution's workspace: 8n), up to 24 just
// above one.
double repeats_device_bytes(std::size_t n, const Options&) {
    const double array = 4.0 * static_cast<double>(n);  // n ints
    return 2 * committed_device_bytes(array)  // a; the expected indices, for every run's check
           + OutputAndWorkspace<int>::committed_bytes(n, largest_workspace(exercise().variants, n));
}

// The most host memory one size holds at once: the problem's input, and its expected indices
// (all n entries) while it is made (freed once uploaded); the CPU's row holds its own output.
// 8 bytes per element.
double repeats_host_bytes(std::size_t n, const Options&) { return 2 * 4.0 * static_cast<double>(n); }

RepeatsExercise make_exercise() {
    RepeatsExercise ex;
    ex.id = "03_find_repeats";
    ex.title = "find repeats: the indices i with a[i] == a[i+1] (PMPP chapter 11)";
    ex.variants = {
        {"student",
         ImplKind::Student,
         "your find_repeats_student.cu on your scan (02_scan/scan_student.cu)",
         {find_repeats_student_workspace_bytes, find_repeats_student}},
        {"scan",
         ImplKind::Reference,
         "mark, scan (02's single pass), scatter: three passes (find_repeats_1_scan.cu)",
         {find_repeats_scan_workspace_bytes, find_repeats_scan}},
        {"fused",
         ImplKind::Reference,
         "flags and compaction inside one single-pass scan (find_repeats_2_fused.cu)",
         {find_repeats_fused_workspace_bytes, find_repeats_fused}},
        {"cub",
         ImplKind::Library,
         "cub::DeviceSelect::If over the indices (find_repeats_cub.cu)",
         {find_repeats_cub_workspace_bytes, find_repeats_cub}},
        {"cpu", ImplKind::Cpu, "one loop: the definition of correct (find_repeats_cpu.cpp)", {}},
    };
    ex.baseline = "cub";
    ex.max_size = std::size_t{1} << 31;
    ex.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28};
    ex.cases = [](const Options&) { return scan_inputs::cases<RepeatsSpec>(scan_inputs::kSmallValues); };
    ex.describe = [](const RepeatsCase& c) { return std::string(scan_inputs::name(c.spec.kind)); };
    ex.make_problem = make_problem;
    ex.check = check;
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        return make_problem(make_case(n), ctx.seed, ctx.opts);
    };
    ex.bench = bench;
    ex.device_bytes = repeats_device_bytes;
    ex.host_bytes = repeats_host_bytes;
    return ex;
}

}  // namespace

const RepeatsExercise& exercise() {
    static const RepeatsExercise ex = make_exercise();
    return ex;
}

}  // namespace find_repeats
