// scan_harness.h: exercise 02 as the runner sees it (common/exercise.h's typed contract), shared
// by main.cu and the tests: its cases, its variants and its problems.
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

using ScanExercise = pmpp::Exercise<ScanSpec, ScanFn, ScanProblem>;
const ScanExercise& exercise();

// A case of the case list's kind (for tests): the size, the input kind, in place or not.
inline ScanCase make_case(std::size_t n, scan_inputs::Kind kind = scan_inputs::kFullRange, bool in_place = false) {
    return scan_inputs::case_of<ScanSpec>(n, kind, in_place);
}

}  // namespace scan
