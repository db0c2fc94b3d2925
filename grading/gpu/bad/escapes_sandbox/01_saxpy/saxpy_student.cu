// Bad submission (issue 15): a correct saxpy that also writes what it was given to a file of its
// own (a student could leave anything in the grader's tree: another student's results, a
// forged results file). Expected: every 01_saxpy part "forbidden API used", naming fopen.
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cstdio>

namespace saxpy {

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (FILE* f = std::fopen("saxpy_calls.txt", "a")) {
        std::fprintf(f, "n=%zu a=%g\n", n, a);
        std::fclose(f);
    }
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}

}  // namespace saxpy
