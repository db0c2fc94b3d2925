// The problems of the tests' check cases, made from the suite's seed once for the whole suite:
// every test renders the same scenes, so the CPU's images of each case are computed once.
#pragma once

#include "../harness/render_harness.h"

#include "common/testing.h"

#include <map>
#include <string>

inline const circles::RenderProblem& suite_problem(const circles::RenderCase& c, const pmpp::Options& opts) {
    static std::map<std::string, circles::RenderProblem> problems;
    const std::string key = circles::exercise().label(c) + " frames " + opts.get("frames");
    auto it = problems.find(key);
    if (it == problems.end())
        it = problems.emplace(key, circles::make_problem(c, pmpp::testing::suite_seed(), opts)).first;
    return it->second;
}
