// Bad submission (issue 15): a correct saxpy whose file also defines cudaEventElapsedTime, the
// runtime call every benchmark reads its times from: linked into the program, it would replace
// the runtime's and report a hundredth of every time. Expected: every 01_saxpy part "build
// failed", the message naming cudaEventElapsedTime (course code uses it; a student file may
// not define it).
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cuda_runtime.h>

extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0.001f;  // whatever was timed
    return cudaSuccess;
}

namespace saxpy {

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    saxpy_from_host_with(saxpy_student, n, a, x, y, z);
}

}  // namespace saxpy
