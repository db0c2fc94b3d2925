// merge_sort_harness.h: the checker and the benchmark of exercise 07, shared by main.cu and the
// tests. Two operations, each with its own cases and benchmark tables: merge (two sorted arrays)
// and sort (keys, or keys with values), for every key type of merge_sort.h.
#pragma once

#include "merge_sort.h"

#include "common/exercise.h"

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace merge_sort {

enum class Op { Sort = 0, Merge = 1 };
enum class KeyType { U32 = 0, I32 = 1, F32 = 2, U64 = 3, Event = 4 };
inline constexpr KeyType kKeyTypes[] = {KeyType::U32, KeyType::I32, KeyType::F32, KeyType::U64, KeyType::Event};
const char* to_string(KeyType type);  // u32, i32, f32, u64, event
bool parse_key_type(const std::string& text, KeyType& out);

// How a merge case deals its n keys to A and B.
enum class MergeShape {
    Halves = 0,   // n/2 and n - n/2, each drawn from the distribution and sorted
    AEmpty,       // 0 and n
    BEmpty,       // n and 0
    AOne,         // 1 and n - 1
    BOne,         // n - 1 and 1
    AThird,       // n/3 and n - n/3
    AllABeforeB,  // one sorted array dealt out: A its first half, B the rest (ties at the border)
    AllBBeforeA,  // the same, B first
    Interleaved,  // one sorted array dealt out: A the even positions, B the odd ones
};
inline constexpr int kMergeShapes = 9;
const char* to_string(MergeShape shape);

// What a case's Case::variant encodes (variant 0: a sort of u32 keys).
struct CaseSpec {
    Op op = Op::Sort;
    KeyType type = KeyType::U32;
    bool pairs = false;  // sort: keys with values
    MergeShape shape = MergeShape::Halves;
};
int encode(const CaseSpec& spec);
CaseSpec decode(int variant);
pmpp::Case make_case(const CaseSpec& spec, std::size_t n, pmpp::Distribution dist);  // labelled

// Any implementation as the check sees it (device pointers; the comparator is LessOf<Key>).
template <class Key>
using MergeCall = std::function<void(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits)>;
template <class Key, class Value>
using SortCall = std::function<void(const SortArgs<Key, Value>& args, std::size_t n)>;
template <class Key>
using CoRankCall = std::function<std::size_t(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb)>;

// An implementation's merges: one, or the student's two (labelled "basic" and "tiled").
template <class Key>
struct NamedMerge {
    std::string label;
    MergeCall<Key> run;
};
template <class Key>
std::vector<NamedMerge<Key>> merges_of(const std::string& impl);
template <class Key, class Value>
SortCall<Key, Value> sort_of(const std::string& impl);

// Inputs drawn from a seed; B's events carry ids from kFirstIdOfB so a report shows their origin.
template <class Key>
struct MergeInputs {
    std::vector<Key> a, b;
};
template <class Key, class Value>
struct SortInputs {
    std::vector<Key> keys;
    std::vector<Value> values;  // empty for a keys-only sort
};
inline constexpr std::uint32_t kFirstIdOfB = 1000000000;
template <class Key>
MergeInputs<Key> merge_inputs(std::size_t n, pmpp::Distribution dist, MergeShape shape, std::uint64_t seed);
template <class Key, class Value>
SortInputs<Key, Value> sort_inputs(std::size_t n, pmpp::Distribution dist, std::uint64_t seed);
// The right answers, from the CPU reference.
template <class Key>
std::vector<Key> expected_merge(const MergeInputs<Key>& in);
template <class Key, class Value>
SortInputs<Key, Value> expected_sort(const SortInputs<Key, Value>& in);

// Judging an output on the host. The output must equal the expected one exactly (the stable
// merge, the stable sort: both unique). When it does not, `explain` names the first property it
// breaks, in this order: never written, not ordered by the comparator, not a permutation of the
// input, values not travelling with their keys, equal keys out of order; and the hints of every
// check that found something reach the report: the comparison's patterns (where the wrong part
// starts, an element shifted), the order's (sorted runs never merged), the elements' (which were
// lost, which doubled).
template <class Key>
pmpp::CheckResult judge_merge(const MergeInputs<Key>& in, const std::vector<Key>& expected, const std::vector<Key>& out,
                              bool explain = true);
template <class Key, class Value>
pmpp::CheckResult judge_sort(const SortInputs<Key, Value>& in, const SortInputs<Key, Value>& expected,
                             const SortInputs<Key, Value>& out, bool explain = true);

// Device checks: run the call once on poisoned outputs; then the guard zones of every array it
// may write (c and splits; keys_out, values_out, keys_scratch, values_scratch and splits), so a
// write outside one fails with "wrote 1 element past the end of c"; then judge (a wrong sort's
// report also says when keys_scratch holds the right answer); then the inputs must be unchanged.
// Both name their patterns by the structure of the kernels (HintScope): a merge's slices of 8
// outputs, tiles of 1024 and block ranges of 4096, a sort's tiles of 1024, and the fast variant's
// tiles for these keys.
template <class Key>
pmpp::CheckResult check_merge(const MergeCall<Key>& merge, const MergeInputs<Key>& in, const std::vector<Key>& expected);
template <class Key, class Value>
pmpp::CheckResult check_sort(const SortCall<Key, Value>& sort, const SortInputs<Key, Value>& in,
                             const SortInputs<Key, Value>& expected);
// Host: a co-rank function against the reference, at every k of the merge (a sample when long).
template <class Key>
pmpp::CheckResult check_co_rank(const CoRankCall<Key>& co_rank_fn, const MergeInputs<Key>& in);

// What the check runs of one implementation for one key type: its co-rank (the student's task 1,
// checked on the host before the merges; empty for the others), its merges (the student's two:
// "basic", then "tiled") and its sorts of keys and of keys with values.
template <class Key>
struct KeyCalls {
    using KeyType = Key;
    CoRankCall<Key> co_rank;
    std::vector<NamedMerge<Key>> merges;
    SortCall<Key, NoValues> sort_keys;
    SortCall<Key, PairValue> sort_pairs;
};

// An implementation as the check sees it, for every key type. The tests replace one of the
// student's functions with a deliberately wrong one and run the check on it.
struct CheckedImpl {
    bool student_tasks = false;  // messages name the task: "task 3, merge_tiled_student: ..."
    KeyCalls<std::uint32_t> u32;
    KeyCalls<std::int32_t> i32;
    KeyCalls<float> f32;
    KeyCalls<std::uint64_t> u64;
    KeyCalls<Event> event;

    template <class Key>
    const KeyCalls<Key>& of() const {
        if constexpr (std::is_same_v<Key, std::uint32_t>) return u32;
        else if constexpr (std::is_same_v<Key, std::int32_t>) return i32;
        else if constexpr (std::is_same_v<Key, float>) return f32;
        else if constexpr (std::is_same_v<Key, std::uint64_t>) return u64;
        else return event;
    }
    // f(calls) for the calls of every key type (KeyCalls<Key>::KeyType names the type).
    template <class F>
    void for_each_key(F&& f) {
        f(u32);
        f(i32);
        f(f32);
        f(u64);
        f(event);
    }
};
CheckedImpl checked_impl(const std::string& impl);  // by name: "student", "basic", ..., "thrust"

// One case of the case list, for the implementation named `impl` (what --check runs).
pmpp::CheckResult check_case(const std::string& impl, const pmpp::Case& c, std::uint64_t seed);
pmpp::CheckResult check_case(const CheckedImpl& impl, const pmpp::Case& c, std::uint64_t seed);

// How a sort's outputs start each benchmark run: poisoned, or holding a copy of the input
// (thrust's sort works in place on keys_out and values_out; the copy is untimed).
enum class SortStart { PoisonedOutputs, CopyOfInput };
// The benchmark of one call at size n (uniform input from ctx.seed, the same for every call at
// that size and section), as every device implementation is timed: one row. Each run (the first
// one, timed once to choose the number of repeats, then every warm-up and timed run) starts from
// poisoned outputs and re-armed guard zones, and is checked afterwards on the device: the guards
// of every array the call may write, the output against the CPU's answer, the inputs unchanged.
// The first wrong run makes the row WRONG, its message naming the run ("warm-up run 2 of 2:
// keys_out: ...").
template <class Key, class Value>
pmpp::Measurement bench_sort_call(const SortCall<Key, Value>& sort, std::size_t n, pmpp::BenchContext& ctx,
                                  const std::string& section, SortStart start = SortStart::PoisonedOutputs);
template <class Key>
pmpp::Measurement bench_merge_call(const MergeCall<Key>& merge, std::size_t n, pmpp::BenchContext& ctx,
                                   const std::string& section, const std::string& label);

// Empties the benchmark's cache of inputs and CPU answers (made once per size and seed, and kept
// until the next size's first row). For the memory tests: a benchmark that replaces a large cache
// frees it first, and its peak then reads low by what an earlier test left there.
void clear_bench_cache();

pmpp::ExerciseDef exercise();

}  // namespace merge_sort
