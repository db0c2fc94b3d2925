// Forbidden library (thrust): a scan that calls Thrust through a macro of a helper header, which
// names Thrust's headers through macros too. Must be rejected (and the helper, a file of the
// course tree that is not the exercise's header, by the include rule).
#include "scan.h"
#include "scan_thrust_helper.cuh"

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) { SCAN_QUICKLY(in, out, n); }

}  // namespace scan
