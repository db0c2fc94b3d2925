// mandelbrot_definition.h: the escape time of one point, as the definition computes it, for the
// CPU reference (mandelbrot_cpu.cpp) and the pinned kernel (mandelbrot_0_pinned.cu) alike.
//
// z_0 = 0, z_{n+1} = z_n^2 + c: the first n with |z_n|^2 > 4, at most max_iter. `magnitude2` (if
// not null) receives |z|^2 where the iteration stopped (smooth coloring uses it). Compiled with
// -ffp-contract=off on the CPU and -fmad=false on the GPU (Makefile), every product and sum rounds
// on its own, so the two agree bit for bit; compiled with FMA (the tests' wrong kernels include
// it), it is an ordinary correct kernel's iteration. Yours to read, not to include: task 1 asks
// for this loop inside your kernel (`make forbidden` allows mandelbrot.h only).
#pragma once

#include "mandelbrot.h"

namespace mandelbrot {

template <typename T>
PMPP_HD std::uint32_t escape_time(T cr, T ci, int max_iter, T* magnitude2 = nullptr) {
    T zr = 0, zi = 0, zr2 = 0, zi2 = 0;
    int k = 0;
    while (k < max_iter) {
        zr2 = zr * zr;
        zi2 = zi * zi;
        if (zr2 + zi2 > static_cast<T>(4)) break;
        zi = (zr + zr) * zi + ci;
        zr = zr2 - zi2 + cr;
        ++k;
    }
    if (magnitude2 != nullptr) *magnitude2 = zr * zr + zi * zi;
    return static_cast<std::uint32_t>(k);
}

}  // namespace mandelbrot
