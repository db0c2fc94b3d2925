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

// Runs `sort` on one case (inputs from `seed`) and checks the result. The arrays it sorts,
// "keys" and "values", lie between guard zones (common/device_buffer.h's GuardedBuffer); a write
// into one fails the case first ("wrote 1 element past the end of keys ..."). Then the keys must
// equal the CPU's sorted keys bit for bit and the values be a valid pairing: each names a
// different input element whose key is the key beside it (any order among equal keys: the
// network is not stable). Both are decided on the device; a failure is reported by
// check_sorted_output. The benchmark checks every warm-up and timed run the same way.
template <typename K>
pmpp::CheckResult check_sort(const SortFn<K>& sort, std::size_t n, pmpp::Distribution dist, const CaseKind& kind,
                             std::uint64_t seed);
pmpp::CheckResult check_case(const std::string& impl, const pmpp::Case& c, std::uint64_t seed);

// The benchmark row of an in-place sort at size n on the benchmark's input for `kind` (what
// every in-place implementation's row, and odd_even's, comes from; the tests time wrong sorts
// through it). Before every warm-up and timed run, untimed: the input restored from a pristine
// device copy and the guard zones re-armed; after every run, check_sort's check. The first wrong
// run makes the row wrong, its message naming the run ("warm-up run 1 of 2: ...").
template <typename K>
pmpp::Measurement bench_in_place(const std::string& label, const SortFn<K>& sort, std::size_t n, const CaseKind& kind,
                                 pmpp::BenchContext& ctx);

// Every kind of case: 3 key types x 2 orders x keys or pairs.
std::vector<CaseKind> all_kinds();

// The exercise's definition for the common harness.
pmpp::ExerciseDef exercise();

}  // namespace bitonic
