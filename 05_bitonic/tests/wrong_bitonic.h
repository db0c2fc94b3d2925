// Deliberately wrong sorts: each makes one classic mistake, and the check must reject every one.
#pragma once

#include "../bitonic.h"

#include <cstddef>
#include <cstdint>

namespace wrong {

using bitonic::SortOrder;

// The mistakes made inside the network (faulty_network): the sort of each one is below.
enum class Mistake {
    None,
    SkipsAStep,
    FlipsTheDirectionBit,
    ReadsTheWrongBit,
    SeedsDirectionRule,
    PartnerPastNNotSkipped,
    ComparesWithLessThan,
    SwapsThroughAnOverwrittenKey,
    StagesUpToN,
    SkipsTheStepsLongerThanATile,
};
// The seed's network, one launch per step (k, j), with `M` made wherever it applies.
template <Mistake M, typename K>
void faulty_network(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

template <typename K>  // leaves out one step, (k = 4, j = 1)
constexpr auto skips_a_step = faulty_network<Mistake::SkipsAStep, K>;
template <typename K>  // the direction test negated in every step: the whole output comes out reversed
constexpr auto flips_the_direction_bit = faulty_network<Mistake::FlipsTheDirectionBit, K>;
template <typename K>  // the direction read from bit k/2 instead of bit k
constexpr auto reads_the_direction_from_the_wrong_bit = faulty_network<Mistake::ReadsTheWrongBit, K>;
template <typename K>  // forward when bit k of i is 0: right only when n is a power of two
constexpr auto uses_the_seeds_direction_rule = faulty_network<Mistake::SeedsDirectionRule, K>;
template <typename K>  // sorts, then overwrites element n/2 with its neighbour (key and value)
void loses_a_key_and_duplicates_another(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // sorts the keys and leaves the values where they were
void leaves_the_values_behind(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // pads to the next power of two in memory with the last key, past the end of the array
void pads_in_memory_past_the_end(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // launches nothing: the keys come back as they went in
void does_nothing(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// ---- the mistakes the README's hints are about ----------------------------------------------------
template <typename K>  // "if (partner > i)": the partner is not skipped when it is at or past n
constexpr auto keeps_partners_past_n = faulty_network<Mistake::PartnerPastNNotSkipped, K>;
template <typename K>  // swaps when keys[l] < keys[i] (> descending), the float's own <, not before()
constexpr auto compares_with_less_than = faulty_network<Mistake::ComparesWithLessThan, K>;
template <typename K>  // swaps with "keys[i] = keys[l]; keys[l] = keys[i];": both end up holding keys[l]
constexpr auto swaps_through_an_overwritten_key = faulty_network<Mistake::SwapsThroughAnOverwrittenKey, K>;
template <typename K>  // the stage loop "for (k = 2; k <= n; k *= 2)": one stage short when n is not a power of two
constexpr auto runs_the_stages_up_to_n = faulty_network<Mistake::StagesUpToN, K>;
template <typename K>  // the tile kernel for every stage, without the global steps j = k/2 ... 2048 before it
constexpr auto leaves_out_the_steps_longer_than_a_tile = faulty_network<Mistake::SkipsTheStepsLongerThanATile, K>;

// ---- writes outside the array, and a sort that games the benchmark ------------------------------
template <typename K>  // sorts a padded copy, then copies it back with a grid-stride loop bounded by
// `i <= n`: one element written past the end at every n, a multiple of the
// block size or not
void copies_back_with_i_le_n(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // pads to the next power of two in memory before index 0, with the first key
void pads_in_memory_before_the_start(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // sorts, then gives the second of two equal keys the first one's value too:
// the keys are right, one input element's value appears twice
void duplicates_a_value_between_equal_keys(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // sorts right on its first call; afterwards returns at once when the keys and
// values pointers, n and the order are those of its last call (a memo)
void remembers_its_last_call(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

}  // namespace wrong
