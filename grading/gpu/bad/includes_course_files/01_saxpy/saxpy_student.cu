// Bad submission (issue 15): a correct saxpy whose from-host part uses the course's own buffer
// class from common/device_buffer.h, a course file students may not include (they may include
// the exercise's header and common/cuda_check.h). Expected: every 01_saxpy part "forbidden API
// used", naming common/device_buffer.h.
#include "saxpy.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

__global__ void saxpy_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n) saxpy_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z) {
    pmpp::DeviceBuffer<float> dx(n), dy(n), dz(n);
    dx.upload(x, n);
    dy.upload(y, n);
    saxpy_student(n, a, dx.data(), dy.data(), dz.data());
    dz.download(z, n);
}
