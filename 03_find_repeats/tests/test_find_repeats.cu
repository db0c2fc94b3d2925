// Exercise 03: every implementation equals the CPU on every case; the check rejects each
// classic mistake.
#include "../harness/find_repeats_harness.h"
#include "wrong_find_repeats.h"

#include "common/readme_hints.h"
#include "common/testing.h"
#include "common/testing_student_row.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace pmpp;
using namespace find_repeats;

namespace {

using find_repeats::make_case;
using pmpp::testing::contains;

// A variant of the table, or a wrong one of tests/wrong_find_repeats.h, as the check calls it.
find_repeats::RepeatsFn variant(const std::string& name) { return find_repeats::exercise().variant(name).fn; }
find_repeats::RepeatsFn wrong_impl(std::size_t (*fn)(const int*, std::size_t, int*, void*)) {
    return {wrong::workspace_bytes, fn};
}

// `fn` in the student's row, through the exercise's check and benchmark (one row).
CheckResult check_case(const find_repeats::RepeatsFn& fn, const find_repeats::RepeatsCase& c, std::uint64_t seed) {
    return pmpp::testing::check_as_student(find_repeats::exercise(), fn, c, seed);
}
Measurement bench_impl(const find_repeats::RepeatsFn& fn, std::size_t n, BenchContext& ctx) {
    return pmpp::testing::bench_as_student(find_repeats::exercise(), fn, n, ctx).at(0);
}

}  // namespace

TEST(FindRepeatsCpu, ListsEveryIndexStartingARepeatInOrder) {
    const int a[8] = {1, 1, 2, 3, 3, 3, 4, 4};
    int out[8];
    ASSERT_EQ(find_repeats_cpu(a, 8, out), 4u);
    const int expect[4] = {0, 3, 4, 6};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expect[i]);
    EXPECT_EQ(find_repeats_cpu(a, 1, out), 0u);
    EXPECT_EQ(find_repeats_cpu(a, 0, out), 0u);
}

TEST(FindRepeatsCases, CoverEdgesLargeSizesAndEveryInputKind) {
    const auto cases = find_repeats::exercise().cases(Options{});
    std::set<std::size_t> sizes;
    std::set<int> kinds;
    for (const auto& c : cases) {
        sizes.insert(c.n);
        kinds.insert(c.spec.kind);
    }
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{4095}, std::size_t{4096},
                          std::size_t{4097}, (std::size_t{1} << 20) + 7, (std::size_t{1} << 26) + 3})
        EXPECT_TRUE(sizes.count(n)) << n;
    EXPECT_EQ(kinds.size(), static_cast<std::size_t>(scan_inputs::kKinds));
}

class FindRepeatsReference : public ::testing::TestWithParam<std::string> {};

TEST_P(FindRepeatsReference, MatchesTheCpuOnEveryCaseOfTheList) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    const auto cases = find_repeats::exercise().cases(Options{});
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CheckResult r = check_case(impl, cases[i], pmpp::testing::test_seed(i));
        EXPECT_TRUE(r.ok) << GetParam() << " " << find_repeats::exercise().label(cases[i]) << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllImplementations, FindRepeatsReference, ::testing::Values("scan", "fused", "cub", "student"),
                         [](const auto& info) {
                             return info.param == "student" ? std::string("solution") : info.param;
                         });

TEST(FindRepeatsFused, StaysCorrectOverManyRepeatsOfALargeInput) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant("fused");
    for (int rep = 0; rep < 10; ++rep) {
        const CheckResult r = check_case(impl, make_case((std::size_t{1} << 24) + 5), pmpp::testing::test_seed(rep));
        ASSERT_TRUE(r.ok) << "repeat " << rep << ": " << r.report();
    }
}

TEST(FindRepeatsCheck, RejectsAnImplementationThatMissesTheLastPair) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong_impl(wrong::misses_the_last_pair), make_case(5000, scan_inputs::kAllEqual),
                                     pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("count: expected 4999, got 4998"), std::string::npos) << r.report();
}

TEST(FindRepeatsCheck, RejectsIndicesThatAreNotAscending) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong_impl(wrong::unsorted_output), make_case(100000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("ascending"), std::string::npos) << r.report();
}

TEST(FindRepeatsCheck, RejectsACountOffByOne) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong_impl(wrong::count_off_by_one), make_case(1000), pmpp::testing::test_seed());
    EXPECT_FALSE(r.ok);
}

TEST(FindRepeatsCheck, RejectsWritesPastTheCount) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(wrong_impl(wrong::writes_past_the_count), make_case(1000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("past the count"), std::string::npos) << r.report();
}

TEST(FindRepeatsCheck, RejectsTheBoundIBelowOrEqualNAsAWriteOnePastTheEndOfIndices) {
    PMPP_REQUIRE_GPU();
    // 1000: thread n is in the last block's spare threads; 256 and 4096: in the block the grid
    // n / 256 + 1 adds. The result is right: only the guard zone after indices sees the mistake
    // (it writes -1, the poison itself, so the rule "nothing past the count" cannot see it).
    for (std::size_t n : {std::size_t{1000}, std::size_t{256}, std::size_t{4096}}) {
        const CheckResult r =
            check_case(wrong_impl(wrong::clears_one_past_the_end), make_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of indices (index " + std::to_string(n) + ";"))
            << r.report();
    }
}

TEST(FindRepeatsCheck, RejectsAScatterToPositionMinusOneAsAWriteBeforeTheStartOfIndices) {
    PMPP_REQUIRE_GPU();
    const find_repeats::RepeatsFn impl{wrong::scatter_workspace_bytes, wrong::scatters_one_slot_early};
    const CheckResult r = check_case(impl, make_case(5000, scan_inputs::kAllEqual), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "wrote 1 element before the start of indices (index -1)")) << r.report();
}

TEST(FindRepeatsBench, MarksWrongAnImplementationThatReturnsAtOnceWhenItsArgumentsRepeat) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_only_the_benchmark_catches_a_memo(
        find_repeats::exercise(), wrong_impl(wrong::returns_at_once_on_repeated_arguments), make_case(4097));
}

TEST(FindRepeatsBench, ChecksEveryRunForWritesPastTheCountAndPassesAReference) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::BenchFixture bench;  // 2 warm-ups, 5 timed runs
    const Measurement past_count = bench_impl(wrong_impl(wrong::writes_past_the_count), 4097, bench.ctx);
    EXPECT_FALSE(past_count.correct);
    EXPECT_TRUE(contains(past_count.check_message, "warm-up run 1 of 2: ")) << past_count.check_message;
    EXPECT_TRUE(contains(past_count.check_message, "past the count")) << past_count.check_message;
    const Measurement reference = bench_impl(variant("fused"), 4097, bench.ctx);
    EXPECT_TRUE(reference.correct) << reference.check_message;
    EXPECT_EQ(reference.ms.count, 5u);
}

TEST(FindRepeatsHarness, AcceptsTheReferenceAnswerAndEveryVariantOnEveryCase) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"find_repeats", "--impl", "all", "--check", "--seed", seed.c_str()};
    Json results;
    EXPECT_EQ(run_exercise(find_repeats::exercise().erase(), 6, const_cast<char**>(argv), results), kExitOk);
}

// ---- README hints: each one is what the check prints for its mistake -----------------------

namespace {

struct HintedMistake {
    std::string symptom;  // as README.md's "## Hints" quotes it
    find_repeats::RepeatsFn impl;
};

// One wrong implementation per hint of README.md, with the symptom the hint quotes.
const std::vector<HintedMistake>& hinted_mistakes() {
    static const std::vector<HintedMistake> table = {
        {"the last repeat is missing: i = ... = n - 2, the last pair", wrong_impl(wrong::misses_the_last_pair)},
        {"only the returned count is wrong", wrong_impl(wrong::count_off_by_one)},
        {"fails only at n = 0", {find_repeats_scan_workspace_bytes, wrong::reads_the_count_before_the_array_at_n_0}},
        {"the right indices in the wrong order", wrong_impl(wrong::unsorted_output)},
        {"was written, past the count", wrong_impl(wrong::writes_past_the_count)},
        {"actual - expected = 1", {wrong::scatter_workspace_bytes, wrong::writes_the_second_index}},
        {"actual[i] = expected[i - 1]", {wrong::scatter_workspace_bytes, wrong::scatters_to_the_inclusive_place}},
        {"before the start of indices", {wrong::scatter_workspace_bytes, wrong::scatters_one_slot_early}},
        {"wrote 1 element past the end of indices", wrong_impl(wrong::clears_one_past_the_end)},
        {"past the end of the workspace",
         {wrong::flags_only_workspace_bytes, wrong::uses_more_workspace_than_it_asks_for}},
    };
    return table;
}

}  // namespace

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    // What `make run` prints for each mistake over the case list up to n = 2^16 (every input kind is there).
    pmpp::testing::expect_each_symptom_shown(hinted_mistakes(), [](const HintedMistake& h) {
        return pmpp::testing::check_output_as_student(find_repeats::exercise(), h.impl, std::size_t{1} << 16);
    });
}

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hinted_mistakes());
}

TEST(ReadmeHints, AWrongCountThatTheIndicesDoNotExplainGetsNoHint) {
    PMPP_REQUIRE_GPU();
    // No carry between blocks of 1024: the count is the last block's, the blocks overwrite each
    // other's first entries and write past the wrong count. No pattern: the count alone is reported.
    const find_repeats::RepeatsFn impl{wrong::scatter_workspace_bytes, wrong::scans_without_a_carry_between_blocks};
    const CheckResult r = check_case(impl, make_case(100000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "count: expected ")) << r.report();
    EXPECT_EQ(r.hint, "") << r.report();
}

TEST(FindRepeatsCheck, SaysWhichRepeatIsMissingWhenTheCountIsShort) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = check_case(wrong_impl(wrong::misses_the_last_pair), make_case(5000, scan_inputs::kAllEqual),
                                     pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.hint, "the last repeat is missing: i = 4998 = n - 2, the last pair")) << r.report();
    const CheckResult off = check_case(wrong_impl(wrong::count_off_by_one), make_case(5000, scan_inputs::kAllEqual),
                                       pmpp::testing::test_seed());
    ASSERT_FALSE(off.ok);
    EXPECT_TRUE(contains(off.message, "count: expected 4999, got 4998")) << off.report();
    EXPECT_TRUE(contains(off.hint, "indices holds all 4999 repeats, right, and nothing past them")) << off.report();
}

// ---- device: the memory estimates ------------------------------------------------------------------

// At 2^26 (a power of two: the solution's workspace is 8n) the 20 bytes per element on the
// device (1.25 GiB) and the 8 on the host dwarf every constant. One timed run per implementation.
TEST(FindRepeatsMemory, EstimatesBoundThePeaksOfTheBenchmarkAt2To26) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(find_repeats::exercise().erase(), std::size_t{1} << 26);
}
