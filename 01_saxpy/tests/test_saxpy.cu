// Exercise 01: every reference equals the CPU on every edge size, the check rejects each
// classic mistake, and the harness accepts the reference answer end to end.
#include "../harness/saxpy_harness.h"
#include "wrong_saxpy.h"

#include "common/guarded_host_array.h"
#include "common/readme_hints.h"
#include "common/testing.h"
#include "common/testing_student_row.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace pmpp;
using namespace saxpy;

namespace {

const std::size_t kEdgeSizes[] = {0, 1, 255, 256, 257, std::size_t{1} << 20, (std::size_t{1} << 26) + 3};

using pmpp::testing::contains;
using saxpy::SaxpyFn;

saxpy::SaxpyCase uniform_case(std::size_t n, saxpy::Memory memory = saxpy::kAligned) {
    return saxpy::make_case(n, memory);
}

SaxpyFn device_only(SaxpyDeviceFn fn) { return {fn}; }
SaxpyFn variant(const std::string& name) { return saxpy::exercise().variant(name).fn; }

// `fn` on case `c` through the exercise's check, in the student's row (the kind and name the
// end-to-end rows are labelled with).
CheckResult check_case(const SaxpyFn& fn, const saxpy::SaxpyCase& c, std::uint64_t seed) {
    return pmpp::testing::check_as_student(saxpy::exercise(), fn, c, seed);
}
std::vector<Measurement> bench_impl(const SaxpyFn& fn, std::size_t n, BenchContext& ctx) {
    return pmpp::testing::bench_as_student(saxpy::exercise(), fn, n, ctx);
}

}  // namespace

// ---- host: the case list itself ----------------------------------------------------------

TEST(SaxpyCases, CoverEveryPowerOfTwoEdgeLargeSizesAndEveryMemoryVariant) {
    const auto cases = saxpy::exercise().cases(Options{});
    std::set<std::size_t> sizes;
    std::set<int> memories;
    std::set<Distribution> dists;
    for (const auto& c : cases) {
        sizes.insert(c.n);
        memories.insert(c.spec.memory);
        dists.insert(c.dist);
    }
    for (std::size_t n : kEdgeSizes) EXPECT_TRUE(sizes.count(n)) << n;
    for (int k : {2, 5, 8, 10, 16, 20})
        for (std::size_t n : {(std::size_t{1} << k) - 1, std::size_t{1} << k, (std::size_t{1} << k) + 1})
            EXPECT_TRUE(sizes.count(n)) << n;
    EXPECT_EQ(memories.size(), 5u);
    EXPECT_GE(dists.size(), 3u);
}

TEST(SaxpyCases, AreLabelledAsBeforeTheTypedContract) {
    // The labels name the results files' rows and seed the cases' inputs: they must not change.
    const auto& ex = saxpy::exercise();
    EXPECT_EQ(ex.label(saxpy::make_case(0)), "n=0 uniform");
    EXPECT_EQ(ex.label(saxpy::make_case(1000, saxpy::kAligned, Distribution::FewDistinct)), "n=2^10-24 few-distinct");
    EXPECT_EQ(ex.label(saxpy::make_case(1, saxpy::kMisalignedSame)), "n=1 uniform misaligned+1");
    EXPECT_EQ(ex.label(saxpy::make_case((std::size_t{1} << 20) + 3, saxpy::kMisalignedMixed)),
              "n=2^20+3 uniform misaligned+1/+2/+3");
    EXPECT_EQ(ex.label(saxpy::make_case(0, saxpy::kFromHostPageable)), "n=0 uniform from-host pageable");
    EXPECT_EQ(ex.label(saxpy::make_case(257, saxpy::kFromHostPinned)), "n=257 uniform from-host pinned");
}

TEST(SaxpyCpu, ComputesAxPlusY) {
    const float x[3] = {1.0f, -2.0f, 0.5f}, y[3] = {0.25f, 1.0f, -1.0f};
    float z[3];
    saxpy_cpu(3, 2.0f, x, y, z);
    EXPECT_EQ(z[0], 2.25f);
    EXPECT_EQ(z[1], -3.0f);
    EXPECT_EQ(z[2], 0.0f);
}

TEST(SaxpyHostGuards, ReportWritesPastTheEndAndBeforeTheStartOfHostZWithSideAndDistance) {
    GuardedHostArray<float> z(10, /*pinned=*/false, "z");
    EXPECT_TRUE(z.check_guards().ok);
    EXPECT_TRUE(is_poison(z.data()[0]) && is_poison(z.data()[9]));
    z.data()[10] = 0.5f;
    CheckResult r = z.check_guards();
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.message, "wrote 1 element past the end of z (index 10; it has 10 elements), in host memory");
    z.poison();  // re-arms the zones
    EXPECT_TRUE(z.check_guards().ok);
    z.data()[12] = 0.0f;
    z.data()[-1] = 0.0f;
    r = z.check_guards();
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(
        r.message,
        "wrote 3 elements past the end of z (index 10 to 12; it has 10 elements); and 1 element before the start of z "
        "(index -1), in host memory");
}

// ---- device: every reference equals the CPU ----------------------------------------------

class SaxpyReference : public ::testing::TestWithParam<std::string> {};

TEST_P(SaxpyReference, MatchesTheCpuOnEveryEdgeSize) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    for (std::size_t n : kEdgeSizes) {
        const CheckResult r = check_case(impl, uniform_case(n), pmpp::testing::test_seed(n));
        EXPECT_TRUE(r.ok) << GetParam() << " n=" << n << ": " << r.report();
    }
}

TEST_P(SaxpyReference, HandlesMisalignedPointersAndHostMemory) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    for (saxpy::Memory memory :
         {saxpy::kMisalignedSame, saxpy::kMisalignedMixed, saxpy::kFromHostPageable, saxpy::kFromHostPinned})
        for (std::size_t n : {std::size_t{1}, std::size_t{6}, std::size_t{4097}}) {
            const CheckResult r = check_case(impl, uniform_case(n, memory), pmpp::testing::test_seed(n * 8 + memory));
            EXPECT_TRUE(r.ok) << GetParam() << " n=" << n << " memory " << memory << ": " << r.report();
        }
}

TEST_P(SaxpyReference, MatchesTheCpuOnAdversarialDistributions) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    for (Distribution d : all_distributions()) {
        const saxpy::SaxpyCase c = saxpy::make_case(100003, saxpy::kAligned, d);
        const CheckResult r = check_case(impl, c, pmpp::testing::test_seed(static_cast<int>(d)));
        EXPECT_TRUE(r.ok) << GetParam() << " " << to_string(d) << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllReferences, SaxpyReference, ::testing::Values("naive", "vectorized", "cublas", "student"),
                         [](const auto& info) {
                             return info.param == "student" ? std::string("solution") : info.param;
                         });

// ---- device: the check rejects each classic mistake ---------------------------------------

TEST(SaxpyCheck, RejectsAKernelThatSkipsTheLastElement) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1}, std::size_t{257}, (std::size_t{1} << 20) + 1}) {
        const CheckResult r =
            check_case(device_only(wrong::skips_last_element), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.mismatches, 1u);
        EXPECT_EQ(r.first.at(0).index, n - 1);
        EXPECT_NE(r.hint.find("never written"), std::string::npos) << r.report();
    }
}

TEST(SaxpyCheck, RejectsAKernelThatWritesOneElementOutOfPlace) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{3}, std::size_t{256}, std::size_t{65537}}) {
        const CheckResult r = check_case(device_only(wrong::writes_one_element_out_of_place), uniform_case(n),
                                         pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.first.at(0).index, n / 2);
    }
}

TEST(SaxpyCheck, RejectsAKernelThatReadsTheNeighbouringElement) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(device_only(wrong::reads_the_neighbour), uniform_case(1000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_GT(r.mismatches, 900u);
}

TEST(SaxpyCheck, RejectsAKernelThatIgnoresTheScale) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(device_only(wrong::ignores_the_scale), uniform_case(1000), pmpp::testing::test_seed());
    EXPECT_FALSE(r.ok);
}

TEST(SaxpyCheck, RejectsAKernelThatModifiesItsInput) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(device_only(wrong::modifies_its_input), uniform_case(4096), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("modified"), std::string::npos) << r.report();
}

TEST(SaxpyCheck, RejectsAVectorKernelThatDropsTheTail) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{3}, std::size_t{257}, (std::size_t{1} << 20) + 3}) {
        const CheckResult r =
            check_case(device_only(wrong::vector_kernel_drops_the_tail), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.mismatches, n % 4) << "n=" << n;
    }
    // ...and the same kernel passes when there is no tail, so the case list needs the edges.
    const CheckResult exact =
        check_case(device_only(wrong::vector_kernel_drops_the_tail), uniform_case(256), pmpp::testing::test_seed());
    EXPECT_TRUE(exact.ok) << exact.report();
}

TEST(SaxpyCheck, RejectsAFromHostFunctionThatNeverCopiesBack) {
    PMPP_REQUIRE_GPU();
    const SaxpyFn impl{nullptr, wrong::from_host_never_copies_back};
    for (saxpy::Memory memory : {saxpy::kFromHostPageable, saxpy::kFromHostPinned}) {
        const CheckResult r = check_case(impl, uniform_case(300, memory), pmpp::testing::test_seed(memory));
        ASSERT_FALSE(r.ok);
        EXPECT_EQ(r.mismatches, 300u);
    }
}

TEST(SaxpyCheck, RejectsTheBoundIBelowOrEqualNAsAWriteOnePastTheEndOfZ) {
    PMPP_REQUIRE_GPU();
    // 257: thread n is in the last block's spare threads; 256 and 2^20: in the block the grid
    // n / 256 + 1 adds. The values are right: only the guard zone after z sees the mistake.
    for (std::size_t n : {std::size_t{257}, std::size_t{256}, std::size_t{1} << 20}) {
        const CheckResult r =
            check_case(device_only(wrong::bound_includes_n), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of z (index " + std::to_string(n) + ";"))
            << r.report();
    }
    const CheckResult misaligned = check_case(device_only(wrong::bound_includes_n),
                                              uniform_case(255, saxpy::kMisalignedMixed), pmpp::testing::test_seed());
    ASSERT_FALSE(misaligned.ok);
    EXPECT_TRUE(contains(misaligned.message, "wrote 1 element past the end of z")) << misaligned.report();
}

TEST(SaxpyCheck, RejectsAStoreBeforeTheStartOfZAlignedOrMisaligned) {
    PMPP_REQUIRE_GPU();
    const CheckResult aligned =
        check_case(device_only(wrong::stores_one_place_early), uniform_case(1000), pmpp::testing::test_seed());
    ASSERT_FALSE(aligned.ok);
    EXPECT_TRUE(contains(aligned.message, "wrote 1 element before the start of z (index -1)")) << aligned.report();
    // Misaligned, z[-1] is inside the allocation, in the offset the harness keeps poisoned.
    const CheckResult misaligned = check_case(device_only(wrong::stores_one_place_early),
                                              uniform_case(1000, saxpy::kMisalignedMixed), pmpp::testing::test_seed());
    ASSERT_FALSE(misaligned.ok);
    EXPECT_TRUE(contains(misaligned.message, "wrote z[-1], before the start of z")) << misaligned.report();
}

TEST(SaxpyCheck, RejectsAFromHostFunctionThatCopiesOneFloatTooManyIntoHostZ) {
    PMPP_REQUIRE_GPU();
    const SaxpyFn impl{nullptr, wrong::from_host_copies_one_too_many};
    for (saxpy::Memory memory : {saxpy::kFromHostPageable, saxpy::kFromHostPinned}) {
        const CheckResult r = check_case(impl, uniform_case(257, memory), pmpp::testing::test_seed(memory));
        ASSERT_FALSE(r.ok) << "memory " << memory;
        EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of z (index 257;")) << r.report();
    }
}

// ---- device: the benchmark checks every run ------------------------------------------------

TEST(SaxpyBench, MarksWrongAnImplementationThatReturnsAtOnceWhenItsArgumentsRepeat) {
    PMPP_REQUIRE_GPU();
    const SaxpyFn memo{wrong::returns_at_once_on_repeated_arguments,
                       wrong::from_host_returns_at_once_on_repeated_arguments, nullptr, saxpy::kEndToEnd};
    // The check calls it once per case, with fresh memory: it passes...
    for (saxpy::Memory memory : {saxpy::kAligned, saxpy::kFromHostPageable, saxpy::kFromHostPinned}) {
        const CheckResult r = check_case(memo, uniform_case(4097, memory), pmpp::testing::test_seed(memory));
        EXPECT_TRUE(r.ok) << "memory " << memory << ": " << r.report();
    }
    // ...the benchmark calls it again on the same memory, poisoned before each run: wrong.
    pmpp::testing::BenchFixture bench;  // 2 warm-ups, 5 timed runs
    const std::vector<Measurement> rows = bench_impl(memo, std::size_t{1} << 16, bench.ctx);
    ASSERT_EQ(rows.size(), 3u);  // the kernel, then from pageable and pinned host memory
    for (const Measurement& row : rows) {
        EXPECT_FALSE(row.correct) << row.label;
        EXPECT_TRUE(contains(row.check_message, "still hold the poison")) << row.check_message;
    }
    EXPECT_TRUE(contains(rows[0].check_message, "warm-up run 2 of 2: ")) << rows[0].check_message;
    for (std::size_t i : {1, 2})  // end to end: one warm-up, so the first timed run repeats the call
        EXPECT_TRUE(contains(rows[i].check_message, "timed run 1 of 5: "))
            << rows[i].label << ": " << rows[i].check_message;
}

TEST(SaxpyBench, MarksWrongAKernelThatWritesPastTheEndOfZ) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::BenchFixture bench;  // 2 warm-ups, 5 timed runs
    const auto rows = bench_impl({wrong::bound_includes_n, nullptr, nullptr, saxpy::kEndToEnd}, 4097, bench.ctx);
    ASSERT_EQ(rows.size(), 1u);  // no from-host function: no end-to-end rows
    EXPECT_FALSE(rows[0].correct);
    EXPECT_TRUE(contains(rows[0].check_message, "warm-up run 1 of 2: wrote 1 element past the end of z"))
        << rows[0].check_message;
}

// ---- device: the whole harness, as `make run` uses it --------------------------------------

TEST(SaxpyHarness, AcceptsTheReferenceAnswerOnEveryCase) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"saxpy", "--impl", "student,naive,vectorized,cublas", "--check", "--seed", seed.c_str()};
    Json results;
    EXPECT_EQ(run_exercise(saxpy::exercise().erase(), 6, const_cast<char**>(argv), results), kExitOk) << results.dump();
    for (const auto& impl : results.at("check_summary").items())
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
}

TEST(SaxpyHarness, BenchmarksEveryVariantWithCorrectTimedOutputs) {
    PMPP_REQUIRE_GPU();
    const char* argv[] = {"saxpy", "--impl", "all", "--bench", "--size", "2^22", "--repeats", "3"};
    Json results;
    ASSERT_EQ(run_exercise(saxpy::exercise().erase(), 8, const_cast<char**>(argv), results), kExitOk) << results.dump();
    std::set<std::string> labels;
    for (const auto& row : results.at("bench").elements()) {
        labels.insert(row.at("label").as_string());
        EXPECT_TRUE(row.at("correct").as_bool()) << row.dump();
        EXPECT_GT(row.at("median_ms").as_number(), 0);
    }
    for (const char* l : {"student", "naive", "vectorized", "cublas", "cpu", "student pageable", "student pinned",
                          "vectorized pageable", "vectorized pinned"})
        EXPECT_TRUE(labels.count(l)) << l;
}

// ---- README hints: each one is what the check prints for its mistake -----------------------

namespace {

// The right from-host function, for the wrong implementations whose mistake is on the device.
void right_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_naive, n, a, x, y, z);
}

struct HintedMistake {
    std::string symptom;  // as README.md's "## Hints" quotes it
    SaxpyFn impl;
};

SaxpyFn on_device(SaxpyDeviceFn fn) { return {fn, right_from_host}; }
SaxpyFn from_host(SaxpyDeviceFn fn) { return {saxpy_naive, fn}; }

// One wrong implementation per hint of README.md, with the symptom the hint quotes.
const std::vector<HintedMistake>& hinted_mistakes() {
    static const std::vector<HintedMistake> table = {
        {"wrote 1 element past the end of z", on_device(wrong::bound_includes_n)},
        {"elements past the end of z", on_device(wrong::has_no_bound)},
        {"past the end of z ..., in host memory", from_host(wrong::from_host_copies_one_too_many)},
        {"before the start of z", on_device(wrong::stores_one_place_early)},
        {"only the last element (index ...) still holds the poison", on_device(wrong::skips_last_element)},
        {"the last ... elements, from index ... to the end, still hold the poison",
         on_device(wrong::grid_rounded_down)},
        {"no element was written: all ... still hold the poison", on_device(wrong::never_launches)},
        {"from-host ...: ... no element was written", from_host(wrong::from_host_never_copies_back)},
        {"the inputs x or y were modified", on_device(wrong::modifies_its_input)},
    };
    return table;
}

}  // namespace

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    // What `make run` prints for each mistake over the case list up to n = 2^16 (every variant is there).
    pmpp::testing::expect_each_symptom_shown(hinted_mistakes(), [](const HintedMistake& h) {
        return pmpp::testing::check_output_as_student(saxpy::exercise(), h.impl, std::size_t{1} << 16);
    });
}

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hinted_mistakes());
}

TEST(ReadmeHints, AWrongResultThatFitsNoPatternGetsNoHint) {
    PMPP_REQUIRE_GPU();
    // z = x + y: every element wrong by (1 - a) x[i], a different amount each; nothing unwritten.
    const CheckResult r =
        check_case(device_only(wrong::ignores_the_scale), uniform_case(4097), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint, "") << r.report();
}

// ---- device: the memory estimates ------------------------------------------------------------------

// At 2^26 the 28 bytes per element of the end-to-end rows (1.75 GiB) dwarf every constant; the
// host's 24 are the pinned row's. One timed run per implementation: a few seconds.
TEST(SaxpyMemory, EstimatesBoundThePeaksOfTheBenchmarkAt2To26) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(saxpy::exercise().erase(), std::size_t{1} << 26);
}
