#include "common/exercise.h"

#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <new>
#include <set>

namespace pmpp {

const char* to_string(ImplKind kind) {
    switch (kind) {
        case ImplKind::Student: return "student";
        case ImplKind::Reference: return "reference";
        case ImplKind::Library: return "library";
        case ImplKind::Cpu: return "cpu";
    }
    return "?";
}

std::vector<std::size_t> edge_sizes(const std::vector<int>& exponents) {
    std::vector<std::size_t> sizes = {0, 1};
    for (int k : exponents) {
        const std::size_t p = std::size_t{1} << k;
        for (std::size_t s : {p - 1, p, p + 1}) sizes.push_back(s);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::vector<Case> make_cases(const std::vector<std::size_t>& sizes, const std::vector<Distribution>& dists,
                             const std::vector<std::size_t>& adversarial_sizes) {
    std::vector<Case> cases;
    if (dists.empty()) return cases;
    for (std::size_t n : sizes) cases.push_back({"n=" + format_size(n) + " " + to_string(dists[0]), n, dists[0], 0});
    for (std::size_t d = 1; d < dists.size(); ++d)
        for (std::size_t n : adversarial_sizes)
            cases.push_back({"n=" + format_size(n) + " " + to_string(dists[d]), n, dists[d], 0});
    return cases;
}

std::uint64_t case_seed(std::uint64_t run_seed, const Case& c) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char ch : c.label) h = (h ^ ch) * 0x100000001B3ull;
    return derive_seed(run_seed, h);
}

const Impl* find_impl(const ExerciseDef& def, const std::string& name) {
    for (const auto& impl : def.impls)
        if (impl.name == name) return &impl;
    return nullptr;
}

namespace {

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// "n = 3, 1000 and 1025" (at most four, then "..."), sizes in ascending order, each once.
std::string list_sizes(std::vector<std::size_t> sizes) {
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    std::string s = "n = ";
    const std::size_t shown = std::min<std::size_t>(sizes.size(), 4);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0) s += (i + 1 == sizes.size() ? " and " : ", ");
        s += format_size(sizes[i]);
    }
    if (sizes.size() > shown) s += ", ...";
    return s;
}

}  // namespace

std::vector<std::string> explain_failing_cases(const std::vector<Case>& cases, const std::vector<bool>& passed) {
    std::vector<std::string> out;
    std::vector<std::size_t> failing_sizes, passing_sizes;
    // A size pattern is claimed only where the case list shows it within one distribution: some
    // failing case's distribution also passes at a power of two (a bug on few-distinct inputs
    // that the list holds only off the powers of two is no size pattern).
    std::set<Distribution> pow2_passes;
    bool all_failing_not_pow2 = true, all_failing_in_place = true, a_copy_passes = false;
    bool all_failing_empty = true, one_distribution = true;
    const Case* first_failing = nullptr;
    std::size_t failing = 0;
    for (std::size_t i = 0; i < cases.size() && i < passed.size(); ++i) {
        const Case& c = cases[i];
        if (passed[i]) {
            passing_sizes.push_back(c.n);
            if (is_power_of_two(c.n) && c.n >= 2) pow2_passes.insert(c.dist);
            a_copy_passes |= !c.in_place;
            continue;
        }
        ++failing;
        failing_sizes.push_back(c.n);
        if (first_failing == nullptr) first_failing = &c;
        all_failing_not_pow2 &= c.n >= 3 && !is_power_of_two(c.n);
        all_failing_in_place &= c.in_place;
        all_failing_empty &= c.n == 0;
        one_distribution &= c.dist == first_failing->dist;
    }
    if (failing == 0 || passing_sizes.empty()) return out;
    if (all_failing_empty) {
        out.push_back("fails only at n = 0: the empty input (nothing to read, and nothing to write)");
        return out;
    }
    bool shown_within_a_distribution = false;
    for (std::size_t i = 0; i < cases.size() && i < passed.size(); ++i)
        if (!passed[i]) shown_within_a_distribution |= pow2_passes.count(cases[i].dist) > 0;
    if (all_failing_not_pow2 && shown_within_a_distribution)
        out.push_back("fails only at sizes that are not powers of two (" + list_sizes(failing_sizes) +
                      "); every power of two passes: look at what only those sizes have, the length the work is rounded up "
                      "to and a partial last block or tile");
    if (all_failing_in_place && a_copy_passes)
        out.push_back("fails only in place (the output is the input): an element is read after another thread "
                      "has overwritten it");
    const std::size_t smallest_failing = *std::min_element(failing_sizes.begin(), failing_sizes.end());
    const std::size_t largest_passing = *std::max_element(passing_sizes.begin(), passing_sizes.end());
    if (smallest_failing > largest_passing && smallest_failing > 1)
        out.push_back("fails only from n = " + format_size(smallest_failing) + " on; every n up to " +
                      format_size(largest_passing) + " passes");
    if (one_distribution) {
        bool other_distribution_passes = false;
        for (std::size_t i = 0; i < cases.size() && i < passed.size(); ++i)
            other_distribution_passes |= passed[i] && cases[i].dist != first_failing->dist;
        bool same_distribution_passes = false;  // the distribution itself, at another size
        for (std::size_t i = 0; i < cases.size() && i < passed.size(); ++i)
            same_distribution_passes |= passed[i] && cases[i].dist == first_failing->dist;
        if (other_distribution_passes && !same_distribution_passes && failing >= 1 &&
            first_failing->dist != cases.front().dist)
            out.push_back(std::string("fails only on the ") + to_string(first_failing->dist) + " inputs (" +
                          list_sizes(failing_sizes) + ")");
    }
    return out;
}

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

std::string format_throughput(double v) {
    if (v <= 0 || !std::isfinite(v)) return "-";
    if (v >= 100) return format("%.0f", v);
    if (v >= 10) return format("%.1f", v);
    return format("%.2f", v);
}

std::string format_ms(double ms) {
    if (ms >= 100) return format("%.1f", ms);
    if (ms >= 1) return format("%.3f", ms);
    return format("%.4f", ms);
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
            results_.set("device", device_json());
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

    Json device_json() const {
        Json d = Json::object();
        d.set("name", device_.name);
        d.set("compute_capability", device_.compute_capability());
        d.set("sm_count", device_.sm_count);
        d.set("memory_bytes", static_cast<double>(device_.global_memory_bytes));
        d.set("l2_bytes", static_cast<double>(device_.l2_bytes));
        d.set("sm_clock_mhz", device_.sm_clock_mhz);
        d.set("memory_clock_mhz", device_.memory_clock_mhz);
        d.set("memory_bus_bits", device_.memory_bus_bits);
        d.set("driver", format_cuda_version(device_.driver_version));
        d.set("runtime", format_cuda_version(device_.runtime_version));
        if (limits_.lowered()) {
            Json p = Json::object();
            p.set("name", limits_.profile);
            p.set("gpu", limits_.profile_gpu);
            p.set("compute_capability", format("%d.%d", limits_.compute_capability / 10, limits_.compute_capability % 10));
            p.set("sm_count", limits_.sm_count);
            p.set("shared_per_block_optin", static_cast<double>(limits_.shared_per_block_optin));
            p.set("shared_per_sm", static_cast<double>(limits_.shared_per_sm));
            p.set("max_threads_per_sm", limits_.max_threads_per_sm);
            p.set("memory_bytes", static_cast<double>(limits_.memory_bytes));
            p.set("l2_bytes", static_cast<double>(limits_.l2_bytes));
            p.set("host_memory_bytes", static_cast<double>(limits_.host_memory_bytes));
            d.set("profile", p);
        }
        return d;
    }

    std::vector<Case> selected_cases() {
        std::vector<Case> all = def_.cases(opts_);
        std::vector<Case> out;
        for (auto& c : all) {
            if (opts_.size && c.n != *opts_.size) continue;
            if (opts_.max_size && c.n > *opts_.max_size) continue;
            out.push_back(c);
        }
        if (opts_.size && out.empty()) {
            // --size N that is not in the list: N with every kind of case the list has (each
            // distinct distribution and variant), labelled like the list's own cases.
            std::set<std::pair<int, int>> kinds;
            for (auto& c : all) {
                if (!kinds.insert({static_cast<int>(c.dist), c.variant}).second) continue;
                const auto space = c.label.find(' ');
                out.push_back({"n=" + format_size(*opts_.size) + (space == std::string::npos ? "" : c.label.substr(space)),
                               *opts_.size, c.dist, c.variant});
            }
        }
        return out;
    }

    void run_checks() {
        const std::vector<Case> cases = selected_cases();
        std::cout << "\n== check: " << cases.size() << " case(s) per implementation, outputs poisoned before each run\n";
        Json checks = Json::array();
        Json summary = Json::object();
        for (const Impl* impl : selected_) {
            if (impl->kind == ImplKind::Cpu) {
                std::cout << format("%-12s  --    the CPU reference: it defines the right answer\n", impl->name.c_str());
                continue;
            }
            std::size_t passed = 0;
            std::vector<std::string> failures;
            std::vector<Case> ran;  // the cases run, and whether each passed: the patterns over all
            std::vector<bool> ran_passed;
            for (std::size_t i = 0; i < cases.size(); ++i) {
                const Case& c = cases[i];
                std::string why;
                if (!fits(c.n, why)) {
                    std::cout << "  (skipped " << c.label << ": " << why << ")\n";
                    continue;
                }
                current_ = impl->name + " on " + c.label;
                CheckResult r;
                {
                    NvtxRange range(("impl:" + impl->name).c_str());
                    r = def_.run_case(*impl, c, case_seed(seed_, c), opts_);
                }
                current_.clear();
                Json j = Json::object();
                j.set("impl", impl->name);
                j.set("kind", to_string(impl->kind));
                j.set("case", c.label);
                j.set("n", static_cast<double>(c.n));
                j.set("distribution", to_string(c.dist));
                j.set("passed", r.ok);
                if (!r.ok) j.set("message", r.report());
                checks.push_back(j);
                ran.push_back(c);
                ran_passed.push_back(r.ok);
                if (r.ok) {
                    ++passed;
                    if (opts_.verbose) std::cout << "  PASS " << impl->name << " " << c.label << "\n";
                } else {
                    failures.push_back(c.label + ": " + r.report());
                }
            }
            const std::size_t total = passed + failures.size();
            if (!failures.empty()) {
                any_wrong_ = true;
                failed_check_.insert(impl->name);
            }
            std::cout << format("%-12s  %s  %zu/%zu cases passed\n", impl->name.c_str(),
                                failures.empty() ? "PASS" : "FAIL", passed, total);
            const std::size_t shown = opts_.verbose ? failures.size() : std::min<std::size_t>(failures.size(), 3);
            for (std::size_t k = 0; k < shown; ++k) std::cout << "    " << indent(failures[k]) << "\n";
            if (failures.size() > shown)
                std::cout << "    ... " << failures.size() - shown << " more failing case(s) (--verbose shows all)\n";
            const std::vector<std::string> over_all = explain_failing_cases(ran, ran_passed);
            for (const std::string& h : over_all) std::cout << "    hint over all cases: " << h << "\n";
            Json s = Json::object();
            if (!over_all.empty()) {
                Json hints = Json::array();
                for (const std::string& h : over_all) hints.push_back(h);
                s.set("hints", hints);
            }
            s.set("passed", static_cast<double>(passed));
            s.set("failed", static_cast<double>(failures.size()));
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
        const CopyBandwidth copy = measure_copy_bandwidth(copy_bytes, copy_timing, &flusher);
        copy_gbs_ = copy.gbs;
        Json cj = Json::object();
        cj.set("bytes", static_cast<double>(copy.bytes));
        cj.set("median_ms", copy.ms.median);
        cj.set("gbs", copy.gbs);
        results_.set("copy_bandwidth", cj);

        std::vector<const Impl*> to_bench;
        for (const Impl* impl : selected_) {
            if (failed_check_.count(impl->name)) continue;
            to_bench.push_back(impl);
        }
        const Impl* baseline = find_impl(def_, def_.baseline);
        const bool baseline_added = baseline && std::find(to_bench.begin(), to_bench.end(), baseline) == to_bench.end();
        if (baseline_added) to_bench.push_back(baseline);

        std::vector<std::size_t> sizes = opts_.size ? std::vector<std::size_t>{*opts_.size} : def_.bench_sizes;
        std::cout << format("\n== bench: median of %d timed runs after %d warm-up(s), L2 flushed before each; "
                            "%s\n   copy bandwidth %.0f GB/s (cudaMemcpy device to device, %s, read + written)\n",
                            timing.repeats, timing.warmup, device_.name.c_str(), copy.gbs,
                            format_size(copy_bytes).c_str());
        for (const Impl* impl : selected_)
            if (failed_check_.count(impl->name))
                std::cout << "   (" << impl->name << " not timed: it failed the check)\n";

        Json bench = Json::array();
        for (std::size_t n : sizes) {
            std::string why;
            if (!fits(n, why)) {
                std::cout << "\n(skipped n=" << format_size(n) << ": " << why << ")\n";
                continue;
            }
            struct Row {
                const Impl* impl;
                Measurement m;
            };
            std::vector<Row> rows;
            for (const Impl* impl : to_bench) {
                current_ = impl->name + " benchmark at n=" + format_size(n);
                std::vector<Measurement> ms;
                {
                    NvtxRange range(("impl:" + impl->name).c_str());
                    ms = def_.bench(*impl, n, ctx);
                }
                current_.clear();
                for (auto& m : ms) rows.push_back({impl, m});
            }
            // One table per section, in first-seen order.
            std::vector<std::string> sections;
            for (auto& r : rows)
                if (std::find(sections.begin(), sections.end(), r.m.section) == sections.end())
                    sections.push_back(r.m.section);
            for (const auto& section : sections) {
                double baseline_ms = 0;
                for (auto& r : rows)
                    if (r.m.section == section && r.impl == baseline && r.m.label.empty()) baseline_ms = r.m.ms.median;
                const std::string ratio_header = "t / " + def_.baseline;
                Table t({"impl", "kind", "median ms", "spread", "GB/s", "% of copy", def_.items_unit, ratio_header, "check"},
                        {Table::Align::Left, Table::Align::Left});
                for (auto& r : rows) {
                    if (r.m.section != section) continue;
                    const Measurement& m = r.m;
                    const double gbs = gigabytes_per_second(m.bytes, m.ms.median);
                    const double items = m.items > 0 && m.ms.median > 0 ? m.items / (m.ms.median * 1e6) : 0;
                    const double ratio = baseline_ms > 0 ? m.ms.median / baseline_ms : 0;
                    const std::string label = m.label.empty() ? r.impl->name : m.label;
                    if (!m.correct) {
                        any_wrong_ = true;
                        failed_bench_.push_back(label + " at n=" + format_size(n) + ": " + m.check_message);
                    }
                    t.add_row({label, to_string(r.impl->kind), format_ms(m.ms.median),
                               format("%.1f%%", 100 * m.ms.spread()), format_throughput(gbs),
                               gbs > 0 && copy_gbs_ > 0 ? format("%.1f%%", 100 * gbs / copy_gbs_) : "-",
                               format_throughput(items), ratio > 0 ? format("%.2f", ratio) : "-",
                               m.correct ? "ok" : "WRONG"});
                    Json j = Json::object();
                    j.set("impl", r.impl->name);
                    j.set("kind", to_string(r.impl->kind));
                    j.set("section", m.section);
                    j.set("label", label);
                    j.set("n", static_cast<double>(n));
                    j.set("median_ms", m.ms.median);
                    j.set("min_ms", m.ms.min);
                    j.set("max_ms", m.ms.max);
                    j.set("p10_ms", m.ms.p10);
                    j.set("p90_ms", m.ms.p90);
                    j.set("mean_ms", m.ms.mean);
                    j.set("repeats", static_cast<double>(m.ms.count));
                    j.set("bytes", m.bytes);
                    j.set("gbs", gbs);
                    j.set("fraction_of_copy", copy_gbs_ > 0 ? gbs / copy_gbs_ : 0.0);
                    j.set("items_per_second", items * 1e9);
                    j.set("ratio_to_baseline", ratio);
                    j.set("baseline_added", baseline_added && r.impl == baseline);
                    j.set("correct", m.correct);
                    if (!m.correct) j.set("message", m.check_message);
                    if (!m.note.empty()) j.set("note", m.note);
                    bench.push_back(j);
                }
                std::cout << "\nn = " << format_size(n) << (format_size(n) != std::to_string(n) ? " (" + std::to_string(n) + ")" : "")
                          << (section == "kernel" ? "" : ", " + section) << "\n";
                t.print(std::cout);
                for (auto& r : rows)
                    if (r.m.section == section && !r.m.note.empty())
                        std::cout << "  " << (r.m.label.empty() ? r.impl->name : r.m.label) << ": " << r.m.note << "\n";
            }
            results_.set("bench", bench);
            write_partial();
        }
        results_.set("bench", bench);
        std::cout << "\nspread = (p90 - p10) / median; t / " << def_.baseline << " < 1 means faster than "
                  << def_.baseline << "; % of copy = GB/s over the measured copy bandwidth\n";
        for (const auto& f : failed_bench_) std::cout << "WRONG output on a timed run: " << f << "\n";
        set_key_figure(bench);
    }

    // One line for the top-level summary: the student's throughput at the largest size.
    void set_key_figure(const Json& bench) {
        const Json* best = nullptr;
        for (const auto& j : bench.elements())
            if (j.at("impl").as_string() == "student" && j.at("section").as_string() == "kernel")
                if (!best || j.at("n").as_number() >= best->at("n").as_number()) best = &j;
        if (!best) return;
        std::string fig = "student " + format_ms(best->at("median_ms").as_number()) + " ms at n=" +
                          format_size(static_cast<std::size_t>(best->at("n").as_number()));
        if (best->at("gbs").as_number() > 0)
            fig += format(", %.0f GB/s = %.0f%% of copy", best->at("gbs").as_number(),
                          100 * best->at("fraction_of_copy").as_number());
        if (best->at("ratio_to_baseline").as_number() > 0)
            fig += format(", %.2fx %s's time", best->at("ratio_to_baseline").as_number(), def_.baseline.c_str());
        key_figure_ = fig;
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
    std::vector<std::string> failed_bench_;
    bool any_wrong_ = false;
    double copy_gbs_ = 0;
    std::string current_;
    std::string key_figure_;
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
