// find_repeats_harness.h: the checker and the benchmark of exercise 03.
#pragma once

#include "find_repeats.h"

#include "common/exercise.h"

#include <functional>

namespace find_repeats {

struct RepeatsImpl {
    std::function<std::size_t(std::size_t)> workspace_bytes;
    std::function<std::size_t(const int*, std::size_t, int*, void*)> run;
};

RepeatsImpl impl_by_name(const std::string& name);

// Runs `impl` on one case and compares count and indices with the CPU exactly; the input must
// be unchanged and nothing past the count written.
pmpp::CheckResult check_case(const RepeatsImpl& impl, const pmpp::Case& c, std::uint64_t seed);

pmpp::ExerciseDef exercise();

}  // namespace find_repeats
