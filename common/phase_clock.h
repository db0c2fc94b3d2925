// phase_clock.h: where one harness run's wall time goes, phase by phase ("the inputs and the
// CPU's answer of ...", "student on ..."), for the grader's own speed work: a check part that
// takes 40 s says whether the CPU's answer, the student's kernels or the judge took it.
//
// When PMPP_PHASE_TIMES is set in the environment, the runner names each phase to it as it
// enters it (the same words its error messages use) and prints the summary to stderr at the
// end: the total, the time per kind of phase (the text before " of " / " on " / " at " /
// " benchmark"), and the longest phases. Otherwise the runner keeps no clock at all.
#pragma once

#include "common/report.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

class PhaseClock {
public:
    using Now = std::function<double()>;  // seconds, monotonic

    explicit PhaseClock(Now now = steady_seconds) : now_(std::move(now)), mark_(now_()) {}

    // Ends the phase under way (the time since the last enter or leave: before the first phase,
    // "start-up"; between phases, "between phases") and starts `what`.
    void enter(const std::string& what) {
        close();
        current_ = what;
    }
    // Ends the phase under way; the time until the next enter counts as "between phases".
    void leave() {
        close();
        current_ = kBetween;
    }

    struct Phase {
        std::string what;
        double seconds;
    };
    // Every phase so far, the one under way included (up to now), in the order they ran.
    std::vector<Phase> phases() const {
        std::vector<Phase> out = done_;
        out.push_back({current_, now_() - mark_});
        return out;
    }

    // A phase's kind: its words up to the first " of ", " on ", " at " or " benchmark".
    static std::string kind_of(const std::string& what) {
        std::size_t cut = what.size();
        for (const char* sep : {" of ", " on ", " at ", " benchmark"}) cut = std::min(cut, what.find(sep));
        return what.substr(0, cut);
    }

    // The summary, as printed: "phases: T s in all", then each kind's total (largest first),
    // then the `longest` longest phases.
    std::string summary(std::size_t longest = 12) const {
        const std::vector<Phase> all = phases();
        double total = 0;
        std::map<std::string, std::pair<double, int>> kinds;
        for (const Phase& p : all) {
            total += p.seconds;
            auto& k = kinds[kind_of(p.what)];
            k.first += p.seconds;
            ++k.second;
        }
        std::vector<std::pair<std::string, std::pair<double, int>>> by_kind(kinds.begin(), kinds.end());
        std::stable_sort(by_kind.begin(), by_kind.end(),
                         [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
        std::vector<Phase> slow = all;
        std::stable_sort(slow.begin(), slow.end(),
                         [](const Phase& a, const Phase& b) { return a.seconds > b.seconds; });
        if (slow.size() > longest) slow.resize(longest);
        std::string out = format("phases: %.3f s in all\n", total);
        for (const auto& k : by_kind)
            out += format("  %8.3f s  %s (%d)\n", k.second.first, k.first.c_str(), k.second.second);
        out += "  longest:\n";
        for (const Phase& p : slow) out += format("  %8.3f s  %s\n", p.seconds, p.what.c_str());
        return out;
    }

    static double steady_seconds() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }

private:
    static constexpr const char* kBetween = "between phases";

    void close() {
        const double t = now_();
        done_.push_back({current_, t - mark_});
        mark_ = t;
    }

    Now now_;
    double mark_;
    std::string current_ = "start-up";
    std::vector<Phase> done_;
};

}  // namespace pmpp
