// saxpy.h: the functions of exercise 01. z[i] = a * x[i] + y[i] for 0 <= i < n.
//
// The harness (harness/saxpy_harness.cu) owns the inputs, the timing and the checking; every
// implementation below only computes. Pointers named x, y, z are device pointers unless the
// function name says "from_host". All work goes on the default stream.
// Everything here is in namespace saxpy, as each exercise's functions are in the namespace its
// header is named after (saxpy.h: saxpy, ..., mandelbrot.h: mandelbrot).
#pragma once

#include <cstddef>

namespace saxpy {

// ---- Your part: saxpy_student.cu -------------------------------------------------------
// Tasks 1 and 2: the kernel and its launch. x, y, z: device arrays of n floats.
void saxpy_student(std::size_t n, float a, const float* x, const float* y, float* z);
// Task 3: the whole job from host memory: allocate device arrays, copy x and y in, run
// saxpy_student, copy z out, free. x, y, z: host arrays of n floats. Returns when z is ready.
void saxpy_student_from_host(std::size_t n, float a, const float* x, const float* y, float* z);

// ---- Reference variants (one file each, from the textbook kernel to the fast one) -------
void saxpy_naive(std::size_t n, float a, const float* x, const float* y, float* z);  // saxpy_1_naive.cu
void saxpy_vectorized(std::size_t n, float a, const float* x, const float* y, float* z);  // saxpy_2_vectorized.cu
// The library baseline: cuBLAS computes y = a * x + y in place, so `z` must hold y on entry.
void saxpy_cublas_in_place(std::size_t n, float a, const float* x, float* z);  // saxpy_cublas.cu
// The definition of correct: a plain loop on the CPU (host arrays).
void saxpy_cpu(std::size_t n, float a, const float* x, const float* y, float* z);  // saxpy_cpu.cpp

// The reference answer for task 3, built on any device-pointer implementation (saxpy_3_from_host.cu).
using SaxpyDeviceFn = void (*)(std::size_t n, float a, const float* x, const float* y, float* z);
void saxpy_from_host_with(SaxpyDeviceFn fn, std::size_t n, float a, const float* x, const float* y, float* z);

}  // namespace saxpy
