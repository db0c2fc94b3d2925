// saxpy_cpu.cpp: the definition of correct. A plain loop; the check compares every GPU
// variant with it (within a float tolerance: a GPU computes a * x + y with one fused
// multiply-add, which rounds once instead of twice).
#include "saxpy.h"

namespace saxpy {

void saxpy_cpu(std::size_t n, float a, const float* x, const float* y, float* z) {
    for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + y[i];
}

}  // namespace saxpy
