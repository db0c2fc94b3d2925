#include "common/check.h"

#include <numeric>

namespace pmpp {

CheckResult CheckResult::pass(std::size_t checked) {
    CheckResult r;
    r.checked = checked;
    return r;
}

CheckResult CheckResult::fail(const std::string& message) {
    CheckResult r;
    r.ok = false;
    r.mismatches = 1;
    r.message = message;
    return r;
}

std::string CheckResult::report() const {
    if (ok) return "ok (" + std::to_string(checked) + " elements)";
    std::ostringstream os;
    os << message;
    for (const auto& m : first) {
        os << "\n    ";
        if (m.index != static_cast<std::size_t>(-1)) os << "[" << m.index << "] ";
        os << "expected " << m.expected << ", got " << m.actual;
    }
    if (mismatches > first.size() && !first.empty()) os << "\n    ... and " << (mismatches - first.size()) << " more";
    if (!hint.empty()) os << "\n    hint: " << hint;
    return os.str();
}

}  // namespace pmpp

// ---- Hints (check_hints.h) ---------------------------------------------------------------------

namespace pmpp {

namespace {
thread_local std::vector<HintContext> hint_scopes;

std::size_t largest_power_of_two_factor(std::size_t x) { return x & (~x + 1); }
}  // namespace

HintScope::HintScope(HintContext context) { hint_scopes.push_back(std::move(context)); }
HintScope::~HintScope() { hint_scopes.pop_back(); }

HintContext current_hint_context() {
    HintContext merged;
    for (const HintContext& c : hint_scopes) {
        merged.boundaries.insert(merged.boundaries.end(), c.boundaries.begin(), c.boundaries.end());
        merged.quantities.insert(merged.quantities.end(), c.quantities.begin(), c.quantities.end());
    }
    return merged;
}

namespace hints {

std::size_t boundary_at(std::size_t index, const HintContext& ctx, std::string* name) {
    if (index == 0) return 0;
    const HintContext::Boundary* best = nullptr;  // the largest context boundary `index` starts
    for (const auto& b : ctx.boundaries)
        if (b.size > 1 && index % b.size == 0 && (best == nullptr || b.size > best->size)) best = &b;
    if (best != nullptr) {
        if (name) *name = best->name;
        return best->size;
    }
    if (name) name->clear();
    const std::size_t p = largest_power_of_two_factor(index);
    return p >= 16 ? p : 0;
}

std::string describe_index(std::size_t index, const HintContext& ctx) {
    std::string name;
    const std::size_t size = boundary_at(index, ctx, &name);
    std::string s = "index " + std::to_string(index);
    if (size == 0) return s;
    const std::size_t k = index / size;
    if (!name.empty())
        return s + ", the start of " + name + " " + std::to_string(k) + " (of " + std::to_string(size) + " elements)";
    return s + (k == 1 ? " (= " + std::to_string(size) + ")"
                       : " (= " + std::to_string(k) + " x " + std::to_string(size) + ")");
}

std::string quantity_named(double value, double tolerance, const HintContext& ctx) {
    for (const auto& q : ctx.quantities)
        if (std::fabs(q.value - value) <= tolerance) return q.name;
    return {};
}

std::string explain_descents(const std::vector<std::size_t>& positions, std::size_t n, const HintContext& ctx) {
    if (positions.empty()) return {};
    if (positions.size() == 1)
        return "two sorted runs, split at " + describe_index(positions[0], ctx) +
               ": each half is sorted, and they were not merged";
    std::size_t run = 0;  // the gcd of the positions: every descent lies on a multiple of it
    for (std::size_t p : positions) run = std::gcd(run, p);
    std::string name;
    boundary_at(run, ctx, &name);
    const bool named = std::any_of(ctx.boundaries.begin(), ctx.boundaries.end(),
                                   [run](const HintContext::Boundary& b) { return b.size == run; });
    // Runs shorter than 16 say little (a broken sorting network still orders its last pairs),
    // unless they are one of the exercise's own tiles.
    if (run < 16 && !named) return {};
    return "sorted within runs of " + std::to_string(run) + " elements" + (named ? " (one " + name + ")" : "") +
           " but not across them: every descent lies on a multiple of " + std::to_string(run) + " (" +
           std::to_string(positions.size()) + " of the " + std::to_string((n + run - 1) / run - 1) +
           " run borders): the runs were not merged";
}

}  // namespace hints
}  // namespace pmpp
