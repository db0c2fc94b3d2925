// bitonic_harness.h: exercise 05 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests: its cases and inputs, its variants, the check and the benchmark.
//
// The files: bitonic_check.cu (the inputs, the check of one run on the device and the report of a
// wrong output on the host), bitonic_harness.cu (the case list, the benchmark, the memory of one
// size, the table of variants), odd_even_baseline.cu (the sort the benchmark times beside the seed).
#pragma once

#include "bitonic.h"

#include "common/device_buffer.h"
#include "common/exercise.h"
#include "common/type_dispatch.h"

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace bitonic {

enum class KeyType { U32, I32, F32 };
// The key types in KeyType's order, for pmpp::with_type<KeyTypes>(type, ...).
using KeyTypes = pmpp::TypeList<std::uint32_t, std::int32_t, float>;
const char* to_string(KeyType type);  // "u32", "i32", "f32"

// What a case sorts, besides n and the distribution (pmpp::CaseOf adds them; every sort here is
// in place: the keys, and values, are sorted where they lie).
struct CaseKind {
    KeyType type = KeyType::U32;
    SortOrder order = SortOrder::Ascending;
    bool with_values = false;
    bool specials = false;  // the type's extreme values mixed in (floats: +-0, +-inf, NaNs, subnormals)
};
using SortCase = pmpp::CaseOf<CaseKind>;
std::string describe(const CaseKind& kind);  // "f32 desc pairs specials"
// Every kind of case: 3 key types x 2 orders x keys or pairs.
std::vector<CaseKind> all_kinds();

// The foil the benchmark times beside the seed (odd_even_baseline.cu): odd-even transposition
// sort, n steps of neighbour exchanges, one launch each. Correct for any n, but only sensible for
// small n.
template <typename K>
void odd_even_transposition_sort(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// Any sort of one key type as the check sees it: in place on device pointers (values may be null).
template <typename K>
using SortFn = std::function<void(K* keys, std::uint32_t* values, std::size_t n, SortOrder order)>;

// A variant, as the check and the benchmark call it: its sort of each key type (none: the CPU's),
// and what its benchmark does besides timing that sort.
struct BitonicFn {
    std::tuple<SortFn<std::uint32_t>, SortFn<std::int32_t>, SortFn<float>> sorts;
    bool timed_out_of_place = false;  // the benchmark times CubRadixSort itself, out of place (the
        // check sorts through a copy)
    bool with_odd_even = false;  // the benchmark adds odd-even transposition's row, up to 2^16
    template <typename K>
    const SortFn<K>& sort() const {
        return std::get<SortFn<K>>(sorts);
    }
};
// The sort template SORT<K> for every key type.
#define BITONIC_FN(SORT)                                         \
    ::bitonic::BitonicFn {                                       \
        { SORT<std::uint32_t>, SORT<std::int32_t>, SORT<float> } \
    }

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

// One sort: its input and the CPU's answer, on the host for the report of a wrong output and on
// the device for the check of every run. keys_in and values_in are also the pristine copies an
// in-place sort's input is restored from. Made once per check case and once per benchmark size.
template <typename K>
struct SortProblem {
    using key_type = K;
    SortInput<K> input;
    std::vector<K> expected;  // sort_cpu of the input keys
    SortOrder order = SortOrder::Ascending;
    bool with_values = false;  // the sort is handed values (at n = 0 too: an empty array)
    pmpp::DeviceBuffer<K> keys_in, expected_keys;
    pmpp::DeviceBuffer<std::uint32_t> values_in;
    // The pairing check's scratch, rewritten by every check: one flag per element.
    mutable pmpp::DeviceBuffer<std::uint32_t> named;

    std::size_t n() const { return input.keys.size(); }
};
template <typename K>
SortProblem<K> make_sort_problem(std::size_t n, pmpp::Distribution dist, const CaseKind& kind, std::uint64_t seed);
// A case's problem: the sort of its key type.
using BitonicProblem = std::variant<SortProblem<std::uint32_t>, SortProblem<std::int32_t>, SortProblem<float>>;
BitonicProblem make_problem(std::size_t n, pmpp::Distribution dist, const CaseKind& kind, std::uint64_t seed);

// Is (keys, values) the sorted input? `expected` is sort_cpu of the input keys. Reports what is
// wrong: not ordered (and how), not a permutation of the input, or values that left their keys.
template <typename K>
pmpp::CheckResult check_sorted_output(const SortInput<K>& in, const std::vector<K>& expected, const K* keys,
                                      const std::uint32_t* values, SortOrder order);

// The check of one run of a sort that wrote `keys` (and `values`, null for keys only): the guard
// zones first ("wrote 1 element past the end of keys ..."), then the keys equal to the CPU's bit
// for bit and the values a valid pairing: each names a different input element whose key is the
// key beside it (any order among equal keys: the network is not stable). Both are decided on the
// device; only a wrong output is downloaded, for check_sorted_output's report.
template <typename K>
pmpp::CheckResult verify_sorted(const SortProblem<K>& p, const pmpp::GuardedBuffer<K>& keys,
                                const pmpp::GuardedBuffer<std::uint32_t>* values);

// Runs the variant's sort of the problem's key type once on a copy of its input, the arrays it
// sorts ("keys" and "values") between guard zones as wide as the padding to a power of two, and
// checks it (verify_sorted). The benchmark checks every warm-up and timed run the same way.
pmpp::CheckResult check(const BitonicFn& fn, const BitonicProblem& p);

// The benchmark row of an in-place sort on `p` (what every in-place variant's row, and odd_even's,
// comes from; the tests time wrong sorts through it). Before every warm-up and timed run,
// untimed: the input restored from the pristine device copy and the guard zones re-armed; after
// every run, verify_sorted. The first wrong run makes the row wrong, its message naming the run
// ("warm-up run 1 of 2: ..."). The note gives the launches the run made (launch_tally).
template <typename K>
pmpp::Measurement bench_in_place(const std::string& label, const SortFn<K>& sort, const SortProblem<K>& p,
                                 pmpp::BenchContext& ctx);

using BitonicExercise = pmpp::Exercise<CaseKind, BitonicFn, BitonicProblem>;
const BitonicExercise& exercise();

}  // namespace bitonic
