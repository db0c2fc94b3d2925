// Deliberately wrong Mandelbrot kernels: each makes one classic mistake, and the check must
// reject every one of them. Same signature as every implementation (mandelbrot.h).
#pragma once

#include "../mandelbrot.h"

namespace wrong {
// Writes pixel (px, py) at counts[px * height + py]: x and y swapped in the index.
void swaps_x_and_y(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// Starts counting at 1: every escaped pixel one too many.
void counts_one_too_many(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// No bounds check: the threads of the last blocks write past the image when its size is not
// a multiple of the 16x16 block.
void has_no_bounds_check(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// Computes in float whatever the precision asked for.
void always_uses_float(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// Forgets the launch (the starter's state).
void never_launches(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
}  // namespace wrong
