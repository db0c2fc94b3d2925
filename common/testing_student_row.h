// testing_student_row.h: for tests, a test's own implementation (a deliberately wrong one, a
// reference under another name) run through an exercise's typed check and benchmark exactly as
// the runner runs the student's: in a row named "student" of kind Student; and the expectations
// that several exercises' tests share about such rows. Each exercise keeps its own wrong
// implementations and tables of them.
#pragma once

#include "common/exercise.h"
#include "common/readme_hints.h"
#include "common/testing.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pmpp::testing {

// `fn` in the student's row (the name and kind the benchmark labels its rows with).
template <class Exercise, class Fn>
typename Exercise::Row student_row(const Exercise&, const Fn& fn) {
    return {"student", ImplKind::Student, "", fn};
}

// `fn` on case `c`, with inputs from `seed` (what the runner's check does).
template <class Exercise, class Fn>
CheckResult check_as_student(const Exercise& ex, const Fn& fn, const typename Exercise::Case& c, std::uint64_t seed) {
    return ex.check_case(student_row(ex, fn), c, seed);
}

// The benchmark's rows of `fn` at size n (what the runner's benchmark does).
template <class Exercise, class Fn>
std::vector<Measurement> bench_as_student(const Exercise& ex, const Fn& fn, std::size_t n, BenchContext& ctx) {
    auto problem = ex.make_bench_problem(n, ctx);
    return ex.bench(student_row(ex, fn), problem, n, ctx);
}

// What `make run` prints about `fn` over the exercise's case list up to n = `largest_n`, each
// case seeded from the test's seed as the runner seeds it from the run's.
template <class Exercise, class Fn>
std::string check_output_as_student(const Exercise& ex, const Fn& fn, std::size_t largest_n) {
    std::vector<typename Exercise::Case> cases;
    for (const auto& c : ex.cases(Options{}))
        if (c.n <= largest_n) cases.push_back(c);
    const std::uint64_t seed = test_seed();
    return check_output(ex, cases, [&](const typename Exercise::Case& c) {
        return check_as_student(ex, fn, c, case_seed(seed, ex.untyped(c)));
    });
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A call of one row (a single-row benchmark) that returns at once when its arguments repeat,
// `memo`: the check calls it once, with fresh memory, and passes it on case `c`; the benchmark
// calls it again on the same memory, poisoned before each run, and marks it wrong at the second
// warm-up ("warm-up run 2 of 2: ... still hold the poison").
template <class Exercise, class Fn>
void expect_only_the_benchmark_catches_a_memo(const Exercise& ex, const Fn& memo, const typename Exercise::Case& c) {
    const CheckResult check = check_as_student(ex, memo, c, test_seed());
    EXPECT_TRUE(check.ok) << check.report();
    BenchFixture bench;  // 2 warm-ups, 5 timed runs
    const Measurement m = bench_as_student(ex, memo, std::size_t{1} << 16, bench.ctx).at(0);
    EXPECT_FALSE(m.correct);
    EXPECT_TRUE(contains(m.check_message, "warm-up run 2 of 2: ")) << m.check_message;
    EXPECT_TRUE(contains(m.check_message, "still hold the poison")) << m.check_message;
}

// For the README's hints: each row of `table` (a `symptom` and what makes its mistake) shows its
// symptom in `output_of(row)`, what the check prints for the row's mistake.
template <class Table, class OutputOf>
void expect_each_symptom_shown(const Table& table, OutputOf&& output_of) {
    for (const auto& row : table) {
        const std::string output = output_of(row);
        EXPECT_TRUE(shows_symptom(output, row.symptom))
            << "the check does not print \"" << row.symptom << "\" for its mistake; it prints:\n"
            << output;
    }
}

}  // namespace pmpp::testing
