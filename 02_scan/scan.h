// scan.h: the functions of exercise 02. Exclusive prefix sum of int32:
//     out[0] = 0,  out[i] = in[0] + in[1] + ... + in[i-1]   (wrapping around on overflow)
// for any n >= 0. `in` and `out` are device pointers; they may be the same pointer (in place).
//
// Every implementation says how much scratch device memory it needs for n elements; the
// harness allocates that once, outside the timed region, and passes it in (as CUB does).
// Everything here is in namespace scan, as each exercise's functions are in the namespace its
// header is named after (saxpy.h: saxpy, ..., mandelbrot.h: mandelbrot).
#pragma once

#include <cstddef>

namespace scan {

// ---- Your part: scan_student.cu --------------------------------------------------------------
std::size_t scan_student_workspace_bytes(std::size_t n);
void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace);

// ---- Reference variants, from the book's first scan to one at memory speed -------------------
// 1. Blelloch up-sweep/down-sweep in global memory, one launch per level (scan_1_blelloch.cu)
std::size_t scan_blelloch_workspace_bytes(std::size_t n);
void exclusive_scan_blelloch(const int* in, int* out, std::size_t n, void* workspace);
// 2. Hierarchical: tiles scanned in shared memory, the tile sums scanned, added back (scan_2_hierarchical.cu)
std::size_t scan_hierarchical_workspace_bytes(std::size_t n);
void exclusive_scan_hierarchical(const int* in, int* out, std::size_t n, void* workspace);
// 3. Single pass with decoupled look-back (scan_3_single_pass.cu)
std::size_t scan_single_pass_workspace_bytes(std::size_t n);
void exclusive_scan_single_pass(const int* in, int* out, std::size_t n, void* workspace);
// 4. The same, with a grid of resident blocks that load their next tiles while they wait (scan_4_persistent.cu)
std::size_t scan_persistent_workspace_bytes(std::size_t n);
void exclusive_scan_persistent(const int* in, int* out, std::size_t n, void* workspace);
// Library baseline: cub::DeviceScan::ExclusiveSum (scan_cub.cu)
std::size_t scan_cub_workspace_bytes(std::size_t n);
void exclusive_scan_cub(const int* in, int* out, std::size_t n, void* workspace);
// The definition of correct (host arrays; in == out allowed): scan_cpu.cpp
void exclusive_scan_cpu(const int* in, int* out, std::size_t n);

}  // namespace scan
