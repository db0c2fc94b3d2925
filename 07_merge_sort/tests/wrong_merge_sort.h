// Deliberately wrong merges and sorts: each makes one classic mistake, and the check must reject
// every one of them. Instantiated for every key type, keys only and with u32 values.
#pragma once

#include "../merge_sort.h"

#include <cstddef>

namespace wrong {

// Every thread's co-rank one too far into A (where the answer allows): slices overlap and leave gaps.
template <class Key>
void merge_co_rank_off_by_one(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);
// A consistent merge that takes B's element on ties (co-rank and merge both B-first): unstable.
template <class Key>
void merge_ties_from_b(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);
// The last output is never written.
template <class Key>
void merge_skips_last(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);
// One thread per output with the bound k <= na + nb, and blocks for total / 256 + 1 threads: the
// thread one too many stores the last output again, one element past the end of c.
template <class Key>
void merge_one_past_end(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);
// Every thread stores its slice one place early (c[k - 1] for output k, a 1-based habit): the
// first output lands one element before the start of c.
template <class Key>
void merge_one_early(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);
// Right on the first call; called again with the same pointers and sizes, it returns at once,
// trusting that the output is still there (the benchmark's repeats).
template <class Key>
void merge_memoized(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits);

// Sorts each half, never merges the two.
template <class Key, class Value>
void sort_halves_only(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// A right sort, then every run of equal keys reversed (with its values).
template <class Key, class Value>
void sort_unstable(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// Keys sorted, values copied straight from the input.
template <class Key, class Value>
void sort_values_stay(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// The result lands in the scratch array; the output is never written.
template <class Key, class Value>
void sort_into_scratch(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// A right result, but keys_in was used as scratch.
template <class Key, class Value>
void sort_uses_input_as_scratch(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// A right result, then an "infinite" sentinel key (all ones) stored after the scratch keys, as the
// textbook's sequential merge does after each run: one element past the end of keys_scratch.
template <class Key, class Value>
void sort_sentinel_past_scratch(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);
// merge_memoized's sort: right on the first call, nothing when the same pointers and n come again.
template <class Key, class Value>
void sort_memoized(const merge_sort::SortArgs<Key, Value>& args, std::size_t n);

// Makes the memoized merge and sort compute again on their next call (between tests: a freed and
// reallocated array can have the same address).
void forget_memoized_calls();

}  // namespace wrong
