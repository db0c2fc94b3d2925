// dependent_launch.cuh: programmatic dependent launch (sm_90 and newer) for a chain of kernels on
// one stream, each reading what the one before it wrote.
//
// Launched the usual way, a kernel starts only once the kernel ahead of it has finished: between
// two dependent kernels the SMs idle for the launch gap and the ramp-up (a few microseconds, which
// a chain of short kernels pays many times). Launched with programmatic stream serialization, a
// kernel may be resident before the one ahead of it ends; each of its blocks then waits in
// wait_for_previous_kernel() until that kernel has finished and its writes are visible. The kernel
// ahead says when the next one may start launching: let_next_kernel_launch() once every one of its
// blocks has called it (or exited). 07's merge sort measured it: 4% of a sort of 2^24 keys (23
// kernels), 15% at 2^20, and letting the next kernel in at each block's start, not after its
// stores, cost 1.4% at 2^28 (the waiting blocks sat on the SMs): 07_merge_sort/NOTES.md.
//
// Only code compiled for sm_90 or newer has the instructions: a kernel JIT-compiled from older
// PTX would not wait, so dependent_launch_available() checks the PTX version of a probe kernel
// built with the same flags, and the device's (or the PMPP_DEVICE_PROFILE's) compute capability.
#pragma once

#include "common/cuda_check.h"
#include "common/device_limits.h"

#include <cstddef>
#include <utility>

namespace pmpp {

// At the start of a kernel launched with launch_kernel(..., dependent = true): returns once the
// kernel ahead on the stream has finished and its writes are visible. A no-op otherwise.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// After a block's last store: the next kernel on the stream may start launching once every block
// has called this or exited. A no-op where there is no dependent launch.
__device__ __forceinline__ void let_next_kernel_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Internal linkage (static, not an anonymous namespace, which would make the names ambiguous in a
// file with `using namespace pmpp;` and an anonymous namespace of its own): every file that
// includes this header gets its own probe, compiled with its own flags, which is the point.
static __global__ void dependent_launch_probe_kernel() {}

// Whether kernels of this file may be launched with dependent = true.
static inline bool dependent_launch_available() {
    static const bool available = [] {
        cudaFuncAttributes attributes{};
        PMPP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, dependent_launch_probe_kernel));
        return attributes.ptxVersion >= 90 && device_limits().compute_capability >= 90;
    }();
    return available;
}

// kernel<<<blocks, threads, shared>>>(args...) on the default stream, with programmatic stream
// serialization when `dependent` (the kernel must then call wait_for_previous_kernel() before it
// reads anything the kernel ahead wrote). Checks the launch.
template <class... Params, class... Args>
void launch_kernel(bool dependent, void (*kernel)(Params...), std::size_t blocks, int threads, std::size_t shared,
                   Args&&... args) {
    if (!dependent) {
        kernel<<<static_cast<unsigned>(blocks), threads, shared>>>(std::forward<Args>(args)...);
    } else {
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(static_cast<unsigned>(blocks));
        config.blockDim = dim3(static_cast<unsigned>(threads));
        config.dynamicSmemBytes = shared;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attribute[0].val.programmaticStreamSerializationAllowed = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        PMPP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
    }
    PMPP_CHECK_LAUNCH();
}

}  // namespace pmpp
