// saxpy_3_from_host.cu: the reference answer to task 3, for any device-pointer implementation:
// allocate, copy in, compute, copy out, free. The copies cross PCIe (or NVLink-C2C), an order
// of magnitude slower than device memory: the benchmark's end-to-end table shows how much.
#include "saxpy.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

namespace saxpy {

void saxpy_from_host_with(SaxpyDeviceFn fn, std::size_t n, float a, const float* x, const float* y, float* z) {
    pmpp::DeviceBuffer<float> dx(n), dy(n), dz(n);
    if (n != 0) {
        PMPP_CUDA_CHECK(cudaMemcpy(dx.data(), x, n * sizeof(float), cudaMemcpyHostToDevice));
        PMPP_CUDA_CHECK(cudaMemcpy(dy.data(), y, n * sizeof(float), cudaMemcpyHostToDevice));
    }
    fn(n, a, dx.data(), dy.data(), dz.data());
    if (n != 0) PMPP_CUDA_CHECK(cudaMemcpy(z, dz.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace saxpy
