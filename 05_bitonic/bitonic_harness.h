// bitonic_harness.h: the checker and the benchmark of exercise 05, shared by main.cu and the tests.
#pragma once

#include "bitonic.h"

#include "common/exercise.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bitonic {

enum class KeyType { U32, I32, F32 };
const char* to_string(KeyType type);

// What a case sorts; packed into Case::variant.
struct CaseKind {
    KeyType type = KeyType::U32;
    SortOrder order = SortOrder::Ascending;
    bool with_values = false;
    bool specials = false;  // the type's extreme values mixed in (floats: +-0, +-inf, NaNs, subnormals)
};
int to_variant(const CaseKind& kind);
CaseKind from_variant(int variant);
std::string describe(const CaseKind& kind);  // "f32 desc pairs specials"

// Any sort as the check sees it: in place on device pointers (values may be null).
template <typename K>
using SortFn = std::function<void(K* keys, std::uint32_t* values, std::size_t n, SortOrder order)>;
// "student", "seed", "half_threads", "shared", "fused", "thrust", "cub" (through a copy: CUB
// sorts out of place).
template <typename K>
SortFn<K> sort_by_name(const std::string& name);

// The inputs of one case. Values are the input positions XOR a random salt: all different, so
// each output value names the input element it came from.
template <typename K>
struct SortInput {
    std::vector<K> keys;
    std::vector<std::uint32_t> values;  // empty for keys only
    std::uint32_t salt = 0;
};
template <typename K>
SortInput<K> make_input(std::size_t n, pmpp::Distribution dist, const CaseKind& kind, std::uint64_t seed);

// Is (keys, values) the sorted input? `expected` is sort_cpu of the input keys. Reports what is
// wrong: not ordered (and how), not a permutation of the input, or values that left their keys.
template <typename K>
pmpp::CheckResult check_sorted_output(const SortInput<K>& in, const std::vector<K>& expected, const K* keys,
                                      const std::uint32_t* values, SortOrder order);

// Runs `sort` on one case (inputs from `seed`, guard zones before and after the arrays, which
// must stay untouched) and checks the result.
template <typename K>
pmpp::CheckResult check_sort(const SortFn<K>& sort, std::size_t n, pmpp::Distribution dist, const CaseKind& kind,
                             std::uint64_t seed);
pmpp::CheckResult check_case(const std::string& impl, const pmpp::Case& c, std::uint64_t seed);

// Every kind of case: 3 key types x 2 orders x keys or pairs.
std::vector<CaseKind> all_kinds();

// The exercise's definition for the common harness.
pmpp::ExerciseDef exercise();

}  // namespace bitonic
