// radix_sort_runs.cu: exercise 06 on the device: one sort's arrays between guard zones, the check
// of one sort, and the benchmark (each variant timed on the sorts the options ask for, every run
// checked; the references' time stage by stage).
#include "radix_sort_harness.h"

#include "common/check_hints.h"
#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"
#include "common/stage_events.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

namespace {

// The tiles the sorts of this exercise cut the keys into, for the check's hints to name ("from
// index 768, the start of tile 3"): 256 keys (tasks 6-7 and variants 2-3: a block of 256 threads,
// a key each), 2048 (task 8 and variant 4: 8 keys a thread), and variant 5's tile for this key
// size, with values or not.
template <class Key>
HintContext tile_boundaries(bool pairs) {
    HintContext context;
    context.boundaries = {
        {256, "tile"}, {2048, "coarsened tile"}, {onesweep_tile_keys(sizeof(Key), pairs), "Onesweep tile"}};
    return context;
}

// Keys and values (for pairs) uploaded to the device.
template <class Key>
struct DeviceData {
    DeviceBuffer<Key> keys;
    DeviceBuffer<Value> values;
    explicit DeviceData(const SortData<Key>& data) {
        keys.upload(data.keys);
        if (data.pairs) values.upload(data.values);
    }
    // Whether the device arrays `other_keys` and `other_values` (null for keys alone) hold these, bit for bit.
    bool same_as(const Key* other_keys, const Value* other_values) const {
        return count_differences_on_device(keys.data(), other_keys, keys.size()) == 0 &&
               (other_values == nullptr || count_differences_on_device(values.data(), other_values, keys.size()) == 0);
    }
};

// Device arrays for one sort: the input uploaded; the outputs and the workspace allocated
// between guard zones (a write past either end of anything the sort may write is caught),
// named as radix_sort.h names them.
template <class Key>
struct DeviceSort {
    DeviceData<Key> in;  // keys_in, values_in
    GuardedBuffer<Key> keys_out;
    GuardedBuffer<Value> values_out;  // no elements for keys alone (args.values_out is null then)
    GuardedBuffer<unsigned char> workspace;
    bool pairs = false;
    SortArgs<Key> args;

    DeviceSort(const SortData<Key>& input, std::size_t workspace_bytes, BitSpan bits)
        : in(input),
          keys_out(input.keys.size(), "keys_out"),
          values_out(input.pairs ? input.keys.size() : 0, "values_out"),
          workspace(workspace_bytes, "the workspace"),
          pairs(input.pairs) {
        args.keys_in = in.keys.data();
        args.keys_out = keys_out.data();
        args.values_in = pairs ? in.values.data() : nullptr;
        args.values_out = pairs ? values_out.data() : nullptr;
        args.n = input.keys.size();
        args.begin_bit = bits.begin;
        args.end_bit = bits.end;
        args.workspace = workspace.data();
    }
    // Before every run: 0xFF bytes everywhere the sort writes (an element never written cannot
    // pass; no sort may rely on zeroed scratch memory), every guard zone armed again.
    void poison() {
        keys_out.poison();
        values_out.poison();
        workspace.poison();
    }
    SortData<Key> output() const { return {keys_out.to_host(), values_out.to_host(), pairs}; }
    // After every run, once the device is idle: did the sort write outside what it was given (the
    // guards, first)? Is the output right (`output_right()`, or else the judge's verdict on it,
    // the hints naming the tiles)? Is the input as it was (`input_unchanged()`)?
    template <class OutputRight, class InputUnchanged>
    CheckResult verdict(const SortProblem<Key>& p, OutputRight output_right, InputUnchanged input_unchanged) const {
        CheckResult r = keys_out.check_guards();
        if (r.ok && pairs) r = values_out.check_guards();
        if (r.ok) r = workspace.check_guards();
        if (!r.ok) return r;
        if (!output_right()) {
            const HintScope tiles(tile_boundaries<Key>(pairs));
            r = judge(p.in, p.expected, output(), p.bits);
            if (!r.ok) return r;
        }
        if (!input_unchanged())
            return CheckResult::fail("the input was modified: keys_in and values_in must be left as they were");
        return CheckResult::pass(args.n);
    }
};

// The stages a sort marks (radix_sort.h's StageTimer), timed with events between its kernels.
struct EventStageTimer : StageTimer {
    StageEvents events;
    void mark(const std::string& stage, double bytes) override { events.mark(stage, bytes); }
};

constexpr double kSlowRunMs = 100;

template <class Key>
constexpr KeyType kKeyTypeOf = std::is_same_v<Key, std::int32_t> ? KeyType::I32
                               : std::is_same_v<Key, float>      ? KeyType::F32
                               : sizeof(Key) == 8                ? KeyType::U64
                                                                 : KeyType::U32;

// "u32 keys + u32 values, bits 0:16": the section of a sort's rows (bench_variant puts the
// headline's in "kernel").
template <class Key>
std::string bench_what(const SortProblem<Key>& p) {
    return std::string(to_string(kKeyTypeOf<Key>)) + (p.in.pairs ? " keys + u32 values" : " keys") +
           (p.bits.end - p.bits.begin != kKeyBits<Key> ? ", " + describe(p.bits) : "");
}

template <class Key>
Measurement bench_row(const SortProblem<Key>& p) {
    const double n = static_cast<double>(p.in.keys.size());
    Measurement m;
    m.section = bench_what(p);
    m.bytes = 2.0 * n * static_cast<double>(sizeof(Key) + (p.in.pairs ? sizeof(Value) : 0));
    m.items = n;
    return m;
}

// The CPU reference on the host threads, for scale: its output poisoned before each run (as the
// device outputs are) and judged after the timing.
template <class Key>
Measurement bench_cpu(const SortProblem<Key>& p, BenchContext& ctx) {
    const std::size_t n = p.in.keys.size();
    const bool pairs = p.in.pairs;
    Measurement m = bench_row(p);
    SortData<Key> out = p.in;  // of the input's sizes
    auto poison = [&] {
        if (n == 0) return;
        std::memset(static_cast<void*>(out.keys.data()), 0xFF, n * sizeof(Key));
        if (pairs) std::memset(out.values.data(), 0xFF, n * sizeof(Value));
    };
    TimingOptions t = ctx.timing;
    t.warmup = 0;
    t.repeats = n > (std::size_t{1} << 24) ? 1 : std::min(t.repeats, 3);
    m.ms = time_host(
        t,
        [&] {
            radix_sort_cpu(p.in.keys.data(), pairs ? p.in.values.data() : nullptr, out.keys.data(),
                           pairs ? out.values.data() : nullptr, n, p.bits.begin, p.bits.end);
        },
        poison);
    m.record_check(judge(p.in, p.expected, out, p.bits));
    m.note = format("%u host threads, for scale", std::max(1u, std::thread::hardware_concurrency()));
    return m;
}

}  // namespace

// ---- The check -------------------------------------------------------------------------------------

template <class Key>
CheckResult check_sort(const SortImpl<Key>& impl, const SortProblem<Key>& p) {
    DeviceSort<Key> d(p.in, impl.workspace_bytes(p.in.keys.size(), p.in.pairs), p.bits);
    d.poison();
    impl.run(d.args);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    // The output judged on the host; the input read back.
    return d.verdict(
        p, [] { return false; },
        [&] {
            return compare_exact(p.in.keys, d.in.keys.to_host()).ok &&
                   (!p.in.pairs || compare_exact(p.in.values, d.in.values.to_host()).ok);
        });
}

// ---- The benchmark ---------------------------------------------------------------------------------

// The comparisons run on the device against copies uploaded once; only a wrong run brings its
// output back, for the judge to say how it is wrong.
template <class Key>
std::vector<Measurement> bench_sort(const SortImpl<Key>& fn, const std::string& name, bool stages,
                                    const SortProblem<Key>& data, BenchContext& ctx) {
    const std::size_t n = data.in.keys.size();
    Measurement m = bench_row(data);
    DeviceSort<Key> d(data.in, fn.workspace_bytes(n, data.in.pairs), data.bits);
    const DeviceData<Key> expected(data.expected), original(data.in);
    TimedCall call;
    call.prepare = [&] { d.poison(); };
    call.run = [&] { fn.run(d.args); };
    call.verify = [&] {
        return d.verdict(
            data, [&] { return expected.same_as(d.args.keys_out, d.args.values_out); },
            [&] { return original.same_as(d.args.keys_in, d.args.values_in); });
    };

    // One run first says how long a run takes: slow ones (the one-bit sort on a Blelloch scan
    // at 2^28: over half a second) are timed 3 times, not 20. Its runs are checked like the others.
    TimingOptions timing = ctx.timing;
    TimingOptions once = timing;
    once.warmup = 1;
    once.repeats = 1;
    TimedResult probe = time_checked(once, &ctx.flusher, call);
    if (!probe.check.ok) {
        probe.check.message = "the probe of how long a run takes, " + probe.check.message;
        m.record(probe);
        return {m};
    }
    if (probe.ms.median > kSlowRunMs) {
        timing.warmup = 0;
        timing.repeats = std::min(timing.repeats, 3);
        m.note = format("timed %d times: a run takes over %.0f ms", timing.repeats, kSlowRunMs);
    }
    m.record(time_checked(timing, &ctx.flusher, call));
    if (!stages || !m.correct) return {m};

    // Where the time goes: each stage the sort marks, timed with events; medians over the
    // repeats. These runs are checked too: one wrong one makes the implementation's row wrong.
    EventStageTimer timer;
    d.args.stages = &timer;
    std::vector<std::vector<StageEvents::Stage>> runs;
    const int stage_runs = timing.warmup + timing.repeats;
    for (int r = 0; r < stage_runs; ++r) {
        call.prepare();
        ctx.flusher.flush();
        timer.events.start();
        fn.run(d.args);
        if (r >= timing.warmup) runs.push_back(timer.events.stages());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult check = call.verify();
        if (!check.ok) {
            check.message = format("run %d of %d timed by stage: ", r + 1, stage_runs) + check.message;
            m.record_check(check);
            return {m};
        }
    }
    std::vector<Measurement> rows = {m};
    for (std::size_t s = 0; s < runs.front().size(); ++s) {
        std::vector<double> ms;
        for (const auto& one : runs) ms.push_back(one[s].ms);
        const StageEvents::Stage& stage = runs.front()[s];
        Measurement row;
        row.section = "stages: " + bench_what(data);
        row.label = name + ": " + stage.name + (stage.count > 1 ? format(" (x%d)", stage.count) : "");
        row.ms = summarize(ms);
        row.bytes = stage.bytes;
        row.items = static_cast<double>(n);
        rows.push_back(row);
    }
    return rows;
}

std::vector<Measurement> bench_variant(const RadixSortExercise::Row& v, BenchProblem& p, std::size_t,
                                       BenchContext& ctx) {
    return std::visit(
        [&](const auto& sorts) {
            using Key = typename std::decay_t<decltype(sorts)>::value_type::key_type;
            std::vector<Measurement> rows;
            for (std::size_t i = 0; i < sorts.size(); ++i) {
                const SortProblem<Key>& sort = sorts[i];
                // The first sort is the headline ("kernel": the student's key figure). A run that
                // asks for one table (--section) times only what goes into it.
                const std::string section = i == 0 ? "kernel" : bench_what(sort);
                const bool stages = v.kind == ImplKind::Reference && ctx.times_section("stages: " + bench_what(sort));
                if (!ctx.times_section(section) && !stages) continue;
                std::vector<Measurement> more = v.kind == ImplKind::Cpu
                                                    ? std::vector<Measurement>{bench_cpu(sort, ctx)}
                                                    : bench_sort(v.fn.get<Key>(), v.name, stages, sort, ctx);
                more.front().section = section;
                rows.insert(rows.end(), more.begin(), more.end());
            }
            return rows;
        },
        p);
}

#define INSTANTIATE_RUNS(Key)                                                                         \
    template CheckResult check_sort<Key>(const SortImpl<Key>&, const SortProblem<Key>&);              \
    template std::vector<Measurement> bench_sort<Key>(const SortImpl<Key>&, const std::string&, bool, \
                                                      const SortProblem<Key>&, BenchContext&);
INSTANTIATE_RUNS(std::uint32_t)
INSTANTIATE_RUNS(std::int32_t)
INSTANTIATE_RUNS(float)
INSTANTIATE_RUNS(std::uint64_t)
#undef INSTANTIATE_RUNS

}  // namespace radix_sort
