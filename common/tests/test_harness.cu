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
#include <set>
#include <string>
#include <unistd.h>

using namespace pmpp;

namespace {

__global__ void add_one(const int* in, int* out, std::size_t n, std::size_t skip) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && i != skip) out[i] = in[i] + 1;
}

// The fake exercise's case: n, the distribution, and a word the label carries.
struct FakeSpec {
    bool odd = false;  // labelled "odd": the runner keeps the word on a --size of its own
};
using FakeCase = CaseOf<FakeSpec>;

// A variant: whether it forgets the last element ("student" does; "good" and "lib" do not).
struct FakeFn {
    bool forgets_the_last = false;
};

// One problem: the input and the CPU's answer. Counted, to show the runner makes each once.
struct FakeProblem {
    std::vector<int> input, expected;
};
int problems_made = 0, bench_problems_made = 0;
int second_table_rows_timed = 0;  // the rows of the fake's optional second table (--two-tables)

FakeProblem make_problem(std::size_t n, std::uint64_t seed) {
    FakeProblem p;
    p.input = generate<int>(n, Distribution::Uniform, seed);
    for (int x : p.input) p.expected.push_back(static_cast<int>(static_cast<unsigned>(x) + 1u));
    return p;
}

void launch(const FakeFn& fn, const int* in, int* out, std::size_t n) {
    const std::size_t skip = fn.forgets_the_last ? n - 1 : static_cast<std::size_t>(-1);
    if (n) add_one<<<static_cast<unsigned>((n + 255) / 256), 256>>>(in, out, n, skip);
    PMPP_CHECK_LAUNCH();
}

CheckResult check(const FakeFn& fn, const FakeProblem& p) {
    const std::size_t n = p.input.size();
    DeviceBuffer<int> in, out(n);
    in.upload(p.input);
    out.poison();
    launch(fn, in.data(), out.data(), n);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    return compare_exact(p.expected, out.to_host());
}

using FakeExercise = Exercise<FakeSpec, FakeFn, FakeProblem>;

FakeExercise typed_fake_exercise() {
    FakeExercise ex;
    ex.id = "00_fake";
    ex.title = "add one";
    ex.variants = {{"student", ImplKind::Student, "forgets the last element", {true}},
                   {"good", ImplKind::Reference, "right", {false}},
                   {"lib", ImplKind::Library, "right, the baseline", {false}},
                   {"cpu", ImplKind::Cpu, "the definition", {}}};
    ex.baseline = "lib";
    ex.max_size = std::size_t{1} << 24;
    ex.bench_sizes = {1u << 16};
    ex.extra_options = {{"copies", "N", "a count only the case list reads", "1"},
                        {"two-tables", "", "the benchmark adds a table named 'second'", ""}};
    ex.cases = [](const Options& opts) {
        if (opts.extra.count("copies") && opts.get("copies") != "1")
            throw UsageError("option --copies: '" + opts.get("copies") + "' is not 1");
        std::vector<FakeCase> cases;
        for (std::size_t n : {1, 2, 1000}) cases.push_back({n, Distribution::Uniform, {}, false});
        cases.push_back({1001, Distribution::Uniform, {true}, false});
        return cases;
    };
    ex.describe = [](const FakeCase& c) { return std::string(to_string(c.dist)) + (c.spec.odd ? " odd" : ""); };
    ex.make_problem = [](const FakeCase& c, std::uint64_t seed, const Options&) {
        ++problems_made;
        return make_problem(c.n, seed);
    };
    ex.check = [](const FakeExercise::Row& v, const FakeProblem& p, const FakeCase&, const Options&) {
        return check(v.fn, p);
    };
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        ++bench_problems_made;
        return make_problem(n, ctx.seed);
    };
    ex.bench = [](const FakeExercise::Row& v, FakeProblem& p, std::size_t n, BenchContext& ctx) {
        Measurement m;
        m.bytes = 8.0 * n;
        m.items = static_cast<double>(n);
        if (v.kind == ImplKind::Cpu) {
            m.ms = time_host(ctx.timing, [] {});
            return std::vector<Measurement>{m};
        }
        DeviceBuffer<int> in(n), out(n);
        in.upload(p.input);
        m.ms = time_device(ctx.timing, &ctx.flusher, [&] { launch(v.fn, in.data(), out.data(), n); });
        m.record_check(compare_exact(p.expected, out.to_host()));
        std::vector<Measurement> rows = {m};
        if (ctx.opts.flag("two-tables") && ctx.times_section("second")) {
            ++second_table_rows_timed;
            Measurement again = m;
            again.section = "second";
            again.ms = time_device(ctx.timing, &ctx.flusher, [&] { launch(v.fn, in.data(), out.data(), n); });
            rows.push_back(again);
        }
        return rows;
    };
    ex.device_bytes = [](std::size_t n, const Options&) { return 8.0 * n; };
    return ex;
}

ExerciseDef fake_exercise() { return typed_fake_exercise().erase(); }

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

TEST(Harness, AnOptionOnlyTheCaseListReadsIsAUsageErrorBeforeAnyGpuWork) {
    Json results;  // exit 2 with or without a GPU: the case list is read before the probe
    EXPECT_EQ(run({"--impl", "good", "--check", "--copies", "7"}, results), kExitUsage);
    EXPECT_EQ(results.at("status").as_string(), "usage_error");
    EXPECT_NE(results.at("error").as_string().find("--copies"), std::string::npos);
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
    EXPECT_EQ(summary.at("student").at("failed").as_number(), 4);  // n = 1, 2, 1000, 1001 all lose their last element
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
    EXPECT_EQ(results.at("items_unit").as_string(), "Gelem/s");  // exercise.h's default: the fake names none
    EXPECT_EQ(results.at("summary").at("student_check").as_string(), "fail");
}

namespace {
std::set<std::string> sections_of(const Json& results) {
    std::set<std::string> sections;
    for (const auto& row : results.at("bench").elements()) sections.insert(row.at("section").as_string());
    return sections;
}
}  // namespace

TEST(Harness, SectionTimesAndReportsOnlyTheRowsOfTheNamedTable) {
    PMPP_REQUIRE_GPU();
    Json all, kernel, second, none;
    second_table_rows_timed = 0;
    EXPECT_EQ(run({"--impl", "good", "--bench", "--repeats", "2", "--two-tables"}, all), kExitOk);
    EXPECT_EQ(sections_of(all), (std::set<std::string>{"kernel", "second"}));
    EXPECT_GT(second_table_rows_timed, 0);

    second_table_rows_timed = 0;  // the exercise is told, and times nothing for the other table
    EXPECT_EQ(run({"--impl", "good", "--bench", "--repeats", "2", "--two-tables", "--section", "kernel"}, kernel),
              kExitOk);
    EXPECT_EQ(sections_of(kernel), (std::set<std::string>{"kernel"}));
    EXPECT_EQ(second_table_rows_timed, 0);

    // The runner drops the rows the exercise made anyway (here: the kernel rows).
    EXPECT_EQ(run({"--impl", "good", "--bench", "--repeats", "2", "--two-tables", "--section", "second"}, second),
              kExitOk);
    EXPECT_EQ(sections_of(second), (std::set<std::string>{"second"}));

    EXPECT_EQ(run({"--impl", "good", "--bench", "--repeats", "2", "--section", "no such table"}, none), kExitOk);
    EXPECT_EQ(none.at("bench").size(), 0u);
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

TEST(Harness, ASizeGivenAloneIsCheckedWithEveryKindOfCaseOfTheList) {
    PMPP_REQUIRE_GPU();
    Json results;
    EXPECT_EQ(run({"--impl", "good", "--check", "--size", "777"}, results), kExitOk);
    ASSERT_EQ(results.at("checks").size(), 2u);  // "uniform" and "uniform odd", at 777
    EXPECT_EQ(results.at("checks")[0].at("n").as_number(), 777);
    EXPECT_EQ(results.at("checks")[0].at("case").as_string(), "n=" + format_size(777) + " uniform");
    EXPECT_EQ(results.at("checks")[1].at("case").as_string(), "n=" + format_size(777) + " uniform odd");
}

TEST(HarnessContract, LabelsEveryCaseSizeFirstFromTheExercisesWords) {
    const FakeExercise ex = typed_fake_exercise();
    const auto cases = ex.erase().cases(Options{});
    ASSERT_EQ(cases.size(), 4u);
    EXPECT_EQ(cases[2].label, "n=" + format_size(1000) + " uniform");
    EXPECT_EQ(cases[3].label, "n=" + format_size(1001) + " uniform odd");
    EXPECT_EQ(ex.label(ex.cases(Options{})[3]), cases[3].label);
    EXPECT_EQ(case_label(std::size_t{1} << 20, ""), "n=2^20");
}

TEST(HarnessContract, NamesEachVariantOnceForListCheckAndBenchmark) {
    const FakeExercise ex = typed_fake_exercise();
    const ExerciseDef def = ex.erase();
    ASSERT_EQ(def.impls.size(), ex.variants.size());
    for (std::size_t i = 0; i < ex.variants.size(); ++i) {
        EXPECT_EQ(def.impls[i].name, ex.variants[i].name);
        EXPECT_EQ(def.impls[i].kind, ex.variants[i].kind);
    }
    EXPECT_TRUE(ex.variant("student").fn.forgets_the_last);
    EXPECT_THROW(ex.variant("nobody"), std::logic_error);
}

TEST(HarnessContract, MakesEachCasesProblemOnceForEveryVariantAndEachSizesOnce) {
    PMPP_REQUIRE_GPU();
    problems_made = bench_problems_made = 0;
    Json results;
    EXPECT_EQ(run({"--impl", "all", "--seed", "4", "--repeats", "2"}, results), kExitWrongResult);
    EXPECT_EQ(problems_made, 4);  // 4 cases, each checked for student, good and lib
    EXPECT_EQ(results.at("checks").size(), 12u);
    EXPECT_EQ(bench_problems_made, 1);  // 1 size, timed for good, lib and cpu
    // The results list each implementation's cases together, in the order they were asked for.
    EXPECT_EQ(results.at("checks")[0].at("impl").as_string(), "student");
    EXPECT_EQ(results.at("checks")[4].at("impl").as_string(), "good");
    EXPECT_EQ(results.at("checks")[4].at("case").as_string(), "n=" + format_size(1) + " uniform");
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
    if (before)
        setenv("PMPP_DEVICE_PROFILE", saved.c_str(), 1);
    else
        unsetenv("PMPP_DEVICE_PROFILE");
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
