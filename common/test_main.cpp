// test_main.cpp: the main() of every test binary. Prints the suite seed first and, last, one
// machine-readable line that common/run_tests.sh adds up:
//   PMPP_TEST_COUNTS passed=P failed=F skipped=S
#include "common/testing.h"

#include "common/cli.h"  // kLargestSeed
#include "common/device_limits.h"
#include "common/readme_hints.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <iostream>
#include <malloc.h>
#include <sstream>
#include <thread>
#include <unistd.h>

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

std::string exercise_readme() {
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return "README.md";
    std::string path(exe, static_cast<std::size_t>(len));
    for (int up = 0; up < 2; ++up) path = path.substr(0, path.rfind('/'));  // drop "build/tests"
    return path + "/README.md";
}

void expect_readme_hints(const std::string& readme, const std::vector<std::string>& symptoms) {
    std::vector<ReadmeHint> hints;
    try {
        hints = readme_hints(readme);
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        return;
    }
    std::map<std::string, int> tested;
    for (const std::string& s : symptoms) ++tested[s];
    for (const auto& [symptom, count] : tested)
        EXPECT_EQ(count, 1) << "\"" << symptom << "\" is listed " << count << " times among the tested symptoms";
    std::map<std::string, int> quoted;
    for (const ReadmeHint& h : hints) {
        if (++quoted[h.symptom] > 1)
            ADD_FAILURE() << readme << ":" << h.line << ": \"" << h.symptom << "\" is quoted twice";
        if (!tested.count(h.symptom))
            ADD_FAILURE() << readme << ":" << h.line << ": the hint \"" << h.symptom
                          << "\" has no wrong implementation in the tests that shows it";
    }
    for (const auto& entry : tested)
        if (!quoted.count(entry.first))
            ADD_FAILURE() << readme << ": no hint quotes \"" << entry.first
                          << "\", the symptom a wrong implementation in the tests is checked against";
}

namespace {

// A field of /proc/self/status ("VmHWM", "VmRSS"), in bytes; 0 when absent.
double status_bytes(const std::string& key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key + ":", 0) == 0) return std::strtod(line.c_str() + key.size() + 1, nullptr) * 1024.0;
    return 0;
}

bool reset_peak_resident_set() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

double device_bytes_in_use() {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return 0;
    return static_cast<double>(total_bytes - free_bytes);
}

}  // namespace

MemoryPeak measure_memory_peak(const std::function<void()>& work) {
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    const double device_before = device_bytes_in_use();
    malloc_trim(0);  // heap that earlier tests freed goes back to the system: reusing it must show
    const bool host_peak_known = reset_peak_resident_set();
    const double host_before = status_bytes("VmRSS");
    std::atomic<bool> done{false};
    std::atomic<double> device_peak{device_before};
    std::thread sampler([&] {
        while (!done.load()) {
            const double used = device_bytes_in_use();
            if (used > device_peak.load()) device_peak.store(used);
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    });
    try {
        work();
    } catch (...) {
        done = true;
        sampler.join();
        throw;
    }
    const double used = device_bytes_in_use();
    done = true;
    sampler.join();
    MemoryPeak peak;
    peak.device_bytes = std::max(device_peak.load(), used) - device_before;
    if (host_peak_known) peak.host_bytes = std::max(0.0, status_bytes("VmHWM") - host_before);
    return peak;
}

void expect_memory_estimates(const ExerciseDef& def, std::size_t n, double slack_bytes) {
    expect_memory_estimates(def, n, std::vector<std::string>{}, slack_bytes);
}

void expect_memory_estimates(const ExerciseDef& def, std::size_t n, const std::vector<std::string>& args,
                             double slack_bytes) {
    // The options of that command line; with none, every exercise option at its default, as `make run`.
    std::vector<const char*> argv = {def.id.c_str()};
    for (const auto& a : args) argv.push_back(a.c_str());
    expect_memory_estimates_with(
        def, n, parse_command_line(static_cast<int>(argv.size()), argv.data(), def.extra_options, def.max_size), {},
        slack_bytes);
}

void expect_memory_estimates_with(const ExerciseDef& def, std::size_t n, const Options& opts,
                                  const std::set<std::string>& impls, double slack_bytes) {
    constexpr double MiB = 1048576.0;
    BenchFixture fixture(TimingOptions{0, 1, true});
    fixture.opts = opts;
    std::set<std::string> found;
    const MemoryPeak peak = measure_memory_peak([&] {
        // As the runner benchmarks one size: its problem made once, every implementation timed on it.
        const ExerciseDef::BenchOne bench = def.prepare_size(n, fixture.ctx);
        for (const Impl& impl : def.impls) {
            if (!impls.empty() && !impls.count(impl.name)) continue;
            found.insert(impl.name);
            const auto rows = bench(impl);
            for (const auto& row : rows) EXPECT_TRUE(row.correct) << impl.name << ": " << row.check_message;
        }
    });
    for (const auto& name : impls) EXPECT_TRUE(found.count(name)) << def.id << " has no implementation " << name;
    const double device_estimate = def.device_bytes ? def.device_bytes(n, fixture.opts) : 0;
    const double host_estimate = def.host_bytes ? def.host_bytes(n, fixture.opts) : 0;
    std::string options;
    for (const ExtraOption& o : def.extra_options) {  // those not at their default
        const auto it = opts.extra.find(o.name);
        if (it != opts.extra.end() && it->second != o.default_value) options += " --" + o.name + " " + it->second;
    }
    std::printf("  %s%s at n=%s: device peak %.0f MiB, estimate %.0f MiB; host peak %.0f MiB, estimate %.0f MiB\n",
                def.id.c_str(), options.c_str(), format_size(n).c_str(), peak.device_bytes / MiB, device_estimate / MiB,
                peak.host_bytes / MiB, host_estimate / MiB);
    EXPECT_LE(peak.device_bytes, device_estimate * 1.05) << "device memory estimate too low at n=" << n;
    EXPECT_LE(device_estimate, peak.device_bytes * 1.10 + slack_bytes) << "device memory estimate too high at n=" << n;
    if (peak.host_bytes > 0) {
        EXPECT_LE(peak.host_bytes, host_estimate * 1.05 + 64 * MiB) << "host memory estimate too low at n=" << n;
        EXPECT_LE(host_estimate, peak.host_bytes * 1.25 + 64 * MiB + slack_bytes)
            << "host memory estimate too high at n=" << n;
    }
}

}  // namespace pmpp::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    try {
        if (const pmpp::DeviceProfile* p = pmpp::requested_profile())
            std::printf("PMPP_DEVICE_PROFILE=%s: device tests see the limits of a %s\n", p->name, p->gpu);
    } catch (const pmpp::DeviceProfileError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
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
