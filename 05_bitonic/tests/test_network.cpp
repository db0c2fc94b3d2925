// Exercise 05 on the host: the network's rules (a CPU implementation of the network itself,
// held against std::sort by the 0-1 principle and on random inputs, and against the formulas
// for its steps and comparators), the checker (it rejects each kind of wrong output), the inputs
// and the case list.
#include "../bitonic.h"
#include "../bitonic_network.h"
#include "../harness/bitonic_harness.h"
#include "every_kind.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace pmpp;
using namespace bitonic;

namespace {

// Runs the CPU network on the bits of `mask` (n of them) and says whether the result is sorted.
bool network_sorts_zero_one_input(unsigned mask, std::size_t n, SortOrder order) {
    std::uint32_t keys[32];
    for (std::size_t i = 0; i < n; ++i) keys[i] = (mask >> i) & 1u;
    bitonic_network_cpu(keys, nullptr, n, order);
    if (order == SortOrder::Ascending) return std::is_sorted(keys, keys + n);
    return std::is_sorted(keys, keys + n, [](std::uint32_t a, std::uint32_t b) { return a > b; });
}

bitonic::SortInput<std::uint32_t> small_input() {
    bitonic::SortInput<std::uint32_t> in;
    in.keys = {5, 3, 9, 1, 7, 3};
    in.salt = 0x1234u;
    for (std::uint32_t i = 0; i < in.keys.size(); ++i) in.values.push_back(i ^ in.salt);
    return in;
}

}  // namespace

// ---- the network, on the CPU --------------------------------------------------------------------

TEST(CpuNetwork, SortsEveryZeroOneInputOfLength16BothWays) {
    // The 0-1 principle: a comparator network that sorts every sequence of 0s and 1s sorts
    // every sequence.
    for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending})
        for (unsigned mask = 0; mask < (1u << 16); ++mask)
            ASSERT_TRUE(network_sorts_zero_one_input(mask, 16, order)) << "input bits 0x" << std::hex << mask;
}

TEST(CpuNetwork, SortsEveryZeroOneInputOfEveryLengthUpTo16) {
    // Lengths that are not powers of two use the virtual padding: the same proof covers them.
    for (std::size_t n = 0; n <= 16; ++n)
        for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending})
            for (unsigned mask = 0; mask < (1u << n); ++mask)
                ASSERT_TRUE(network_sorts_zero_one_input(mask, n, order))
                    << "n=" << n << " bits 0x" << std::hex << mask;
}

TEST(CpuNetwork, CountsLTimesLPlusOneOverTwoStepsAndNOver4LTimesLPlusOneComparators) {
    for (int L = 0; L <= 14; ++L) {
        const std::size_t n = std::size_t{1} << L;
        std::vector<std::uint32_t> keys =
            generate<std::uint32_t>(n, Distribution::Uniform, pmpp::testing::test_seed(L));
        const NetworkCounts c = bitonic_network_cpu(keys.data(), nullptr, n, SortOrder::Ascending);
        EXPECT_EQ(c.steps, static_cast<std::size_t>(L) * (L + 1) / 2) << "n=2^" << L;
        EXPECT_EQ(c.comparators, n * L * (L + 1) / 4) << "n=2^" << L;
        EXPECT_EQ(c.steps, bitonic::network_steps(L));
        EXPECT_EQ(c.comparators, bitonic::network_comparators(L));
    }
    EXPECT_EQ(bitonic::network_steps(20), 210u);  // the seed's "210 steps for a million elements"
    EXPECT_EQ(bitonic::network_steps(24), 300u);
}

TEST(CpuNetwork, PaysTheStepsOfThePaddedLengthButOnlyTheComparatorsBelowN) {
    // n = 2^10 + 1 runs the 66 steps of 2^11, but no comparator touches the virtual padding:
    // fewer than half of 2^11's comparators, about as many as 2^10's.
    const std::size_t n = 1025;
    std::vector<std::uint32_t> keys = generate<std::uint32_t>(n, Distribution::Uniform, pmpp::testing::test_seed());
    const NetworkCounts c = bitonic_network_cpu(keys.data(), nullptr, n, SortOrder::Ascending);
    EXPECT_EQ(c.steps, bitonic::network_steps(11));
    EXPECT_LT(c.comparators, bitonic::network_comparators(11) / 2);
    EXPECT_GT(c.comparators, bitonic::network_comparators(10));
}

TEST(CpuNetwork, AgreesWithStdSortOnRandomInputsOfEveryLengthKeyTypeAndOrder) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n <= 130; ++n) sizes.push_back(n);
    for (std::size_t n : {255, 256, 257, 1000, 1023, 1024, 1025, 4097}) sizes.push_back(n);
    bitonic_tests::expect_host_sort_sorts_every_kind(
        sizes, [](auto* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
            bitonic_network_cpu(keys, values, n, order);
        });
}

TEST(NetworkRules, LowerOfPairGivesEachPairOfAStepToExactlyOneThread) {
    const std::size_t n = 1 << 10;
    for (std::size_t j = 1; j < n; j <<= 1) {
        std::set<std::size_t> lower;
        for (std::size_t p = 0; p < n / 2; ++p) {
            const std::size_t i = bitonic::lower_of_pair(p, j);
            ASSERT_EQ(i & j, 0u) << "j=" << j << " p=" << p;
            ASSERT_LT(i + j, n);
            if (p > 0) {
                ASSERT_GT(i, bitonic::lower_of_pair(p - 1, j)) << "pairs in order of their lower index";
            }
            lower.insert(i);
        }
        EXPECT_EQ(lower.size(), n / 2) << "j=" << j;
    }
}

TEST(NetworkRules, TheSeedsDirectionRuleFailsOnlyWhenNIsNotAPowerOfTwo) {
    // The seed: forward when bit k of i is 0. With partners past n skipped, a block holding the
    // last real element may sort backward and push a real element into the padding.
    auto seed_rule_sorts = [](unsigned mask, std::size_t n) {
        std::uint32_t keys[16];
        for (std::size_t i = 0; i < n; ++i) keys[i] = (mask >> i) & 1u;
        const bitonic::Before<std::uint32_t> before{false};
        for (std::size_t k = 2; k <= bitonic::padded_length(n); k <<= 1)
            for (std::size_t j = k >> 1; j > 0; j >>= 1)
                for (std::size_t i = 0; i < n; ++i)
                    if ((i ^ j) > i && (i ^ j) < n)
                        bitonic::compare_exchange(keys, nullptr, i, i ^ j, (i & k) == 0, before);
        return std::is_sorted(keys, keys + n);
    };
    std::size_t lengths_failing = 0;
    for (std::size_t n = 1; n <= 16; ++n) {
        bool all = true;
        for (unsigned mask = 0; mask < (1u << n); ++mask) all = all && seed_rule_sorts(mask, n);
        if ((n & (n - 1)) == 0) {
            EXPECT_TRUE(all) << "n=" << n << " is a power of two: the seed's rule is right";
        }
        if (!all) ++lengths_failing;
    }
    EXPECT_GE(lengths_failing, 5u) << "the seed's rule should fail for many lengths that are not powers of two";
}

// ---- the checker rejects each kind of wrong output ---------------------------------------------------

TEST(Check, AcceptsTheSortedInputWithItsValues) {
    const auto in = small_input();
    std::vector<std::uint32_t> keys = in.keys, values = in.values, expected = in.keys;
    sort_cpu(keys.data(), values.data(), keys.size(), SortOrder::Ascending);
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    const CheckResult r = bitonic::check_sorted_output(in, expected, keys.data(), values.data(), SortOrder::Ascending);
    EXPECT_TRUE(r.ok) << r.report();
}

TEST(Check, RejectsOutputThatIsNotSortedAndSaysWhenNothingWasSorted) {
    const auto in = small_input();
    std::vector<std::uint32_t> expected = in.keys;
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    const CheckResult r = bitonic::check_sorted_output(in, expected, in.keys.data(), nullptr, SortOrder::Ascending);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not sorted"), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("nothing was sorted"), std::string::npos) << r.report();
}

TEST(Check, RejectsOutputSortedInTheOppositeOrderAndSaysSo) {
    const auto in = small_input();
    std::vector<std::uint32_t> expected = in.keys, descending = in.keys;
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    sort_cpu(descending.data(), nullptr, descending.size(), SortOrder::Descending);
    const CheckResult r = bitonic::check_sorted_output(in, expected, descending.data(), nullptr, SortOrder::Ascending);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.hint.find("opposite order"), std::string::npos) << r.report();
}

TEST(Check, RejectsOutputThatIsNotAPermutationOfTheInput) {
    const auto in = small_input();
    std::vector<std::uint32_t> expected = in.keys;
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    std::vector<std::uint32_t> lost = expected;  // 1 3 3 5 7 9 -> 1 3 3 3 7 9: a 5 lost, a 3 duplicated
    lost[3] = lost[2];
    const CheckResult r = bitonic::check_sorted_output(in, expected, lost.data(), nullptr, SortOrder::Ascending);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not a permutation"), std::string::npos) << r.report();
}

TEST(Check, RejectsValuesThatLeftTheirKeys) {
    const auto in = small_input();
    std::vector<std::uint32_t> keys = in.keys, values = in.values, expected = in.keys;
    sort_cpu(keys.data(), values.data(), keys.size(), SortOrder::Ascending);
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    std::swap(values[0], values[5]);  // keys 1 and 9 keep their places, their values swap
    CheckResult r = bitonic::check_sorted_output(in, expected, keys.data(), values.data(), SortOrder::Ascending);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("did not travel"), std::string::npos) << r.report();
    EXPECT_EQ(r.mismatches, 2u);

    std::vector<std::uint32_t> duplicated = values;
    sort_cpu(keys.data(), duplicated.data(), keys.size(), SortOrder::Ascending);
    duplicated[2] = duplicated[1];  // the two 3s now carry one value twice
    r = bitonic::check_sorted_output(in, expected, keys.data(), duplicated.data(), SortOrder::Ascending);
    EXPECT_FALSE(r.ok) << "a value given twice must be caught even when its key matches";
}

TEST(Check, TellsMinusZeroFromPlusZeroAndPutsEveryNaNLast) {
    bitonic::SortInput<float> in;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    in.keys = {0.0f, -0.0f, -nan, nan, 1.0f};
    std::vector<float> expected = in.keys;
    sort_cpu(expected.data(), nullptr, expected.size(), SortOrder::Ascending);
    EXPECT_TRUE(std::signbit(expected[0]) && expected[0] == 0.0f) << "-0.0 first";
    EXPECT_TRUE(!std::signbit(expected[1]) && expected[1] == 0.0f) << "then +0.0";
    EXPECT_EQ(expected[2], 1.0f);
    EXPECT_TRUE(!std::signbit(expected[3]) && std::isnan(expected[3])) << "then +NaN";
    EXPECT_TRUE(std::signbit(expected[4]) && std::isnan(expected[4])) << "-NaN last: every NaN after the numbers";
    std::vector<float> zeros_swapped = expected;
    std::swap(zeros_swapped[0], zeros_swapped[1]);  // +0.0 before -0.0: operator< cannot see it
    EXPECT_FALSE(bitonic::check_sorted_output(in, expected, zeros_swapped.data(), nullptr, SortOrder::Ascending).ok);
}

// ---- inputs and cases ------------------------------------------------------------------------------

TEST(Inputs, ValuesAreDistinctAndSpecialValuesAppear) {
    CaseKind kind{KeyType::F32, SortOrder::Ascending, true, true};
    const auto in = bitonic::make_input<float>(4000, Distribution::Uniform, kind, pmpp::testing::test_seed());
    std::set<std::uint32_t> values(in.values.begin(), in.values.end());
    EXPECT_EQ(values.size(), in.values.size());
    std::size_t nans = 0, negative_zeros = 0, infinities = 0;
    for (float k : in.keys) {
        nans += std::isnan(k);
        negative_zeros += k == 0.0f && std::signbit(k);
        infinities += std::isinf(k);
    }
    EXPECT_GT(nans, 10u);
    EXPECT_GT(negative_zeros, 10u);
    EXPECT_GT(infinities, 10u);
    const auto again = bitonic::make_input<float>(4000, Distribution::Uniform, kind, pmpp::testing::test_seed());
    EXPECT_EQ(std::memcmp(in.keys.data(), again.keys.data(), 4000 * sizeof(float)), 0) << "a seed replays its input";
}

TEST(Cases, CoverEveryPowerOfTwoEdgeEveryKindEveryDistributionAndTheSpecials) {
    const auto& ex = bitonic::exercise();
    const char* argv[] = {"bitonic"};
    const auto cases = ex.cases(parse_command_line(1, argv, ex.extra_options, ex.max_size));
    std::set<std::size_t> sizes;
    std::set<std::string> kinds;
    std::set<Distribution> dists;
    for (const auto& c : cases) {
        sizes.insert(c.n);
        kinds.insert(bitonic::describe(c.spec));
        dists.insert(c.dist);
        EXPECT_TRUE(c.in_place) << ex.label(c);
    }
    for (std::size_t n : {0, 1, 2, 3}) EXPECT_TRUE(sizes.count(n)) << n;
    for (int k : {4, 5, 10, 11, 12, 13, 14, 17})
        for (std::size_t n : {(std::size_t{1} << k) - 1, std::size_t{1} << k, (std::size_t{1} << k) + 1})
            EXPECT_TRUE(sizes.count(n)) << n;
    EXPECT_TRUE(sizes.count((std::size_t{1} << 20) + 5));
    EXPECT_EQ(dists.size(), all_distributions().size());
    EXPECT_EQ(kinds.size(), 24u) << "3 key types x 2 orders x keys or pairs, each also with special values";
}

TEST(Cases, EveryCaseHasALabelOfItsOwnThatNamesItsKind) {
    // Case seeds derive from labels: two cases with one label would sort the same input.
    const auto& ex = bitonic::exercise();
    const auto cases = ex.cases(default_options(ex.extra_options));
    std::set<std::string> labels;
    for (const auto& c : cases) labels.insert(ex.label(c));
    EXPECT_EQ(labels.size(), cases.size());
    const CaseKind kind{KeyType::F32, SortOrder::Descending, true, true};
    EXPECT_EQ(ex.label({1000, Distribution::FewDistinct, kind, true}),
              "n=2^10-24 few-distinct f32 desc pairs specials");
    EXPECT_EQ(bitonic::all_kinds().size(), 12u);
}
