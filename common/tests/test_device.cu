// CUDA error reporting, device detection, device buffers and timing. Tests that need a GPU
// skip without one and say why.
#include "common/cuda_check.h"
#include "common/device.h"
#include "common/device_buffer.h"
#include "common/testing.h"
#include "common/timing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace pmpp;

TEST(CudaCheck, AFailingCallThrowsNamingTheCallFileAndLine) {
    // Fails with or without a GPU: there is no device -1.
    int line = 0;
    try {
        line = __LINE__ + 1;  // the next line
        PMPP_CUDA_CHECK(cudaSetDevice(-1));
        FAIL() << "no exception";
    } catch (const CudaError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("cudaSetDevice(-1)"), std::string::npos) << what;
        EXPECT_NE(what.find("test_device.cu:"), std::string::npos) << what;
        EXPECT_NE(what.find("test_device.cu:" + std::to_string(line) + ":"), std::string::npos) << what;
        EXPECT_NE(e.code(), cudaSuccess);
    }
    cudaGetLastError();
}

TEST(CudaCheck, DescribesErrorsByNameAndMeaning) {
    const std::string s = describe_cuda_error(cudaErrorInvalidValue, "cudaMemcpy(a, b, n, k)", "x.cu", 12);
    EXPECT_EQ(s.find("CUDA error in cudaMemcpy(a, b, n, k) at x.cu:12: cudaErrorInvalidValue"), 0u) << s;
}

TEST(Device, ProbeNeverThrowsAndExplainsAbsence) {
    const GpuProbe p = probe_gpu();
    if (p.available) {
        EXPECT_GT(p.device_count, 0);
    } else {
        EXPECT_FALSE(p.reason.empty());
    }
}

TEST(Device, SummaryNamesTheGpuAndItsLimits) {
    PMPP_REQUIRE_GPU();
    const DeviceSummary d = describe_device(0);
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.compute_major * 10 + d.compute_minor, 75);
    EXPECT_GT(d.sm_count, 0);
    EXPECT_GT(d.global_memory_bytes, 1u << 30);
    EXPECT_GT(d.l2_bytes, 0u);
    EXPECT_GT(d.sm_clock_mhz, 0);
    EXPECT_GT(d.driver_version, 0);
    EXPECT_NE(d.one_line().find(d.name), std::string::npos);
}

TEST(DeviceBuffer, PoisonFillsEveryByteAndRoundTripsThroughTheHost) {
    PMPP_REQUIRE_GPU();
    DeviceBuffer<float> buf(1000);
    buf.poison();
    for (float v : buf.to_host()) ASSERT_TRUE(std::isnan(v));
    std::vector<float> host(1000);
    for (int i = 0; i < 1000; ++i) host[i] = static_cast<float>(i) * 0.5f;
    buf.upload(host);
    EXPECT_EQ(buf.to_host(), host);
    DeviceBuffer<int> empty(0);
    EXPECT_NE(empty.data(), nullptr);
    EXPECT_EQ(empty.to_host().size(), 0u);
}

namespace {
__global__ void spin(unsigned long long cycles) {
    const long long start = clock64();
    while (clock64() - start < static_cast<long long>(cycles)) {}
}
__global__ void write_illegal(int* p) { p[threadIdx.x] = 1; }
}  // namespace

TEST(Timing, RunsWarmupsThenRepeatsAndPreparesBeforeEachUntimed) {
    PMPP_REQUIRE_GPU();
    L2Flusher flusher;
    TimingOptions opt;
    opt.warmup = 3;
    opt.repeats = 7;
    int runs = 0, prepares = 0;
    const Stats s = time_device(
        opt, &flusher,
        [&] {
            ++runs;
            spin<<<1, 1>>>(100000);
            PMPP_CHECK_LAUNCH();
        },
        [&] { ++prepares; });
    EXPECT_EQ(runs, 10);
    EXPECT_EQ(prepares, 10);
    EXPECT_EQ(s.count, 7u);
    EXPECT_GT(s.median, 0.0);
    EXPECT_LE(s.min, s.median);
    EXPECT_LE(s.median, s.max);
}

TEST(Timing, MeasuresLongerWorkAsLonger) {
    PMPP_REQUIRE_GPU();
    TimingOptions opt;
    opt.repeats = 5;
    const Stats short_run = time_device(opt, nullptr, [] { spin<<<1, 1>>>(200000); });
    const Stats long_run = time_device(opt, nullptr, [] { spin<<<1, 1>>>(2000000); });
    EXPECT_GT(long_run.median, 5 * short_run.median);
}

TEST(Timing, FlushBufferIsAtLeastTwiceTheL2) {
    PMPP_REQUIRE_GPU();
    L2Flusher flusher;
    EXPECT_GE(flusher.bytes(), 2 * describe_device(0).l2_bytes);
    flusher.flush();
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST(Timing, CopyBandwidthIsPlausible) {
    PMPP_REQUIRE_GPU();
    L2Flusher flusher;
    TimingOptions opt;
    opt.repeats = 5;
    const CopyBandwidth bw = measure_copy_bandwidth(std::size_t{256} << 20, opt, &flusher);
    const DeviceSummary d = describe_device(0);
    EXPECT_GT(bw.gbs, 50.0);
    // Never above the memory's theoretical rate (with a margin for clock reporting).
    if (d.theoretical_bandwidth_gbs > 0) EXPECT_LT(bw.gbs, 1.15 * d.theoretical_bandwidth_gbs);
}

TEST(Timing, AKernelFaultSurfacesAsACudaErrorNotASilentNumber) {
    PMPP_REQUIRE_GPU();
    // Run in a child process: an illegal address poisons the whole CUDA context. "threadsafe"
    // re-executes the test binary, so the child starts its own CUDA context (a forked one cannot).
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            TimingOptions opt;
            opt.repeats = 1;
            opt.warmup = 0;
            try {
                time_device(opt, nullptr, [] { write_illegal<<<1, 32>>>(reinterpret_cast<int*>(16)); });
            } catch (const CudaError& e) {
                std::fprintf(stderr, "%s\n", e.what());
                std::exit(3);
            }
            std::exit(0);
        },
        ::testing::ExitedWithCode(3), "cudaErrorIllegalAddress|an illegal memory access");
}
