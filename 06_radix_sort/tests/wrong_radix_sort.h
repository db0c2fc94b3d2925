// Deliberately wrong sorts, one classic mistake each, most built on the real Onesweep sort: the
// check must reject every one, and say why. Each is a variant as the harness runs one (its sort
// and its workspace function for every key type: fn.get<Key>()); the workspace is Onesweep's
// unless the line says otherwise.
#pragma once

#include "../harness/radix_sort_harness.h"

namespace wrong {

using radix_sort::SortFn;

// Sorted, then the values of every two neighbouring equal keys swapped: an unstable sort.
SortFn unstable_pairs();
// The lowest digit (8 bits) never sorted.
SortFn skips_a_digit();
// Sorted, then the key in the middle overwritten by its neighbour: one key lost, one doubled.
SortFn loses_a_key();
// The keys sorted alone; the values copied through in input order.
SortFn leaves_values_behind();
// Stable passes over the digits, most significant first: sorted by the lowest digit only.
SortFn most_significant_digit_first();
// Sorted, then the last (partial) tile of 1000 outputs left unwritten.
SortFn drops_the_last_tile();
// Sorts by every bit of the key, whatever the bit range.
SortFn ignores_the_bit_range();

// Writes outside what it was given (the guard zones must catch each); the workspace: Onesweep's,
// then the array named.
// Sorts the keys into the workspace (room for n + 1), then copies them out with `if (i <= n)`
// on n / 256 + 1 blocks: keys_out[n], one past the end, written at every n.
SortFn writes_one_past_the_end();
// Sorts the values into the workspace, then scatters them to "inclusive position - 1" from an
// exclusive one: value i to values_out[i - 1], the first one before the start.
SortFn writes_one_before_the_start();
// Sizes its scan's flags for n elements, forgetting the +1 of the total, and writes n + 1:
// one int past the end of the workspace.
SortFn overruns_its_workspace();

// ---- One mistake each, as a student makes it, for the README's hints (test_readme_hints.cu) ----
// The first four are Fig. 13.4's one-bit sort (tasks 1-5: extract, 02's single-pass scan,
// scatter) with one line wrong; their workspace: a second array of keys and of values, n + 1
// flags and the scan's workspace.
// "I go through the bits from the most significant down, the way one reads a number."
SortFn passes_from_the_top_bit_down();
// "I place the ones from the end of the array backwards: a one goes to n - 1 - (ones before it)."
SortFn fills_the_ones_from_the_end();
// "I ping-pong keys_in -> my scratch -> keys_out -> my scratch ...": after an odd number of passes
// the result is left in the scratch.
SortFn ping_pongs_from_the_scratch_first();
// "I take bit b of the key as it is stored in memory" (not bit_of: the ordered bits).
SortFn reads_the_raw_bits();
// "I sort into my scratch arrays and copy them to keys_out on n / 256 blocks of 256 threads."
// (The workspace: Onesweep's and the scratch arrays.)
SortFn copies_out_on_a_rounded_down_grid();
// "My tile split fills the tile's last slot from the slot before it": of every full tile of 256
// keys the last key is lost, the one before it written twice.
SortFn loses_the_last_key_of_every_tile();
// The starter as it is: tasks 1-5 not done, nothing written, no workspace.
SortFn does_nothing();

// Right on its first call; afterwards returns at once when keys_in, keys_out and n repeat
// ("already sorted"): the check's one call passes, the benchmark's repeated calls must not.
// The memo is process-wide: forget_the_last_call() clears it.
SortFn remembers_its_last_call();
void forget_the_last_call();
// Right every call, but sorts its input in place on the way (through a const_cast): from the
// second call on it sorts sorted keys. Only the input check can see it.
SortFn sorts_its_input_in_place();

}  // namespace wrong
