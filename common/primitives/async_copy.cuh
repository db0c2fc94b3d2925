// common/primitives/async_copy.cuh: copies from global to shared memory that do not hold the
// thread up (cp.async, sm_80 and newer), for kernels that load their next tile while they work
// on the current one (02's persistent scan, its tune/ sweeps; 07's persistent merge sweep).
//
// A thread issues copies, closes them into a group (commit_copies), and later waits until all
// but its newest N groups have landed (wait_for_copies<N>). The wait covers this thread's own
// copies only: a word another thread copied needs a barrier as well before this one reads it.
// sm_75 has no cp.async: there the copy goes through a register and is complete when the call
// returns (the same bytes, the same results; the thread waits for the load meanwhile).
#pragma once

#include <cuda_runtime.h>

namespace scan_primitives {

// 16 bytes from `src` (16-byte aligned, global) to `dst` (16-byte aligned, shared).
__device__ __forceinline__ void copy_16_bytes_async(uint4* dst, const void* src) {
#if __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
#else
    *dst = *static_cast<const uint4*>(src);
#endif
}

// One element of 4 or 8 bytes (aligned to its size) from `src` (global) to `dst` (shared): for
// tiles whose pieces start at any element, as 07's merge pass loads them. Other sizes go through
// a register.
template <class T>
__device__ __forceinline__ void copy_element_async(T* dst, const T* src) {
#if __CUDA_ARCH__ >= 800
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(src), "n"(sizeof(T)) : "memory");
        return;
    }
#endif
    *dst = *src;
}

// Closes this thread's copies issued since the last call into one group (an empty group when
// there were none: every thread can count the same groups).
__device__ __forceinline__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until every group of this thread's copies but the newest PENDING has landed.
template <int PENDING>
__device__ __forceinline__ void wait_for_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
#endif
}

}  // namespace scan_primitives
