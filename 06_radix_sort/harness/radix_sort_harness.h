// radix_sort_harness.h: exercise 06 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests. The check covers every key type, keys alone and with values,
// adversarial inputs and bit ranges, whatever the options say; --type, --pairs and --bits choose
// what is benchmarked. Every run the benchmark times is checked as the check checks it, and
// everything a sort may write (keys_out, values_out, the workspace) lies between guard zones.
//
// The files: radix_sort_harness.cu (the case list, the table of variants, the memory of one
// size), radix_sort_judge.cu (the inputs, the CPU's answers and the judge of an output),
// radix_sort_runs.cu (the check and the benchmark on the device).
#pragma once

#include "radix_sort.h"

#include "common/exercise.h"
#include "common/type_dispatch.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace radix_sort {

enum class KeyType { U32 = 0, I32 = 1, F32 = 2, U64 = 3 };
inline constexpr KeyType kKeyTypes[] = {KeyType::U32, KeyType::I32, KeyType::F32, KeyType::U64};
// The key types in KeyType's order: pmpp::with_type<KeyTypes>(type, f) calls f with the key type.
using KeyTypes = pmpp::TypeList<std::uint32_t, std::int32_t, float, std::uint64_t>;
// A template instantiated for every key type, in KeyType's order (the problems below).
template <template <class> class T>
using PerKeyType = std::variant<T<std::uint32_t>, T<std::int32_t>, T<float>, T<std::uint64_t>>;
const char* to_string(KeyType type);  // u32, i32, f32, u64

// A key's bits as memory holds them (to_bits gives the ordered bits it is sorted by), and back.
template <class Key>
BitsOf<Key> stored_bits(Key key) {
    BitsOf<Key> bits;
    std::memcpy(&bits, &key, sizeof bits);
    return bits;
}
template <class Key>
Key from_stored_bits(BitsOf<Key> bits) {
    Key key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
}

// Inputs. Bit patterns are drawn in the keys' ordered bits (to_bits), so "only the top byte
// differs" means the same for every key type.
enum class InputKind {
    Uniform,  // every bit pattern equally likely (floats: NaNs, infinities, denormals too)
    AllEqual,  // one value
    Sorted,  // non-decreasing (common/rng.h)
    Reversed,  // non-increasing
    TwoDistinct,  // two values, at random
    SixteenDistinct,  // sixteen values, at random
    TopByteOnly,  // keys differ only in the top byte of their ordered bits
    BottomByteOnly,  // keys differ only in the bottom byte
    Specials,  // half special values (int32: negatives, extremes; float: +-0, +-inf, NaNs,
    // denormals, +-max), half uniform
};
inline constexpr int kInputKinds = 9;
const char* to_string(InputKind kind);

// Bit ranges of the check, relative to the key's width W.
enum class BitRange {
    Full,  // [0, W)
    Low16,  // [0, 16): 16-bit keys, 2 passes of 8 bits
    Odd,  // [4, W/2 + 5): starts inside a digit, ends with a short one
    TopHalf,  // [W/2, W)
    Empty,  // [8, 8): no pass at all; the output is the input
    AllButTopByte,  // [0, W - 8)
    AllButBottomByte,  // [8, W)
};
inline constexpr int kBitRanges = 7;
struct BitSpan {
    int begin = 0;
    int end = 0;
};
inline std::string describe(BitSpan bits) {
    return "bits " + std::to_string(bits.begin) + ":" + std::to_string(bits.end);
}

// What tells two cases of the same size apart (pmpp::CaseOf adds n and the distribution).
struct CaseSpec {
    KeyType type = KeyType::U32;
    bool pairs = false;
    InputKind kind = InputKind::Uniform;
    BitRange bits = BitRange::Full;
};
using SortCase = pmpp::CaseOf<CaseSpec>;
SortCase make_case(const CaseSpec& spec, std::size_t n);

// Keys, and values when `pairs` (value i is unique: a bijection of i, so a stability check sees
// every reordering of equal keys).
template <class Key>
struct SortData {
    std::vector<Key> keys;
    std::vector<Value> values;  // empty unless pairs
    bool pairs = false;
};
template <class Key>
SortData<Key> make_input(std::size_t n, InputKind kind, bool pairs, std::uint64_t seed);
// The CPU reference's answer.
template <class Key>
SortData<Key> expected_sort(const SortData<Key>& in, BitSpan bits);

// One sort: its input, by which bits, and the CPU's answer. A case's problem is the sort of its
// key type; a benchmark size's, the sorts the options ask for.
template <class Key>
struct SortProblem {
    using key_type = Key;
    SortData<Key> in, expected;
    BitSpan bits;
};
template <class Key>
SortProblem<Key> make_sort_problem(std::size_t n, InputKind kind, bool pairs, BitSpan bits, std::uint64_t seed);
using CaseProblem = PerKeyType<SortProblem>;
template <class Key>
using SortProblems = std::vector<SortProblem<Key>>;  // keys alone first, then with values, as asked
using BenchProblem = PerKeyType<SortProblems>;

// Judges an output on the host. Right means equal to the CPU's stable sort, bit for bit (keys
// and values). When it is wrong, the message names the first property it breaks (never
// written, not ordered by the bits, not a permutation, values not with their keys, not stable);
// above kExplainLimit keys only the first two are looked for (the others sort the input again).
// The hints are facts about the output: where the differences lie (named by the exercise's
// tiles in the device check), which keys were lost, and for an output not ordered by the range
// what it is ordered by instead. An output in no order, of keys the input does not hold, gets none.
inline constexpr std::size_t kExplainLimit = std::size_t{1} << 22;
template <class Key>
pmpp::CheckResult judge(const SortData<Key>& in, const SortData<Key>& expected, const SortData<Key>& out, BitSpan bits);

// Any implementation of one key type, as the check sees it.
template <class Key>
struct SortImpl {
    std::function<std::size_t(std::size_t n, bool pairs)> workspace_bytes;
    std::function<void(const SortArgs<Key>& args)> run;
};
// A variant, as the check and the benchmark call it: its sort of each key type (none: the CPU's).
struct SortFn {
    std::tuple<SortImpl<std::uint32_t>, SortImpl<std::int32_t>, SortImpl<float>, SortImpl<std::uint64_t>> sorts;
    template <class Key>
    const SortImpl<Key>& get() const {
        return std::get<SortImpl<Key>>(sorts);
    }
};
// make(pmpp::TypeTag<Key>{}) -> SortImpl<Key>, for every key type.
template <class Make>
SortFn make_sort_fn(Make make) {
    return {{make(pmpp::TypeTag<std::uint32_t>{}), make(pmpp::TypeTag<std::int32_t>{}), make(pmpp::TypeTag<float>{}),
             make(pmpp::TypeTag<std::uint64_t>{})}};
}
// The sort templates SORT<Key> with their workspace functions WORKSPACE<Key>, for every key type.
#define RADIX_SORT_FN(WORKSPACE, SORT)                                 \
    ::radix_sort::make_sort_fn([](auto tag) {                          \
        using Key = typename decltype(tag)::type;                      \
        return ::radix_sort::SortImpl<Key>{WORKSPACE<Key>, SORT<Key>}; \
    })

// Runs `impl` once on the device, keys_out, values_out and the workspace poisoned and between
// guard zones; then checks the guards ("wrote 1 element past the end of keys_out ..."), judges
// the output and checks the input unchanged.
template <class Key>
pmpp::CheckResult check_sort(const SortImpl<Key>& impl, const SortProblem<Key>& p);

// The benchmark of one device implementation on one sort: its row and, when `stages` (the
// references), the time of each stage the sort marks, in rows named after `name`. Every run (the probe of how long a run takes, the warm-ups, the timed
// runs, the runs timed by stage) is checked as check_sort checks, outside the timed region, the
// output compared on the device; the first wrong run makes the row wrong, its message naming it.
template <class Key>
std::vector<pmpp::Measurement> bench_sort(const SortImpl<Key>& impl, const std::string& name, bool stages,
                                          const SortProblem<Key>& p, pmpp::BenchContext& ctx);

using RadixSortExercise = pmpp::Exercise<CaseSpec, SortFn, CaseProblem, BenchProblem>;
// The rows of one variant at one benchmark size: each sort of the problem (the first one is the
// headline); the CPU's row times radix_sort_cpu.
std::vector<pmpp::Measurement> bench_variant(const RadixSortExercise::Row& v, BenchProblem& p, std::size_t n,
                                             pmpp::BenchContext& ctx);

const RadixSortExercise& exercise();

}  // namespace radix_sort
