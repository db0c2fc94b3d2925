// Deliberately wrong sorts, one classic mistake each, built on the real Onesweep sort: the
// check must reject every one, and say why. Same interface as the sorts of radix_sort.h.
#pragma once

#include "../radix_sort.h"

#include <cstddef>

namespace wrong {

// Room for any of them (Onesweep's workspace).
template <class Key>
std::size_t workspace_bytes(std::size_t n, bool pairs);

// Sorted, then the values of every two neighbouring equal keys swapped: an unstable sort.
template <class Key>
void unstable_pairs(const radix_sort::SortArgs<Key>& args);
// The lowest digit (8 bits) never sorted.
template <class Key>
void skips_a_digit(const radix_sort::SortArgs<Key>& args);
// Sorted, then the key in the middle overwritten by its neighbour: one key lost, one doubled.
template <class Key>
void loses_a_key(const radix_sort::SortArgs<Key>& args);
// The keys sorted alone; the values copied through in input order.
template <class Key>
void leaves_values_behind(const radix_sort::SortArgs<Key>& args);
// Stable passes over the digits, most significant first: sorted by the lowest digit only.
template <class Key>
void most_significant_digit_first(const radix_sort::SortArgs<Key>& args);
// Sorted, then the last (partial) tile of 1000 outputs left unwritten.
template <class Key>
void drops_the_last_tile(const radix_sort::SortArgs<Key>& args);
// Sorts by every bit of the key, whatever the bit range.
template <class Key>
void ignores_the_bit_range(const radix_sort::SortArgs<Key>& args);

}  // namespace wrong
