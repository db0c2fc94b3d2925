// readme_hints.h: an exercise README's hints, held to what the checker really prints.
//
// Every bullet of a README's "## Hints" section begins with a symptom in double quotes: text
// the check prints for the mistake the bullet is about ("..." stands for any text between), then
// where to look. Each exercise's tests hold one deliberately wrong implementation per hint and
// expect its check output to show the symptom (shows_symptom), and a host test expects the
// README to quote exactly the symptoms of that list: a hint cannot go stale, nor a test lose its
// hint, without a test failing.
#pragma once

#include "common/check.h"
#include "common/exercise.h"

#include <functional>
#include <string>
#include <vector>

namespace pmpp {

struct ReadmeHint {
    std::string symptom;  // the quoted text, without the quotes
    int line = 0;  // 1-based line of the bullet in the README
};

// The hints of `readme_path`'s "## Hints" section, in order. Throws std::runtime_error naming
// the file and line when the file or the section is missing, or a bullet does not begin with a
// quoted symptom.
std::vector<ReadmeHint> readme_hints(const std::string& readme_path);

// Whether `output` shows `symptom`: its pieces between "..." occur in `output` in order.
bool shows_symptom(const std::string& output, const std::string& symptom);

// What the harness's check prints about `run_case` over `cases`: the report of every failing case
// (label first), then the hints over all cases (explain_failing_cases), one per line.
std::string check_output(const std::vector<Case>& cases, const std::function<CheckResult(const Case&)>& run_case);

// The same for an exercise of the typed contract: its cases, labelled as the runner labels them,
// and `run_case` called with each typed case.
template <class Ex, class Run>
std::string check_output(const Ex& ex, const std::vector<typename Ex::Case>& cases, Run&& run_case) {
    std::vector<Case> labelled;
    for (const auto& c : cases) labelled.push_back(ex.untyped(c));
    return check_output(labelled,
                        [&](const Case& c) { return run_case(*static_cast<const typename Ex::Case*>(c.typed.get())); });
}

}  // namespace pmpp
