// find_repeats_solution.cu: the reference answer to the student's tasks: mark, scan with the
// student's scan slot (which the solution build fills with 02's reference answer), scatter.
#include "find_repeats.h"

#include "../02_scan/scan.h"

namespace find_repeats {

std::size_t find_repeats_student_workspace_bytes(std::size_t n) {
    return find_repeats_with_scan_workspace_bytes(scan::scan_student_workspace_bytes, n);
}

std::size_t find_repeats_student(const int* a, std::size_t n, int* indices, void* workspace) {
    return find_repeats_with_scan(scan::exclusive_scan_student, a, n, indices, workspace);
}

}  // namespace find_repeats
