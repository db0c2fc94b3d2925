// Exercise 07: every hint of README.md's "Hints" section is what the check prints for the mistake
// it names. The table pairs each quoted symptom with one deliberately wrong student function
// (wrong_student.h, wrong_merge_sort.h). The GPU test runs the check's case list (up to the
// size `make sanitize` checks) on the reference answer with that one function replaced, and
// expects the symptom among what `make run` shows without --verbose: the reports of the first
// three failing cases and the hints over all cases. The host test expects the README to quote
// exactly the table's symptoms.
#include "../harness/merge_sort_harness.h"
#include "wrong_merge_sort.h"
#include "wrong_student.h"

#include "common/readme_hints.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using namespace merge_sort;

namespace {

template <class Calls>
using KeyOf = typename std::decay_t<Calls>::KeyType;

// Each makes the student's implementation wrong in one function, for every key type.
using Mistake = std::function<void(MergeSortFn&)>;

#define WRONG_CO_RANK(fn)                                                                                   \
    [](MergeSortFn& impl) {                                                                                 \
        impl.for_each_key([](auto& calls) {                                                                 \
            using Key = KeyOf<decltype(calls)>;                                                             \
            calls.co_rank = [](std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb) { \
                return fn(k, a, na, b, nb, LessOf<Key>{});                                                  \
            };                                                                                              \
        });                                                                                                 \
    }
#define WRONG_MERGE(which, fn)                                 \
    [](MergeSortFn& impl) {                                    \
        impl.for_each_key([](auto& calls) {                    \
            using Key = KeyOf<decltype(calls)>;                \
            for (auto& merge : calls.merges)                   \
                if (merge.label == which) merge.run = fn<Key>; \
        });                                                    \
    }
#define WRONG_SORT(fn)                             \
    [](MergeSortFn& impl) {                        \
        impl.for_each_key([](auto& calls) {        \
            using Key = KeyOf<decltype(calls)>;    \
            calls.sort_keys = fn<Key, NoValues>;   \
            calls.sort_pairs = fn<Key, PairValue>; \
        });                                        \
    }

struct HintCase {
    std::string symptom;  // as README.md quotes it
    std::string wrong;  // the wrong function, for the messages
    Mistake make_wrong;
};

// One wrong implementation per hint of README.md, in the README's order.
const std::vector<HintCase>& hint_table() {
    static const std::vector<HintCase> table = {
        {"co_rank_student: ... is the co-rank of a merge that takes B's element on a tie", "wrong::co_rank_ties_from_b",
         WRONG_CO_RANK(wrong::co_rank_ties_from_b)},
        {"co_rank_student: ... the answer must lie in [max(0, k - |B|), min(k, |A|)]",
         "wrong::co_rank_lower_bound_wraps", WRONG_CO_RANK(wrong::co_rank_lower_bound_wraps)},
        {"merge_basic_student: ... of the input lost (e.g. ...) and ... of others",
         "wrong::merge_basic_slice_starts_one_late", WRONG_MERGE("basic", wrong::merge_basic_slice_starts_one_late)},
        {"merge_basic_student: ... never written", "wrong::merge_basic_grid_rounded_down",
         WRONG_MERGE("basic", wrong::merge_basic_grid_rounded_down)},
        {"merge_basic_student: wrote ... past the end of c", "wrong::merge_one_past_end",
         WRONG_MERGE("basic", wrong::merge_one_past_end)},
        {"merge_tiled_student: ... right before index ..., wrong from there to the end",
         "wrong::merge_tiled_advancing_whole_tiles", WRONG_MERGE("tiled", wrong::merge_tiled_advancing_whole_tiles)},
        {"sort_student: ... keys_scratch holds exactly the sorted keys", "wrong::sort_ping_pong_from_scratch",
         WRONG_SORT(wrong::sort_ping_pong_from_scratch)},
        {"sort_student: ... two sorted runs, split at index ...: each half is sorted", "wrong::sort_one_pass_short",
         WRONG_SORT(wrong::sort_one_pass_short)},
        {"sort_student: ... sorted within runs of ... elements ... but not across them",
         "wrong::sort_passes_counted_in_tiles", WRONG_SORT(wrong::sort_passes_counted_in_tiles)},
        {"sort_student: ... equal keys ... out of input order...: the sort is not stable",
         "wrong::sort_passes_take_ties_from_b", WRONG_SORT(wrong::sort_passes_take_ties_from_b)},
        {"sort_student: the sort modified keys_in or values_in", "wrong::sort_uses_input_as_scratch",
         WRONG_SORT(wrong::sort_uses_input_as_scratch)},
        {"sort_student: values did not travel with their keys", "wrong::sort_values_stay",
         WRONG_SORT(wrong::sort_values_stay)},
    };
    return table;
}

#undef WRONG_CO_RANK
#undef WRONG_MERGE
#undef WRONG_SORT

// The check's cases up to the largest that `make sanitize` runs (the Makefile's CHECK_MAX_SIZE):
// every kind of case the full list has, at sizes that keep the test short.
std::vector<MergeSortCase> small_cases() {
    constexpr std::size_t kLargestCase = 70000;
    std::vector<MergeSortCase> cases;
    for (const MergeSortCase& c : exercise().cases(pmpp::default_options(exercise().extra_options)))
        if (c.n <= kLargestCase) cases.push_back(c);
    return cases;
}

// What `make run` prints of check_output() without --verbose: the first three failing cases'
// reports (each a line with its label, then indented lines) and the hints over all cases.
std::string shown_without_verbose(const std::string& output) {
    std::istringstream lines(output);
    std::string line, shown;
    int reports = 0;
    while (std::getline(lines, line)) {
        const bool over_all = line.rfind("hint over all cases: ", 0) == 0;
        if (!over_all && line.rfind("    ", 0) != 0) ++reports;
        if (over_all || reports <= 3) shown += line + "\n";
    }
    return shown;
}

std::string check_output_of(const MergeSortExercise::Row& impl, const std::vector<MergeSortCase>& cases,
                            std::uint64_t seed) {
    return pmpp::check_output(exercise(), cases, [&](const MergeSortCase& c) {
        return exercise().check_case(impl, c, pmpp::case_seed(seed, exercise().untyped(c)));
    });
}

}  // namespace

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hint_table());
}

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    const std::vector<MergeSortCase> cases = small_cases();
    const std::uint64_t seed = pmpp::testing::test_seed();
    // The reference answer in the student's slot passes: each failure below is its one mistake.
    ASSERT_EQ(check_output_of(exercise().variant("student"), cases, seed), "");
    for (const HintCase& h : hint_table()) {
        MergeSortExercise::Row impl = exercise().variant("student");
        h.make_wrong(impl.fn);
        const std::string output = check_output_of(impl, cases, seed);
        EXPECT_FALSE(output.empty()) << h.wrong << " passes every case";
        EXPECT_TRUE(pmpp::shows_symptom(shown_without_verbose(output), h.symptom))
            << h.wrong << ": `make run` should show \"" << h.symptom << "\" (seed " << seed << "); the check printed:\n"
            << output;
    }
}

// A merge whose output fits none of the check's patterns gets no hint: each thread's piece of A,
// then its piece of B, unmerged, leaves descents at no regular place and loses nothing.
TEST(ReadmeHints, AMergeThatFitsNoPatternGetsNoHint) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1000}, std::size_t{4097}}) {
        const auto in = merge_inputs<std::uint32_t>(n, pmpp::Distribution::Uniform, MergeShape::Halves,
                                                    pmpp::testing::test_seed(n));
        const pmpp::CheckResult r =
            check_merge<std::uint32_t>(wrong::merge_basic_pieces_not_merged<std::uint32_t>, in, expected_merge(in));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_NE(r.message.find("not sorted"), std::string::npos) << r.report();
        EXPECT_EQ(r.hint, "") << "n=" << n << ": " << r.report();
    }
}
