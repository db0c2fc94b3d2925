#include "common/check.h"

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
