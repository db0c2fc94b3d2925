// Device limits and profiles: a profile only lowers limits, the published ones are what the
// shape choices see, and a shared-memory opt-in beyond the limit is refused before the runtime
// is asked (so an H200 under the t4 profile fails exactly where a T4 would).
#include "common/device_buffer.h"
#include "common/device_limits.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

using namespace pmpp;

namespace {

const DeviceProfile& profile(const std::string& name) {
    for (const DeviceProfile& p : device_profiles())
        if (name == p.name) return p;
    throw std::logic_error("no profile " + name);
}

DeviceLimits an_h200() {
    DeviceLimits l;
    l.compute_capability = 90;
    l.sm_count = 132;
    l.shared_per_block = 48 * 1024;
    l.shared_per_block_optin = 227 * 1024;
    l.shared_per_sm = 228 * 1024;
    l.max_threads_per_sm = 2048;
    l.max_blocks_per_sm = 32;
    l.registers_per_sm = 65536;
    l.memory_bytes = std::size_t{143} << 30;
    l.l2_bytes = std::size_t{60} << 20;
    return l;
}

// Restores PMPP_DEVICE_PROFILE at the end of a test that changes it.
struct ProfileVariable {
    std::string saved;
    bool was_set;
    ProfileVariable() {
        const char* v = std::getenv("PMPP_DEVICE_PROFILE");
        was_set = v != nullptr;
        if (v) saved = v;
    }
    ~ProfileVariable() {
        if (was_set)
            setenv("PMPP_DEVICE_PROFILE", saved.c_str(), 1);
        else
            unsetenv("PMPP_DEVICE_PROFILE");
    }
};

__global__ void uses_dynamic_shared(int* out) {
    extern __shared__ int words[];
    words[threadIdx.x] = static_cast<int>(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) *out = words[blockDim.x - 1];
}

}  // namespace

TEST(DeviceProfiles, TheT4ProfileHasTheT4sPublishedLimits) {
    const DeviceLimits& t4 = profile("t4").limits;
    EXPECT_EQ(t4.compute_capability, 75);
    EXPECT_EQ(t4.sm_count, 40);
    EXPECT_EQ(t4.shared_per_block_optin, 65536u);
    EXPECT_EQ(t4.shared_per_sm, 65536u);
    EXPECT_EQ(t4.max_threads_per_sm, 1024);
    EXPECT_EQ(t4.l2_bytes, 4u << 20);
    EXPECT_LT(t4.memory_bytes, std::size_t{16} << 30);
    EXPECT_GT(t4.host_memory_bytes, 0u) << "Colab's VM limits host memory too";
}

TEST(DeviceProfiles, EveryProfileIsASupportedGpuWithA48KiBDefaultAndAtLeast64KiBOptIn) {
    ASSERT_GE(device_profiles().size(), 4u);
    for (const DeviceProfile& p : device_profiles()) {
        EXPECT_GE(p.limits.compute_capability, 75) << p.name;
        EXPECT_EQ(p.limits.shared_per_block, 48u * 1024) << p.name;
        EXPECT_GE(p.limits.shared_per_block_optin, 64u * 1024) << p.name;
        EXPECT_GE(p.limits.shared_per_sm, p.limits.shared_per_block_optin) << p.name;
        EXPECT_GT(p.limits.sm_count, 0) << p.name;
        EXPECT_GT(p.limits.memory_bytes, std::size_t{4} << 30) << p.name;
    }
}

TEST(DeviceProfiles, AProfileLowersALargeGpusLimitsToItsOwn) {
    const DeviceLimits l = lower_limits(an_h200(), profile("t4"));
    EXPECT_TRUE(l.lowered());
    EXPECT_EQ(l.profile, "t4");
    EXPECT_EQ(l.compute_capability, 75);
    EXPECT_EQ(l.sm_count, 40);
    EXPECT_EQ(l.shared_per_block_optin, 65536u);
    EXPECT_EQ(l.shared_per_sm, 65536u);
    EXPECT_EQ(l.max_threads_per_sm, 1024);
    EXPECT_EQ(l.memory_bytes, profile("t4").limits.memory_bytes);
    EXPECT_EQ(l.host_memory_bytes, profile("t4").limits.host_memory_bytes);
}

TEST(DeviceProfiles, AProfileNeverRaisesASmallGpusLimits) {
    const DeviceLimits t4 = profile("t4").limits;
    const DeviceLimits l = lower_limits(t4, profile("a100"));
    EXPECT_EQ(l.compute_capability, 75);
    EXPECT_EQ(l.sm_count, 40);
    EXPECT_EQ(l.shared_per_block_optin, 65536u);
    EXPECT_EQ(l.max_threads_per_sm, 1024);
    EXPECT_EQ(l.memory_bytes, t4.memory_bytes);
    EXPECT_EQ(l.l2_bytes, t4.l2_bytes);
}

TEST(DeviceProfiles, TheProfileLineNamesTheProfileAndItsLimits) {
    const std::string line = lower_limits(an_h200(), profile("t4")).one_line();
    EXPECT_NE(line.find("profile t4 (Tesla T4"), std::string::npos) << line;
    EXPECT_NE(line.find("40 SMs"), std::string::npos) << line;
    EXPECT_NE(line.find("64 KiB per block"), std::string::npos) << line;
}

TEST(DeviceProfiles, AnUnknownNameIsRefusedNamingTheKnownOnes) {
    ProfileVariable restore;
    setenv("PMPP_DEVICE_PROFILE", "v100", 1);
    try {
        requested_profile();
        FAIL() << "v100 accepted";
    } catch (const DeviceProfileError& e) {
        const std::string what = e.what();
        for (const char* name : {"t4", "rtx3060", "l4", "a100"}) EXPECT_NE(what.find(name), std::string::npos) << what;
    }
    setenv("PMPP_DEVICE_PROFILE", "", 1);
    EXPECT_EQ(requested_profile(), nullptr);
    setenv("PMPP_DEVICE_PROFILE", "l4", 1);
    ASSERT_NE(requested_profile(), nullptr);
    EXPECT_STREQ(requested_profile()->name, "l4");
}

TEST(DeviceLimits, AreTheGpusOwnOrLowerAndNameTheProfileWhenOneIsSet) {
    PMPP_REQUIRE_GPU();
    const DeviceLimits& l = device_limits();
    const DeviceSummary d = describe_device(0);
    EXPECT_LE(l.sm_count, d.sm_count);
    EXPECT_LE(l.shared_per_block_optin, d.shared_memory_per_block_optin);
    EXPECT_GE(l.shared_per_block_optin, 64u * 1024);
    EXPECT_LE(l.memory_bytes, d.global_memory_bytes);
    EXPECT_EQ(l.lowered(), requested_profile() != nullptr);
    std::size_t free_bytes = 0, total_bytes = 0;
    usable_device_memory(free_bytes, total_bytes);
    EXPECT_LE(total_bytes, d.global_memory_bytes);
    EXPECT_LE(free_bytes, total_bytes);
    EXPECT_GT(free_bytes, 0u);
}

TEST(DeviceLimits, AnOptInBeyondTheLimitIsRefusedNamingTheKernelAndBothSizes) {
    PMPP_REQUIRE_GPU();
    const std::size_t too_much = device_limits().shared_per_block_optin + 1024;
    try {
        allow_dynamic_shared_memory(uses_dynamic_shared, too_much, "the test kernel");
        FAIL() << "an opt-in of " << too_much << " bytes was allowed";
    } catch (const std::length_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("the test kernel"), std::string::npos) << what;
        EXPECT_NE(what.find(std::to_string(too_much)), std::string::npos) << what;
        EXPECT_NE(what.find(std::to_string(device_limits().shared_per_block_optin)), std::string::npos) << what;
    }
    EXPECT_FALSE(shared_memory_fits(too_much));
}

TEST(DeviceLimits, AnOptInUpToTheLimitIsAllowedAndTheKernelRunsWithIt) {
    PMPP_REQUIRE_GPU();
    const std::size_t bytes = device_limits().shared_per_block_optin;
    ASSERT_TRUE(shared_memory_fits(bytes));
    allow_dynamic_shared_memory(uses_dynamic_shared, bytes, "the test kernel");
    DeviceBuffer<int> out(1);
    uses_dynamic_shared<<<1, 256, bytes>>>(out.data());
    PMPP_CHECK_LAUNCH();
    EXPECT_EQ(out.to_host()[0], 255);
}

TEST(DeviceLimits, TwoBlocksPerSmMustFitTheSmsSharedMemoryToo) {
    PMPP_REQUIRE_GPU();
    const std::size_t per_sm = device_limits().shared_per_sm;
    EXPECT_TRUE(shared_memory_fits(per_sm / 4, 2));
    EXPECT_FALSE(shared_memory_fits(per_sm / 2 + 4096, 2));
}

TEST(DeviceLimits, ResidentBlocksNeverExceedWhatTheSmsThreadsAllow) {
    PMPP_REQUIRE_GPU();
    const int blocks = resident_blocks_per_sm(uses_dynamic_shared, 256, 1024);
    EXPECT_GE(blocks, 1);
    EXPECT_LE(blocks * 256, device_limits().max_threads_per_sm);
}

TEST(DeviceLimits, AvailableHostMemoryIsKnownOnLinuxAndWithinTheProfile) {
    PMPP_REQUIRE_GPU();
    const std::size_t available = available_host_memory();
    EXPECT_GT(available, 0u);
    if (device_limits().host_memory_bytes) EXPECT_LE(available, device_limits().host_memory_bytes);
}

TEST(ReportedShapes, AKernelsChoiceIsKeptOnceInTheOrderReported) {
    report_shape("test kernel A", "tiles of 8");
    report_shape("test kernel B", "tiles of 4");
    report_shape("test kernel A", "tiles of 2");
    int a = 0;
    for (const auto& s : reported_shapes()) {
        if (s.first == "test kernel A") {
            ++a;
            EXPECT_EQ(s.second, "tiles of 8");
        }
    }
    EXPECT_EQ(a, 1);
}

TEST(ReportedShapes, AShapeChoiceReportsTheShippedShapeOrTheFallbackAndWhy) {
    PMPP_REQUIRE_GPU();
    const std::size_t per_sm = device_limits().shared_per_sm;
    EXPECT_TRUE(shipped_shape_fits("test kernel that fits", per_sm / 4, 2, "the big tiles", "the small tiles"));
    EXPECT_FALSE(
        shipped_shape_fits("test kernel that does not fit", per_sm / 2 + 4096, 2, "the big tiles", "the small tiles"));
    std::string fits, does_not;
    for (const auto& s : reported_shapes()) {
        if (s.first == "test kernel that fits") fits = s.second;
        if (s.first == "test kernel that does not fit") does_not = s.second;
    }
    EXPECT_EQ(fits, "the big tiles");
    EXPECT_EQ(does_not, "the small tiles (2 blocks of the shipped shape, " + std::to_string(per_sm / 2 + 4096) +
                            " bytes of shared memory each, do not fit an SM)");
}
