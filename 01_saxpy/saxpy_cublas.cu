// saxpy_cublas.cu: the library baseline, cublasSaxpy. cuBLAS computes y = a * x + y in place;
// the harness copies y into z untimed before each run, so the bytes moved (read x and z,
// write z) are the same as ours.
#include "saxpy.h"

#include "common/cuda_check.h"

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace saxpy {

namespace {

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string("cuBLAS error in ") + call + " at " + file + ":" + std::to_string(line) +
                                 ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}
#define CUBLAS_CHECK(call) check_cublas((call), #call, __FILE__, __LINE__)

// One handle for the process: creating it costs milliseconds, outside any timed region.
cublasHandle_t handle() {
    static cublasHandle_t h = [] {
        cublasHandle_t created = nullptr;
        CUBLAS_CHECK(cublasCreate(&created));
        CUBLAS_CHECK(cublasSetStream(created, 0));
        return created;
    }();
    return h;
}

}  // namespace

void saxpy_cublas_in_place(std::size_t n, float a, const float* x, float* z) {
    if (n == 0) return;
    CUBLAS_CHECK(cublasSaxpy_64(handle(), static_cast<int64_t>(n), &a, x, 1, z, 1));
}

}  // namespace saxpy
