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
// A grid of width / 16 x height / 16 blocks, rounded down: the last columns and rows past the
// last whole block get no thread (and an image smaller than one block gets no launch at all).
void rounds_the_grid_down(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// The imaginary part of z^2 + c computed as zr * zi + ci: the 2 of 2 zr zi forgotten.
void drops_the_2_of_2_zr_zi(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// The classic `if (i <= n)`: one thread per pixel on a flat 1-D grid of pixels / 256 + 1 blocks,
// bounded by i <= pixels, so thread i = pixels writes one element past the end of the image,
// whether or not the image is a multiple of the block.
void writes_one_past_the_end(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// Fills the rows bottom-up (thread row py writes image row height - 1 - py) and bounds the image
// row on the wrong end (row < height, always true): the threads past the last row of the grid
// write before the start of the image when its height is not a multiple of 16.
void fills_rows_bottom_up(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
// Right on its first call for an output (the seed kernel's counts); afterwards returns at once
// when it sees the same pointer, view and precision again, leaving the image as it finds it.
// The check calls it once per case; the benchmark's every run must catch it.
void remembers_its_last_call(const mandelbrot::View& view, mandelbrot::Precision precision, std::uint32_t* counts);
void forget_remembered_calls();  // so each test starts with an empty memo
}  // namespace wrong
