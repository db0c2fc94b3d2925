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

// Writes outside what it was given (the guard zones must catch each). Each has its own
// workspace function: Onesweep's workspace, then the array named.
// Sorts the keys into the workspace (room for n + 1), then copies them out with `if (i <= n)`
// on n / 256 + 1 blocks: keys_out[n], one past the end, written at every n.
template <class Key>
std::size_t one_past_the_end_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void writes_one_past_the_end(const radix_sort::SortArgs<Key>& args);
// Sorts the values into the workspace, then scatters them to "inclusive position - 1" from an
// exclusive one: value i to values_out[i - 1], the first one before the start.
template <class Key>
std::size_t one_before_the_start_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void writes_one_before_the_start(const radix_sort::SortArgs<Key>& args);
// Sizes its scan's flags for n elements, forgetting the +1 of the total, and writes n + 1:
// one int past the end of the workspace.
template <class Key>
std::size_t short_flags_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void overruns_its_workspace(const radix_sort::SortArgs<Key>& args);

// ---- One mistake each, as a student makes it, for the README's hints (test_readme_hints.cu) ----
// The first four are Fig. 13.4's one-bit sort (tasks 1-5: extract, 02's single-pass scan,
// scatter) with one line wrong; they share one workspace: a second array of keys and of values,
// n + 1 flags and the scan's workspace.
template <class Key>
std::size_t one_bit_workspace_bytes(std::size_t n, bool pairs);
// "I go through the bits from the most significant down, the way one reads a number."
template <class Key>
void passes_from_the_top_bit_down(const radix_sort::SortArgs<Key>& args);
// "I place the ones from the end of the array backwards: a one goes to n - 1 - (ones before it)."
template <class Key>
void fills_the_ones_from_the_end(const radix_sort::SortArgs<Key>& args);
// "I ping-pong keys_in -> my scratch -> keys_out -> my scratch ...": after an odd number of passes
// the result is left in the scratch.
template <class Key>
void ping_pongs_from_the_scratch_first(const radix_sort::SortArgs<Key>& args);
// "I take bit b of the key as it is stored in memory" (not bit_of: the ordered bits).
template <class Key>
void reads_the_raw_bits(const radix_sort::SortArgs<Key>& args);
// "I sort into my scratch arrays and copy them to keys_out on n / 256 blocks of 256 threads."
template <class Key>
std::size_t copy_out_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void copies_out_on_a_rounded_down_grid(const radix_sort::SortArgs<Key>& args);
// "My tile split fills the tile's last slot from the slot before it": of every full tile of 256
// keys the last key is lost, the one before it written twice. Uses workspace_bytes above.
template <class Key>
void loses_the_last_key_of_every_tile(const radix_sort::SortArgs<Key>& args);
// The starter as it is: tasks 1-5 not done, nothing written.
template <class Key>
std::size_t no_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void does_nothing(const radix_sort::SortArgs<Key>& args);

// Right on its first call; afterwards returns at once when keys_in, keys_out and n repeat
// ("already sorted"): the check's one call passes, the benchmark's repeated calls must not.
// Uses workspace_bytes above. The memo is process-wide: forget_the_last_call() clears it.
template <class Key>
void remembers_its_last_call(const radix_sort::SortArgs<Key>& args);
void forget_the_last_call();
// Right every call, but sorts its input in place on the way (through a const_cast): from the
// second call on it sorts sorted keys. Only the input check can see it.
template <class Key>
void sorts_its_input_in_place(const radix_sort::SortArgs<Key>& args);

}  // namespace wrong
