// Bad submission for the grader's GPU check: a file that does not compile.
// Expected: 01_saxpy "build failed" (the compiler's error in the report); 02_scan full marks.
#include "saxpy.h"

namespace saxpy {

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_vectorized(n, a, x, y, z)  // the missing ';' is the point
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}

}  // namespace saxpy
