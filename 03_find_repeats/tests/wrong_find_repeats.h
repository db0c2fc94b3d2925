// Deliberately wrong find_repeats, one classic mistake each: the check must reject every one.
#pragma once

#include <cstddef>

namespace wrong {
std::size_t workspace_bytes(std::size_t n);
// Never looks at the last pair (a[n-2], a[n-1]).
std::size_t misses_the_last_pair(const int* a, std::size_t n, int* indices, void* workspace);
// Right indices, each run of 32 in reverse order (as a warp in reverse lane order): not ascending.
std::size_t unsorted_output(const int* a, std::size_t n, int* indices, void* workspace);
// Returns one less than the number of repeats it wrote.
std::size_t count_off_by_one(const int* a, std::size_t n, int* indices, void* workspace);
// Writes a -2 terminator after the last index.
std::size_t writes_past_the_count(const int* a, std::size_t n, int* indices, void* workspace);
// Clears indices to -1 first with the classic bound `if (i <= n)` over n / 256 + 1 blocks: one
// entry past the end of indices, at every n. The result is right.
std::size_t clears_one_past_the_end(const int* a, std::size_t n, int* indices, void* workspace);
// Mark, exclusive scan, scatter to position - 1 (the inclusive scan's offset kept with an
// exclusive one): the first repeat lands at indices[-1]. Its workspace: scatter_workspace_bytes.
std::size_t scatter_workspace_bytes(std::size_t n);
std::size_t scatters_one_slot_early(const int* a, std::size_t n, int* indices, void* workspace);
// Mark, exclusive scan, scatter to the inclusive place (place + flag): every repeat one slot late,
// indices[0] never written. Its workspace: scatter_workspace_bytes.
std::size_t scatters_to_the_inclusive_place(const int* a, std::size_t n, int* indices, void* workspace);
// Flags a[i - 1] == a[i] (looking back) and writes i: the index of each pair's second element.
// Its workspace: scatter_workspace_bytes.
std::size_t writes_the_second_index(const int* a, std::size_t n, int* indices, void* workspace);
// Asks for room for the flags only (n ints), forgetting the scan's own workspace after them: the
// scan's status words land past the end. Mark, scan (02's single pass), scatter as variant 1 does.
std::size_t flags_only_workspace_bytes(std::size_t n);
std::size_t uses_more_workspace_than_it_asks_for(const int* a, std::size_t n, int* indices, void* workspace);
// Mark, scan, scatter with no early return for n < 2: every launch skipped when it has no
// blocks, but the count still read from places[n - 1], which at n = 0 is before the array.
// Its workspace: find_repeats_scan_workspace_bytes.
std::size_t reads_the_count_before_the_array_at_n_0(const int* a, std::size_t n, int* indices, void* workspace);
// A scan of the flags in blocks of 1024 with no carry between them: every block's places start
// at 0 again, so the blocks overwrite each other's indices and the count is the last block's.
// Its workspace: scatter_workspace_bytes.
std::size_t scans_without_a_carry_between_blocks(const int* a, std::size_t n, int* indices, void* workspace);
// Right on its first call; called again with the same pointers and n, returns the count at once
// ("indices are already right"): the memo a benchmark that poisons indices only once would not see.
std::size_t returns_at_once_on_repeated_arguments(const int* a, std::size_t n, int* indices, void* workspace);
}  // namespace wrong
