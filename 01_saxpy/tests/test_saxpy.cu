// Exercise 01: every reference equals the CPU on every edge size, the check rejects each
// classic mistake, and the harness accepts the reference answer end to end.
#include "../saxpy_harness.h"
#include "wrong_saxpy.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace pmpp;

namespace {

const std::size_t kEdgeSizes[] = {0, 1, 255, 256, 257, std::size_t{1} << 20, (std::size_t{1} << 26) + 3};

Case uniform_case(std::size_t n, int variant = saxpy::kAligned) {
    return {"n=" + format_size(n), n, Distribution::Uniform, variant};
}

saxpy::SaxpyImpl device_only(void (*fn)(std::size_t, float, const float*, const float*, float*)) {
    saxpy::SaxpyImpl impl;
    impl.device = fn;
    return impl;
}

}  // namespace

// ---- host: the case list itself ----------------------------------------------------------

TEST(SaxpyCases, CoverEveryPowerOfTwoEdgeLargeSizesAndEveryMemoryVariant) {
    const auto cases = saxpy::exercise().cases(Options{});
    std::set<std::size_t> sizes;
    std::set<int> variants;
    std::set<Distribution> dists;
    for (const auto& c : cases) {
        sizes.insert(c.n);
        variants.insert(c.variant);
        dists.insert(c.dist);
    }
    for (std::size_t n : kEdgeSizes) EXPECT_TRUE(sizes.count(n)) << n;
    for (int k : {2, 5, 8, 10, 16, 20})
        for (std::size_t n : {(std::size_t{1} << k) - 1, std::size_t{1} << k, (std::size_t{1} << k) + 1})
            EXPECT_TRUE(sizes.count(n)) << n;
    EXPECT_EQ(variants.size(), 5u);
    EXPECT_GE(dists.size(), 3u);
}

TEST(SaxpyCpu, ComputesAxPlusY) {
    const float x[3] = {1.0f, -2.0f, 0.5f}, y[3] = {0.25f, 1.0f, -1.0f};
    float z[3];
    saxpy_cpu(3, 2.0f, x, y, z);
    EXPECT_EQ(z[0], 2.25f);
    EXPECT_EQ(z[1], -3.0f);
    EXPECT_EQ(z[2], 0.0f);
}

// ---- device: every reference equals the CPU ----------------------------------------------

class SaxpyReference : public ::testing::TestWithParam<std::string> {};

TEST_P(SaxpyReference, MatchesTheCpuOnEveryEdgeSize) {
    PMPP_REQUIRE_GPU();
    const auto impl = saxpy::impl_by_name(GetParam());
    for (std::size_t n : kEdgeSizes) {
        const CheckResult r = saxpy::check_case(impl, uniform_case(n), pmpp::testing::test_seed(n));
        EXPECT_TRUE(r.ok) << GetParam() << " n=" << n << ": " << r.report();
    }
}

TEST_P(SaxpyReference, HandlesMisalignedPointersAndHostMemory) {
    PMPP_REQUIRE_GPU();
    const auto impl = saxpy::impl_by_name(GetParam());
    for (int variant : {saxpy::kMisalignedSame, saxpy::kMisalignedMixed, saxpy::kFromHostPageable, saxpy::kFromHostPinned})
        for (std::size_t n : {std::size_t{1}, std::size_t{6}, std::size_t{4097}}) {
            const CheckResult r = saxpy::check_case(impl, uniform_case(n, variant), pmpp::testing::test_seed(n * 8 + variant));
            EXPECT_TRUE(r.ok) << GetParam() << " n=" << n << " variant " << variant << ": " << r.report();
        }
}

TEST_P(SaxpyReference, MatchesTheCpuOnAdversarialDistributions) {
    PMPP_REQUIRE_GPU();
    const auto impl = saxpy::impl_by_name(GetParam());
    for (Distribution d : all_distributions()) {
        const Case c{"adversarial", 100003, d, saxpy::kAligned};
        const CheckResult r = saxpy::check_case(impl, c, pmpp::testing::test_seed(static_cast<int>(d)));
        EXPECT_TRUE(r.ok) << GetParam() << " " << to_string(d) << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllReferences, SaxpyReference,
                         ::testing::Values("naive", "vectorized", "cublas", "student"),
                         [](const auto& info) { return info.param == "student" ? std::string("solution") : info.param; });

// ---- device: the check rejects each classic mistake ---------------------------------------

TEST(SaxpyCheck, RejectsAKernelThatSkipsTheLastElement) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1}, std::size_t{257}, (std::size_t{1} << 20) + 1}) {
        const CheckResult r = saxpy::check_case(device_only(wrong::skips_last_element), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.mismatches, 1u);
        EXPECT_EQ(r.first.at(0).index, n - 1);
        EXPECT_NE(r.hint.find("never written"), std::string::npos) << r.report();
    }
}

TEST(SaxpyCheck, RejectsAKernelThatWritesOneElementOutOfPlace) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{3}, std::size_t{256}, std::size_t{65537}}) {
        const CheckResult r =
            saxpy::check_case(device_only(wrong::writes_one_element_out_of_place), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.first.at(0).index, n / 2);
    }
}

TEST(SaxpyCheck, RejectsAKernelThatReadsTheNeighbouringElement) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = saxpy::check_case(device_only(wrong::reads_the_neighbour), uniform_case(1000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_GT(r.mismatches, 900u);
}

TEST(SaxpyCheck, RejectsAKernelThatIgnoresTheScale) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = saxpy::check_case(device_only(wrong::ignores_the_scale), uniform_case(1000), pmpp::testing::test_seed());
    EXPECT_FALSE(r.ok);
}

TEST(SaxpyCheck, RejectsAKernelThatModifiesItsInput) {
    PMPP_REQUIRE_GPU();
    const CheckResult r = saxpy::check_case(device_only(wrong::modifies_its_input), uniform_case(4096), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("modified"), std::string::npos) << r.report();
}

TEST(SaxpyCheck, RejectsAVectorKernelThatDropsTheTail) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{3}, std::size_t{257}, (std::size_t{1} << 20) + 3}) {
        const CheckResult r =
            saxpy::check_case(device_only(wrong::vector_kernel_drops_the_tail), uniform_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.mismatches, n % 4) << "n=" << n;
    }
    // ...and the same kernel passes when there is no tail, so the case list needs the edges.
    const CheckResult exact =
        saxpy::check_case(device_only(wrong::vector_kernel_drops_the_tail), uniform_case(256), pmpp::testing::test_seed());
    EXPECT_TRUE(exact.ok) << exact.report();
}

TEST(SaxpyCheck, RejectsAFromHostFunctionThatNeverCopiesBack) {
    PMPP_REQUIRE_GPU();
    saxpy::SaxpyImpl impl;
    impl.from_host = wrong::from_host_never_copies_back;
    for (int variant : {saxpy::kFromHostPageable, saxpy::kFromHostPinned}) {
        const CheckResult r = saxpy::check_case(impl, uniform_case(300, variant), pmpp::testing::test_seed(variant));
        ASSERT_FALSE(r.ok);
        EXPECT_EQ(r.mismatches, 300u);
    }
}

// ---- device: the whole harness, as `make run` uses it --------------------------------------

TEST(SaxpyHarness, AcceptsTheReferenceAnswerOnEveryCase) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"saxpy", "--impl", "student,naive,vectorized,cublas", "--check", "--seed", seed.c_str()};
    Json results;
    EXPECT_EQ(run_exercise(saxpy::exercise(), 6, const_cast<char**>(argv), results), kExitOk) << results.dump();
    for (const auto& impl : results.at("check_summary").items())
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
}

TEST(SaxpyHarness, BenchmarksEveryVariantWithCorrectTimedOutputs) {
    PMPP_REQUIRE_GPU();
    const char* argv[] = {"saxpy", "--impl", "all", "--bench", "--size", "2^22", "--repeats", "3"};
    Json results;
    ASSERT_EQ(run_exercise(saxpy::exercise(), 8, const_cast<char**>(argv), results), kExitOk) << results.dump();
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
