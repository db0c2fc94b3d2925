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
#include <string>
#include <vector>

namespace pmpp {

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
    std::string name;         // what --impl takes: "student", "naive", "cublas", "cpu"
    ImplKind kind = ImplKind::Reference;
    std::string description;  // one line, for --list
};

// One correctness case. `variant` is the exercise's own knob (e.g. misaligned pointers).
struct Case {
    std::string label;
    std::size_t n = 0;
    Distribution dist = Distribution::Uniform;
    int variant = 0;
    bool in_place = false;  // the output is the input (for the harness's "fails only in place")
};

// The seed of one case in a run with seed `run_seed`: derived from the case's label, not its
// position, so a run restricted with --size or --max-size gives a case the same inputs as the
// full run. (FNV-1a of the label: the same on every platform.)
std::uint64_t case_seed(std::uint64_t run_seed, const Case& c);

// Standard case list: every size in `sizes` with the first distribution, plus the other
// distributions at the sizes in `adversarial_sizes`.
std::vector<Case> make_cases(const std::vector<std::size_t>& sizes, const std::vector<Distribution>& dists,
                             const std::vector<std::size_t>& adversarial_sizes);

// The patterns over all cases of one implementation, from the cases and whether each passed:
// fails only at sizes that are not powers of two, only in place, only from some n on, only on one
// distribution, only at n = 0. Facts, like check_hints.h's: no pattern, no hint.
std::vector<std::string> explain_failing_cases(const std::vector<Case>& cases, const std::vector<bool>& passed);

// Sizes on every power-of-two edge: 0, 1, and 2^k-1, 2^k, 2^k+1 for each k in `exponents`.
std::vector<std::size_t> edge_sizes(const std::vector<int>& exponents);

// What the benchmark of one implementation at one size returns: one or more rows.
struct Measurement {
    std::string section = "kernel";  // rows are grouped in tables by section, in first-seen order
    std::string label;               // row label; empty: the implementation's name
    Stats ms;                        // milliseconds
    double bytes = 0;                // fewest bytes the operation must move (read + written)
    double items = 0;                // elements processed, for the items/s column
    bool correct = true;             // the output of the timed runs was checked
    std::string check_message;       // why not, when !correct
    std::string note;

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

    // For runs that take a second or more (a CPU reference at 2^28, a copy over PCIe): at most
    // `most` repeats after one warm-up, so the benchmark stays short.
    TimingOptions slow_timing(int most = 5) const {
        TimingOptions t = timing;
        t.repeats = t.repeats < most ? t.repeats : most;
        t.warmup = 1;
        return t;
    }
};

struct ExerciseDef {
    std::string id;       // "01_saxpy"
    std::string title;    // one line
    std::vector<Impl> impls;
    std::string baseline;               // the impl the "t / baseline" column divides by
    std::string items_unit = "Gelem/s"; // unit of items per second (in units of 1e9)
    std::vector<ExtraOption> extra_options;
    std::size_t max_size = std::size_t{1} << 32;
    std::vector<std::size_t> bench_sizes;  // used when --size is not given
    // Correctness cases (the harness filters them by --size and --max-size).
    std::function<std::vector<Case>(const Options&)> cases;
    // Runs one implementation on one case with `seed` and compares with the CPU reference.
    std::function<CheckResult(const Impl&, const Case&, std::uint64_t seed, const Options&)> run_case;
    // Times one implementation at size n; must re-check the output of the timed runs.
    std::function<std::vector<Measurement>(const Impl&, std::size_t n, BenchContext&)> bench;
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

// For device_bytes and host_bytes: a mebibyte, and what cudaMalloc commits for a buffer (one of
// 1 MiB or more takes whole 2 MiB pages; smaller ones share pages).
constexpr double kMiB = 1048576.0;
inline double committed_device_bytes(double bytes) {
    constexpr double kPage = 2.0 * kMiB;
    return bytes < kPage / 2 ? bytes : std::ceil(bytes / kPage) * kPage;
}

int run_exercise(const ExerciseDef& def, int argc, char** argv);

// The same, with the results kept in memory (used by tests): returns the exit code and fills
// `results` with exactly what --json would write.
int run_exercise(const ExerciseDef& def, int argc, char** argv, Json& results);

const Impl* find_impl(const ExerciseDef& def, const std::string& name);

}  // namespace pmpp
