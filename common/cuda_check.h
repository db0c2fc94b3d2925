// cuda_check.h: every CUDA runtime call and every kernel launch is checked, and a failure
// names the call, the file and the line. Failures throw pmpp::CudaError so the harness can
// record the error in its results file and exit with code 3; nothing exits from here.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace pmpp {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

// Builds "CUDA error in <call> at <file>:<line>: <name> (<description>)".
std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line);

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

inline void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
    if (code != cudaSuccess) throw_cuda_error(code, call, file, line);
}

}  // namespace pmpp

// Wrap every runtime call: PMPP_CUDA_CHECK(cudaMalloc(&p, bytes));
#define PMPP_CUDA_CHECK(call) ::pmpp::cuda_check((call), #call, __FILE__, __LINE__)

// After every launch: catches bad configurations at once (too many threads, too much shared
// memory). Errors raised while the kernel runs surface at the next synchronizing call.
#define PMPP_CHECK_LAUNCH() ::pmpp::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
