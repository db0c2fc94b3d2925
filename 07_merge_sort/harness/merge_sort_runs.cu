// merge_sort_runs.cu: the device side of exercise 07: a merge's and a sort's arrays between guard
// zones, the check's one run of a call, and a variant's benchmark rows, every timed run checked.
#include "merge_sort_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace merge_sort {

using namespace pmpp;

namespace {

// A merge's device arrays: A and B, and the guarded C and split positions it writes.
template <class Key>
struct DeviceMergeArrays {
    DeviceBuffer<Key> a, b;
    GuardedBuffer<Key> c;
    GuardedBuffer<std::size_t> splits;

    explicit DeviceMergeArrays(const MergeInputs<Key>& in)
        : c(in.a.size() + in.b.size(), "c"), splits(split_capacity(in.a.size() + in.b.size()), "splits") {
        a.upload(in.a);
        b.upload(in.b);
    }
    // Before every run: 0xFF in C and the splits, the guards armed again.
    void prepare() {
        c.poison();
        splits.poison();
    }
    void run(const MergeCall<Key>& merge) { merge(a.data(), a.size(), b.data(), b.size(), c.data(), splits.data()); }
    // The guard zones of every array the merge may write: the first one written outside.
    CheckResult check_guards() const {
        for (const CheckResult& r : {c.check_guards(), splits.check_guards()})
            if (!r.ok) return r;
        return CheckResult::pass(c.size());
    }
};

// A sort's device arrays: input, output and scratch keys (and values), and the split positions.
// Every array the sort may write is guarded, named as SortArgs names it, so a write outside one
// is reported as "wrote 1 element past the end of keys_scratch".
template <class Key, class Value>
struct DeviceSortArrays {
    static constexpr bool kValues = kHasValues<Value>;
    DeviceBuffer<Key> keys_in;
    DeviceBuffer<Value> values_in;
    GuardedBuffer<Key> keys_out, keys_scratch;
    GuardedBuffer<Value> values_out, values_scratch;
    GuardedBuffer<std::size_t> splits;

    explicit DeviceSortArrays(const SortInputs<Key, Value>& in)
        : keys_out(in.keys.size(), "keys_out"),
          keys_scratch(in.keys.size(), "keys_scratch"),
          values_out(kValues ? in.keys.size() : 0, "values_out"),
          values_scratch(kValues ? in.keys.size() : 0, "values_scratch"),
          splits(split_capacity(in.keys.size()), "splits") {
        keys_in.upload(in.keys);
        if constexpr (kValues) values_in.upload(in.values);
    }
    // Before every run: 0xFF in every array the sort writes, the guards armed again; for a sort in
    // place (thrust), the outputs then hold a copy of the input.
    void prepare(SortStart start) {
        keys_out.poison();
        keys_scratch.poison();
        splits.poison();
        if constexpr (kValues) {
            values_out.poison();
            values_scratch.poison();
        }
        if (start != SortStart::CopyOfInput) return;
        keys_out.copy_from_device(keys_in.data());
        if constexpr (kValues) values_out.copy_from_device(values_in.data());
    }
    // A keys-only sort's value pointers are null (merge_sort.h).
    SortArgs<Key, Value> args() {
        if constexpr (kValues)
            return {keys_in.data(),      values_in.data(),      keys_out.data(), values_out.data(),
                    keys_scratch.data(), values_scratch.data(), splits.data()};
        return {keys_in.data(), nullptr, keys_out.data(), nullptr, keys_scratch.data(), nullptr, splits.data()};
    }
    // The guard zones of every array the sort may write: the first one written outside.
    CheckResult check_guards() const {
        for (const CheckResult& r : {keys_out.check_guards(), keys_scratch.check_guards(), splits.check_guards()})
            if (!r.ok) return r;
        if constexpr (kValues)
            for (const CheckResult& r : {values_out.check_guards(), values_scratch.check_guards()})
                if (!r.ok) return r;
        return CheckResult::pass(keys_out.size());
    }
    SortInputs<Key, Value> output() const {
        SortInputs<Key, Value> out;
        out.keys = keys_out.to_host();
        if constexpr (kValues) out.values = values_out.to_host();
        return out;
    }
    bool input_unchanged(const SortInputs<Key, Value>& in) const {
        if (!compare_exact(in.keys, keys_in.to_host()).ok) return false;
        if constexpr (kValues) return compare_exact(in.values, values_in.to_host()).ok;
        return true;
    }
};

// The structure the check names positions by (check_hints.h), as the README's tasks suggest it and
// the references build it: a merge's slices of 8 outputs per thread (task 2, merge_sort_1_basic.cu's
// kOutputsPerThread), tiles of 1024 (task 3's TILE, merge_sort_2_tiled.cu's kTile) and block ranges
// of 4096 outputs (merge_sort_2_tiled.cuh's kOutputsPerBlock); a sort's tiles of 1024 (task 4's
// plan, merge_sort_2_tiled.cuh's kSortTile); and the fast variant's tiles for these keys.
template <class Key>
HintContext merge_hint_context() {
    return {{{8, "basic-merge slice"},
             {1024, "merge tile"},
             {4096, "tiled-merge block"},
             {fast_tiles<Key, NoValues>().merge_tile, "fast-merge tile"}},
            {}};
}
template <class Key, class Value>
HintContext sort_hint_context() {
    return {{{1024, "sort tile"}, {fast_tiles<Key, Value>().sort_tile, "fast-sort tile"}}, {}};
}

// A sort whose keys_out is wrong may have left the right answer in the scratch arrays: its last
// step wrote there. Empty when they do not hold it either.
template <class Key, class Value>
std::string answer_in_scratch(const DeviceSortArrays<Key, Value>& arrays, const SortInputs<Key, Value>& expected) {
    if (expected.keys.empty() || !compare_exact(expected.keys, arrays.keys_scratch.to_host()).ok) return {};
    if constexpr (kHasValues<Value>) {
        if (!compare_exact(expected.values, arrays.values_scratch.to_host()).ok) return {};
        return "keys_scratch holds exactly the sorted keys, and values_scratch the sorted values: the last step "
               "wrote the scratch arrays, not keys_out and values_out";
    }
    return "keys_scratch holds exactly the sorted keys: the last step wrote the scratch array, not keys_out";
}

const char* const kMergeWroteItsInput = "the merge modified its input A or B: it may only write C (and the splits)";
const char* const kSortWroteItsInput =
    "the sort modified keys_in or values_in: it may only read them (and write the outputs and the scratch arrays)";

}  // namespace

template <class Key>
CheckResult check_merge(const MergeCall<Key>& merge, const MergeInputs<Key>& in, const std::vector<Key>& expected) {
    const HintScope hints(merge_hint_context<Key>());
    DeviceMergeArrays<Key> arrays(in);
    arrays.prepare();
    arrays.run(merge);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    CheckResult r = judge_merge(in, expected, arrays.c.to_host());
    if (!r.ok) return r;
    if (!compare_exact(in.a, arrays.a.to_host()).ok || !compare_exact(in.b, arrays.b.to_host()).ok)
        return CheckResult::fail(kMergeWroteItsInput);
    return r;
}

template <class Key, class Value>
CheckResult check_sort(const SortCall<Key, Value>& sort, const SortInputs<Key, Value>& in,
                       const SortInputs<Key, Value>& expected, SortStart start) {
    const HintScope hints(sort_hint_context<Key, Value>());
    DeviceSortArrays<Key, Value> arrays(in);
    arrays.prepare(start);
    sort(arrays.args(), in.keys.size());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    CheckResult r = judge_sort(in, expected, arrays.output());
    if (!r.ok) {
        r.add_hint(answer_in_scratch(arrays, expected));
        return r;
    }
    if (!arrays.input_unchanged(in)) return CheckResult::fail(kSortWroteItsInput);
    return r;
}

// ---- The benchmark ---------------------------------------------------------------------------

namespace {

std::string joined(const std::string& first, const std::string& second) {
    return first.empty() ? second : second.empty() ? first : first + "; " + second;
}

// A first timed run says how long a run takes. Variants that need a large part of a second
// (the basic sort at 2^28) get three repeats instead of twenty; one that needs more than a second
// is timed once (and the note says so). Every run, the first one too, is checked by call.verify:
// the first wrong one ends the timing and makes the row WRONG.
TimedResult time_variant(BenchContext& ctx, const TimedCall& call) {
    TimingOptions once = ctx.timing;
    once.warmup = 0;
    once.repeats = 1;
    TimedResult probe = time_checked(once, &ctx.flusher, call);
    if (!probe.check.ok) {  // time_checked numbers it "timed run 1 of 1": say what that run was
        const std::string numbered = "timed run 1 of 1: ";
        std::string& message = probe.check.message;
        if (message.rfind(numbered, 0) == 0) message.erase(0, numbered.size());
        message = "first run (timed once, to choose the number of repeats): " + message;
        return probe;
    }
    if (probe.ms.median > 1000) {
        probe.note = joined("timed once: a run takes over a second", probe.note);
        return probe;
    }
    TimingOptions timing = ctx.timing;
    std::string note;
    if (probe.ms.median > 200 && timing.repeats > 3) {
        timing.repeats = 3;
        timing.warmup = 0;
        note = "timed 3 times: a run takes over 200 ms";
    }
    TimedResult result = time_checked(timing, &ctx.flusher, call);
    result.runs_checked += probe.runs_checked;
    result.note = joined(note, result.note);
    return result;
}

TimingOptions cpu_timing(const BenchContext& ctx, std::size_t n) {
    TimingOptions t = ctx.timing;
    t.repeats = n > (std::size_t{1} << 24) ? 1 : std::min(t.repeats, 3);
    t.warmup = 0;
    return t;
}

// A row of n items (keys), each read and written once: `item_bytes` a key (and its value).
Measurement row(const std::string& section, const std::string& label, std::size_t n, double item_bytes) {
    Measurement m;
    m.section = section;
    m.label = label;
    m.bytes = 2.0 * static_cast<double>(n) * item_bytes;
    m.items = static_cast<double>(n);
    return m;
}

// A size's inputs and the CPU's answer on the host and on the device. Every run's output is
// compared on the device, bit for bit, with the answer uploaded once per size (at 2^28 that saves
// copying gigabytes back after every run); the inputs are compared with a pristine copy kept on
// the device, so a call cannot sort its input in place for the next one.
template <class Key, class Value>
struct SortBenchData {
    SortInputs<Key, Value> in, expected;
    DeviceBuffer<Key> input_keys, expected_keys;
    DeviceBuffer<Value> input_values, expected_values;

    SortBenchData(std::size_t n, std::uint64_t seed)
        : in(sort_inputs<Key, Value>(n, Distribution::Uniform, seed)), expected(expected_sort(in)) {
        input_keys.upload(in.keys);
        expected_keys.upload(expected.keys);
        if constexpr (kHasValues<Value>) {
            input_values.upload(in.values);
            expected_values.upload(expected.values);
        }
    }
};
template <class Key>
struct MergeBenchData {
    MergeInputs<Key> in;
    std::vector<Key> expected;
    DeviceBuffer<Key> a, b, expected_c;

    MergeBenchData(std::size_t n, std::uint64_t seed)
        : in(merge_inputs<Key>(n, Distribution::Uniform, MergeShape::Halves, seed)), expected(expected_merge(in)) {
        a.upload(in.a);
        b.upload(in.b);
        expected_c.upload(expected);
    }
};

// The check of one benchmark run, all on the device: the guards of every array the call may
// write, then the output against the expected one, then the inputs unchanged.
template <class Key, class Value>
CheckResult verify_sort_run(const SortBenchData<Key, Value>& data, const DeviceSortArrays<Key, Value>& arrays) {
    const std::size_t n = arrays.keys_out.size();
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    if (CheckResult keys = compare_exact_on_device(data.expected_keys.data(), arrays.keys_out.data(), n); !keys.ok)
        return prefixed("keys_out", keys);
    std::size_t input_changed = count_differences_on_device(data.input_keys.data(), arrays.keys_in.data(), n);
    if constexpr (kHasValues<Value>) {
        CheckResult values = compare_exact_on_device(data.expected_values.data(), arrays.values_out.data(), n);
        if (!values.ok) return prefixed("values_out", values);
        input_changed += count_differences_on_device(data.input_values.data(), arrays.values_in.data(), n);
    }
    if (input_changed != 0) return CheckResult::fail(kSortWroteItsInput);
    return CheckResult::pass(n);
}

template <class Key>
CheckResult verify_merge_run(const MergeBenchData<Key>& data, const DeviceMergeArrays<Key>& arrays) {
    const std::size_t n = arrays.c.size();
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    if (CheckResult out = compare_exact_on_device(data.expected_c.data(), arrays.c.data(), n); !out.ok)
        return prefixed("c", out);
    const std::size_t input_changed = count_differences_on_device(data.a.data(), arrays.a.data(), arrays.a.size()) +
                                      count_differences_on_device(data.b.data(), arrays.b.data(), arrays.b.size());
    if (input_changed != 0) return CheckResult::fail(kMergeWroteItsInput);
    return CheckResult::pass(n);
}

// The CPU's rows: time_host of the CPU reference on a copy of the input (or a poisoned output).
template <class Key, class Value>
Measurement bench_sort_cpu(MergeSortBenchProblem& problem, std::size_t n, BenchContext& ctx,
                           const std::string& section) {
    const auto& data = problem.section<SortBenchData<Key, Value>>(section, n, ctx.seed);
    Measurement m = row(section, "", n, sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0));
    SortInputs<Key, Value> copy;
    auto values = [&]() -> Value* {
        if constexpr (kHasValues<Value>) return copy.values.data();
        return nullptr;
    };
    m.ms = time_host(
        cpu_timing(ctx, n), [&] { sort_cpu(copy.keys.data(), values(), n, LessOf<Key>{}); }, [&] { copy = data.in; });
    m.record_check(judge_sort(data.in, data.expected, copy, false));
    m.note = format("%u host threads, for scale", std::max(1u, std::thread::hardware_concurrency()));
    return m;
}

template <class Key>
Measurement bench_merge_cpu(MergeSortBenchProblem& problem, std::size_t n, BenchContext& ctx,
                            const std::string& section) {
    const auto& data = problem.section<MergeBenchData<Key>>(section, n, ctx.seed);
    Measurement m = row(section, "", n, sizeof(Key));
    std::vector<Key> c(n);
    m.ms = time_host(
        cpu_timing(ctx, n),
        [&] {
            merge_cpu(data.in.a.data(), data.in.a.size(), data.in.b.data(), data.in.b.size(), c.data(), LessOf<Key>{});
        },
        [&] { std::memset(static_cast<void*>(c.data()), 0xFF, n * sizeof(Key)); });
    m.record_check(judge_merge(data.in, data.expected, c, false));
    m.note = "one host thread";
    return m;
}

}  // namespace

template <class Key, class Value>
Measurement bench_sort_call(const SortCall<Key, Value>& sort, MergeSortBenchProblem& problem, std::size_t n,
                            BenchContext& ctx, const std::string& section, SortStart start) {
    const auto& data = problem.section<SortBenchData<Key, Value>>(section, n, ctx.seed);
    Measurement m = row(section, "", n, sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0));
    DeviceSortArrays<Key, Value> arrays(data.in);
    const SortArgs<Key, Value> args = arrays.args();
    TimedCall call;
    call.prepare = [&] { arrays.prepare(start); };
    call.run = [&] { sort(args, n); };
    call.verify = [&] {
        const HintScope hints(sort_hint_context<Key, Value>());
        return verify_sort_run(data, arrays);
    };
    m.record(time_variant(ctx, call));
    return m;
}

template <class Key>
Measurement bench_merge_call(const MergeCall<Key>& merge, MergeSortBenchProblem& problem, std::size_t n,
                             BenchContext& ctx, const std::string& section, const std::string& label) {
    const auto& data = problem.section<MergeBenchData<Key>>(section, n, ctx.seed);
    Measurement m = row(section, label, n, sizeof(Key));
    DeviceMergeArrays<Key> arrays(data.in);
    TimedCall call;
    call.prepare = [&] { arrays.prepare(); };
    call.run = [&] { arrays.run(merge); };
    call.verify = [&] {
        const HintScope hints(merge_hint_context<Key>());
        return verify_merge_run(data, arrays);
    };
    m.record(time_variant(ctx, call));
    return m;
}

template <class Key>
std::vector<Measurement> bench_variant(const MergeSortExercise::Row& v, MergeSortBenchProblem& problem, std::size_t n,
                                       BenchContext& ctx, const std::string& key_name, bool sort, bool merge) {
    const bool cpu = v.kind == ImplKind::Cpu;
    std::vector<Measurement> rows;
    if (sort) {
        const std::string pairs = "sort " + key_name + " keys with u32 values";
        rows.push_back(cpu ? bench_sort_cpu<Key, NoValues>(problem, n, ctx, "kernel")
                           : bench_sort_call(v.fn.sort<Key, NoValues>(), problem, n, ctx, "kernel", v.fn.sort_start));
        rows.push_back(cpu ? bench_sort_cpu<Key, PairValue>(problem, n, ctx, pairs)
                           : bench_sort_call(v.fn.sort<Key, PairValue>(), problem, n, ctx, pairs, v.fn.sort_start));
    }
    if (merge) {
        const std::string section = "merge of two sorted arrays of n/2 " + key_name + " keys";
        if (cpu) rows.push_back(bench_merge_cpu<Key>(problem, n, ctx, section));
        for (const auto& each : v.fn.of<Key>().merges) {
            const std::string label = each.label.empty() ? "" : v.name + " " + each.label;
            rows.push_back(bench_merge_call<Key>(each.run, problem, n, ctx, section, label));
        }
    }
    return rows;
}

#define INSTANTIATE_RUNS_SORT(Key, Value)                                                                              \
    template CheckResult check_sort<Key, Value>(const SortCall<Key, Value>&, const SortInputs<Key, Value>&,            \
                                                const SortInputs<Key, Value>&, SortStart);                             \
    template Measurement bench_sort_call<Key, Value>(const SortCall<Key, Value>&, MergeSortBenchProblem&, std::size_t, \
                                                     BenchContext&, const std::string&, SortStart);
#define INSTANTIATE_RUNS(Key, Less)                                                                                   \
    template CheckResult check_merge<Key>(const MergeCall<Key>&, const MergeInputs<Key>&, const std::vector<Key>&);   \
    template Measurement bench_merge_call<Key>(const MergeCall<Key>&, MergeSortBenchProblem&, std::size_t,            \
                                               BenchContext&, const std::string&, const std::string&);                \
    template std::vector<Measurement> bench_variant<Key>(const MergeSortExercise::Row&, MergeSortBenchProblem&,       \
                                                         std::size_t, BenchContext&, const std::string&, bool, bool); \
    INSTANTIATE_RUNS_SORT(Key, NoValues)                                                                              \
    INSTANTIATE_RUNS_SORT(Key, PairValue)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_RUNS)
#undef INSTANTIATE_RUNS
#undef INSTANTIATE_RUNS_SORT

}  // namespace merge_sort
