// Bad submission (issue 15): no kernel of its own; it calls a reference variant, which is
// declared in saxpy.h and linked into build/saxpy. Expected: every 01_saxpy part "forbidden API
// used", naming saxpy_naive (a course function students may not call).
#include "saxpy.h"

namespace saxpy {

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) { saxpy_naive(n, a, x, y, z); }

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_naive, n, a, x, y, z);
}

}  // namespace saxpy
