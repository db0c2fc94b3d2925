// exercise.cpp: the small pieces of the contract (exercise.h): kinds, sizes, case lists, seeds, labels.
#include "common/exercise.h"

#include "common/report.h"

#include <algorithm>

namespace pmpp {

const char* to_string(ImplKind kind) {
    switch (kind) {
        case ImplKind::Student: return "student";
        case ImplKind::Reference: return "reference";
        case ImplKind::Library: return "library";
        case ImplKind::Cpu: return "cpu";
    }
    return "?";
}

std::vector<std::size_t> edge_sizes(const std::vector<int>& exponents) {
    std::vector<std::size_t> sizes = {0, 1};
    for (int k : exponents) {
        const std::size_t p = std::size_t{1} << k;
        for (std::size_t s : {p - 1, p, p + 1}) sizes.push_back(s);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::uint64_t case_seed(std::uint64_t run_seed, const Case& c) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char ch : c.label) h = (h ^ ch) * 0x100000001B3ull;
    return derive_seed(run_seed, h);
}

std::string case_label(std::size_t n, const std::string& words) {
    return "n=" + format_size(n) + (words.empty() ? "" : " " + words);
}

std::vector<Case> shard_of(std::vector<Case> cases, int shard, int shards) {
    if (shards <= 1) return cases;
    std::vector<Case> out;
    for (std::size_t i = static_cast<std::size_t>(shard - 1); i < cases.size(); i += static_cast<std::size_t>(shards))
        out.push_back(std::move(cases[i]));
    return out;
}

const Impl* find_impl(const ExerciseDef& def, const std::string& name) {
    for (const auto& impl : def.impls)
        if (impl.name == name) return &impl;
    return nullptr;
}

}  // namespace pmpp
