// radix_sort_bench.cu: the benchmark of exercise 06: the sorts the options ask for, made once per
// size; each variant timed on them, every run checked; the references' time stage by stage.
#include "radix_sort_device.h"

#include "common/cuda_check.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

namespace {

// Times each stage a sort marks with events, between its kernels (no flush inside a sort).
class EventStageTimer : public StageTimer {
public:
    struct Stage {
        std::string name;
        double ms = 0;
        double bytes = 0;
        int count = 0;
    };
    ~EventStageTimer() override {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }
    void start() {
        names_.clear();
        bytes_.clear();
        used_ = 0;
        record();
    }
    void mark(const std::string& stage, double bytes) override {
        names_.push_back(stage);
        bytes_.push_back(bytes);
        record();
    }
    // After the sort: each stage's time, summed over its repeats within the sort, in first-seen order.
    std::vector<Stage> stages() {
        PMPP_CUDA_CHECK(cudaEventSynchronize(events_[used_ - 1]));
        std::vector<Stage> out;
        for (std::size_t i = 0; i < names_.size(); ++i) {
            float ms = 0;
            PMPP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
            auto it = std::find_if(out.begin(), out.end(), [&](const Stage& s) { return s.name == names_[i]; });
            if (it == out.end()) it = out.insert(out.end(), Stage{names_[i]});
            it->ms += ms;
            it->bytes += bytes_[i];
            ++it->count;
        }
        return out;
    }

private:
    void record() {
        if (used_ == events_.size()) {
            cudaEvent_t e;
            PMPP_CUDA_CHECK(cudaEventCreate(&e));
            events_.push_back(e);
        }
        PMPP_CUDA_CHECK(cudaEventRecord(events_[used_++]));
    }
    std::vector<cudaEvent_t> events_;
    std::size_t used_ = 0;
    std::vector<std::string> names_;
    std::vector<double> bytes_;
};

constexpr double kSlowRunMs = 100;

template <class Key>
constexpr KeyType kKeyTypeOf = std::is_same_v<Key, std::int32_t> ? KeyType::I32
                               : std::is_same_v<Key, float>      ? KeyType::F32
                               : sizeof(Key) == 8                ? KeyType::U64
                                                                 : KeyType::U32;

// "u32 keys + u32 values, bits 0:16": the section of a sort that is not the headline.
template <class Key>
std::string bench_what(const SortProblem<Key>& p) {
    return std::string(to_string(kKeyTypeOf<Key>)) + (p.in.pairs ? " keys + u32 values" : " keys") +
           (p.bits.end - p.bits.begin != kKeyBits<Key> ? ", " + describe(p.bits) : "");
}

template <class Key>
Measurement bench_row(const SortProblem<Key>& p, bool headline) {
    const double n = static_cast<double>(p.in.keys.size());
    Measurement m;
    m.section = headline ? "kernel" : bench_what(p);
    m.bytes = 2.0 * n * static_cast<double>(sizeof(Key) + (p.in.pairs ? sizeof(Value) : 0));
    m.items = n;
    return m;
}

// The CPU reference on the host threads, for scale: its output poisoned before each run (as the
// device outputs are) and judged after the timing.
template <class Key>
Measurement bench_cpu(const SortProblem<Key>& p, BenchContext& ctx, bool headline) {
    const std::size_t n = p.in.keys.size();
    const bool pairs = p.in.pairs;
    Measurement m = bench_row(p, headline);
    SortData<Key> out;
    out.pairs = pairs;
    out.keys.resize(n);
    if (pairs) out.values.resize(n);
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

BenchChoice bench_choice(const Options& opts, bool with_bits) {
    BenchChoice c;
    if (!parse_key_type(opts.get("type"), c.type)) throw UsageError("option --type: '" + opts.get("type") + "'");
    const std::string& pairs = opts.get("pairs");
    c.keys = pairs != "yes";
    c.pairs = pairs != "no";
    const int w = key_bits_of(c.type);
    c.bits = {0, w};
    const std::string& bits = opts.get("bits");
    if (with_bits && bits != "all") {
        const auto colon = bits.find(':');
        c.bits = {std::stoi(bits.substr(0, colon)), std::stoi(bits.substr(colon + 1))};
        if (c.bits.end > w)
            throw UsageError("option --bits " + bits + ": " + to_string(c.type) + " keys have " + std::to_string(w) +
                             " bits");
    }
    return c;
}

// The same inputs and right answers for every variant at one size: uniform keys from ctx.seed.
BenchProblem make_bench_problem(std::size_t n, BenchContext& ctx) {
    const BenchChoice choice = bench_choice(ctx.opts);
    return with_type<KeyTypes>(choice.type, [&](auto tag) -> BenchProblem {
        using Key = typename decltype(tag)::type;
        SortProblems<Key> sorts;
        for (bool pairs : {false, true})
            if (pairs ? choice.pairs : choice.keys)
                sorts.push_back(make_sort_problem<Key>(n, InputKind::Uniform, pairs, choice.bits, ctx.seed));
        return sorts;
    });
}

// Every run (the stage breakdown's too) is checked as radix_sort_harness.h says, once the device
// is idle. The comparisons run on the device against copies uploaded once; only a wrong run
// brings its output back, for the judge to say how it is wrong.
template <class Key>
std::vector<Measurement> bench_sort(const SortImpl<Key>& fn, const std::string& name, bool stages,
                                    const SortProblem<Key>& data, BenchContext& ctx, bool headline) {
    const std::size_t n = data.in.keys.size();
    const bool pairs = data.in.pairs;
    const BitSpan bits = data.bits;
    Measurement m = bench_row(data, headline);
    DeviceSort<Key> d(data.in, fn.workspace_bytes(n, pairs), bits);
    DeviceBuffer<Key> expected_keys, original_keys;
    DeviceBuffer<Value> expected_values, original_values;
    expected_keys.upload(data.expected.keys);
    original_keys.upload(data.in.keys);
    if (pairs) {
        expected_values.upload(data.expected.values);
        original_values.upload(data.in.values);
    }
    auto differs = [n](const auto& expected, const auto* actual) {
        return count_differences_on_device(expected.data(), actual, n) != 0;
    };
    TimedCall call;
    call.prepare = [&] { d.poison(); };
    call.run = [&] { fn.run(d.args); };
    call.verify = [&]() -> CheckResult {
        const CheckResult guards = d.check_guards();
        if (!guards.ok) return guards;
        const bool right =
            !differs(expected_keys, d.keys_out.data()) && (!pairs || !differs(expected_values, d.values_out.data()));
        if (!right) {
            const HintScope tiles(tile_boundaries<Key>(pairs));
            return judge(data.in, data.expected, d.output(), bits);
        }
        const bool unchanged =
            !differs(original_keys, d.keys_in.data()) && (!pairs || !differs(original_values, d.values_in.data()));
        return and_input_unchanged(CheckResult::pass(n), unchanged);
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
    std::vector<std::vector<EventStageTimer::Stage>> runs;
    const int stage_runs = timing.warmup + timing.repeats;
    for (int r = 0; r < stage_runs; ++r) {
        call.prepare();
        ctx.flusher.flush();
        timer.start();
        fn.run(d.args);
        if (r >= timing.warmup) runs.push_back(timer.stages());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult check = call.verify();
        if (!check.ok) {
            check.message = format("run %d of %d timed by stage: ", r + 1, stage_runs) + check.message;
            m.record_check(check);
            return {m};
        }
    }
    const std::string what = bench_what(data);
    std::vector<Measurement> rows = {m};
    for (std::size_t s = 0; s < runs.front().size(); ++s) {
        std::vector<double> ms;
        for (const auto& one : runs) ms.push_back(one[s].ms);
        const EventStageTimer::Stage& stage = runs.front()[s];
        Measurement row;
        row.section = "stages: " + what;
        row.label = name + ": " + stage.name + (stage.count > 1 ? format(" (x%d)", stage.count) : "");
        row.ms = summarize(ms);
        row.bytes = stage.bytes;
        row.items = static_cast<double>(n);
        rows.push_back(row);
    }
    return rows;
}

namespace {

template <class Key>
std::vector<Measurement> bench_sorts(const RadixSortExercise::Row& v, const SortProblems<Key>& sorts,
                                     BenchContext& ctx) {
    std::vector<Measurement> rows;
    for (std::size_t i = 0; i < sorts.size(); ++i) {
        const bool headline = i == 0;  // the first sort is the headline ("kernel": the student's key figure)
        if (v.kind == ImplKind::Cpu) {
            rows.push_back(bench_cpu(sorts[i], ctx, headline));
            continue;
        }
        for (auto& m : bench_sort(v.fn.get<Key>(), v.name, v.kind == ImplKind::Reference, sorts[i], ctx, headline))
            rows.push_back(m);
    }
    return rows;
}

}  // namespace

std::vector<Measurement> bench_variant(const RadixSortExercise::Row& v, BenchProblem& p, BenchContext& ctx) {
    return std::visit([&](const auto& sorts) { return bench_sorts(v, sorts, ctx); }, p);
}

#define INSTANTIATE_BENCH(Key)                                                                        \
    template std::vector<Measurement> bench_sort<Key>(const SortImpl<Key>&, const std::string&, bool, \
                                                      const SortProblem<Key>&, BenchContext&, bool);
INSTANTIATE_BENCH(std::uint32_t)
INSTANTIATE_BENCH(std::int32_t)
INSTANTIATE_BENCH(float)
INSTANTIATE_BENCH(std::uint64_t)
#undef INSTANTIATE_BENCH

}  // namespace radix_sort
