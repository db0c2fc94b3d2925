// find_repeats_cpu.cpp: the definition of correct: one pass, in index order.
#include "find_repeats.h"

namespace find_repeats {

std::size_t find_repeats_cpu(const int* a, std::size_t n, int* indices) {
    std::size_t count = 0;
    for (std::size_t i = 0; i + 1 < n; ++i)
        if (a[i] == a[i + 1]) indices[count++] = static_cast<int>(i);
    return count;
}

}  // namespace find_repeats
