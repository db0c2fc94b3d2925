// case_patterns.cpp: what the failing cases of one implementation have in common
// (explain_failing_cases, exercise.h): facts over the whole case list, never guesses.
#include "common/exercise.h"

#include "common/report.h"

#include <algorithm>
#include <set>

namespace pmpp {

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
        out.push_back(
            "fails only at sizes that are not powers of two (" + list_sizes(failing_sizes) +
            "); every power of two passes: look at what only those sizes have, the length the work is rounded up "
            "to and a partial last block or tile");
    if (all_failing_in_place && a_copy_passes)
        out.push_back(
            "fails only in place (the output is the input): an element is read after another thread "
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

}  // namespace pmpp
