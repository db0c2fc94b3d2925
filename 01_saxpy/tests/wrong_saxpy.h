// Deliberately wrong SAXPY implementations: each makes one classic mistake, and the check must
// reject every one of them.
#pragma once

#include <cstddef>

namespace wrong {
void skips_last_element(std::size_t n, float a, const float* x, const float* y, float* z);
void writes_one_element_out_of_place(std::size_t n, float a, const float* x, const float* y, float* z);
void reads_the_neighbour(std::size_t n, float a, const float* x, const float* y, float* z);
void modifies_its_input(std::size_t n, float a, const float* x, const float* y, float* z);
void vector_kernel_drops_the_tail(std::size_t n, float a, const float* x, const float* y, float* z);
void ignores_the_scale(std::size_t n, float a, const float* x, const float* y, float* z);
void from_host_never_copies_back(std::size_t n, float a, const float* x, const float* y, float* z);
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
