// host_device.h: the marks of a function for the host and the device alike.
//   PMPP_HD        an inline helper of a header, compiled into every caller (the usual case);
//   PMPP_HD_EXTERN a function compiled once, in its own file, and called from others (07's
//                  co_rank_student: the student's file defines it, the harness calls it).
#pragma once

#ifdef __CUDACC__
#define PMPP_HD __host__ __device__ __forceinline__
#define PMPP_HD_EXTERN __host__ __device__
#else
#define PMPP_HD inline
#define PMPP_HD_EXTERN
#endif

namespace pmpp {

// The most threads an SM holds at once on the architecture this pass compiles for: 1024 on
// sm_75, 1536 on sm_86, sm_87, sm_89 and sm_120 and after, 2048 on the others (and in the host
// pass, which reads no launch bounds).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kCompiledMaxThreadsPerSm = 1024;
#elif defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
constexpr int kCompiledMaxThreadsPerSm = 1536;
#else
constexpr int kCompiledMaxThreadsPerSm = 2048;
#endif

// The minimum of resident blocks for __launch_bounds__(threads, ...): `wanted`, or as many as
// the SM holds when that is fewer. A minimum past the SM's threads is not a tighter register cap
// but none at all: ptxas ignores it, with a warning (sm_75 and 5 blocks of 256 threads).
constexpr int min_blocks_that_fit(int threads, int wanted) {
    const int fit = kCompiledMaxThreadsPerSm / threads;
    return wanted <= fit ? wanted : (fit > 0 ? fit : 1);
}

}  // namespace pmpp
