// testing.h: what every GoogleTest suite in the course shares.
//  - PMPP_REQUIRE_GPU(): skips a device test on a machine without a usable GPU, saying why.
//  - test_seed(): the suite's seed, fresh per run, printed at start; PMPP_TEST_SEED=S replays it.
//  - a seed per test (derived from the suite seed and the test's name), so one test replays alone.
//  - BenchFixture: what run_exercise hands a bench function, for calling one directly.
//  - expect_memory_estimates(): an exercise's device and host memory estimates against the
//    peaks its benchmark really reaches.
//  - exercise_readme(), expect_readme_hints(): the README's hints against the wrong
//    implementations the tests hold for them (common/readme_hints.h).
#pragma once

#include "common/device.h"
#include "common/exercise.h"
#include "common/rng.h"
#include "common/timing.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pmpp::testing {

// The suite's seed (PMPP_TEST_SEED or fresh), fixed for the whole run.
std::uint64_t suite_seed();

// A seed for the running test: stable for a given suite seed and test name.
std::uint64_t test_seed(std::uint64_t stream = 0);

// Cached probe of the GPU (probing once keeps the suite fast without one).
const GpuProbe& gpu();

// The options, flusher, device and timing a bench function gets from run_exercise. Needs a GPU.
struct BenchFixture {
    explicit BenchFixture(TimingOptions timing = TimingOptions{2, 5, true}) : timing_(timing) {}
    Options opts;
    L2Flusher flusher;
    DeviceSummary device = describe_device();
    TimingOptions timing_;
    BenchContext ctx{opts, test_seed(), timing_, flusher, device};
};

// The most memory `work` holds at once beyond what was held when it started: device memory
// (cudaMemGetInfo, sampled every 50 us from a second thread, and once after) and host memory
// (the process's peak resident set, reset first through /proc/self/clear_refs; 0 where Linux
// does not allow that).
struct MemoryPeak {
    double device_bytes = 0;
    double host_bytes = 0;
};
MemoryPeak measure_memory_peak(const std::function<void()>& work);

// Runs def's benchmark of every implementation at size n with the exercise's default options
// (one timed run each, no warm-up: the buffers are the same) and expects the exercise's estimates to bound the measured peaks:
// peak <= estimate * 1.05 (the margin the harness's size check leaves), and estimate <= peak *
// 1.10 + `slack_bytes` (an estimate far above the peak skips sizes that fit). The host estimate
// is held to the same upper bound and, because the C++ library and the allocator round, to a
// looser lower one (estimate <= peak * 1.25 + 64 MiB). Prints both figures.
void expect_memory_estimates(const ExerciseDef& def, std::size_t n, double slack_bytes = 0);
// The same with the options of a command line (`{"--type", "f32", "--pairs"}`), for the benchmark
// and both estimates.
void expect_memory_estimates(const ExerciseDef& def, std::size_t n, const std::vector<std::string>& args,
                             double slack_bytes = 0);
// The same with parsed options, timing only the implementations named in `impls` (all when empty).
void expect_memory_estimates_with(const ExerciseDef& def, std::size_t n, const Options& opts,
                                  const std::set<std::string>& impls = {}, double slack_bytes = 0);

// The README of the exercise whose test binary is running (<exercise>/build/tests, so
// <exercise>/README.md, whatever the working directory).
std::string exercise_readme();

// Expects the README's "## Hints" section to quote exactly `symptoms`, each once and in any
// order: the symptoms the test's wrong implementations are checked against. A hint with no wrong
// implementation, a wrong implementation whose hint the README lost, and a malformed hint each
// fail, naming the README line.
void expect_readme_hints(const std::string& readme, const std::vector<std::string>& symptoms);

// The same for a test's table of hinted mistakes (rows with a `symptom`), against the README of
// the exercise whose tests are running.
template <typename Row>
void expect_readme_quotes_the_symptoms_of(const std::vector<Row>& table) {
    std::vector<std::string> symptoms;
    for (const Row& row : table) symptoms.push_back(row.symptom);
    expect_readme_hints(exercise_readme(), symptoms);
}

}  // namespace pmpp::testing

#define PMPP_REQUIRE_GPU()                                                                                       \
    do {                                                                                                         \
        if (!::pmpp::testing::gpu().available) GTEST_SKIP() << "needs a GPU: " << ::pmpp::testing::gpu().reason; \
    } while (0)
