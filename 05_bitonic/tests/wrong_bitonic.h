// Deliberately wrong sorts: each makes one classic mistake, and the check must reject every one.
#pragma once

#include "../bitonic.h"

#include <cstddef>
#include <cstdint>

namespace wrong {

template <typename K>  // leaves out one step, (k = 4, j = 1)
void skips_a_step(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // the direction test negated in every step: the whole output comes out reversed
void flips_the_direction_bit(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // the direction read from bit k/2 instead of bit k
void reads_the_direction_from_the_wrong_bit(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // forward when bit k of i is 0: right only when n is a power of two
void uses_the_seeds_direction_rule(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // sorts, then overwrites element n/2 with its neighbour (key and value)
void loses_a_key_and_duplicates_another(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // sorts the keys and leaves the values where they were
void leaves_the_values_behind(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // pads to the next power of two in memory with the last key, past the end of the array
void pads_in_memory_past_the_end(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>
void does_nothing(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

}  // namespace wrong
