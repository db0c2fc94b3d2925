// radix_sort_solution.cu: the reference answer to tasks 1-5: Fig. 13.4's one-bit sort
// (radix_sort_1_one_bit.cu) on the student's scan slot, which the solution build fills with
// 02's reference answer (the Blelloch scan). Linked into build/radix_sort_solution; it must pass
// every check.
#include "radix_sort.h"

#include "02_scan/scan.h"

namespace radix_sort {

template <class Key>
std::size_t radix_sort_student_workspace_bytes(std::size_t n, bool pairs) {
    return radix_sort_one_bit_with_scan_workspace_bytes<Key>(scan::scan_student_workspace_bytes, n, pairs);
}

template <class Key>
void radix_sort_student(const SortArgs<Key>& args) {
    radix_sort_one_bit_with_scan(scan::exclusive_scan_student, scan::scan_student_workspace_bytes, args);
}

RADIX_SORT_INSTANTIATE(radix_sort_student)

}  // namespace radix_sort
