#include "common/readme_hints.h"

#include <fstream>
#include <stdexcept>

namespace pmpp {

std::vector<ReadmeHint> readme_hints(const std::string& readme_path) {
    std::ifstream in(readme_path);
    if (!in) throw std::runtime_error(readme_path + ": cannot be read");
    std::vector<ReadmeHint> hints;
    std::string line;
    int number = 0;
    bool inside = false, found = false;
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind("## ", 0) == 0) {
            inside = line == "## Hints" || line.rfind("## Hints ", 0) == 0 || line.rfind("## Hints:", 0) == 0;
            found |= inside;
            continue;
        }
        if (!inside || line.rfind("- ", 0) != 0) continue;  // continuation lines and prose
        const std::size_t open = 2;
        const std::size_t close = line.size() > open ? line.find('"', open + 1) : std::string::npos;
        if (line.size() <= open || line[open] != '"' || close == std::string::npos || close == open + 1)
            throw std::runtime_error(readme_path + ":" + std::to_string(number) +
                                     ": a hint must begin with the symptom the check prints, in double quotes "
                                     "(on the bullet's first line): " +
                                     line);
        hints.push_back({line.substr(open + 1, close - open - 1), number});
    }
    if (!found) throw std::runtime_error(readme_path + ": has no \"## Hints\" section");
    return hints;
}

bool shows_symptom(const std::string& output, const std::string& symptom) {
    std::size_t at = 0, from = 0;
    while (true) {
        const std::size_t gap = symptom.find("...", from);
        const std::string piece = symptom.substr(from, gap == std::string::npos ? std::string::npos : gap - from);
        if (!piece.empty()) {
            const std::size_t found = output.find(piece, at);
            if (found == std::string::npos) return false;
            at = found + piece.size();
        }
        if (gap == std::string::npos) return true;
        from = gap + 3;
    }
}

std::string check_output(const std::vector<Case>& cases, const std::function<CheckResult(const Case&)>& run_case) {
    std::string out;
    std::vector<bool> passed;
    for (const Case& c : cases) {
        const CheckResult r = run_case(c);
        passed.push_back(r.ok);
        if (!r.ok) out += c.label + ": " + r.report() + "\n";
    }
    for (const std::string& h : explain_failing_cases(cases, passed)) out += "hint over all cases: " + h + "\n";
    return out;
}

}  // namespace pmpp
