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
// be unchanged and nothing past the count written. `indices` and the workspace lie between
// guard zones: a write outside either fails the case ("wrote 1 element past the end of indices
// ...", "... before the start of the workspace ...").
pmpp::CheckResult check_case(const RepeatsImpl& impl, const pmpp::Case& c, std::uint64_t seed);

// The benchmark row of `fn` at size n (small values 0..9): indices and the workspace poisoned
// before every warm-up and timed run, checked after every one as check_case checks (guard
// zones, the count, all n entries of indices on the device, so nothing past the count either);
// the first wrong run makes the row wrong, its message naming the run ("timed run 3 of 20: ...").
pmpp::Measurement bench_impl(const RepeatsImpl& fn, std::size_t n, pmpp::BenchContext& ctx);

pmpp::ExerciseDef exercise();

}  // namespace find_repeats
