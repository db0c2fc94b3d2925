// find_repeats_harness.h: exercise 03 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests: its cases, its variants and its problems.
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

using RepeatsExercise = pmpp::Exercise<RepeatsSpec, RepeatsFn, RepeatsProblem>;
const RepeatsExercise& exercise();

// A case of the case list's kind (for tests): the size and the input kind.
inline RepeatsCase make_case(std::size_t n, scan_inputs::Kind kind = scan_inputs::kSmallValues) {
    return scan_inputs::case_of<RepeatsSpec>(n, kind);
}

}  // namespace find_repeats
