// The README's hints against what the check really prints: each hint's quoted symptom, and one
// deliberately wrong sort that makes that mistake (tests/wrong_radix_sort.h). On the GPU, each
// wrong sort goes through the harness's own check over the case list (the small cases) and its
// output must show the symptom; on the host, the README must quote exactly these symptoms.
#include "../harness/radix_sort_harness.h"
#include "wrong_radix_sort.h"

#include "common/readme_hints.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace pmpp;
using namespace radix_sort;

namespace {

struct HintCase {
    std::string symptom;  // as the README quotes it
    std::string sort;  // the wrong sort's name, for the failure message
    SortFn wrong;
    std::string also = {};  // what else the hint's text quotes the check as printing
};

// One row per hint of README.md's "## Hints", in its order.
const std::vector<HintCase>& hint_cases() {
    static const std::vector<HintCase> cases = {
        {"no element was written: all ... still hold the poison", "does_nothing", wrong::does_nothing()},
        {"the last ..., from index ... to the end, still hold the poison", "copies_out_on_a_rounded_down_grid",
         wrong::copies_out_on_a_rounded_down_grid()},
        {"wrote 1 element past the end of keys_out", "writes_one_past_the_end", wrong::writes_one_past_the_end()},
        {"ordered by the lowest bits of the range only", "passes_from_the_top_bit_down",
         wrong::passes_from_the_top_bit_down()},
        {"ordered by the highest bits of the range only", "fills_the_ones_from_the_end",
         wrong::fills_the_ones_from_the_end()},
        {"ordered by all but the highest bits of the range", "ping_pongs_from_the_scratch_first",
         wrong::ping_pongs_from_the_scratch_first(),
         "hint over all cases: fails only at sizes that are not powers of two"},
        {"ordered by the keys' raw bits", "reads_the_raw_bits", wrong::reads_the_raw_bits()},
        {"values did not travel with their keys", "leaves_values_behind", wrong::leaves_values_behind()},
        {"of the input lost (e.g. ...) and ... of others", "loses_the_last_key_of_every_tile",
         wrong::loses_the_last_key_of_every_tile()},
        {"keys with equal bits ... are not in input order", "ignores_the_bit_range", wrong::ignores_the_bit_range()},
    };
    return cases;
}

// The check's case list, the cases of at most 2^16 keys: every key type, keys alone and with
// values, every input kind and bit range, in a few seconds per wrong sort.
std::vector<SortCase> small_cases() {
    std::vector<SortCase> small;
    for (const SortCase& c : exercise().cases(default_options(exercise().extra_options)))
        if (c.n <= (std::size_t{1} << 16)) small.push_back(c);
    return small;
}

}  // namespace

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    const RadixSortExercise& ex = exercise();
    const std::vector<SortCase> cases = small_cases();
    const std::uint64_t seed = pmpp::testing::test_seed();
    for (const HintCase& h : hint_cases()) {
        const RadixSortExercise::Row wrong{h.sort, ImplKind::Student, "a deliberately wrong sort", h.wrong};
        const std::string output = check_output(
            ex, cases, [&](const SortCase& c) { return ex.check_case(wrong, c, case_seed(seed, ex.untyped(c))); });
        EXPECT_TRUE(shows_symptom(output, h.symptom))
            << "wrong::" << h.sort << " should show \"" << h.symptom << "\"; the check printed:\n"
            << output.substr(0, 20000);
        if (!h.also.empty())
            EXPECT_TRUE(shows_symptom(output, h.also))
                << "wrong::" << h.sort << " should show \"" << h.also << "\"; the check printed:\n"
                << output.substr(0, 20000);
    }
}

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hint_cases());
}

// An output in no order, made of keys the input does not hold, fits no pattern: the check says
// what is wrong and guesses nothing.
TEST(ReadmeHints, AnOutputThatFitsNoPatternGetsNoHint) {
    for (const bool pairs : {false, true}) {
        const std::size_t n = 5000;
        const SortData<std::uint32_t> in =
            make_input<std::uint32_t>(n, InputKind::Uniform, pairs, pmpp::testing::test_seed(1));
        const SortData<std::uint32_t> expected = expected_sort(in, {0, 32});
        SortData<std::uint32_t> garbage =
            make_input<std::uint32_t>(n, InputKind::Uniform, pairs, pmpp::testing::test_seed(2));
        const CheckResult r = judge(in, expected, garbage, {0, 32});
        ASSERT_FALSE(r.ok);
        EXPECT_EQ(r.hint, "") << r.report();
        // The same for int32 keys, which are also tried by their raw bits.
        const SortData<std::int32_t> in32 =
            make_input<std::int32_t>(n, InputKind::Uniform, pairs, pmpp::testing::test_seed(3));
        const SortData<std::int32_t> garbage32 =
            make_input<std::int32_t>(n, InputKind::Uniform, pairs, pmpp::testing::test_seed(4));
        const CheckResult r32 = judge(in32, expected_sort(in32, {0, 32}), garbage32, {0, 32});
        ASSERT_FALSE(r32.ok);
        EXPECT_EQ(r32.hint, "") << r32.report();
    }
}
