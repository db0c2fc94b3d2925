// scan_inputs.h: the input kinds of exercises 02 (scan) and 03 (find_repeats), on top of the
// course's portable generator. Shared by both harnesses (03 includes it from here) and their tests.
#pragma once

#include "common/exercise.h"
#include "common/rng.h"

#include <cstdint>
#include <string>
#include <vector>

namespace scan_inputs {

enum Kind : int {
    kFullRange = 0,  // uniform over all int32: sums wrap around
    kSmallValues = 1,  // 0..9, as in the classic assignment: many adjacent repeats
    kAllEqual = 2,  // one value: n - 1 repeats
    kStrictlyIncreasing = 3,  // start + i: no repeats
    kAlternatingPairs = 4,  // x x y y x x ...: a repeat at every even index
    kKinds = 5
};

// Per Kind, in its order: the words of a case's label, and the nearest common distribution (for
// the results file).
struct KindFacts {
    const char* name;
    pmpp::Distribution distribution;
};
constexpr KindFacts kFacts[kKinds] = {
    {"full-range", pmpp::Distribution::Uniform},
    {"small-values-0-9", pmpp::Distribution::FewDistinct},
    {"all-equal", pmpp::Distribution::AllEqual},
    {"strictly-increasing", pmpp::Distribution::Sorted},
    {"alternating-pairs", pmpp::Distribution::FewDistinct},
};
inline const char* name(Kind k) { return kFacts[k].name; }
inline pmpp::Distribution distribution(Kind k) { return kFacts[k].distribution; }

inline std::vector<int> make(std::size_t n, Kind kind, std::uint64_t seed) {
    pmpp::Rng rng(seed);
    std::vector<int> v(n);
    switch (kind) {
        case kFullRange: v = pmpp::generate<int>(n, pmpp::Distribution::Uniform, seed); break;
        case kSmallValues:
            for (auto& x : v) x = static_cast<int>(rng.below(10));
            break;
        case kAllEqual: v = pmpp::generate<int>(n, pmpp::Distribution::AllEqual, seed); break;
        case kStrictlyIncreasing: {
            const int start = static_cast<int>(rng.below(1000)) - 500;
            for (std::size_t i = 0; i < n; ++i)
                v[i] = static_cast<int>(static_cast<unsigned>(start) + static_cast<unsigned>(i));
            break;
        }
        case kAlternatingPairs: {
            const int x = static_cast<int>(rng.below(1000)), y = x + 1 + static_cast<int>(rng.below(1000));
            for (std::size_t i = 0; i < n; ++i) v[i] = (i / 2) % 2 ? y : x;
            break;
        }
        default: break;
    }
    return v;
}

// Sizes of both exercises: 0, 1, 2 and the edges of several powers of two (including the
// tile sizes of the fast variants), 2^20+7 and 2^26+3.
inline std::vector<std::size_t> case_sizes() {
    std::vector<std::size_t> sizes = pmpp::edge_sizes({1, 2, 5, 8, 10, 11, 12, 13, 16, 20});
    sizes.push_back((std::size_t{1} << 20) + 7);
    sizes.push_back((std::size_t{1} << 26) + 3);
    return sizes;
}

// The typed cases of both exercises (Spec: the exercise's case type, with the input kind in
// `kind`): one case, and the list: every size with `first`, every other kind at a few sizes.
template <class Spec>
pmpp::CaseOf<Spec> case_of(std::size_t n, Kind kind, bool in_place = false) {
    pmpp::CaseOf<Spec> c;
    c.n = n;
    c.dist = distribution(kind);
    c.spec.kind = kind;
    c.in_place = in_place;
    return c;
}

template <class Spec>
std::vector<pmpp::CaseOf<Spec>> cases(Kind first) {
    std::vector<pmpp::CaseOf<Spec>> out;
    auto add = [&](std::size_t n, Kind k) { out.push_back(case_of<Spec>(n, k)); };
    for (std::size_t n : case_sizes()) add(n, first);
    for (int k = 0; k < kKinds; ++k) {
        if (k == first) continue;
        for (std::size_t n : {std::size_t{2}, std::size_t{4097}, (std::size_t{1} << 20) + 7})
            add(n, static_cast<Kind>(k));
    }
    return out;
}

}  // namespace scan_inputs
