// The harness contract, proven on a small fake exercise: exit codes, the results file, wrong
// answers caught by the check and again on timed runs, failed implementations left untimed.
#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/exercise.h"
#include "common/report.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace pmpp;

namespace {

__global__ void add_one(const int* in, int* out, std::size_t n, std::size_t skip) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && i != skip) out[i] = in[i] + 1;
}

// "good" adds one to every element; "student" forgets the last one.
void launch(const Impl& impl, const int* in, int* out, std::size_t n) {
    const std::size_t skip = impl.name == "student" ? n - 1 : static_cast<std::size_t>(-1);
    if (n) add_one<<<static_cast<unsigned>((n + 255) / 256), 256>>>(in, out, n, skip);
    PMPP_CHECK_LAUNCH();
}

CheckResult run_case(const Impl& impl, std::size_t n, std::uint64_t seed) {
    auto input = generate<int>(n, Distribution::Uniform, seed);
    std::vector<int> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<int>(static_cast<unsigned>(input[i]) + 1u);
    DeviceBuffer<int> in, out(n);
    in.upload(input);
    out.poison();
    launch(impl, in.data(), out.data(), n);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    return compare_exact(expected, out.to_host());
}

ExerciseDef fake_exercise() {
    ExerciseDef def;
    def.id = "00_fake";
    def.title = "add one";
    def.impls = {{"student", ImplKind::Student, "forgets the last element"},
                 {"good", ImplKind::Reference, "right"},
                 {"lib", ImplKind::Library, "right, the baseline"},
                 {"cpu", ImplKind::Cpu, "the definition"}};
    def.baseline = "lib";
    def.max_size = std::size_t{1} << 24;
    def.bench_sizes = {1u << 16};
    def.cases = [](const Options&) { return make_cases({1, 2, 1000}, {Distribution::Uniform}, {}); };
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return run_case(impl, c.n, seed);
    };
    def.bench = [](const Impl& impl, std::size_t n, BenchContext& ctx) {
        Measurement m;
        m.bytes = 8.0 * n;
        m.items = static_cast<double>(n);
        if (impl.kind == ImplKind::Cpu) {
            m.ms = time_host(ctx.timing, [] {});
            return std::vector<Measurement>{m};
        }
        DeviceBuffer<int> in(n), out(n);
        PMPP_CUDA_CHECK(cudaMemset(in.data(), 1, n * sizeof(int)));
        m.ms = time_device(ctx.timing, &ctx.flusher, [&] { launch(impl, in.data(), out.data(), n); });
        const CheckResult r = run_case(impl, n, ctx.seed);
        m.correct = r.ok;
        m.check_message = r.message;
        return std::vector<Measurement>{m};
    };
    def.device_bytes = [](std::size_t n, const Options&) { return 8.0 * n; };
    return def;
}

int run(std::vector<std::string> args, Json& results) {
    std::vector<char*> argv = {const_cast<char*>("fake")};
    for (auto& a : args) argv.push_back(a.data());
    return run_exercise(fake_exercise(), static_cast<int>(argv.size()), argv.data(), results);
}

}  // namespace

TEST(Harness, WithoutAGpuExitsWith3AndSaysSoInTheResults) {
    if (pmpp::testing::gpu().available) {
        // On a GPU machine the same call must get past the probe instead.
        Json results;
        EXPECT_EQ(run({"--impl", "good", "--check", "--seed", "1"}, results), kExitOk);
        EXPECT_EQ(results.at("status").as_string(), "ok");
        return;
    }
    Json results;
    EXPECT_EQ(run({"--impl", "good", "--check"}, results), kExitCudaOrNoGpu);
    EXPECT_EQ(results.at("status").as_string(), "no_gpu");
    EXPECT_NE(results.at("error").as_string().find("no usable GPU"), std::string::npos);
}

TEST(Harness, WithNeitherCheckNorBenchRunsTheCheckAndThenTheBenchmark) {
    PMPP_REQUIRE_GPU();
    Json results;  // what `make run` does: no --check, no --bench
    EXPECT_EQ(run({"--impl", "good", "--seed", "3", "--repeats", "2"}, results), kExitOk);
    EXPECT_GT(results.at("checks").size(), 0u);
    ASSERT_TRUE(results.contains("bench")) << "the benchmark did not run: " << results.dump(0);
    EXPECT_GT(results.at("bench").size(), 0u);
}

TEST(Harness, AWrongStudentFailsTheCheckWithExitCode1AndIsNotTimed) {
    PMPP_REQUIRE_GPU();
    Json results;
    const int code = run({"--impl", "all", "--check", "--bench", "--seed", "5", "--repeats", "3"}, results);
    EXPECT_EQ(code, kExitWrongResult);
    EXPECT_EQ(results.at("status").as_string(), "wrong");
    EXPECT_EQ(results.at("seed").as_number(), 5);
    const Json& summary = results.at("check_summary");
    EXPECT_EQ(summary.at("student").at("failed").as_number(), 3);  // n = 1, 2, 1000 all lose their last element
    EXPECT_EQ(summary.at("good").at("failed").as_number(), 0);
    EXPECT_FALSE(summary.contains("cpu"));
    bool student_timed = false, good_timed = false, cpu_timed = false;
    for (const auto& row : results.at("bench").elements()) {
        student_timed |= row.at("impl").as_string() == "student";
        good_timed |= row.at("impl").as_string() == "good";
        cpu_timed |= row.at("impl").as_string() == "cpu";
        EXPECT_TRUE(row.at("correct").as_bool());
        EXPECT_GT(row.at("median_ms").as_number(), 0);
    }
    EXPECT_FALSE(student_timed);
    EXPECT_TRUE(good_timed);
    EXPECT_TRUE(cpu_timed);
    EXPECT_GT(results.at("copy_bandwidth").at("gbs").as_number(), 0);
    EXPECT_EQ(results.at("summary").at("student_check").as_string(), "fail");
}

TEST(Harness, AWrongOutputOnATimedRunIsCaughtEvenWithoutCheck) {
    PMPP_REQUIRE_GPU();
    Json results;
    EXPECT_EQ(run({"--impl", "student", "--bench", "--repeats", "2"}, results), kExitWrongResult);
    bool found = false;
    for (const auto& row : results.at("bench").elements())
        if (row.at("impl").as_string() == "student") {
            found = true;
            EXPECT_FALSE(row.at("correct").as_bool());
        }
    EXPECT_TRUE(found);
}

TEST(Harness, MeasuresTheBaselineForTheRatioEvenWhenNotAskedFor) {
    PMPP_REQUIRE_GPU();
    Json results;
    EXPECT_EQ(run({"--impl", "good", "--bench", "--repeats", "3"}, results), kExitOk);
    bool baseline = false;
    for (const auto& row : results.at("bench").elements()) {
        if (row.at("impl").as_string() == "lib") {
            baseline = true;
            EXPECT_TRUE(row.at("baseline_added").as_bool());
            EXPECT_DOUBLE_EQ(row.at("ratio_to_baseline").as_number(), 1.0);
        }
        if (row.at("impl").as_string() == "good") EXPECT_GT(row.at("ratio_to_baseline").as_number(), 0);
    }
    EXPECT_TRUE(baseline);
}

TEST(Harness, ASizeGivenAloneIsCheckedWithEveryDistributionOfTheList) {
    PMPP_REQUIRE_GPU();
    Json results;
    EXPECT_EQ(run({"--impl", "good", "--check", "--size", "777"}, results), kExitOk);
    ASSERT_EQ(results.at("checks").size(), 1u);
    EXPECT_EQ(results.at("checks")[0].at("n").as_number(), 777);
}

TEST(Harness, RefusesASizeThatCannotFitWithExitCode4) {
    PMPP_REQUIRE_GPU();
    ExerciseDef def = fake_exercise();
    def.device_bytes = [](std::size_t n, const Options&) { return 1e15 * static_cast<double>(n); };
    const char* argv[] = {"fake", "--impl", "good", "--check", "--size", "1000"};
    Json results;
    EXPECT_EQ(run_exercise(def, 6, const_cast<char**>(argv), results), kExitOutOfMemory);
    EXPECT_EQ(results.at("status").as_string(), "out_of_memory");
    EXPECT_NE(results.at("error").as_string().find("GiB"), std::string::npos);
}

TEST(Harness, SkipsABenchSizeThatDoesNotFitTheHostWithOneLineAndRunsTheOthers) {
    PMPP_REQUIRE_GPU();
    ExerciseDef def = fake_exercise();
    def.bench_sizes = {1u << 10, 1u << 16};
    def.host_bytes = [](std::size_t n, const Options&) { return n > 1024 ? 1e18 : 1e3; };
    const char* argv[] = {"fake", "--impl", "good", "--bench", "--repeats", "2"};
    Json results;
    ::testing::internal::CaptureStdout();
    const int rc = run_exercise(def, 6, const_cast<char**>(argv), results);
    const std::string out = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, kExitOk);
    EXPECT_NE(out.find("(skipped n=2^16: size 2^16 needs"), std::string::npos) << out;
    EXPECT_NE(out.find("of host memory"), std::string::npos) << out;
    bool small_timed = false;
    for (const auto& row : results.at("bench").elements()) {
        EXPECT_EQ(row.at("n").as_number(), 1024) << "the size that does not fit was timed";
        small_timed = true;
    }
    EXPECT_TRUE(small_timed);
}

TEST(Harness, AnUnknownDeviceProfileIsAUsageErrorNamingTheKnownOnes) {
    PMPP_REQUIRE_GPU();
    const char* before = std::getenv("PMPP_DEVICE_PROFILE");
    const std::string saved = before ? before : "";
    setenv("PMPP_DEVICE_PROFILE", "h100-but-smaller", 1);
    Json results;
    const int rc = run({"--impl", "good", "--check"}, results);
    if (before) setenv("PMPP_DEVICE_PROFILE", saved.c_str(), 1); else unsetenv("PMPP_DEVICE_PROFILE");
    EXPECT_EQ(rc, kExitUsage);
    EXPECT_EQ(results.at("status").as_string(), "usage_error");
    EXPECT_NE(results.at("error").as_string().find("t4"), std::string::npos);
}

TEST(Harness, WritesTheResultsFileItDescribes) {
    PMPP_REQUIRE_GPU();
    const std::string path = ::testing::TempDir() + "pmpp_results_" + std::to_string(::getpid()) + ".json";
    Json in_memory;
    run({"--impl", "good", "--check", "--json", path, "--seed", "9"}, in_memory);
    const Json on_disk = Json::parse(read_file(path));
    EXPECT_EQ(on_disk.at("schema").as_string(), "pmpp.results.v1");
    EXPECT_EQ(on_disk.at("exercise").as_string(), "00_fake");
    EXPECT_EQ(on_disk.at("seed").as_number(), 9);
    EXPECT_EQ(on_disk.at("exit_code").as_number(), 0);
    EXPECT_EQ(on_disk.dump(), in_memory.dump());
    std::remove(path.c_str());
}
