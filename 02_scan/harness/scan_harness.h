// scan_harness.h: exercise 02 as the runner sees it (common/exercise.h's typed contract), shared
// by main.cu and the tests: its cases, its variants, the check and the benchmark.
#pragma once

#include "scan.h"
#include "scan_inputs.h"

#include "common/check_hints.h"
#include "common/device_buffer.h"
#include "common/exercise.h"

#include <functional>
#include <vector>

namespace scan {

// What tells two cases of the same size apart, besides in place (CaseOf::in_place).
struct ScanSpec {
    scan_inputs::Kind kind = scan_inputs::kFullRange;
};
using ScanCase = pmpp::CaseOf<ScanSpec>;

// Any implementation, as the check and the benchmark call it.
struct ScanFn {
    std::function<std::size_t(std::size_t)> workspace_bytes;
    std::function<void(const int*, int*, std::size_t, void*)> run;
};

// One problem: the input and the CPU's answer (on the device, for every run's comparison).
struct ScanProblem {
    std::vector<int> input;
    pmpp::DeviceBuffer<int> expected;
    pmpp::HintContext hints;  // the blocks and tiles of the variants, and the input's total
};
ScanProblem make_problem(std::size_t n, scan_inputs::Kind kind, std::uint64_t seed);

// One variant on one problem, output and workspace poisoned first, compared with the CPU
// exactly. `out` (in place: the input too) and the workspace lie between guard zones: a write
// outside either fails the case ("wrote 1 element past the end of out ...", "... before the
// start of the workspace ..."). Out of place, the input must be unchanged.
pmpp::CheckResult check(const ScanFn& fn, const ScanProblem& p, bool in_place);

// The benchmark row of `fn` on a (full-range) problem: out and the workspace poisoned before
// every warm-up and timed run, checked after every one as check() checks; the first wrong run
// makes the row wrong, its message naming the run ("timed run 3 of 20: ...").
pmpp::Measurement bench(const ScanFn& fn, const ScanProblem& p, pmpp::BenchContext& ctx);

using ScanExercise = pmpp::Exercise<ScanSpec, ScanFn, ScanProblem>;
const ScanExercise& exercise();

// A case of the case list's kind (for tests): the size, the input kind, in place or not.
ScanCase make_case(std::size_t n, scan_inputs::Kind kind = scan_inputs::kFullRange, bool in_place = false);

}  // namespace scan
