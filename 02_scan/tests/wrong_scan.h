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
}  // namespace wrong
