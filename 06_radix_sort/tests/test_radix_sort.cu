// Exercise 06 on the GPU: every implementation equals the CPU on every case of the list (every
// key type, keys alone and with values, adversarial inputs, bit ranges, sizes up to 2^26+3);
// the check rejects each deliberately wrong sort and says why, writes outside the arrays
// included; the benchmark checks every run it makes; the harness runs end to end.
// Every test here starts with PMPP_REQUIRE_GPU(): skipped without a GPU, never on one.
#include "../harness/radix_sort_harness.h"
#include "../radix_sort_5_onesweep.cuh"
#include "check_says.h"
#include "wrong_radix_sort.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pmpp;
using namespace radix_sort;

namespace {

// One case of the list's kind, for a sort of one key type, on the problem the runner makes for it.
template <class Key>
CheckResult check_case_with(const SortImpl<Key>& impl, const CaseSpec& spec, std::size_t n, std::uint64_t seed) {
    const CaseProblem p = exercise().make_problem(make_case(spec, n), seed, Options{});
    return check_sort(impl, std::get<SortProblem<Key>>(p));
}

// The same for a variant (a wrong sort): its sort of the case's key type; unless told, on the test's seed.
CheckResult check_case_with(const SortFn& fn, const CaseSpec& spec, std::size_t n, std::uint64_t seed) {
    return with_type<KeyTypes>(
        spec.type, [&](auto tag) { return check_case_with(fn.get<typename decltype(tag)::type>(), spec, n, seed); });
}
CheckResult check_case_with(const SortFn& fn, const CaseSpec& spec, std::size_t n) {
    return check_case_with(fn, spec, n, pmpp::testing::test_seed());
}

template <class Key>
const SortImpl<Key>& variant_sort(const std::string& name) {
    return exercise().variant(name).fn.get<Key>();
}

CaseSpec spec(KeyType type, bool pairs, InputKind kind, BitRange bits = BitRange::Full) {
    return {type, pairs, kind, bits};
}

}  // namespace

// ---- every implementation against the CPU ------------------------------------------------------------

class RadixSortImplementation : public ::testing::TestWithParam<std::string> {};

TEST_P(RadixSortImplementation, MatchesTheCpuOnEveryCaseOfTheList) {
    PMPP_REQUIRE_GPU();
    // The same inputs for every implementation (the suite's seed); each case's problem (its input
    // and the CPU's answer) made for each implementation.
    const auto cases = exercise().cases(default_options(exercise().extra_options));
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CheckResult r = exercise().check_case(GetParam(), cases[i], derive_seed(pmpp::testing::suite_seed(), i));
        EXPECT_TRUE(r.ok) << GetParam() << " " << exercise().label(cases[i]) << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllImplementations, RadixSortImplementation,
                         ::testing::Values("one_bit", "coalesced", "multibit", "coarsened", "onesweep", "onesweep_ptx",
                                           "cub", "student"),
                         [](const auto& info) {
                             return info.param == "student" ? std::string("solution") : info.param;
                         });

TEST(RadixSortOnesweep, StaysCorrectOverManyRepeatsOfALargeSort) {
    // A race in the look-back or the ranking shows up as a rare wrong tile: repeat, fresh inputs.
    // Both Onesweep variants (5 ranks in C++, 6 in PTX), keys alone and pairs.
    PMPP_REQUIRE_GPU();
    for (const char* name : {"onesweep", "onesweep_ptx"}) {
        const auto& impl = variant_sort<std::uint32_t>(name);
        for (int rep = 0; rep < 8; ++rep) {
            const CheckResult r = check_case_with(impl, spec(KeyType::U32, rep % 2 == 1, InputKind::Uniform),
                                                  (std::size_t{1} << 24) + 3, pmpp::testing::test_seed(rep));
            ASSERT_TRUE(r.ok) << name << ", repeat " << rep << ": " << r.report();
        }
    }
}

TEST(RadixSortOnesweep, SortsSixteenBitKeysInTwoPasses) {
    PMPP_REQUIRE_GPU();
    // Keys below 2^16 (only the bottom two bytes random), sorted by bits 0:16: fully sorted.
    SortData<std::uint32_t> in =
        make_input<std::uint32_t>(1 << 20, InputKind::Uniform, true, pmpp::testing::test_seed());
    for (auto& k : in.keys) k &= 0xFFFFu;
    struct Count : StageTimer {
        int passes = 0;
        void mark(const std::string& stage, double) override { passes += stage.rfind("pass", 0) == 0; }
    } count;
    const auto& onesweep = variant_sort<std::uint32_t>("onesweep");
    SortImpl<std::uint32_t> counted{onesweep.workspace_bytes, [&](const SortArgs<std::uint32_t>& a) {
                                        SortArgs<std::uint32_t> b = a;
                                        b.stages = &count;
                                        onesweep.run(b);
                                    }};
    const CheckResult r = check_sort(counted, SortProblem<std::uint32_t>{in, expected_sort(in, {0, 16}), {0, 16}});
    EXPECT_TRUE(r.ok) << r.report();
    EXPECT_EQ(count.passes, 2);
}

namespace {

// Onesweep's pairs pass with one layout of the values in shared memory, whichever this GPU would take.
template <class Key, class Cfg>
SortImpl<Key> onesweep_pairs_with() {
    return {[](std::size_t n, bool pairs) { return onesweep::workspace_bytes<Key, Cfg>(n, pairs); },
            [](const SortArgs<Key>& a) { onesweep::sort<Key, true, Cfg>(a); }};
}

template <class Key>
void expect_both_layouts_sort_pairs(KeyType type) {
    using Beside = onesweep::ShippedConfig<Key, true, onesweep::PeerMatch::BallotsInPtx>;
    using After = onesweep::FallbackConfig<Key, true, onesweep::PeerMatch::BallotsInPtx>;
    static_assert(Beside::kValuesBeside && !After::kValuesBeside && Beside::kTile == After::kTile);
    const std::size_t tile = Beside::kTile;
    const SortImpl<Key> layouts[] = {onesweep_pairs_with<Key, Beside>(), onesweep_pairs_with<Key, After>()};
    for (int layout = 0; layout < 2; ++layout) {
        // One key, a tile's edges, a partial last tile after many, and keys of few digits (long runs).
        for (const std::size_t n : {std::size_t{1}, tile - 1, tile, tile + 1, 37 * tile + 5}) {
            for (const InputKind kind : {InputKind::Uniform, InputKind::SixteenDistinct}) {
                const CheckResult r = check_case_with(layouts[layout], spec(type, true, kind), n,
                                                      pmpp::testing::test_seed(n + static_cast<int>(kind)));
                EXPECT_TRUE(r.ok) << (layout == 0 ? "values beside the keys" : "values after the keys") << ", "
                                  << sizeof(Key) << "-byte keys, n = " << n << ": " << r.report();
            }
        }
    }
}

}  // namespace

TEST(RadixSortOnesweep, SortsPairsWithTheValuesBesideTheKeysOrAfterThemAlike) {
    // The shipped sort takes one layout or the other by the GPU's shared memory per SM (an H200:
    // beside; a T4, or the t4 profile: after): both are checked here on any GPU.
    PMPP_REQUIRE_GPU();
    expect_both_layouts_sort_pairs<std::uint32_t>(KeyType::U32);
    expect_both_layouts_sort_pairs<std::uint64_t>(KeyType::U64);
}

// ---- the check rejects each classic mistake ----------------------------------------------------------

TEST(RadixSortCheck, RejectsUnstablePairs) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::unstable_pairs(), spec(KeyType::U32, true, InputKind::SixteenDistinct), 5000),
        "not stable"));
}

TEST(RadixSortCheck, RejectsASortThatSkipsADigit) {
    PMPP_REQUIRE_GPU();
    for (KeyType type : {KeyType::U32, KeyType::F32}) {
        const CaseSpec s = spec(type, false, InputKind::BottomByteOnly);  // the skipped digit is all that differs
        EXPECT_TRUE(fails_saying(check_case_with(wrong::skips_a_digit(), s, 5000), "not sorted")) << to_string(type);
    }
}

TEST(RadixSortCheck, RejectsASortThatLosesAKey) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(check_case_with(wrong::loses_a_key(), spec(KeyType::U64, false, InputKind::Uniform), 5000),
                             "not a permutation"));
}

TEST(RadixSortCheck, RejectsValuesLeftBehind) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(
        fails_saying(check_case_with(wrong::leaves_values_behind(), spec(KeyType::I32, true, InputKind::Uniform), 5000),
                     "did not travel with their keys"));
}

TEST(RadixSortCheck, RejectsDigitsSortedMostSignificantFirst) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::most_significant_digit_first(), spec(KeyType::U32, true, InputKind::Uniform), 5000),
        "not sorted"));
}

TEST(RadixSortCheck, RejectsASortThatNeverWritesItsLastTile) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{4097}})
        EXPECT_TRUE(
            fails_saying(check_case_with(wrong::drops_the_last_tile(), spec(KeyType::U32, true, InputKind::Uniform), n,
                                         pmpp::testing::test_seed(n)),
                         "never written"))
            << "n=" << n;
}

TEST(RadixSortCheck, NamesTheTileAnUnwrittenTailStartsAt) {
    // The check knows the exercise's tiles (256 keys; 2048 coarsened; Onesweep's): a sort whose
    // last copy runs on n / 256 blocks leaves the keys from the last full tile on unwritten.
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::copies_out_on_a_rounded_down_grid(), spec(KeyType::U32, true, InputKind::Uniform), 1000),
        "the last 232 elements, from index 768, the start of tile 3 (of 256 elements) to the "
        "end, still hold the poison"));
}

TEST(RadixSortCheck, RejectsASortThatIgnoresTheBitRange) {
    PMPP_REQUIRE_GPU();
    // Keys alone: sorted by all their bits instead of bits 0:24, with only the top byte differing.
    EXPECT_TRUE(
        fails_saying(check_case_with(wrong::ignores_the_bit_range(),
                                     spec(KeyType::U32, false, InputKind::TopByteOnly, BitRange::AllButTopByte), 5000),
                     "not in input order"));
}

TEST(RadixSortCheck, RejectsTheStarterWithAHelpfulMessage) {
    PMPP_REQUIRE_GPU();
    // The starter writes nothing: what the check says about an empty sort.
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::does_nothing(), spec(KeyType::U32, false, InputKind::Uniform), 1000), "never written"));
}

// ---- writes outside the arrays: the guard zones ------------------------------------------------------

TEST(RadixSortCheck, RejectsAWriteOnePastTheEndOfTheKeysWhetherOrNotTheBlockSizeDividesN) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1000}, std::size_t{1024}})  // the wrong copy's blocks are of 256
        EXPECT_TRUE(
            fails_saying(check_case_with(wrong::writes_one_past_the_end(),
                                         spec(KeyType::U32, false, InputKind::Uniform), n, pmpp::testing::test_seed(n)),
                         "wrote 1 element past the end of keys_out (index " + std::to_string(n)))
            << "n=" << n;
}

TEST(RadixSortCheck, RejectsAWriteOneBeforeTheStartOfTheValues) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::writes_one_before_the_start(), spec(KeyType::U64, true, InputKind::Uniform), 5000),
        "wrote 1 element before the start of values_out"));
}

TEST(RadixSortCheck, RejectsAWritePastTheEndOfTheWorkspace) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(fails_saying(
        check_case_with(wrong::overruns_its_workspace(), spec(KeyType::U32, true, InputKind::Uniform), 4097),
        "past the end of the workspace"));
}

// ---- the benchmark checks every run ------------------------------------------------------------------

namespace {

template <class Key>
Measurement bench_student(const SortImpl<Key>& impl, std::size_t n, bool pairs) {
    pmpp::testing::BenchFixture bench;  // what the harness hands a bench function
    bench.opts = default_options(exercise().extra_options);
    const SortProblem<Key> problem =
        make_sort_problem<Key>(n, InputKind::Uniform, pairs, {0, kKeyBits<Key>}, bench.ctx.seed);
    const auto rows = bench_sort(impl, "student", /*stages=*/false, problem, bench.ctx);
    if (rows.size() != 1) throw std::logic_error("a student's sort has one benchmark row");
    return rows.front();
}

bool names_a_run(const std::string& message) {
    return message.find("timed run") != std::string::npos || message.find("warm-up run") != std::string::npos;
}

}  // namespace

TEST(RadixSortBench, MarksCorrectEveryRunOfAnHonestSort) {
    PMPP_REQUIRE_GPU();
    const Measurement m = bench_student(variant_sort<std::uint32_t>("onesweep"), 5000, true);
    EXPECT_TRUE(m.correct) << m.check_message;
}

TEST(RadixSortBench, MarksWrongASortThatReturnsAtOnceWhenItsArgumentsRepeat) {
    PMPP_REQUIRE_GPU();
    const SortFn memo = wrong::remembers_its_last_call();
    wrong::forget_the_last_call();
    const CheckResult checked = check_case_with(memo, spec(KeyType::U32, true, InputKind::Uniform), 5000);
    EXPECT_TRUE(checked.ok) << "the check calls it once, and once it is right: " << checked.report();
    wrong::forget_the_last_call();
    const Measurement m = bench_student(memo.get<std::uint32_t>(), 5000, true);
    EXPECT_FALSE(m.correct);
    EXPECT_TRUE(names_a_run(m.check_message)) << m.check_message;
    EXPECT_NE(m.check_message.find("never written"), std::string::npos) << m.check_message;
}

TEST(RadixSortBench, MarksWrongASortThatWritesPastTheEndOfItsOutput) {
    PMPP_REQUIRE_GPU();
    const Measurement m = bench_student(wrong::writes_one_past_the_end().get<std::uint32_t>(), 4096, false);
    EXPECT_FALSE(m.correct);
    EXPECT_TRUE(names_a_run(m.check_message)) << m.check_message;
    EXPECT_NE(m.check_message.find("past the end of keys_out"), std::string::npos) << m.check_message;
}

TEST(RadixSortBench, MarksWrongASortThatSortsItsInputInPlace) {
    PMPP_REQUIRE_GPU();
    // Every output is right; from the second run on it sorts an already sorted input.
    const Measurement m = bench_student(wrong::sorts_its_input_in_place().get<float>(), 5000, true);
    EXPECT_FALSE(m.correct);
    EXPECT_TRUE(names_a_run(m.check_message)) << m.check_message;
    EXPECT_NE(m.check_message.find("the input was modified"), std::string::npos) << m.check_message;
}

// ---- memory: the estimates the harness skips sizes by ------------------------------------------------

// At 2^26, every implementation's benchmark, keys alone and then with values. The device's peak
// is one implementation's sort of pairs: 32 bytes a key of arrays and copies with u32 keys, 48
// with u64 keys, plus the largest workspace (the reference answer's, the one-bit sort on a
// Blelloch scan: 20 and 24 bytes a key); the host's, the cpu row's sort of pairs beside the
// inputs and answers of both sorts (the size's problem, made inside the measurement): 48 and 76
// bytes a key.

// The default options, as `make run`: u32 keys, alone and with values.
TEST(RadixSortMemory, EstimatesBoundThePeaksOfTheDefaultBenchmarkOfU32KeysAndPairsAt2To26) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(exercise().erase(), std::size_t{1} << 26);
}

// The options that hold the most, --type u64 --pairs both.
TEST(RadixSortMemory, EstimatesBoundThePeaksOfTheU64KeysAndPairsBenchmarkAt2To26) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(exercise().erase(), std::size_t{1} << 26,
                                           {"--type", "u64", "--pairs", "both"});
}

// ---- the harness end to end ---------------------------------------------------------------------

TEST(RadixSortHarness, AcceptsTheReferenceAnswerAndEveryVariantOnTheSmallCases) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"radix_sort", "--impl", "all", "--check", "--max-size", "70000", "--seed", seed.c_str()};
    Json results;
    EXPECT_EQ(run_exercise(exercise().erase(), 8, const_cast<char**>(argv), results), kExitOk);
    for (const auto& impl : results.at("check_summary").items())
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
}

TEST(RadixSortHarness, BenchmarksEveryImplementationWithItsStages) {
    PMPP_REQUIRE_GPU();
    for (const char* type : {"u32", "f32", "u64"}) {
        const char* argv[] = {"radix_sort", "--impl", "all",       "--bench", "--size",   "70000",
                              "--type",     type,     "--repeats", "2",       "--warmup", "1"};
        Json results;
        ASSERT_EQ(run_exercise(exercise().erase(), 12, const_cast<char**>(argv), results), kExitOk) << type;
        bool stages = false;
        std::size_t rows = 0;
        for (const auto& row : results.at("bench").elements()) {
            ++rows;
            EXPECT_TRUE(row.at("correct").as_bool()) << row.at("label").as_string();
            stages |= row.at("section").as_string().rfind("stages", 0) == 0 &&
                      row.at("label").as_string().rfind("onesweep: pass 1", 0) == 0;
        }
        EXPECT_GE(rows, 18u) << type;  // 9 implementations, keys and pairs, plus stages
        EXPECT_TRUE(stages) << type;
    }
}

TEST(RadixSortHarness, RefusesABitRangeWiderThanTheKey) {
    PMPP_REQUIRE_GPU();
    const char* argv[] = {"radix_sort", "--impl", "onesweep", "--bench", "--size", "1000", "--bits", "32:64"};
    Json results;
    EXPECT_EQ(run_exercise(exercise().erase(), 8, const_cast<char**>(argv), results), kExitUsage);
}

// ---- the forbidden-API check on this exercise's files ------------------------------------------------
// On the real build, in common/tests/test_student_rules.cpp: the starter (both files) passes the
// link rule and is clean, as every exercise's; sneaky files are tried on 02's scan slot.
