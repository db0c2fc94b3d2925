// merge_sort.h: the functions of exercise 07. Merging two sorted arrays (PMPP chapter 12) and a
// stable merge sort built on that merge (PMPP chapter 13), for any key type with a comparator.
//
// Pointers are device pointers unless the function name ends in _cpu; all work goes on the
// default stream. Every merge is stable: on equal keys, A's element comes first. Every sort is
// stable: equal keys keep their input order, and values (when given) travel with their keys.
#pragma once

#include "common/keys.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "common/host_device.h"  // PMPP_HD; PMPP_HD_EXTERN for co_rank_student, compiled in the student's file

namespace merge_sort {

// ---- Keys, values and comparators ------------------------------------------------------------

// uint32, int32, float and uint64 keys are ordered by pmpp::TotalOrderLess: operator< for
// integers, for floats the course's total order (-inf < ... < -0 < +0 < ... < +inf < +NaN <
// -NaN: every NaN last), so every bit pattern has a place and a float sort is well defined.
using KeyLess = pmpp::TotalOrderLess;

// A small record sorted by one field with a custom comparator: by time only, so events at the
// same time must keep their input order (their ids show whether they did).
struct Event {
    float time;
    std::uint32_t id;
};
struct EarlierEvent {
    PMPP_HD bool operator()(const Event& x, const Event& y) const {
        return pmpp::ordered_bits(x.time) < pmpp::ordered_bits(y.time);
    }
};
// For check reports (found by argument-dependent lookup from common/check.h).
inline std::string format_value(const Event& e) {
    char text[64];
    std::snprintf(text, sizeof text, "{time %.9g, id %u}", static_cast<double>(e.time), e.id);
    return text;
}

// The comparator the exercise uses for each key type.
template <class Key>
struct DefaultLess {
    using type = KeyLess;
};
template <>
struct DefaultLess<Event> {
    using type = EarlierEvent;
};
template <class Key>
using LessOf = typename DefaultLess<Key>::type;

// The value type of a keys-only sort: nothing is loaded, moved or stored.
struct NoValues {};
template <class Value>
inline constexpr bool kHasValues = !std::is_same_v<std::remove_cv_t<Value>, NoValues>;
// The value type of a key-value sort.
using PairValue = std::uint32_t;

// Every (key, comparator) the exercise instantiates: X(Key, Less) once for each.
#define MERGE_SORT_FOR_EACH_KEY(X)          \
    X(std::uint32_t, ::merge_sort::KeyLess) \
    X(std::int32_t, ::merge_sort::KeyLess)  \
    X(float, ::merge_sort::KeyLess)         \
    X(std::uint64_t, ::merge_sort::KeyLess) \
    X(::merge_sort::Event, ::merge_sort::EarlierEvent)

// ---- What a sort and a merge are given -------------------------------------------------------

// A sort reads keys_in (and values_in), which it must leave unchanged, and writes keys_out (and
// values_out). It may use the scratch arrays freely: n keys, n values, and split_capacity(n)
// split positions. For a keys-only sort (Value = NoValues) every value pointer is null.
template <class Key, class Value>
struct SortArgs {
    const Key* keys_in = nullptr;
    const Value* values_in = nullptr;
    Key* keys_out = nullptr;
    Value* values_out = nullptr;
    Key* keys_scratch = nullptr;
    Value* values_scratch = nullptr;
    std::size_t* splits = nullptr;
};

// Room for one split position per 32 elements, plus two: enough for any tile of 32 or more.
// A merge of na + nb keys gets split_capacity(na + nb) of them.
constexpr std::size_t split_capacity(std::size_t n) { return n / 32 + 2; }

// ---- Your part: merge_sort_student.cu (README.md, tasks 1-4) ---------------------------------

// Task 1: how many of the first k elements of the stable merge of a[0, na) and b[0, nb) come
// from a. Host and device.
template <class Key, class Less>
PMPP_HD_EXTERN std::size_t co_rank_student(std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                           Less less);
// Task 2: PMPP 12.5's basic merge kernel: c[0, na + nb) = merge of a and b.
template <class Key, class Less>
void merge_basic_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less);
// Task 3: PMPP 12.6's tiled merge kernel, same contract.
template <class Key, class Less>
void merge_tiled_student(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits,
                         Less less);
// Task 4: a stable merge sort of n keys (and values) built on your merge.
template <class Key, class Value, class Less>
void sort_student(const SortArgs<Key, Value>& args, std::size_t n, Less less);

// ---- Reference variants, one file each ------------------------------------------------------
// merge_sort_1_basic.cu: PMPP 12.5's basic merge; sort: one merge per block per pass.
template <class Key, class Less>
void merge_basic(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_basic(const SortArgs<Key, Value>& args, std::size_t n, Less less);
// merge_sort_2_tiled.cu: PMPP 12.6's tiled merge; sort: tiles sorted in shared memory, then
// merge passes split evenly among blocks by co-rank.
template <class Key, class Less>
void merge_tiled(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_tiled(const SortArgs<Key, Value>& args, std::size_t n, Less less);
// merge_sort_3_circular.cu: PMPP 12.7's circular-buffer tiled merge, in the same passes.
template <class Key, class Less>
void merge_circular(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_circular(const SortArgs<Key, Value>& args, std::size_t n, Less less);
// merge_sort_4_fast.cu: merge path with one output tile per block, many items per thread in
// registers, larger sorted tiles, fewer passes.
template <class Key, class Less>
void merge_fast(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_fast(const SortArgs<Key, Value>& args, std::size_t n, Less less);
// The tiles merge_fast (Value = NoValues) and sort_fast use for these keys (and values) on this
// GPU: the keys of one sorted tile and the outputs of one merge tile. The check's hints name
// positions by them.
struct FastTiles {
    std::size_t sort_tile = 0;
    std::size_t merge_tile = 0;
};
template <class Key, class Value>
FastTiles fast_tiles();
// merge_sort_5_network.cu: variant 4's merge passes from first runs sorted by exercise 05's
// bitonic network (4-byte keys without values; every other case is variant 4's sort). The merge
// is variant 4's merge_fast.
template <class Key, class Less>
void merge_network(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_network(const SortArgs<Key, Value>& args, std::size_t n, Less less);

// ---- Library baselines --------------------------------------------------------------------
// merge_sort_cub.cu: cub::DeviceMerge::MergeKeys and cub::DeviceMergeSort (temporary storage
// kept between calls, so it is allocated in the warm-up, never in a timed run).
template <class Key, class Less>
void merge_cub(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_cub(const SortArgs<Key, Value>& args, std::size_t n, Less less);
// merge_sort_thrust.cu: thrust::merge and thrust::sort (_by_key) with the custom comparator.
// thrust::sort works in place: keys (and values) hold the input on entry, the result on return.
template <class Key, class Less>
void merge_thrust(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less);
template <class Key, class Value, class Less>
void sort_thrust_in_place(Key* keys, Value* values, std::size_t n, Less less);

// ---- The CPU reference: the definition of correct (merge_sort_cpu.cpp, host pointers) --------
template <class Key, class Less>
void merge_cpu(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, Less less);
// In place; `threads` host threads (0: all of them). values: null for a keys-only sort.
template <class Key, class Value, class Less>
void sort_cpu(Key* keys, Value* values, std::size_t n, Less less, unsigned threads = 0);

// Explicit instantiations of a merge and a sort for every key type (and keys-only and key-value
// sorts), so the harness can call them from another file. Use inside namespace merge_sort.
#define MERGE_SORT_INSTANTIATE_MERGE(merge_fn, Key, Less) \
    template void merge_fn<Key, Less>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*, Less);
#define MERGE_SORT_INSTANTIATE_SORT(sort_fn, Key, Less)                                 \
    template void sort_fn<Key, ::merge_sort::NoValues, Less>(                           \
        const ::merge_sort::SortArgs<Key, ::merge_sort::NoValues>&, std::size_t, Less); \
    template void sort_fn<Key, ::merge_sort::PairValue, Less>(                          \
        const ::merge_sort::SortArgs<Key, ::merge_sort::PairValue>&, std::size_t, Less);

// The student's four functions for one key type (merge_sort_student.cu and merge_sort_solution.cu
// end with MERGE_SORT_FOR_EACH_KEY(MERGE_SORT_INSTANTIATE_STUDENT)).
#define MERGE_SORT_INSTANTIATE_STUDENT(Key, Less)                                                                    \
    template PMPP_HD_EXTERN std::size_t co_rank_student<Key, Less>(std::size_t, const Key*, std::size_t, const Key*, \
                                                                   std::size_t, Less);                               \
    MERGE_SORT_INSTANTIATE_MERGE(merge_basic_student, Key, Less)                                                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_tiled_student, Key, Less)                                                     \
    MERGE_SORT_INSTANTIATE_SORT(sort_student, Key, Less)

}  // namespace merge_sort
