// find_repeats.h: the functions of exercise 03. Given a[0..n), write the ascending list of the
// indices i with a[i] == a[i + 1] to `indices` and return how many there are.
// `a` and `indices` are device pointers; `indices` has room for n entries (at most n - 1 are
// used). The count is returned to the host.
//
// Each implementation says how much scratch device memory it needs; the harness allocates it
// once, outside the timed region.
// Everything here is in namespace find_repeats, as each exercise's functions are in the namespace
// its header is named after (saxpy.h: saxpy, ..., mandelbrot.h: mandelbrot).
#pragma once

#include <cstddef>

namespace find_repeats {

// ---- Your part: find_repeats_student.cu (built on your scan from 02_scan/scan_student.cu) ----
std::size_t find_repeats_student_workspace_bytes(std::size_t n);
std::size_t find_repeats_student(const int* a, std::size_t n, int* indices, void* workspace);

// ---- Reference variants ----------------------------------------------------------------------
// 1. flags, exclusive scan (02's single-pass reference), scatter: three passes (find_repeats_1_scan.cu)
std::size_t find_repeats_scan_workspace_bytes(std::size_t n);
std::size_t find_repeats_scan(const int* a, std::size_t n, int* indices, void* workspace);
// 2. fused: flags and compaction inside the single-pass scan, one pass (find_repeats_2_fused.cu)
std::size_t find_repeats_fused_workspace_bytes(std::size_t n);
std::size_t find_repeats_fused(const int* a, std::size_t n, int* indices, void* workspace);
// Library baseline: cub::DeviceSelect::If over the indices (find_repeats_cub.cu)
std::size_t find_repeats_cub_workspace_bytes(std::size_t n);
std::size_t find_repeats_cub(const int* a, std::size_t n, int* indices, void* workspace);
// Mark, scan, scatter over any scan (variant 1 and the reference answer use it).
using ScanFn = void (*)(const int* in, int* out, std::size_t n, void* workspace);
using ScanWorkspaceFn = std::size_t (*)(std::size_t n);
std::size_t find_repeats_with_scan_workspace_bytes(ScanWorkspaceFn scan_workspace_bytes, std::size_t n);
std::size_t find_repeats_with_scan(ScanFn scan, const int* a, std::size_t n, int* indices, void* workspace);
// The definition of correct (host arrays): find_repeats_cpu.cpp
std::size_t find_repeats_cpu(const int* a, std::size_t n, int* indices);

}  // namespace find_repeats
