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
