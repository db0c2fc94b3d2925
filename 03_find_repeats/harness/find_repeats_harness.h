// find_repeats_harness.h: exercise 03 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests: its cases, its variants, the check and the benchmark.
#pragma once

#include "../find_repeats.h"
#include "../../02_scan/harness/scan_inputs.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <functional>
#include <vector>

namespace find_repeats {

// What tells two cases of the same size apart: the input kind (02's, values 0..9 first).
struct RepeatsSpec {
    scan_inputs::Kind kind = scan_inputs::kSmallValues;
};
using RepeatsCase = pmpp::CaseOf<RepeatsSpec>;

// Any implementation, as the check and the benchmark call it.
struct RepeatsFn {
    std::function<std::size_t(std::size_t)> workspace_bytes;
    std::function<std::size_t(const int*, std::size_t, int*, void*)> run;
};

// One problem: the input, and what a right run leaves: the count it returns and the whole of
// `indices` (n entries: the count indices, ascending, then the poison -1), on the device for
// every run's comparison (a failure's report copies it back).
struct RepeatsProblem {
    std::vector<int> input;
    std::size_t count = 0;
    pmpp::DeviceBuffer<int> expected;
};
RepeatsProblem make_problem(std::size_t n, scan_inputs::Kind kind, std::uint64_t seed);

// One variant on one problem; compares count and indices with the CPU exactly; the input must
// be unchanged and nothing past the count written. `indices` and the workspace lie between
// guard zones: a write outside either fails the case ("wrote 1 element past the end of indices
// ...", "... before the start of the workspace ...").
pmpp::CheckResult check(const RepeatsFn& fn, const RepeatsProblem& p);

// The benchmark row of `fn` on a problem (small values 0..9): indices and the workspace poisoned
// before every warm-up and timed run, checked after every one as check() checks (guard zones, the
// count, all n entries of indices on the device, so nothing past the count either); the first
// wrong run makes the row wrong, its message naming the run ("timed run 3 of 20: ...").
pmpp::Measurement bench(const RepeatsFn& fn, const RepeatsProblem& p, pmpp::BenchContext& ctx);

using RepeatsExercise = pmpp::Exercise<RepeatsSpec, RepeatsFn, RepeatsProblem>;
const RepeatsExercise& exercise();

// A case of the case list's kind (for tests): the size and the input kind.
RepeatsCase make_case(std::size_t n, scan_inputs::Kind kind = scan_inputs::kSmallValues);

}  // namespace find_repeats
