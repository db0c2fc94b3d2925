// Deliberately wrong scans, one classic mistake each: the check must reject every one.
#pragma once

#include <cstddef>

namespace wrong {
std::size_t workspace_bytes(std::size_t n);
// out[i] includes in[i]: an inclusive scan.
void inclusive_instead_of_exclusive(const int* in, int* out, std::size_t n, void* workspace);
// The last block of 256 outputs is never written.
void drops_the_last_block(const int* in, int* out, std::size_t n, void* workspace);
// The first element of every block of 256 (but the first) misses its predecessor's value.
void off_by_one_at_block_boundaries(const int* in, int* out, std::size_t n, void* workspace);
// Right values (out of place), and the total stored at out[n] too: n + 1 prefix sums, with the
// classic bound `if (i <= n)` over n / 256 + 1 blocks (one element past the end of out at every n).
void stores_the_total_past_the_end(const int* in, int* out, std::size_t n, void* workspace);
// Right values, then an up-sweep level over the workspace whose tree index is off by one node,
// i * 2 * stride - 1 instead of (i + 1) * 2 * stride - 1: node -1, before the workspace, is written.
void up_sweep_writes_before_the_workspace(const int* in, int* out, std::size_t n, void* workspace);
// Right on its first call; called again with the same pointers and n, returns at once ("out is
// already right"): the memo a benchmark that poisons out only once would not see.
void returns_at_once_on_repeated_arguments(const int* in, int* out, std::size_t n, void* workspace);
}  // namespace wrong
