// test_main.cpp: the main() of every test binary. Prints the suite seed first and, last, one
// machine-readable line that common/run_tests.sh adds up:
//   PMPP_TEST_COUNTS passed=P failed=F skipped=S
#include "common/testing.h"

#include "common/cli.h"  // kLargestSeed

#include <cstdio>
#include <cstdlib>
#include <functional>

namespace pmpp::testing {

std::uint64_t suite_seed() {
    static const std::uint64_t seed = [] {
        const char* env = std::getenv("PMPP_TEST_SEED");
        if (env != nullptr && *env != '\0') return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 0));
        return fresh_seed();
    }();
    return seed;
}

std::uint64_t test_seed(std::uint64_t stream) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
    const std::uint64_t h = std::hash<std::string>{}(name);  // only needs to be stable within a build
    // Accepted by the harness's --seed (at most kLargestSeed): tests pass these on command lines.
    return derive_seed(derive_seed(suite_seed(), h), stream) & (kLargestSeed - 1);
}

const GpuProbe& gpu() {
    static const GpuProbe probe = probe_gpu();
    return probe;
}

}  // namespace pmpp::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::printf("test seed %llu (replay with PMPP_TEST_SEED=%llu)\n",
                static_cast<unsigned long long>(pmpp::testing::suite_seed()),
                static_cast<unsigned long long>(pmpp::testing::suite_seed()));
    const int rc = RUN_ALL_TESTS();
    const auto* unit = ::testing::UnitTest::GetInstance();
    std::printf("PMPP_TEST_COUNTS passed=%d failed=%d skipped=%d\n", unit->successful_test_count(),
                unit->failed_test_count(), unit->skipped_test_count());
    std::fflush(stdout);
    return rc;
}
