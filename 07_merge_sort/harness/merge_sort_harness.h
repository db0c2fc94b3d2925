// merge_sort_harness.h: exercise 07 as the runner sees it (common/exercise.h's typed contract),
// shared by main.cu and the tests. Two operations, each with its own cases and benchmark tables:
// merge (two sorted arrays) and sort (keys, or keys with values), for every key type of
// merge_sort.h. merge_sort_judge.cu: inputs and judges; merge_sort_runs.cu: the device runs of the
// check and the benchmark's rows; merge_sort_harness.cu: options, cases, the check of a case, memory,
// the variants.
#pragma once

#include "merge_sort.h"

#include "common/exercise.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <typeinfo>
#include <vector>

namespace merge_sort {

enum class Op { Sort, Merge };
enum class KeyType { U32, I32, F32, U64, Event };  // the key types of MergeSortFn, in its order
const char* to_string(KeyType type);  // u32, i32, f32, u64, event

// How a merge case deals its n keys to A and B.
enum class MergeShape {
    Halves,  // n/2 and n - n/2, each drawn from the distribution and sorted
    AEmpty,  // 0 and n
    BEmpty,  // n and 0
    AOne,  // 1 and n - 1
    BOne,  // n - 1 and 1
    AThird,  // n/3 and n - n/3
    AllABeforeB,  // one sorted array dealt out: A its first half, B the rest (ties at the border)
    AllBBeforeA,  // the same, B first
    Interleaved,  // one sorted array dealt out: A the even positions, B the odd ones
};
inline constexpr int kMergeShapes = 9;
const char* to_string(MergeShape shape);

// What tells two cases of one size and distribution apart.
struct MergeSortSpec {
    Op op = Op::Sort;
    KeyType type = KeyType::U32;
    bool pairs = false;  // sort: keys with values
    MergeShape shape = MergeShape::Halves;
};
using MergeSortCase = pmpp::CaseOf<MergeSortSpec>;

// Any implementation as the check sees it (device pointers; the comparator is LessOf<Key>).
template <class Key>
using MergeCall =
    std::function<void(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits)>;
template <class Key, class Value>
using SortCall = std::function<void(const SortArgs<Key, Value>& args, std::size_t n)>;
template <class Key>
using CoRankCall =
    std::function<std::size_t(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb)>;

// One merge of an implementation: the student has two, labelled "basic" and "tiled".
template <class Key>
struct NamedMerge {
    std::string label;
    MergeCall<Key> run;
};

// What the check runs of one implementation for one key type: its co-rank (the student's task 1,
// checked on the host before the merges; empty for the others), its merges and its two sorts.
template <class Key>
struct KeyCalls {
    using KeyType = Key;
    CoRankCall<Key> co_rank;
    std::vector<NamedMerge<Key>> merges;
    SortCall<Key, NoValues> sort_keys;
    SortCall<Key, PairValue> sort_pairs;
};

// How a sort's outputs start each run: poisoned, or holding a copy of the input (thrust's sort
// works in place on keys_out and values_out; the copy is untimed).
enum class SortStart { PoisonedOutputs, CopyOfInput };

// One variant, for every key type. The tests replace one of the student's functions with a
// deliberately wrong one and run the check on it.
struct MergeSortFn {
    bool student_tasks = false;  // messages name the task: "task 3, merge_tiled_student: ..."
    SortStart sort_start = SortStart::PoisonedOutputs;
    std::tuple<KeyCalls<std::uint32_t>, KeyCalls<std::int32_t>, KeyCalls<float>, KeyCalls<std::uint64_t>,
               KeyCalls<Event>>
        calls;

    template <class Key>
    const KeyCalls<Key>& of() const {
        return std::get<KeyCalls<Key>>(calls);
    }
    template <class Key, class Value>
    const SortCall<Key, Value>& sort() const {
        if constexpr (kHasValues<Value>)
            return of<Key>().sort_pairs;
        else
            return of<Key>().sort_keys;
    }
    // f(calls) for the calls of every key type (KeyCalls<Key>::KeyType names the type).
    template <class F>
    void for_each_key(F&& f) {
        std::apply([&](auto&... each) { (f(each), ...); }, calls);
    }
};

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
std::vector<Key> expected_merge(const MergeInputs<Key>& in) {
    std::vector<Key> c(in.a.size() + in.b.size());
    merge_cpu(in.a.data(), in.a.size(), in.b.data(), in.b.size(), c.data(), LessOf<Key>{});
    return c;
}
template <class Key, class Value>
SortInputs<Key, Value> expected_sort(const SortInputs<Key, Value>& in) {
    SortInputs<Key, Value> out = in;
    Value* values = nullptr;
    if constexpr (kHasValues<Value>) values = out.values.data();
    sort_cpu(out.keys.data(), values, out.keys.size(), LessOf<Key>{});
    return out;
}

// One check case's problem: a MergeProblem<Key> or a SortProblem<Key, Value>
// (merge_sort_harness.cu), as the case's spec says.
struct MergeSortProblem {
    std::shared_ptr<const void> typed;
};

// One benchmark size's problem: each section's inputs and the CPU's answer (on the host and the
// device), made (T(args...)) by the first variant that needs them and kept for the others.
struct MergeSortBenchProblem {
    std::map<std::string, std::shared_ptr<void>> sections;

    template <class T, class... Args>
    const T& section(const std::string& name, const Args&... args) {
        std::shared_ptr<void>& entry = sections[name + " | " + typeid(T).name()];
        if (!entry) entry = std::make_shared<T>(args...);
        return *static_cast<const T*>(entry.get());
    }
};

// Judging an output on the host. The output must equal the expected one exactly (the stable
// merge, the stable sort: both unique). When it does not, `explain` names the first property it
// breaks, in this order: never written, not ordered by the comparator, not a permutation of the
// input, values not travelling with their keys, equal keys out of order; and the hints of every
// check that found something reach the report.
template <class Key>
pmpp::CheckResult judge_merge(const MergeInputs<Key>& in, const std::vector<Key>& expected, const std::vector<Key>& out,
                              bool explain = true);
template <class Key, class Value>
pmpp::CheckResult judge_sort(const SortInputs<Key, Value>& in, const SortInputs<Key, Value>& expected,
                             const SortInputs<Key, Value>& out, bool explain = true);
// Host: a co-rank function against the reference, at every k of the merge (a sample when long).
template <class Key>
pmpp::CheckResult check_co_rank(const CoRankCall<Key>& co_rank_fn, const MergeInputs<Key>& in);

// Device checks: run the call once on poisoned outputs (thrust's: on a copy of the input); then
// the guard zones of every array it may write ("wrote 1 element past the end of c"); then judge
// (a wrong sort's report also says when keys_scratch holds the right answer); then the inputs
// must be unchanged. Hints name positions by the kernels' slices and tiles (HintScope).
template <class Key>
pmpp::CheckResult check_merge(const MergeCall<Key>& merge, const MergeInputs<Key>& in,
                              const std::vector<Key>& expected);
template <class Key, class Value>
pmpp::CheckResult check_sort(const SortCall<Key, Value>& sort, const SortInputs<Key, Value>& in,
                             const SortInputs<Key, Value>& expected, SortStart start = SortStart::PoisonedOutputs);

// "what: message", for a failure.
inline pmpp::CheckResult prefixed(const std::string& what, pmpp::CheckResult r) {
    if (!r.ok) r.message = what + ": " + r.message;
    return r;
}

// The benchmark's row of one call at size n (uniform input from ctx.seed, made once per section in
// `problem`). Every run (the first, timed once to choose the number of repeats, then every warm-up
// and timed run) starts from poisoned outputs (or the copy of the input) and is checked on the
// device afterwards: guards, the output against the CPU's answer, the inputs unchanged. The first
// wrong run makes the row WRONG, its message naming the run ("warm-up run 2 of 2: keys_out: ...").
template <class Key, class Value>
pmpp::Measurement bench_sort_call(const SortCall<Key, Value>& sort, MergeSortBenchProblem& problem, std::size_t n,
                                  pmpp::BenchContext& ctx, const std::string& section,
                                  SortStart start = SortStart::PoisonedOutputs);
template <class Key>
pmpp::Measurement bench_merge_call(const MergeCall<Key>& merge, MergeSortBenchProblem& problem, std::size_t n,
                                   pmpp::BenchContext& ctx, const std::string& section, const std::string& label);

using MergeSortExercise = pmpp::Exercise<MergeSortSpec, MergeSortFn, MergeSortProblem, MergeSortBenchProblem>;
const MergeSortExercise& exercise();

// The rows of one variant at size n for the run's --type (Key, named key_name) and --op: the sort
// of keys ("kernel", the headline section, whose student row is the key figure), the sort of keys
// with values, the merge; the CPU's rows time merge_cpu and sort_cpu on the host.
template <class Key>
std::vector<pmpp::Measurement> bench_variant(const MergeSortExercise::Row& v, MergeSortBenchProblem& problem,
                                             std::size_t n, pmpp::BenchContext& ctx, const std::string& key_name,
                                             bool sort, bool merge);

}  // namespace merge_sort
