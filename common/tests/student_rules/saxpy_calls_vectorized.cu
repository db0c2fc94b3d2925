// Use rule: a saxpy that calls the course's fast reference variant (saxpy_vectorized, declared in
// saxpy.h and linked into build/saxpy). Forbidden, naming saxpy_vectorized.
#include "saxpy.h"

namespace saxpy {

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_vectorized(n, a, x, y, z);
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_vectorized, n, a, x, y, z);
}

}  // namespace saxpy
