#include "common/rng.h"

#include <chrono>
#include <random>

namespace pmpp {

std::uint64_t fresh_seed() {
    std::random_device rd;
    std::uint64_t s = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    s ^= static_cast<std::uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
    // Keep it short enough to type back in: 9 decimal digits.
    return splitmix64(s) % 1000000000ull;
}

const char* to_string(Distribution d) {
    switch (d) {
        case Distribution::Uniform: return "uniform";
        case Distribution::FewDistinct: return "few-distinct";
        case Distribution::AllEqual: return "all-equal";
        case Distribution::Sorted: return "sorted";
        case Distribution::Reversed: return "reversed";
    }
    return "?";
}

const std::vector<Distribution>& all_distributions() {
    static const std::vector<Distribution> all = {Distribution::Uniform, Distribution::FewDistinct,
                                                  Distribution::AllEqual, Distribution::Sorted, Distribution::Reversed};
    return all;
}

bool parse_distribution(const std::string& text, Distribution& out) {
    for (Distribution d : all_distributions()) {
        if (text == to_string(d)) {
            out = d;
            return true;
        }
    }
    return false;
}

}  // namespace pmpp
