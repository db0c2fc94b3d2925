// Deliberately wrong SAXPY implementations: each makes one classic mistake, and the check must
// reject every one of them.
#pragma once

#include <cstddef>

namespace wrong {
// The bound `if (i < n - 1)`: the last element is never written.
void skips_last_element(std::size_t n, float a, const float* x, const float* y, float* z);
// Element n / 2 is stored one place to the right (z[n/2 + 1]), so z[n/2] is never written.
void writes_one_element_out_of_place(std::size_t n, float a, const float* x, const float* y, float* z);
// Reads y[i + 1] where y[i] is meant.
void reads_the_neighbour(std::size_t n, float a, const float* x, const float* y, float* z);
// Right z, and then keeps it in x too ("x[i] = z[i]"): an input modified.
void modifies_its_input(std::size_t n, float a, const float* x, const float* y, float* z);
// float4 only: the n % 4 elements after the last full float4 are never written.
void vector_kernel_drops_the_tail(std::size_t n, float a, const float* x, const float* y, float* z);
// z = x + y: forgot to multiply by a.
void ignores_the_scale(std::size_t n, float a, const float* x, const float* y, float* z);
// Computes z on the device and never copies it back into the host z.
void from_host_never_copies_back(std::size_t n, float a, const float* x, const float* y, float* z);
// No bound at all: the spare threads of the last block (n rounded up to 256) write past z. Its
// reads are clamped to x[n - 1], y[n - 1], so the stores past z are its only accesses outside.
void has_no_bound(std::size_t n, float a, const float* x, const float* y, float* z);
// n / 256 blocks, rounded down: the elements after the last full block get no thread (and with
// no full block at all, n < 256, it launches nothing: a launch of zero blocks is an error).
void grid_rounded_down(std::size_t n, float a, const float* x, const float* y, float* z);
// Writes the kernel and forgets to launch it.
void never_launches(std::size_t n, float a, const float* x, const float* y, float* z);
// The classic bound `if (i <= n)` with n / 256 + 1 blocks: right values, and z[n] written too.
void bound_includes_n(std::size_t n, float a, const float* x, const float* y, float* z);
// A 1-based loop turned 0-based on one side only: z[i - 1] = a * x[i] + y[i], so z[-1] is written.
void stores_one_place_early(std::size_t n, float a, const float* x, const float* y, float* z);
// Copies n + 1 floats back into the host z (one too many).
void from_host_copies_one_too_many(std::size_t n, float a, const float* x, const float* y, float* z);
// Right on its first call; afterwards, called again with the same pointers and n, returns at once
// ("z is already right"): the memo a benchmark that poisons z only once would not see.
void returns_at_once_on_repeated_arguments(std::size_t n, float a, const float* x, const float* y, float* z);
void from_host_returns_at_once_on_repeated_arguments(std::size_t n, float a, const float* x, const float* y, float* z);
}  // namespace wrong
