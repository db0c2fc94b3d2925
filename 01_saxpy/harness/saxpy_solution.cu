// saxpy_solution.cu: the reference answer in the student's slot. `make` links it into
// build/saxpy_solution, which must pass every check: proof that the harness accepts a right answer.
#include "saxpy.h"

namespace saxpy {

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_vectorized(n, a, x, y, z);
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}

}  // namespace saxpy
