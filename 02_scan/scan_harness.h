// scan_harness.h: the checker and the benchmark of exercise 02, shared by main.cu and the tests.
#pragma once

#include "scan.h"

#include "common/exercise.h"

#include <functional>

namespace scan {

constexpr int kInPlace = 0x100;  // Case::variant bit: in and out are the same array

// Any implementation, as the check sees it.
struct ScanImpl {
    std::function<std::size_t(std::size_t)> workspace_bytes;
    std::function<void(const int*, int*, std::size_t, void*)> run;
};

ScanImpl impl_by_name(const std::string& name);

// Runs `impl` on one case (inputs from `seed`, output and workspace poisoned first) and
// compares with the CPU exactly. Out of place, the input must be unchanged.
pmpp::CheckResult check_case(const ScanImpl& impl, const pmpp::Case& c, std::uint64_t seed);

pmpp::ExerciseDef exercise();

}  // namespace scan
