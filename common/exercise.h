// exercise.h: the harness every exercise runs (docs/CONTRACT.md is the specification).
//
// An exercise describes itself in an ExerciseDef: its implementations, its correctness cases,
// how to run one case, and how to benchmark one implementation at one size. run_exercise()
// owns everything else: the command line, the GPU check, seeds, the check loop, the benchmark
// table, the results file and the exit code.
#pragma once

#include "common/check.h"
#include "common/cli.h"
#include "common/device.h"
#include "common/json.h"
#include "common/rng.h"
#include "common/stats.h"
#include "common/timing.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmpp {

// The items unit of an exercise that names none (elements; make plot then draws GB/s).
inline constexpr const char* kDefaultItemsUnit = "Gelem/s";

// Exit codes of every harness (docs/CONTRACT.md).
enum ExitCode : int {
    kExitOk = 0,
    kExitWrongResult = 1,
    kExitUsage = 2,
    kExitCudaOrNoGpu = 3,
    kExitOutOfMemory = 4,
};

enum class ImplKind { Student, Reference, Library, Cpu };
const char* to_string(ImplKind kind);

struct Impl {
    std::string name;  // what --impl takes: "student", "naive", "cublas", "cpu"
    ImplKind kind = ImplKind::Reference;
    std::string description;  // one line, for --list
};

// One correctness case as the runner sees it. An exercise built on Exercise<> (below) never makes
// one: it declares its own case type, and the runner labels it and keeps it in `typed`.
struct Case {
    std::string label;
    std::size_t n = 0;
    Distribution dist = Distribution::Uniform;
    bool in_place = false;  // the output is the input (for the harness's "fails only in place")
    std::shared_ptr<const void> typed = nullptr;  // the exercise's CaseOf<Spec>
};

// The seed of one case in a run with seed `run_seed`: derived from the case's label, not its
// position, so a run restricted with --size or --max-size gives a case the same inputs as the
// full run. (FNV-1a of the label: the same on every platform.)
std::uint64_t case_seed(std::uint64_t run_seed, const Case& c);

// --shard I/N: the cases at positions I-1, I-1+N, I-1+2N, ... (every case when N = 1). Taking
// every N-th rather than a block spreads a list's large and small cases over the shards alike.
std::vector<Case> shard_of(std::vector<Case> cases, int shard, int shards);

// The patterns over all cases of one implementation, from the cases and whether each passed:
// fails only at sizes that are not powers of two, only in place, only from some n on, only on one
// distribution, only at n = 0. Facts, like check_hints.h's: no pattern, no hint.
std::vector<std::string> explain_failing_cases(const std::vector<Case>& cases, const std::vector<bool>& passed);

// Sizes on every power-of-two edge: 0, 1, and 2^k-1, 2^k, 2^k+1 for each k in `exponents`.
std::vector<std::size_t> edge_sizes(const std::vector<int>& exponents);

// What the benchmark of one implementation at one size returns: one or more rows.
struct Measurement {
    std::string section = "kernel";  // rows are grouped in tables by section, in first-seen order
    std::string label;  // row label; empty: the implementation's name
    Stats ms;  // milliseconds
    double bytes = 0;  // fewest bytes the operation must move (read + written)
    double items = 0;  // elements processed, for the items/s column
    bool correct = true;  // the output of the timed runs was checked
    std::string check_message;  // why not, when !correct
    std::string note;
    // Items per second the hardware allows this row, where a bound other than the copy bandwidth
    // holds (08: the FP32 peak over the flops of an iteration); 0 for none. `make plot` draws it.
    double items_ceiling = 0;
    std::string items_ceiling_name;  // what bounds it, e.g. "FP32 peak"

    // Records the check of the timed runs' output.
    void record_check(const CheckResult& r) {
        correct = r.ok;
        check_message = r.report();
    }
    // Records a time_checked() measurement: its times, the check of every run, its note.
    void record(const TimedResult& t) {
        ms = t.ms;
        record_check(t.check);
        if (!t.note.empty()) note += (note.empty() ? "" : "; ") + t.note;
    }
};

struct BenchContext {
    const Options& opts;
    std::uint64_t seed;
    TimingOptions timing;
    L2Flusher& flusher;
    const DeviceSummary& device;

    // Whether the run wants the rows of this benchmark table (--section names one, or none: every
    // table). The runner drops the other tables' rows; an exercise may skip timing them at all.
    bool times_section(const std::string& section) const { return opts.section.empty() || opts.section == section; }

    // For runs that take a second or more (a CPU reference at 2^28, a copy over PCIe): at most
    // `most` repeats after one warm-up, so the benchmark stays short.
    TimingOptions slow_timing(int most = 5) const {
        TimingOptions t = timing;
        t.repeats = t.repeats < most ? t.repeats : most;
        t.warmup = 1;
        return t;
    }
};

// What an exercise says about itself, typed or not: its name, its command line, its benchmark's
// sizes and baseline, and the memory one size holds. Exercise<> and ExerciseDef both start with
// it, so erase() hands it over whole.
struct ExerciseFacts {
    std::string id;  // "01_saxpy"
    std::string title;  // one line
    std::string baseline;  // the implementation the "t / baseline" column divides by
    std::string items_unit = kDefaultItemsUnit;  // unit of items per second (in units of 1e9)
    std::vector<ExtraOption> extra_options;
    std::size_t max_size = std::size_t{1} << 32;
    std::vector<std::size_t> bench_sizes;  // used when --size is not given
    // Memory at size n, counted buffer by buffer: every buffer the check or the benchmark of one
    // size holds at once, on the device (inputs, outputs, guard zones, cached expected outputs,
    // library temporaries, allocator pools) and on the host (inputs, CPU reference outputs,
    // downloads, pinned buffers). A size that does not fit what the device (or the host) has
    // free is skipped with one line saying why; with --size it ends the run with exit code 4.
    // tests check both against the peak measured on a GPU (pmpp::testing::expect_memory_estimates).
    // Both get the run's options: an option that changes what is held (a key type, --frames)
    // changes the estimate.
    std::function<double(std::size_t n, const Options& opts)> device_bytes;
    std::function<double(std::size_t n, const Options& opts)> host_bytes;
};

// What the runner runs: an exercise with its types erased. Exercise<>::erase() makes one.
struct ExerciseDef : ExerciseFacts {
    std::vector<Impl> impls;
    // Correctness cases (the runner filters them by --size and --max-size), labelled.
    std::function<std::vector<Case>(const Options&)> cases;
    // prepare_case makes one case's problem (its inputs and the CPU's answer) once and returns
    // the check of any implementation on it; prepare_size does the same for one benchmark size
    // (the timed runs' outputs checked). resize gives a case of the same kind at another n (--size).
    using CheckOne = std::function<CheckResult(const Impl&)>;
    using BenchOne = std::function<std::vector<Measurement>(const Impl&)>;
    std::function<CheckOne(const Case&, std::uint64_t seed, const Options&)> prepare_case;
    std::function<BenchOne(std::size_t n, BenchContext&)> prepare_size;
    std::function<Case(const Case&, std::size_t n)> resize;
};

// For device_bytes and host_bytes: a mebibyte, and what cudaMalloc commits for a buffer (one of
// 1 MiB or more takes whole 2 MiB pages; smaller ones share pages).
constexpr double kMiB = 1048576.0;
inline double committed_device_bytes(double bytes) {
    constexpr double kPage = 2.0 * kMiB;
    return bytes < kPage / 2 ? bytes : std::ceil(bytes / kPage) * kPage;
}

// ---- The typed contract (docs/CONTRACT.md) ---------------------------------------------------
//
// An exercise declares three types of its own and one table:
//   Spec      what makes its cases differ besides n and the distribution (a key type, a merge
//             shape, a scene, in place or not): a plain struct, no bit packing;
//   Fn        what its variants are, as its check and benchmark call them (a function pointer, or
//             a struct of the calls one variant offers);
//   Problem   one case's inputs and the CPU's answer, made once per case and seed by the runner
//             and handed to every variant (BenchProblem: the same for one benchmark size);
// and the table of variants, each named once: name, kind, description, the function.

// A correctness case of an exercise whose cases differ by Spec. Its label is the runner's:
// "n=SIZE" and then Exercise::describe's words ("n=1K uniform in-place").
template <class Spec>
struct CaseOf {
    std::size_t n = 0;
    Distribution dist = Distribution::Uniform;
    Spec spec{};
    bool in_place = false;  // the output is the input (the runner's "fails only in place")
};

// One row of the table of variants (the student's, the references, the library, the CPU's).
template <class Fn>
struct Variant {
    std::string name;  // what --impl takes
    ImplKind kind = ImplKind::Reference;
    std::string description;  // one line, for --list
    Fn fn{};  // empty for the CPU's row when the benchmark times it itself
};

// "n=" and the size, then the words that tell the case apart (none: just the size).
std::string case_label(std::size_t n, const std::string& words);

template <class Spec, class Fn, class Problem, class BenchProblem = Problem>
struct Exercise : ExerciseFacts {
    using Case = CaseOf<Spec>;
    using Row = Variant<Fn>;

    std::vector<Row> variants;

    // The correctness cases (the runner filters them by --size and --max-size) and the words of
    // each one's label after its size: the distribution first, then what Spec adds.
    std::function<std::vector<Case>(const Options&)> cases;
    std::function<std::string(const Case&)> describe;
    bool size_in_label = true;  // false: the label is describe's words alone (08: its shape says the size)
    // A case of the list at another n, for --size N (unset: the case with n replaced).
    std::function<Case(Case, std::size_t n)> at_size;
    // One case's problem from its seed, and the check of one variant on it (never the CPU's).
    std::function<Problem(const Case&, std::uint64_t seed, const Options&)> make_problem;
    std::function<CheckResult(const Row&, const Problem&, const Case&, const Options&)> check;
    // One benchmark size's problem (from ctx.seed), and the rows of one variant timed on it; the
    // timed runs' outputs must be checked (Measurement::record).
    std::function<BenchProblem(std::size_t n, BenchContext&)> make_bench_problem;
    std::function<std::vector<Measurement>(const Row&, BenchProblem&, std::size_t n, BenchContext&)> bench;

    std::string label(const Case& c) const {
        const std::string words = describe ? describe(c) : "";
        return size_in_label ? case_label(c.n, words) : words;
    }

    const Row& variant(const std::string& name) const {
        for (const Row& v : variants)
            if (v.name == name) return v;
        throw std::logic_error(id + ": no variant named " + name);
    }

    // For tests: one variant on one case, the problem made from `seed`.
    CheckResult check_case(const Row& v, const Case& c, std::uint64_t seed, const Options& opts = Options{}) const {
        const Problem p = make_problem(c, seed, opts);
        return check(v, p, c, opts);
    }
    CheckResult check_case(const std::string& name, const Case& c, std::uint64_t seed,
                           const Options& opts = Options{}) const {
        return check_case(variant(name), c, seed, opts);
    }
    // For tests: one variant's rows at size n.
    std::vector<Measurement> bench_variant(const std::string& name, std::size_t n, BenchContext& ctx) const {
        BenchProblem p = make_bench_problem(n, ctx);
        return bench(variant(name), p, n, ctx);
    }

    // What run_exercise runs. The typed case travels inside the runner's Case.
    ExerciseDef erase() const {
        auto self = std::make_shared<const Exercise>(*this);
        ExerciseDef def;
        static_cast<ExerciseFacts&>(def) = *this;
        for (const Row& v : variants) def.impls.push_back({v.name, v.kind, v.description});
        def.cases = [self](const Options& opts) {
            std::vector<pmpp::Case> out;
            for (const Case& c : self->cases(opts)) out.push_back(self->untyped(c));
            return out;
        };
        def.resize = [self](const pmpp::Case& c, std::size_t n) {
            Case typed = *static_cast<const Case*>(c.typed.get());
            if (self->at_size) {
                typed = self->at_size(typed, n);
            } else {
                typed.n = n;
            }
            return self->untyped(typed);
        };
        def.prepare_case = [self](const pmpp::Case& c, std::uint64_t seed,
                                  const Options& opts) -> ExerciseDef::CheckOne {
            auto typed = std::static_pointer_cast<const Case>(c.typed);
            auto problem = std::make_shared<const Problem>(self->make_problem(*typed, seed, opts));
            return [self, typed, problem, &opts](const Impl& impl) {
                return self->check(self->variant(impl.name), *problem, *typed, opts);
            };
        };
        def.prepare_size = [self](std::size_t n, BenchContext& ctx) -> ExerciseDef::BenchOne {
            auto problem = std::make_shared<BenchProblem>(self->make_bench_problem(n, ctx));
            return [self, problem, n, &ctx](const Impl& impl) {
                return self->bench(self->variant(impl.name), *problem, n, ctx);
            };
        };
        return def;
    }

    // The runner's form of a case: labelled, the typed case inside.
    pmpp::Case untyped(const Case& c) const {
        pmpp::Case u;
        u.label = label(c);
        u.n = c.n;
        u.dist = c.dist;
        u.in_place = c.in_place;
        u.typed = std::make_shared<const Case>(c);
        return u;
    }
};

int run_exercise(const ExerciseDef& def, int argc, char** argv);

// The same, with the results kept in memory (used by tests): returns the exit code and fills
// `results` with exactly what --json would write.
int run_exercise(const ExerciseDef& def, int argc, char** argv, Json& results);

const Impl* find_impl(const ExerciseDef& def, const std::string& name);

}  // namespace pmpp
