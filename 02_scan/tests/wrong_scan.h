// Deliberately wrong scans, one classic mistake each: the check must reject every one (and, in
// looks_wrong, a scan that only looks wrong: the check must accept it).
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

// The student's task, the Blelloch scan, with one mistake each (workspace: blelloch_workspace_bytes,
// the next power of two at or above n, in ints; except where the mistake is the workspace).
std::size_t blelloch_workspace_bytes(std::size_t n);
// "The down-sweep starts from the root": the root is never set to 0 after the up-sweep.
void blelloch_keeps_the_root(const int* in, int* out, std::size_t n, void* workspace);
// "The tree's size is 1 << (int)log2(n)": the largest power of two at or below n, not above it.
void blelloch_tree_over_n_rounded_down(const int* in, int* out, std::size_t n, void* workspace);
// "The workspace holds the input": n ints (undersized_workspace_bytes), not the padded tree.
std::size_t undersized_workspace_bytes(std::size_t n);
void blelloch_in_an_undersized_workspace(const int* in, int* out, std::size_t n, void* workspace);
// "cudaMemcpy(out, tree, n, ...)": the copy back counts n bytes, not n ints.
void blelloch_copies_back_n_bytes(const int* in, int* out, std::size_t n, void* workspace);
// "left = parent; parent += left": the down-sweep overwrites the left child before saving its
// value, so every output is 0: a wrong output that fits no pattern of the check.
void blelloch_down_sweep_overwrites_the_left_first(const int* in, int* out, std::size_t n, void* workspace);
}  // namespace wrong

// Scans that look wrong and are right: the check must accept them.
namespace looks_wrong {
// The Blelloch scan with the padding past n left as the workspace held it (0xFF poison in the
// check): no output below n depends on it, since out[i] sums only the elements before i.
void blelloch_leaves_the_padding_unzeroed(const int* in, int* out, std::size_t n, void* workspace);
}  // namespace looks_wrong
