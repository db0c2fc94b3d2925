// bitonic_solution.cu: the reference answer in the student's slot. `make` links it into
// build/bitonic_solution, which must pass every check: proof that the harness accepts a right
// answer. Tasks 1 and 2 ask for variant 3 (shared-memory tiles over a global step kernel).
#include "bitonic.h"

namespace bitonic {

template <typename K>
void bitonic_sort_student(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    bitonic_sort_shared(keys, values, n, order);
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_student)

}  // namespace bitonic
