// The defences of every benchmark against code that would rather not be measured: guard zones
// around outputs, a check after every timed run, and timing that waits for the whole device.
// Each test makes the mistake or the trick on purpose and shows it caught.
#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/testing.h"
#include "common/timing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace pmpp;

namespace {

// out[i] = i + 1 for i in [first, last): the index range is the test's knob.
__global__ void fill_range(int* out, long first, long last) {
    const long i = first + static_cast<long>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < last) out[i] = static_cast<int>(i + 1);
}

void fill(int* out, long first, long last) {
    if (last > first) fill_range<<<static_cast<unsigned>((last - first + 255) / 256), 256>>>(out, first, last);
    PMPP_CHECK_LAUNCH();
}

__global__ void spin(unsigned long long cycles) {
    const long long start = clock64();
    while (clock64() - start < static_cast<long long>(cycles)) {}
}

std::vector<int> one_to(std::size_t n) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>(i + 1);
    return v;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(GuardBytes, AreAtLeast256AndAWholeBlockOfElementsAndKeepAlignment) {
    EXPECT_EQ(guard_bytes<char>(), 1024u);
    EXPECT_EQ(guard_bytes<int>(), 4096u);
    EXPECT_EQ(guard_bytes<double>(), 8192u);
    struct Rgb {
        float r, g, b;
    };
    EXPECT_EQ(guard_bytes<Rgb>() % 256, 0u);
    EXPECT_GE(guard_bytes<Rgb>(), 1024 * sizeof(Rgb));
}

TEST(GuardedBuffer, AnHonestWritePassesAndDataIsAlignedTo256Bytes) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> out(1000, "out");
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(out.data()) % 256, 0u);
    out.poison();
    fill(out.data(), 0, 1000);
    EXPECT_TRUE(out.check_guards().ok);
    EXPECT_EQ(out.to_host(), one_to(1000));
}

TEST(GuardedBuffer, OneElementPastTheEndIsReportedWithItsSideAndDistance) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> z(1000, "z");
    z.poison();
    fill(z.data(), 0, 1001);  // the classic i <= n
    const CheckResult r = z.check_guards();
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of z (index 1000; it has 1000 elements)"))
        << r.message;
}

TEST(GuardedBuffer, AWholeBlockPastTheEndAndWritesBeforeTheStartAreReported) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> out(1000, "out");
    out.poison();
    fill(out.data(), -3, 1000 + 1024);
    const CheckResult r = out.check_guards();
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "wrote 1024 elements past the end of out (index 1000 to 2023")) << r.message;
    EXPECT_TRUE(contains(r.message, "3 elements before the start of out (index -3 to -1)")) << r.message;
}

TEST(GuardedBuffer, PoisonRearmsTheGuardsSoEachRunIsJudgedAlone) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> out(10, "out");
    out.poison();
    fill(out.data(), 0, 11);
    EXPECT_FALSE(out.check_guards().ok);
    out.poison();
    EXPECT_TRUE(out.check_guards().ok);
    for (int v : out.to_host()) EXPECT_EQ(v, -1);
}

TEST(GuardedBuffer, AnEmptyBufferStillHasGuards) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> out(0, "out");
    out.poison();
    fill(out.data(), 0, 1);
    const CheckResult r = out.check_guards();
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "1 element past the end of out (index 0; it has 0 elements)")) << r.message;
}

TEST(DeviceCompare, FindsTheDifferencesAndReportsThemLikeTheHostCompare) {
    PMPP_REQUIRE_GPU();
    const std::size_t n = 100000;
    DeviceBuffer<int> expected, actual;
    std::vector<int> e = one_to(n), a = e;
    a[77777] = 5;
    a[99999] = -1;
    expected.upload(e);
    actual.upload(a);
    EXPECT_EQ(count_differences_on_device(expected.data(), actual.data(), n), 2u);
    const CheckResult r = compare_exact_on_device(expected.data(), actual.data(), n);
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.mismatches, 2u);
    ASSERT_FALSE(r.first.empty());
    EXPECT_EQ(r.first[0].index, 77777u);
    EXPECT_TRUE(compare_exact_on_device(expected.data(), expected.data(), n).ok);
    EXPECT_TRUE(compare_exact_on_device(expected.data(), actual.data(), 0).ok);
}

TEST(DeviceCompare, FloatsFollowTheHostToleranceRuleAndNaNNeverPasses) {
    PMPP_REQUIRE_GPU();
    const std::vector<float> e = {1.0f, 2.0f, 3.0f, NAN, INFINITY};
    DeviceBuffer<float> expected, close, far, nan;
    expected.upload(e);
    close.upload(std::vector<float>{1.0f + 1e-7f, 2.0f, 3.0f - 1e-7f, NAN, INFINITY});
    far.upload(std::vector<float>{1.0f, 2.001f, 3.0f, NAN, INFINITY});
    nan.upload(std::vector<float>{1.0f, NAN, 3.0f, NAN, INFINITY});
    const Tolerance tol{1e-6, 1e-6};
    EXPECT_TRUE(compare_close_on_device(expected.data(), close.data(), e.size(), tol).ok);
    EXPECT_FALSE(compare_close_on_device(expected.data(), far.data(), e.size(), tol).ok);
    EXPECT_FALSE(compare_close_on_device(expected.data(), nan.data(), e.size(), tol).ok);
}

TEST(VerifyOutput, ChecksTheGuardsBeforeTheValues) {
    PMPP_REQUIRE_GPU();
    DeviceBuffer<int> expected;
    expected.upload(one_to(300));
    GuardedBuffer<int> out(300, "out");
    out.poison();
    fill(out.data(), 0, 301);
    const CheckResult r = verify_output(expected.data(), out);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.message, "past the end of out")) << r.message;
    out.poison();
    fill(out.data(), 0, 299);  // a skipped tail
    const CheckResult tail = verify_output(expected.data(), out);
    ASSERT_FALSE(tail.ok);
    EXPECT_EQ(tail.mismatches, 1u);
}

TEST(TimeChecked, PoisonsAndVerifiesEveryWarmupAndTimedRun) {
    PMPP_REQUIRE_GPU();
    const std::size_t n = 4096;
    DeviceBuffer<int> expected;
    expected.upload(one_to(n));
    GuardedBuffer<int> out(n, "out");
    int prepares = 0, runs = 0;
    TimingOptions opt;
    opt.warmup = 2;
    opt.repeats = 9;
    const TimedResult t = time_checked(opt, nullptr,
                                       {[&] { ++prepares, out.poison(); }, [&] { ++runs, fill(out.data(), 0, n); },
                                        [&] { return verify_output(expected.data(), out); }});
    EXPECT_TRUE(t.check.ok) << t.check.report();
    EXPECT_EQ(prepares, 11);
    EXPECT_EQ(runs, 11);
    EXPECT_EQ(t.runs_checked, 11);
    EXPECT_EQ(t.ms.count, 9u);
}

// The hole issue 15 found: right on the first and the last call, nothing in between. The
// poison before each run and the check after each run make the second timed run wrong.
TEST(TimeChecked, ACallThatComputesOnlyOnItsFirstCallIsWrongOnItsSecond) {
    PMPP_REQUIRE_GPU();
    const std::size_t n = 4096;
    DeviceBuffer<int> expected;
    expected.upload(one_to(n));
    GuardedBuffer<int> out(n, "out");
    int calls = 0;
    TimingOptions opt;
    opt.warmup = 1;
    opt.repeats = 20;
    const TimedResult t = time_checked(opt, nullptr,
                                       {[&] { out.poison(); },
                                        [&] {
                                            if (calls++ == 0) fill(out.data(), 0, n);
                                        },
                                        [&] { return verify_output(expected.data(), out); }});
    ASSERT_FALSE(t.check.ok);
    EXPECT_TRUE(contains(t.check.message, "timed run 1 of 20")) << t.check.message;
    EXPECT_TRUE(contains(t.check.report(), "never written")) << t.check.report();
}

TEST(TimeChecked, AWrongWarmupIsNamed) {
    PMPP_REQUIRE_GPU();
    GuardedBuffer<int> out(100, "out");
    DeviceBuffer<int> expected;
    expected.upload(one_to(100));
    TimingOptions opt;
    opt.warmup = 2;
    const TimedResult t = time_checked(opt, nullptr,
                                       {[&] { out.poison(); }, [&] { fill(out.data(), 0, 101); },
                                        [&] { return verify_output(expected.data(), out); }});
    ASSERT_FALSE(t.check.ok);
    EXPECT_TRUE(contains(t.check.message, "warm-up run 1 of 2: wrote 1 element past the end of out"))
        << t.check.message;
}

// The other hole: the call launched its work on a non-blocking stream of its own and returned.
// The events on the default stream do not wait for it; the run is timed until the device is idle.
TEST(TimeChecked, WorkLeftRunningOnAnotherStreamIsTimed) {
    PMPP_REQUIRE_GPU();
    cudaStream_t side;
    PMPP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    TimingOptions opt;
    opt.warmup = 1;
    opt.repeats = 5;
    const unsigned long long cycles = 20000000;  // about 10 ms at 2 GHz
    const TimedResult honest = time_checked(opt, nullptr, {{}, [&] { spin<<<1, 1>>>(cycles); }, {}});
    const TimedResult hidden = time_checked(opt, nullptr, {{}, [&] { spin<<<1, 1, 0, side>>>(cycles); }, {}});
    PMPP_CUDA_CHECK(cudaStreamDestroy(side));
    EXPECT_EQ(honest.late_runs, 0);
    EXPECT_TRUE(honest.note.empty()) << honest.note;
    EXPECT_EQ(hidden.late_runs, 5);
    EXPECT_FALSE(hidden.note.empty());
    EXPECT_GT(hidden.ms.median, 0.9 * honest.ms.median)
        << "hidden " << hidden.ms.median << " ms, honest " << honest.ms.median << " ms";
}

TEST(TimeHost, WaitsForGpuWorkTheFunctionLeftRunning) {
    PMPP_REQUIRE_GPU();
    TimingOptions opt;
    opt.warmup = 0;
    opt.repeats = 3;
    const Stats s = time_host(opt, [] { spin<<<1, 1>>>(20000000); });
    const Stats k = time_device(opt, nullptr, [] { spin<<<1, 1>>>(20000000); });
    EXPECT_GT(s.median, 0.9 * k.median);
}
