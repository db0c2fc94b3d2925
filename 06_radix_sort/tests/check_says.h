// check_says.h: what exercise 06's tests ask of a check's result: that it says some words (in its
// message or its hints), or that it fails saying them. A failed expectation shows the report.
#pragma once

#include "common/check.h"

#include <gtest/gtest.h>

#include <string>

inline ::testing::AssertionResult says(const pmpp::CheckResult& r, const std::string& words) {
    const bool said = (r.message + " " + r.hint).find(words) != std::string::npos;
    return (said ? ::testing::AssertionSuccess() : ::testing::AssertionFailure())
           << (said ? "says \"" : "does not say \"") << words << "\":\n"
           << r.report();
}

inline ::testing::AssertionResult fails_saying(const pmpp::CheckResult& r, const std::string& words) {
    if (r.ok) return ::testing::AssertionFailure() << "passes, and was to fail saying \"" << words << "\"";
    return says(r, words);
}
