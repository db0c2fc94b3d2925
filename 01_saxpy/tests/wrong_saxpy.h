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
}  // namespace wrong
