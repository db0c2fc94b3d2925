// mandelbrot_student.cu: YOUR FILE. Complete tasks 1 and 2 (README.md), then run `make run`.
//
// The harness calls mandelbrot_student at the bottom. Until you write it, the check rejects
// this file: the output is filled with 0xFFFFFFFF before each run, so a pixel you never write
// shows up as "never written".
#include "mandelbrot.h"

#include "common/cuda_check.h"

namespace mandelbrot {

// Task 1: the kernel. One thread per pixel (px, py):
//  - px from the x components of blockIdx, blockDim and threadIdx, py from the y components;
//  - the grid is rounded up to whole blocks, so threads with px >= f.width or py >= f.height
//    must not write (check both axes);
//  - c = (f.re(px), f.im(py)) is the pixel's point of the plane (mandelbrot.h defines it);
//  - iterate z = z^2 + c from z = 0, counting steps, while the count is below f.max_iter and
//    |z|^2 = zr^2 + zi^2 <= 4 (split z^2 + c into its real and imaginary parts);
//  - write the count to counts[py * f.width + px] (row-major, top row first).
template <typename T>
__global__ void mandelbrot_kernel(Frame<T> f, std::uint32_t* counts) {
    // TODO(task 1)
}

// Task 2: the launch. A 2-D block (16 x 16 is a good start), a 2-D grid with enough blocks to
// cover view.image_width x view.image_height (round up), make_frame<float> or make_frame<double>
// as `precision` says, then PMPP_CHECK_LAUNCH(). An empty image (width or height 0) needs no
// launch at all (a grid of zero blocks is an error).
void mandelbrot_student(const View& view, Precision precision, std::uint32_t* counts) {
    // TODO(task 2)
    (void)view, (void)precision, (void)counts;  // delete this line when you use them
}

}  // namespace mandelbrot
