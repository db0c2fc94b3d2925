// Exercise 02: every scan equals the CPU on every case, in place too; the check rejects each
// classic mistake. (The forbidden-API check: common/tests/test_student_rules.cpp.)
#include "../harness/scan_harness.h"
#include "../harness/scan_inputs.h"
#include "wrong_scan.h"

#include "../scan_4_persistent.h"

#include "common/readme_hints.h"
#include "common/testing.h"
#include "common/testing_student_row.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace pmpp;
using namespace scan;

namespace {

using pmpp::testing::contains;
using scan::make_case;

// A variant of the table, or a wrong one of tests/wrong_scan.h, as the check calls it.
scan::ScanFn variant(const std::string& name) { return scan::exercise().variant(name).fn; }
scan::ScanFn wrong_impl(void (*fn)(const int*, int*, std::size_t, void*)) { return {wrong::workspace_bytes, fn}; }

// `fn` in the student's row, through the exercise's check and benchmark (one row).
CheckResult check_case(const scan::ScanFn& fn, const scan::ScanCase& c, std::uint64_t seed) {
    return pmpp::testing::check_as_student(scan::exercise(), fn, c, seed);
}
Measurement bench_impl(const scan::ScanFn& fn, std::size_t n, BenchContext& ctx) {
    return pmpp::testing::bench_as_student(scan::exercise(), fn, n, ctx).at(0);
}

// A Blelloch scan of tests/wrong_scan.h, with the workspace of its padded tree.
scan::ScanFn blelloch_impl(void (*fn)(const int*, int*, std::size_t, void*)) {
    return {wrong::blelloch_workspace_bytes, fn};
}

}  // namespace

// ---- host ----------------------------------------------------------------------------------

TEST(ScanCpu, IsExclusiveAndWrapsAroundOnOverflow) {
    const int in[4] = {5, 0x7FFFFFFF, 1, -3};
    int out[4];
    exclusive_scan_cpu(in, out, 4);
    EXPECT_EQ(out[0], 0);
    EXPECT_EQ(out[1], 5);
    EXPECT_EQ(out[2], static_cast<int>(0x80000004u));  // wrapped
    EXPECT_EQ(out[3], static_cast<int>(0x80000005u));
}

TEST(ScanCpu, WorksInPlace) {
    int v[5] = {1, 2, 3, 4, 5};
    exclusive_scan_cpu(v, v, 5);
    const int expect[5] = {0, 1, 3, 6, 10};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], expect[i]);
}

TEST(ScanCases, CoverEdgesLargeSizesEveryInputKindAndInPlace) {
    const auto cases = scan::exercise().cases(Options{});
    std::set<std::size_t> sizes;
    std::set<int> kinds;
    bool in_place = false;
    for (const auto& c : cases) {
        sizes.insert(c.n);
        kinds.insert(c.spec.kind);
        in_place |= c.in_place;
    }
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{255}, std::size_t{256},
                          std::size_t{257}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                          (std::size_t{1} << 20) + 7, (std::size_t{1} << 26) + 3})
        EXPECT_TRUE(sizes.count(n)) << n;
    EXPECT_EQ(kinds.size(), static_cast<std::size_t>(scan_inputs::kKinds));
    EXPECT_TRUE(in_place);
}

TEST(ScanInputs, KindsHaveTheRepeatsTheirNamesPromise) {
    auto repeats = [](const std::vector<int>& v) {
        std::size_t r = 0;
        for (std::size_t i = 0; i + 1 < v.size(); ++i) r += v[i] == v[i + 1];
        return r;
    };
    EXPECT_EQ(repeats(scan_inputs::make(1000, scan_inputs::kAllEqual, 1)), 999u);
    EXPECT_EQ(repeats(scan_inputs::make(1000, scan_inputs::kStrictlyIncreasing, 1)), 0u);
    EXPECT_EQ(repeats(scan_inputs::make(1000, scan_inputs::kAlternatingPairs, 1)), 500u);
    const std::size_t small = repeats(scan_inputs::make(100000, scan_inputs::kSmallValues, 1));
    EXPECT_GT(small, 9000u);  // about one in ten
    EXPECT_LT(small, 11000u);
}

// The forbidden-API check (`make forbidden`: the use and include rules) and the link rule are
// tested on this exercise's real build, with sneaky scans (Thrust behind macros, cooperative
// groups' scan, calls of the CUB baseline, ...), in common/tests/test_student_rules.cpp.

// ---- device: every implementation against the CPU -------------------------------------------

class ScanReference : public ::testing::TestWithParam<std::string> {};

TEST_P(ScanReference, MatchesTheCpuOnEveryCaseOfTheList) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    const auto cases = scan::exercise().cases(Options{});
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CheckResult r = check_case(impl, cases[i], pmpp::testing::test_seed(i));
        EXPECT_TRUE(r.ok) << GetParam() << " " << scan::exercise().label(cases[i]) << ": " << r.report();
    }
}

TEST_P(ScanReference, ScansInPlaceOnTileEdges) {
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    for (std::size_t n :
         {std::size_t{2047}, std::size_t{2048}, std::size_t{2049}, std::size_t{8191}, std::size_t{8193}}) {
        const CheckResult r =
            check_case(impl, make_case(n, scan_inputs::kSmallValues, /*in_place=*/true), pmpp::testing::test_seed(n));
        EXPECT_TRUE(r.ok) << GetParam() << " n=" << n << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(AllImplementations, ScanReference,
                         ::testing::Values("blelloch", "hierarchical", "single_pass", "persistent", "cub", "student"),
                         [](const auto& info) {
                             return info.param == "student" ? std::string("solution") : info.param;
                         });

class ScanWithLookBack : public ::testing::TestWithParam<std::string> {};

TEST_P(ScanWithLookBack, StaysCorrectOverManyRepeatsOfALargeScan) {
    // A race in the look-back shows up as a rare wrong tile: repeat with fresh inputs.
    PMPP_REQUIRE_GPU();
    const auto impl = variant(GetParam());
    for (int rep = 0; rep < 10; ++rep) {
        const CheckResult r = check_case(impl, make_case((std::size_t{1} << 24) + 3), pmpp::testing::test_seed(rep));
        ASSERT_TRUE(r.ok) << GetParam() << " repeat " << rep << ": " << r.report();
    }
}

INSTANTIATE_TEST_SUITE_P(SinglePassVariants, ScanWithLookBack, ::testing::Values("single_pass", "persistent"));

// Variant 4 with the shape this GPU would not choose: the fallback where the shipped shape fits
// (an H200), and the shipped one only where it fits; each with the grid the GPU holds and with
// two blocks only, so that every block scans hundreds of tiles in turn (the stages wrap around,
// the last iteration has no next tile) whatever the GPU's size. Sizes on the tile edges of both
// shapes (4096 and 8192), in place too.
template <persistent::TileShape SHAPE, std::size_t MAX_GRID>
void scan_with(const int* in, int* out, std::size_t n, void* workspace) {
    persistent::exclusive_scan_with_shape(SHAPE, in, out, n, workspace, MAX_GRID);
}

TEST(ScanPersistent, ScansWithEitherTileShapeAndAnyNumberOfTilesABlock) {
    PMPP_REQUIRE_GPU();
    using persistent::TileShape;
    std::vector<std::pair<std::string, scan::ScanFn>> runs = {
        {"fallback", {scan_persistent_workspace_bytes, scan_with<TileShape::Fallback, 0>}},
        {"fallback, 2 blocks", {scan_persistent_workspace_bytes, scan_with<TileShape::Fallback, 2>}}};
    if (persistent::shipped_shape_fits()) {
        runs.push_back({"shipped", {scan_persistent_workspace_bytes, scan_with<TileShape::Shipped, 0>}});
        runs.push_back({"shipped, 2 blocks", {scan_persistent_workspace_bytes, scan_with<TileShape::Shipped, 2>}});
    }
    for (const auto& [name, fn] : runs)
        for (std::size_t n :
             {std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097}, std::size_t{8191},
              std::size_t{8192}, std::size_t{8193}, std::size_t{1000} * 8192 + 5, (std::size_t{1} << 22) + 1})
            for (bool in_place : {false, true}) {
                const CheckResult r = check_case(fn, make_case(n, scan_inputs::kFullRange, in_place),
                                                 pmpp::testing::test_seed(n + in_place));
                EXPECT_TRUE(r.ok) << name << " n=" << n << (in_place ? " in place" : "") << ": " << r.report();
            }
}

// cp.async copies 16 aligned bytes: variant 4 hands pointers off that grid to variant 3's kernel.
TEST(ScanPersistent, ScansArraysThatStartOffTheSixteenByteGrid) {
    PMPP_REQUIRE_GPU();
    const std::size_t n = 3 * 8192 + 11;
    const std::vector<int> h = scan_inputs::make(n, scan_inputs::kFullRange, pmpp::testing::test_seed());
    std::vector<int> expect(n);
    exclusive_scan_cpu(h.data(), expect.data(), n);
    pmpp::DeviceBuffer<int> in(n + 4), out(n + 4);
    pmpp::DeviceBuffer<unsigned char> ws(scan_persistent_workspace_bytes(n));
    for (std::size_t offset : {std::size_t{1}, std::size_t{3}}) {
        PMPP_CUDA_CHECK(cudaMemcpy(in.data() + offset, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        exclusive_scan_persistent(in.data() + offset, out.data() + offset, n, ws.data());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<int> got(n);
        PMPP_CUDA_CHECK(cudaMemcpy(got.data(), out.data() + offset, n * sizeof(int), cudaMemcpyDeviceToHost));
        EXPECT_EQ(got, expect) << "offset " << offset << " ints";
    }
}

// ---- device: the check rejects each classic mistake -------------------------------------------

TEST(ScanCheck, RejectsAnInclusiveScan) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(wrong_impl(wrong::inclusive_instead_of_exclusive), make_case(1000), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.first.at(0).index, 0u);
}

TEST(ScanCheck, RejectsAScanThatDropsTheLastBlock) {
    PMPP_REQUIRE_GPU();
    for (std::size_t n : {std::size_t{1}, std::size_t{256}, std::size_t{257}, (std::size_t{1} << 20) + 7}) {
        const CheckResult r =
            check_case(wrong_impl(wrong::drops_the_last_block), make_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_EQ(r.mismatches, n - (n - 1) / 256 * 256) << "n=" << n;
    }
}

TEST(ScanCheck, RejectsAnOffByOneAtBlockBoundaries) {
    PMPP_REQUIRE_GPU();
    const CheckResult r =
        check_case(wrong_impl(wrong::off_by_one_at_block_boundaries), make_case(4097), pmpp::testing::test_seed());
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.first.at(0).index, 256u);
    // With one block there is no boundary: the same mistake passes, so the case list needs n > 256.
    const CheckResult one_block =
        check_case(wrong_impl(wrong::off_by_one_at_block_boundaries), make_case(256), pmpp::testing::test_seed());
    EXPECT_TRUE(one_block.ok);
}

TEST(ScanCheck, RejectsTheBoundIBelowOrEqualNAsAWriteOnePastTheEndOfOut) {
    PMPP_REQUIRE_GPU();
    // 4097: thread n is in the last block's spare threads; 256 and 4096: in the block the grid
    // n / 256 + 1 adds. The values are right: only the guard zone after out sees the mistake.
    for (std::size_t n : {std::size_t{4097}, std::size_t{256}, std::size_t{4096}}) {
        const CheckResult r =
            check_case(wrong_impl(wrong::stores_the_total_past_the_end), make_case(n), pmpp::testing::test_seed(n));
        ASSERT_FALSE(r.ok) << "n=" << n;
        EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of out (index " + std::to_string(n) + ";"))
            << r.report();
    }
    // In place, out is the input too: its guard zones are checked the same way.
    const CheckResult in_place =
        check_case(wrong_impl(wrong::stores_the_total_past_the_end),
                   make_case(1000, scan_inputs::kFullRange, /*in_place=*/true), pmpp::testing::test_seed());
    ASSERT_FALSE(in_place.ok);
    EXPECT_TRUE(contains(in_place.message, "wrote 1 element past the end of out (index 1000;")) << in_place.report();
}

TEST(ScanCheck, RejectsAnUpSweepIndexThatWritesBeforeTheStartOfTheWorkspace) {
    PMPP_REQUIRE_GPU();
    for (bool in_place : {false, true}) {
        const CheckResult r =
            check_case(wrong_impl(wrong::up_sweep_writes_before_the_workspace),
                       make_case(4097, scan_inputs::kFullRange, in_place), pmpp::testing::test_seed(in_place));
        ASSERT_FALSE(r.ok) << (in_place ? "in place" : "out of place");
        // One int, 4 bytes of the (byte) workspace.
        EXPECT_TRUE(contains(r.message, "before the start of the workspace (index -4 to -1)")) << r.report();
    }
}

// ---- device: the benchmark checks every run ---------------------------------------------------

TEST(ScanBench, MarksWrongAScanThatReturnsAtOnceWhenItsArgumentsRepeat) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_only_the_benchmark_catches_a_memo(
        scan::exercise(), wrong_impl(wrong::returns_at_once_on_repeated_arguments), make_case(4097));
}

TEST(ScanBench, MarksWrongAScanThatWritesPastTheEndOfOutAndPassesAReferenceEveryRun) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::BenchFixture bench;  // 2 warm-ups, 5 timed runs
    const Measurement wrong_row = bench_impl(wrong_impl(wrong::stores_the_total_past_the_end), 4097, bench.ctx);
    EXPECT_FALSE(wrong_row.correct);
    EXPECT_TRUE(contains(wrong_row.check_message, "warm-up run 1 of 2: wrote 1 element past the end of out"))
        << wrong_row.check_message;
    const Measurement reference = bench_impl(variant("single_pass"), 4097, bench.ctx);
    EXPECT_TRUE(reference.correct) << reference.check_message;
    EXPECT_EQ(reference.ms.count, 5u);
}

// ---- device: the whole harness ------------------------------------------------------------

TEST(ScanHarness, AcceptsTheReferenceAnswerAndEveryVariantOnEveryCase) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"scan", "--impl", "all", "--check", "--seed", seed.c_str()};
    Json results;
    EXPECT_EQ(run_exercise(scan::exercise().erase(), 6, const_cast<char**>(argv), results), kExitOk);
    for (const auto& impl : results.at("check_summary").items())
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
}

// ---- device: the memory estimates ------------------------------------------------------------------

// At 2^26 (a power of two: Blelloch's workspace is 4n) the 16 bytes per element on the device
// (1 GiB) and the 8 on the host dwarf every constant. One timed run per implementation.
TEST(ScanMemory, EstimatesBoundThePeaksOfTheBenchmarkAt2To26) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_memory_estimates(scan::exercise().erase(), std::size_t{1} << 26);
}

// ---- the README's hints: each is what the check prints for its mistake ------------------------

namespace {

struct HintedMistake {
    std::string symptom;  // quoted by a bullet of the README's "## Hints"
    scan::ScanFn wrong;  // makes the mistake the bullet names
    std::size_t largest_n;  // the cases it runs on, up to this n
};

constexpr std::size_t kHintCasesUpTo = std::size_t{1} << 16;

// One wrong implementation per hint of the README (tests/wrong_scan.h).
const std::vector<HintedMistake>& hinted_mistakes() {
    static const std::vector<HintedMistake> table = {
        {"every element is off by the same amount: ... which is the total of the input",
         blelloch_impl(wrong::blelloch_keeps_the_root), kHintCasesUpTo},
        {"fails only at sizes that are not powers of two (...)",
         blelloch_impl(wrong::blelloch_tree_over_n_rounded_down), kHintCasesUpTo},
        // Up to 257: the tree then reaches at most 255 ints (1020 bytes, at n = 257) past n,
        // inside the workspace's 1024-byte guard zone; at 1025 it would reach 1023 ints (4092
        // bytes) past n, beyond the zone, and cudaMemset refuses a range past the allocation.
        {"wrote ... past the end of the workspace",
         {wrong::undersized_workspace_bytes, wrong::blelloch_in_an_undersized_workspace},
         257},
        {"the last ... elements, from index ... still hold the poison",
         blelloch_impl(wrong::blelloch_copies_back_n_bytes), kHintCasesUpTo},
        {"shifted one place: at every wrong element, actual[i] = expected[i + 1]",
         wrong_impl(wrong::inclusive_instead_of_exclusive), kHintCasesUpTo},
        {"wrote 1 element past the end of out", wrong_impl(wrong::stores_the_total_past_the_end), kHintCasesUpTo},
        {"wrote ... before the start of the workspace", wrong_impl(wrong::up_sweep_writes_before_the_workspace),
         kHintCasesUpTo},
    };
    return table;
}

// What the harness's check prints for `impl` over the case list, up to `largest_n`.
std::string check_output_of(const scan::ScanFn& impl, std::size_t largest_n) {
    return pmpp::testing::check_output_as_student(scan::exercise(), impl, largest_n);
}

}  // namespace

TEST(ReadmeHints, EachHintIsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    pmpp::testing::expect_each_symptom_shown(
        hinted_mistakes(), [](const HintedMistake& m) { return check_output_of(m.wrong, m.largest_n); });
}

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hinted_mistakes());
}

TEST(ReadmeHints, AWrongOutputThatFitsNoPatternGetsNoGuessedHint) {
    PMPP_REQUIRE_GPU();
    // Every output 0 (the down-sweep loses the left sums): wrong from index 1 on, by amounts
    // that differ, shifted nowhere, from no boundary. The check shows the values, and no hint.
    for (bool in_place : {false, true}) {
        const CheckResult r =
            check_case(blelloch_impl(wrong::blelloch_down_sweep_overwrites_the_left_first),
                       make_case(4097, scan_inputs::kFullRange, in_place), pmpp::testing::test_seed(in_place));
        ASSERT_FALSE(r.ok) << (in_place ? "in place" : "out of place");
        EXPECT_EQ(r.first.at(0).index, 1u) << r.report();
        EXPECT_EQ(r.hint, "") << r.report();
    }
}

// The README says that zeroing the padding is not needed: held here. The check poisons the
// workspace (0xFF, -1 in every int of the padding) and still every case passes.
TEST(ReadmeHints, AScanThatLeavesThePaddingUnzeroedPassesEveryCase) {
    PMPP_REQUIRE_GPU();
    const scan::ScanFn unzeroed = blelloch_impl(looks_wrong::blelloch_leaves_the_padding_unzeroed);
    EXPECT_EQ(check_output_of(unzeroed, (std::size_t{1} << 20) + 7), "");
}
