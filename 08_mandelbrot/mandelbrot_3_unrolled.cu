// mandelbrot_3_unrolled.cu: iteration at the speed of the FMA units. Idea over the seed kernel:
// test for escape once every 16 steps instead of after every step, and restore the exact count
// afterwards (advance_unrolled in mandelbrot_device.cuh). PMPP 6.3 (thread coarsening: more work
// per loop trip) and 6.5 (know the bottleneck: here, instruction issue).
//
// Counting instructions per iteration: the seed's loop issues about 11 (2 multiplies and an
// add for |z|^2, a compare, the update in 4-5 operations, the counter, the loop branch) for
// 8 flops of arithmetic; the unrolled block issues 4 per step (zr*zi, then 3 FMAs: 7 flops) plus
// about 8 per block (the test, the counter, the branches): 4.5 per step at 16 steps. An orbit
// that escaped inside the block is still escaped at its end (|z| only grows once it passes 2),
// so the lane then replays the block from its saved start, one step and one test at a time, to
// find the exact step. The intrinsics in step() keep the replay's arithmetic identical.
//
// One pixel per thread, like the seed: variant 2's work queue was tried here and lost on every
// view (its vote and bookkeeping on every trip cost more than the idle lanes it fills), so it
// stays behind MANDELBROT_UNROLLED_QUEUE=1 for the sweep.
// Measured (H200, 2026-11-30, 3840 wide, tune/gpu_run.sh's sweep), T iterations/s inside the set:
// queue + 8 steps 3.98 (48% of FP32 peak), queue + 16: 4.96, one pixel per thread + 4: 4.67,
// + 8: 5.31, + 16: 6.00 (72%), the shipped choice; the seed: 2.78 (33%). Anchor: 2.75 -> 4.91.
#include "mandelbrot.h"
#include "mandelbrot_device.cuh"

namespace mandelbrot {

namespace {

template <typename T>
struct UnrolledEngine {
    using Orbit = mandelbrot::Orbit<T>;

    __device__ bool start(Orbit& o, T cr, T ci, int max_iter, std::uint32_t& count) {
        o = orbit_start(cr, ci);
        count = 0;
        return max_iter <= 0;
    }
    __device__ bool advance(Orbit& o, int max_iter, std::uint32_t& count) {
        return advance_unrolled(o, max_iter, count);
    }
    __device__ void finish(unsigned) {}
};

}  // namespace

// 0: one pixel per thread (shipped); 1: the work queue of variant 2 hands out the pixels (the
// sweep in tune/gpu_run.sh measures both).
#ifndef MANDELBROT_UNROLLED_QUEUE
#define MANDELBROT_UNROLLED_QUEUE 0
#endif

void mandelbrot_unrolled(const View& view, Precision precision, std::uint32_t* counts) {
#if MANDELBROT_UNROLLED_QUEUE
    if (precision == Precision::Float)
        launch_from_queue<float>(view, counts, UnrolledEngine<float>{});
    else
        launch_from_queue<double>(view, counts, UnrolledEngine<double>{});
#else
    if (precision == Precision::Float)
        launch_per_pixel<float>(view, counts, UnrolledEngine<float>{});
    else
        launch_per_pixel<double>(view, counts, UnrolledEngine<double>{});
#endif
}

}  // namespace mandelbrot
