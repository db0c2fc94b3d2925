// Test input for the forbidden-API check: a student scan that calls Thrust through a macro
// defined in a helper header. Must be rejected.
#include "../../scan.h"
#include "sneaky_helper.cuh"

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) { SCAN_QUICKLY(in, out, n); }
