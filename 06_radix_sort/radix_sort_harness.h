// radix_sort_harness.h: the checker and the benchmark of exercise 06, shared by main.cu and the
// tests. The check covers every key type, keys alone and with values, adversarial inputs and
// bit ranges, whatever the options say; --type, --pairs and --bits choose what is benchmarked.
// Every run the benchmark times is checked as the check checks it, and everything a sort may
// write (keys_out, values_out, the workspace) lies between guard zones.
#pragma once

#include "radix_sort.h"

#include "common/exercise.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace radix_sort {

enum class KeyType { U32 = 0, I32 = 1, F32 = 2, U64 = 3 };
inline constexpr KeyType kKeyTypes[] = {KeyType::U32, KeyType::I32, KeyType::F32, KeyType::U64};
const char* to_string(KeyType type);  // u32, i32, f32, u64
bool parse_key_type(const std::string& text, KeyType& out);

// Inputs. Bit patterns are drawn in the keys' ordered bits (to_bits), so "only the top byte
// differs" means the same for every key type.
enum class InputKind {
    Uniform,          // every bit pattern equally likely (floats: NaNs, infinities, denormals too)
    AllEqual,         // one value
    Sorted,           // non-decreasing (common/rng.h)
    Reversed,         // non-increasing
    TwoDistinct,      // two values, at random
    SixteenDistinct,  // sixteen values, at random
    TopByteOnly,      // keys differ only in the top byte of their ordered bits
    BottomByteOnly,   // keys differ only in the bottom byte
    Specials,         // half special values (int32: negatives, extremes; float: +-0, +-inf, NaNs,
                      // denormals, +-max), half uniform
};
inline constexpr int kInputKinds = 9;
const char* to_string(InputKind kind);

// Bit ranges of the check, relative to the key's width W.
enum class BitRange {
    Full,              // [0, W)
    Low16,             // [0, 16): 16-bit keys, 2 passes of 8 bits
    Odd,               // [4, W/2 + 5): starts inside a digit, ends with a short one
    TopHalf,           // [W/2, W)
    Empty,             // [8, 8): no pass at all; the output is the input
    AllButTopByte,     // [0, W - 8)
    AllButBottomByte,  // [8, W)
};
inline constexpr int kBitRanges = 7;
struct BitSpan {
    int begin = 0;
    int end = 0;
};
BitSpan bit_span(BitRange range, int key_bits);

// What a case's Case::variant encodes.
struct CaseSpec {
    KeyType type = KeyType::U32;
    bool pairs = false;
    InputKind kind = InputKind::Uniform;
    BitRange bits = BitRange::Full;
};
int encode(const CaseSpec& spec);
CaseSpec decode(int variant);
pmpp::Case make_case(const CaseSpec& spec, std::size_t n);  // labelled "n=... u32 keys uniform ..."

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

// Judges an output on the host. Right means equal to the CPU's stable sort, bit for bit (keys
// and values): that is ordered, a permutation, values with their keys, and stable, in one
// comparison. When it is wrong, the message names the first of those it breaks (never
// written, not ordered by the bits, not a permutation, values not with their keys, not stable);
// above kExplainLimit keys only the first two are looked for (the others sort the input again).
// The hints are facts about the output, each sub-check's and the comparison's: where the
// differences lie (named by the exercise's tiles when the check runs in check_sort or a case),
// which keys were lost, and for an output not ordered by the range what it is ordered by instead
// (the raw bits of int32 or float keys, the range's lowest or highest bits only, every bit of the
// key). An output in no order, of keys the input does not hold, gets none.
inline constexpr std::size_t kExplainLimit = std::size_t{1} << 22;
template <class Key>
pmpp::CheckResult judge(const SortData<Key>& in, const SortData<Key>& expected, const SortData<Key>& out, BitSpan bits);

// A 64-bit digest of an output (keys and values, position by position): equal outputs, equal
// digests; two different outputs share one with probability about 2^-64.
template <class Key>
std::uint64_t output_digest(const SortData<Key>& d);

// Any implementation, as the check sees it.
template <class Key>
struct SortImpl {
    std::function<std::size_t(std::size_t n, bool pairs)> workspace_bytes;
    std::function<void(const SortArgs<Key>& args)> run;
};
template <class Key>
SortImpl<Key> impl_by_name(const std::string& name);

// Runs `impl` on the device: keys_out, values_out and the workspace poisoned first and held
// between guard zones; after the run the guards are checked first (a write outside any of them
// fails: "wrote 1 element past the end of keys_out ..."), then the output is judged and the
// input checked unchanged.
template <class Key>
pmpp::CheckResult check_sort(const SortImpl<Key>& impl, const SortData<Key>& in, const SortData<Key>& expected,
                             BitSpan bits);
// One case of the list, for an implementation given by name or directly. The CPU's answers to
// cases of 2^22 keys or more are remembered (as 64-bit digests of the output) for the process,
// so checking several implementations on the same inputs sorts each on the CPU once.
pmpp::CheckResult check_case(const std::string& impl, const pmpp::Case& c, std::uint64_t seed);
template <class Key>
pmpp::CheckResult check_case_with(const SortImpl<Key>& impl, const CaseSpec& spec, std::size_t n, std::uint64_t seed);

// The benchmark of one device implementation on one sort at size n: keys alone or with values
// (`pairs`), by `bits`, uniform inputs from ctx.seed. `info` names the rows and says whether the
// stage breakdown is timed (references only); `headline` puts the row in the "kernel" section.
// Every run is checked, the slow-run probe, the warm-ups and the timed runs alike, outside the
// timed region: before each, the outputs and the workspace are poisoned and their guards
// armed; after each, the guards, the input (unchanged) and the output (equal to the CPU's, on
// the device) are checked. The first wrong run makes the row wrong, its message naming the run.
template <class Key>
std::vector<pmpp::Measurement> bench_sort_with(const SortImpl<Key>& impl, const pmpp::Impl& info, std::size_t n,
                                               pmpp::BenchContext& ctx, bool pairs, BitSpan bits,
                                               bool headline = true);

// Frees the inputs and CPU answers the benchmark keeps for every implementation of one size and
// seed (they go anyway when the size or the seed changes). The memory tests call it first: a
// cache freed inside their measurement would hide part of the peak.
void release_bench_inputs();

pmpp::ExerciseDef exercise();

}  // namespace radix_sort
