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
}  // namespace wrong
