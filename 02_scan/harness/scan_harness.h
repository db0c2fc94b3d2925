// scan_harness.h: the checker and the benchmark of exercise 02, shared by main.cu and the tests.
#pragma once

#include "scan.h"

#include "common/exercise.h"

#include <functional>

namespace scan {

// Case::variant bit: in and out are the same array (either it or Case::in_place makes a case in
// place; the case list sets both, so the harness can say "fails only in place").
constexpr int kInPlace = 0x100;

// Any implementation, as the check sees it.
struct ScanImpl {
    std::function<std::size_t(std::size_t)> workspace_bytes;
    std::function<void(const int*, int*, std::size_t, void*)> run;
};

ScanImpl impl_by_name(const std::string& name);

// Runs `impl` on one case (inputs from `seed`, output and workspace poisoned first) and
// compares with the CPU exactly. `out` (in place: the input too) and the workspace lie between
// guard zones: a write outside either fails the case ("wrote 1 element past the end of out ...",
// "... before the start of the workspace ..."). Out of place, the input must be unchanged. The
// hints of a failure name the blocks (256), the fast variants' tiles and the total of the input.
pmpp::CheckResult check_case(const ScanImpl& impl, const pmpp::Case& c, std::uint64_t seed);

// The benchmark row of `fn` at size n (out of place, full-range input): out and the workspace
// poisoned before every warm-up and timed run, checked after every one as check_case checks
// (guard zones, then out against the expected scan on the device); the first wrong run makes
// the row wrong, its message naming the run ("timed run 3 of 20: ...").
pmpp::Measurement bench_impl(const ScanImpl& fn, std::size_t n, pmpp::BenchContext& ctx);

pmpp::ExerciseDef exercise();

}  // namespace scan
