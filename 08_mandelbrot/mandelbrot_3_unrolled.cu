// mandelbrot_3_unrolled.cu: iteration at the speed of the FMA units. Idea over the refill
// kernel: test for escape once every 8 steps instead of after every step, and restore the
// exact count afterwards (advance_unrolled in mandelbrot_device.cuh). PMPP 6.3 (thread
// coarsening: more work per loop trip) and 6.5 (know the bottleneck: here, instruction issue).
//
// Counting instructions per iteration: the seed's loop issues about 11 (2 multiplies and an
// add for |z|^2, a compare, the update in 4-5 operations, the counter, the loop branch) for
// 8 flops of arithmetic; the unrolled block issues 4 per step (zr*zi, then 3 FMAs: 7 flops) plus
// about 14 per block (the test, the counter, the branches, the work-queue vote): 5.75 per
// step. An orbit that escaped inside the block is still escaped at its end (|z| only
// grows once it passes 2), so the lane then replays the block from its saved start, one step
// and one test at a time, to find the exact step. The intrinsics in step() keep the replay's
// arithmetic identical to the block's.
// Measured (H200, 2026-11-30): 3.98 T iterations/s inside the set at 3840^2, 48% of FP32 peak
// (anchor: 2.75 -> 4.91 T iterations/s inside the set, 4096^2).
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
    __device__ bool advance(Orbit& o, int max_iter, std::uint32_t& count) { return advance_unrolled(o, max_iter, count); }
    __device__ void finish(unsigned) {}
};

}  // namespace

// 1: the work queue of variant 2 hands out the pixels; 0: one pixel per thread (the sweep in
// tune/gpu_run.sh measures both).
#ifndef MANDELBROT_UNROLLED_QUEUE
#define MANDELBROT_UNROLLED_QUEUE 1
#endif

void mandelbrot_unrolled(const View& view, Precision precision, std::uint32_t* counts) {
#if MANDELBROT_UNROLLED_QUEUE
    if (precision == Precision::Float) launch_from_queue<float>(view, counts, UnrolledEngine<float>{});
    else launch_from_queue<double>(view, counts, UnrolledEngine<double>{});
#else
    if (precision == Precision::Float) launch_per_pixel<float>(view, counts, UnrolledEngine<float>{});
    else launch_per_pixel<double>(view, counts, UnrolledEngine<double>{});
#endif
}

}  // namespace mandelbrot
