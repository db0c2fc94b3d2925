// runner.cpp: run_exercise(): the command line, the GPU, seeds, the check loop, the benchmark
// loop, the results file and the exit code (docs/CONTRACT.md). The tables are bench_report.cpp's.
#include "common/exercise.h"

#include "common/bench_report.h"
#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/phase_clock.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <set>

namespace pmpp {

namespace {

struct Failure {
    int code;
    std::string status;
    std::string message;
};

// Turns whatever a run threw into an exit code and a status word.
Failure classify(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const CudaError& e) {
        if (e.code() == cudaErrorMemoryAllocation) return {kExitOutOfMemory, "out_of_memory", e.what()};
        return {kExitCudaOrNoGpu, "cuda_error", e.what()};
    } catch (const std::bad_alloc&) {
        return {kExitOutOfMemory, "out_of_memory", "host memory exhausted (std::bad_alloc)"};
    } catch (const UsageError& e) {
        return {kExitUsage, "usage_error", e.what()};
    } catch (const std::exception& e) {
        return {kExitCudaOrNoGpu, "error", e.what()};
    }
}

class Runner {
public:
    Runner(const ExerciseDef& def, int argc, char** argv, Json& results)
        : def_(def), argc_(argc), argv_(argv), results_(results) {}

    int run() {
        results_ = Json::object();
        results_.set("schema", "pmpp.results.v1");
        results_.set("exercise", def_.id);
        Json cmd = Json::array();
        for (int i = 0; i < argc_; ++i) cmd.push_back(argv_[i]);
        results_.set("command", cmd);

        try {
            opts_ = parse_command_line(argc_, argv_, def_.extra_options, def_.max_size);
        } catch (const UsageError& e) {
            std::cerr << argv_[0] << ": " << e.what() << "\n(try --help)\n";
            return finish(kExitUsage, "usage_error", e.what());
        }
        if (opts_.help) {
            std::cout << usage_text(argv_[0], def_.id + ": " + def_.title, def_.extra_options);
            return kExitOk;
        }
        if (opts_.list) {
            list_impls();
            return kExitOk;
        }
        try {
            resolve_impls();
        } catch (const UsageError& e) {
            std::cerr << argv_[0] << ": " << e.what() << "\n(try --list)\n";
            return finish(kExitUsage, "usage_error", e.what());
        }
        // Both from the flags as given: neither flag means both parts run.
        const bool runs_check = opts_.runs_check(), runs_bench = opts_.runs_bench();
        opts_.check = runs_check;
        opts_.bench = runs_bench;
        seed_ = opts_.seed_given ? opts_.seed : fresh_seed();
        results_.set("seed", static_cast<double>(seed_));
        std::cout << def_.id << ": " << def_.title << "\n";
        std::cout << "seed " << seed_ << " (replay with --seed " << seed_ << ")\n";

        // An option only the exercise's case list reads (04's --frames) is refused before any GPU
        // work too, as every usage error is (exit 2, even on a machine without a GPU). A list that
        // needs the device to be made fails later, where the device is known.
        try {
            (void)def_.cases(opts_);  // read by --bench alone too: an option is refused the same way
        } catch (const UsageError& e) {
            std::cerr << argv_[0] << ": " << e.what() << "\n(try --help)\n";
            return finish(kExitUsage, "usage_error", e.what());
        } catch (...) {}

        const GpuProbe probe = probe_gpu();
        if (!probe.available) {
            std::cerr << "no usable GPU: " << probe.reason << "\n";
            return finish(kExitCudaOrNoGpu, "no_gpu", "no usable GPU: " + probe.reason);
        }
        try {
            device_ = describe_device(0);
            std::cout << "device " << device_.one_line() << "\n";
            try {
                requested_profile();  // an unknown name is refused, even after an earlier run's limits
                limits_ = device_limits();
            } catch (const DeviceProfileError& e) {
                std::cerr << e.what() << "\n";
                return finish(kExitUsage, "usage_error", e.what());
            }
            if (limits_.lowered())
                std::cout << "device " << limits_.one_line()
                          << "\n       (PMPP_DEVICE_PROFILE: shapes, sizes and grids as on that GPU; the timings are "
                          << device_.name << "'s)\n";
            results_.set("device", device_json(device_, limits_));
            if (opts_.size) {
                std::string why;
                if (!fits(*opts_.size, why)) {
                    std::cerr << why << "\n";
                    return finish(kExitOutOfMemory, "out_of_memory", why);
                }
            }
            if (opts_.check) run_checks();
            write_partial();
            if (opts_.bench) run_bench();
        } catch (...) {
            const Failure f = classify(std::current_exception());
            std::cerr << "\nerror: " << f.message << "\n";
            if (!current_.empty()) std::cerr << "  while running: " << current_ << "\n";
            return finish(f.code, f.status, f.message + (current_.empty() ? "" : " (while running " + current_ + ")"));
        }
        print_shapes();
        const bool wrong = any_wrong_;
        return finish(wrong ? kExitWrongResult : kExitOk, wrong ? "wrong" : "ok", "");
    }

private:
    void list_impls() {
        Table t({"impl", "kind", "description"}, {Table::Align::Left, Table::Align::Left, Table::Align::Left});
        for (const auto& impl : def_.impls) t.add_row({impl.name, to_string(impl.kind), impl.description});
        std::cout << def_.id << ": " << def_.title << "\n";
        t.print(std::cout);
        std::cout << "(--impl all runs every one; the library baseline is '" << def_.baseline << "')\n";
    }

    void resolve_impls() {
        std::vector<std::string> names = opts_.impls.empty() ? std::vector<std::string>{"student"} : opts_.impls;
        std::set<std::string> seen;
        for (const auto& name : names) {
            if (name == "all") {
                for (const auto& impl : def_.impls)
                    if (seen.insert(impl.name).second) selected_.push_back(&impl);
                continue;
            }
            const Impl* impl = find_impl(def_, name);
            if (impl == nullptr) throw UsageError("unknown implementation '" + name + "'");
            if (seen.insert(name).second) selected_.push_back(impl);
        }
    }

    // Whether size n fits what the device and the host have free now: the exercise's counted
    // estimate, 5% and 128 MiB to spare on the device (allocation granularity, the runtime's own
    // buffers), 10% and 256 MiB on the host. Printed or reported by the caller when it does not.
    bool fits(std::size_t n, std::string& why) {
        constexpr double GiB = 1073741824.0, MiB = 1048576.0;
        if (def_.device_bytes) {
            std::size_t free_bytes = 0, total_bytes = 0;
            usable_device_memory(free_bytes, total_bytes);
            const double need = def_.device_bytes(n, opts_);
            if (need * 1.05 + 128 * MiB > static_cast<double>(free_bytes)) {
                why = format("size %s needs %.2f GiB of device memory; %s has %.2f GiB free", format_size(n).c_str(),
                             need / GiB, gpu_name().c_str(), free_bytes / GiB);
                return false;
            }
        }
        if (def_.host_bytes) {
            const std::size_t available = available_host_memory();
            const double need = def_.host_bytes(n, opts_);
            if (available > 0 && need * 1.10 + 256 * MiB > static_cast<double>(available)) {
                why = format("size %s needs %.2f GiB of host memory; %.2f GiB is available%s", format_size(n).c_str(),
                             need / GiB, available / GiB,
                             limits_.host_memory_bytes ? (" (profile " + limits_.profile + ")").c_str() : "");
                return false;
            }
        }
        return true;
    }

    std::string gpu_name() const { return limits_.lowered() ? device_.name + " as " + limits_.profile : device_.name; }

    std::vector<Case> selected_cases() {
        std::vector<Case> all = def_.cases(opts_);
        std::vector<Case> out;
        for (auto& c : all) {
            if (opts_.size && c.n != *opts_.size) continue;
            if (opts_.max_size && c.n > *opts_.max_size) continue;
            out.push_back(c);
        }
        if (opts_.size && out.empty()) {
            // --size N that is not in the list: every kind of case the list has, at N (two cases
            // are of one kind when they get the same label there).
            std::set<std::string> labels;
            for (auto& c : all) {
                Case at_n = def_.resize(c, *opts_.size);
                if (labels.insert(at_n.label).second) out.push_back(std::move(at_n));
            }
        }
        return shard_of(std::move(out), opts_.shard, opts_.shards);
    }

    // Case by case, every implementation on each case's one problem; then each implementation's
    // summary, in the order they were asked for.
    void run_checks() {
        const std::vector<Case> cases = selected_cases();
        std::cout << "\n== check: " << cases.size() << " case(s) per implementation"
                  << (opts_.shards > 1 ? format(" (shard %d/%d of the cases)", opts_.shard, opts_.shards)
                                       : std::string())
                  << ", outputs poisoned before each run\n";
        struct Tally {
            std::size_t passed = 0;
            std::vector<std::string> failures;
            std::vector<Case> ran;  // the cases run, and whether each passed: the patterns over all
            std::vector<bool> ran_passed;
            Json checks = Json::array();
        };
        std::vector<const Impl*> checked;
        for (const Impl* impl : selected_)
            if (impl->kind != ImplKind::Cpu) checked.push_back(impl);
        std::map<std::string, Tally> tally;
        for (const Case& c : cases) {
            if (checked.empty()) break;
            std::string why;
            if (!fits(c.n, why)) {
                std::cout << "  (skipped " << c.label << ": " << why << ")\n";
                continue;
            }
            enter("the inputs and the CPU's answer of " + c.label);
            const ExerciseDef::CheckOne check = def_.prepare_case(c, case_seed(seed_, c), opts_);
            for (const Impl* impl : checked) {
                enter(impl->name + " on " + c.label);
                CheckResult r;
                {
                    NvtxRange range(("impl:" + impl->name).c_str());
                    r = check(*impl);
                }
                Tally& t = tally[impl->name];
                Json j = Json::object();
                j.set("impl", impl->name);
                j.set("kind", to_string(impl->kind));
                j.set("case", c.label);
                j.set("n", static_cast<double>(c.n));
                j.set("distribution", to_string(c.dist));
                j.set("passed", r.ok);
                if (!r.ok) j.set("message", r.report());
                t.checks.push_back(j);
                t.ran.push_back(c);
                t.ran_passed.push_back(r.ok);
                if (r.ok) {
                    ++t.passed;
                    if (opts_.verbose) std::cout << "  PASS " << impl->name << " " << c.label << "\n";
                } else {
                    t.failures.push_back(c.label + ": " + r.report());
                }
            }
            leave();
        }
        Json checks = Json::array();
        Json summary = Json::object();
        for (const Impl* impl : selected_) {
            if (impl->kind == ImplKind::Cpu) {
                std::cout << format("%-12s  --    the CPU reference: it defines the right answer\n",
                                    impl->name.c_str());
                continue;
            }
            Tally& t = tally[impl->name];
            for (const auto& j : t.checks.elements()) checks.push_back(j);
            const std::size_t total = t.passed + t.failures.size();
            if (!t.failures.empty()) {
                any_wrong_ = true;
                failed_check_.insert(impl->name);
            }
            std::cout << format("%-12s  %s  %zu/%zu cases passed\n", impl->name.c_str(),
                                t.failures.empty() ? "PASS" : "FAIL", t.passed, total);
            const std::size_t shown = opts_.verbose ? t.failures.size() : std::min<std::size_t>(t.failures.size(), 3);
            for (std::size_t k = 0; k < shown; ++k) std::cout << "    " << indent(t.failures[k]) << "\n";
            if (t.failures.size() > shown)
                std::cout << "    ... " << t.failures.size() - shown << " more failing case(s) (--verbose shows all)\n";
            const std::vector<std::string> over_all = explain_failing_cases(t.ran, t.ran_passed);
            for (const std::string& h : over_all) std::cout << "    hint over all cases: " << h << "\n";
            Json s = Json::object();
            if (!over_all.empty()) {
                Json hints = Json::array();
                for (const std::string& h : over_all) hints.push_back(h);
                s.set("hints", hints);
            }
            s.set("passed", static_cast<double>(t.passed));
            s.set("failed", static_cast<double>(t.failures.size()));
            s.set("total", static_cast<double>(total));
            summary.set(impl->name, s);
        }
        results_.set("checks", checks);
        results_.set("check_summary", summary);
        if (failed_check_.count("student"))
            std::cout << "\nThe student implementation fails the check: fix it before reading its timings.\n";
    }

    static std::string indent(const std::string& s) {
        std::string out;
        for (char c : s) {
            out += c;
            if (c == '\n') out += "  ";
        }
        return out;
    }

    void run_bench() {
        TimingOptions timing;
        timing.repeats = opts_.repeats;
        timing.warmup = opts_.warmup;
        L2Flusher flusher;
        BenchContext ctx{opts_, seed_, timing, flusher, device_};

        // The machine's practical ceiling, measured in this run: a device-to-device copy.
        std::size_t free_bytes = 0, total_bytes = 0;
        usable_device_memory(free_bytes, total_bytes);
        std::size_t copy_bytes = std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 8);
        copy_bytes &= ~std::size_t{4095};
        TimingOptions copy_timing = timing;
        copy_timing.repeats = std::max(timing.repeats, 10);
        enter("the copy bandwidth");
        const CopyBandwidth copy = measure_copy_bandwidth(copy_bytes, copy_timing, &flusher);
        leave();
        Json cj = Json::object();
        cj.set("bytes", static_cast<double>(copy.bytes));
        cj.set("median_ms", copy.ms.median);
        cj.set("gbs", copy.gbs);
        results_.set("copy_bandwidth", cj);
        results_.set("items_unit", def_.items_unit);  // the unit of the rows' items_per_second / 1e9

        std::vector<const Impl*> to_bench;
        for (const Impl* impl : selected_) {
            if (failed_check_.count(impl->name)) continue;
            to_bench.push_back(impl);
        }
        BenchReport report;
        report.baseline = def_.baseline;
        report.baseline_impl = find_impl(def_, def_.baseline);
        report.baseline_added =
            report.baseline_impl && std::find(to_bench.begin(), to_bench.end(), report.baseline_impl) == to_bench.end();
        if (report.baseline_added) to_bench.push_back(report.baseline_impl);
        report.items_unit = def_.items_unit;
        report.copy_gbs = copy.gbs;

        std::vector<std::size_t> sizes = opts_.size ? std::vector<std::size_t>{*opts_.size} : def_.bench_sizes;
        std::cout << format(
            "\n== bench: median of %d timed runs after %d warm-up(s), L2 flushed before each; "
            "%s\n   copy bandwidth %.0f GB/s (cudaMemcpy device to device, %s, read + written)\n",
            timing.repeats, timing.warmup, device_.name.c_str(), copy.gbs, format_size(copy_bytes).c_str());
        for (const Impl* impl : selected_)
            if (failed_check_.count(impl->name))
                std::cout << "   (" << impl->name << " not timed: it failed the check)\n";

        Json bench = Json::array();
        std::vector<std::string> wrong;
        for (std::size_t n : sizes) {
            std::string why;
            if (!fits(n, why)) {
                std::cout << "\n(skipped n=" << format_size(n) << ": " << why << ")\n";
                continue;
            }
            std::vector<BenchRow> rows;
            {
                enter("the inputs and the CPU's answer at n=" + format_size(n));
                const ExerciseDef::BenchOne bench_one = def_.prepare_size(n, ctx);
                for (const Impl* impl : to_bench) {
                    enter(impl->name + " benchmark at n=" + format_size(n));
                    std::vector<Measurement> ms;
                    {
                        NvtxRange range(("impl:" + impl->name).c_str());
                        ms = bench_one(*impl);
                    }
                    for (auto& m : ms)
                        if (ctx.times_section(m.section)) rows.push_back({impl, m});
                }
                leave();
            }  // the size's problem is freed before the next size's is made
            const std::size_t wrong_before = wrong.size();
            report_size(std::cout, report, n, rows, bench, wrong);
            if (wrong.size() > wrong_before) any_wrong_ = true;
            results_.set("bench", bench);
            write_partial();
        }
        results_.set("bench", bench);
        if (!opts_.section.empty() && bench.size() == 0)
            std::cout << "\n(no row is in a table named '" << opts_.section
                      << "': --section takes a table's name as a run without it prints them)\n";
        std::cout << "\nspread = (p90 - p10) / median; t / " << def_.baseline << " < 1 means faster than "
                  << def_.baseline << "; % of copy = GB/s over the measured copy bandwidth\n";
        for (const auto& f : wrong) std::cout << "WRONG output on a timed run: " << f << "\n";
        key_figure_ = key_figure(bench, def_.baseline);
    }

    void write_partial() {
        if (opts_.json_path.empty()) return;
        try {
            write_file_atomically(opts_.json_path, results_.dump());
        } catch (const std::exception& e) {
            std::cerr << "warning: " << e.what() << "\n";
        }
    }

    // The shapes the kernels chose from this GPU's (or the profile's) limits.
    void print_shapes() const {
        const auto shapes = reported_shapes();
        if (shapes.empty()) return;
        std::cout << "\nshapes chosen for " << gpu_name() << "'s limits:\n";
        for (const auto& s : shapes) std::cout << "  " << s.first << ": " << s.second << "\n";
    }

    int finish(int code, const std::string& status, const std::string& error) {
        if (clock_) std::cerr << "\n" << clock_->summary();
        Json shapes = Json::array();
        for (const auto& s : reported_shapes()) {
            Json j = Json::object();
            j.set("kernel", s.first);
            j.set("shape", s.second);
            shapes.push_back(j);
        }
        results_.set("shapes", shapes);
        results_.set("status", status);
        results_.set("exit_code", code);
        if (!error.empty()) results_.set("error", error);
        Json summary = Json::object();
        std::string student_check = "not_run";
        if (results_.contains("check_summary") && results_.at("check_summary").contains("student"))
            student_check = failed_check_.count("student") ? "fail" : "pass";
        summary.set("student_check", student_check);
        if (key_figure_.empty() && student_check == "fail") {
            const Json& s = results_.at("check_summary").at("student");
            key_figure_ = format("student: wrong result (%.0f of %.0f cases pass)", s.at("passed").as_number(),
                                 s.at("total").as_number());
        }
        if (key_figure_.empty() && !error.empty()) key_figure_ = error;
        summary.set("key_figure", key_figure_);
        results_.set("summary", summary);
        if (!opts_.json_path.empty()) {
            try {
                write_file_atomically(opts_.json_path, results_.dump());
            } catch (const std::exception& e) {
                std::cerr << "error: " << e.what() << "\n";
                if (code == kExitOk) code = kExitUsage;
            }
        }
        return code;
    }

    const ExerciseDef& def_;
    int argc_;
    char** argv_;
    Json& results_;
    Options opts_;
    std::uint64_t seed_ = 0;
    DeviceSummary device_;
    DeviceLimits limits_;
    std::vector<const Impl*> selected_;
    std::set<std::string> failed_check_;
    bool any_wrong_ = false;
    std::string current_;  // what runs now, for an error's message ("while running ...")
    // and, with PMPP_PHASE_TIMES set, how long each such phase took
    std::unique_ptr<PhaseClock> clock_ =
        std::getenv("PMPP_PHASE_TIMES") != nullptr ? std::make_unique<PhaseClock>() : nullptr;
    std::string key_figure_;

    void enter(const std::string& what) {
        current_ = what;
        if (clock_) clock_->enter(what);
    }
    void leave() {
        current_.clear();
        if (clock_) clock_->leave();
    }
};

}  // namespace

int run_exercise(const ExerciseDef& def, int argc, char** argv, Json& results) {
    return Runner(def, argc, argv, results).run();
}

int run_exercise(const ExerciseDef& def, int argc, char** argv) {
    Json results;
    return run_exercise(def, argc, argv, results);
}

}  // namespace pmpp
