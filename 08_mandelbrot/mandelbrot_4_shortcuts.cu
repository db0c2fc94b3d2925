// mandelbrot_4_shortcuts.cu: the iterations not done at all. Idea over the unrolled kernel:
// most of the work of a view that contains the set is spent on points that never escape, and
// two cheap tests find most of them (mandelbrot_device.cuh):
//  - the main cardioid and the period-2 bulb (about 90% of the set's area) have closed forms:
//    a pixel inside either is max_iter without a single step;
//  - elsewhere inside the set the orbit settles on a cycle, and in floating point it comes
//    back to exactly the same z. Brent's trick remembers z at k = 32, 64, 128, ... (for an
//    unroll of 16) and compares after every block: a match means the orbit repeats forever.
// Both are exact in the kernel's own arithmetic: a pixel they stop would never have escaped.
// PMPP 6.5 (know the bottleneck: here, iterations that change nothing).
// Measured (H200, 2026-11-30): 0.377 ms on the full view at 4096 iterations, 3840x2560, 10.5x the
// seed kernel (0.687 ms through variant 2's work queue with 8 steps per test). Anchor: 3.46 ms ->
// 0.76 ms on the full view at 4096 iterations from the cardioid and bulb test alone.
#include "mandelbrot.h"
#include "mandelbrot_device.cuh"

namespace mandelbrot {

// The engine (start: the closed-form tests; advance: an unrolled block, then the cycle test)
// is ShortcutEngine in mandelbrot_device.cuh: variant 5 uses it too, one pixel at a time.
// 0: one pixel per thread (shipped, as variant 3); 1: variant 2's work queue hands out the
// pixels. Measured (H200, 3840 wide) through the queue: 0.288 ms on the full view at 200
// iterations, 1.25x the seed kernel's time: the queue's bookkeeping outweighs the short orbits.
#ifndef MANDELBROT_SHORTCUTS_QUEUE
#define MANDELBROT_SHORTCUTS_QUEUE 0
#endif

void mandelbrot_shortcuts(const View& view, Precision precision, std::uint32_t* counts) {
#if MANDELBROT_SHORTCUTS_QUEUE
    if (precision == Precision::Float)
        launch_from_queue<float>(view, counts, ShortcutEngine<float>{});
    else
        launch_from_queue<double>(view, counts, ShortcutEngine<double>{});
#else
    if (precision == Precision::Float)
        launch_per_pixel<float>(view, counts, ShortcutEngine<float>{});
    else
        launch_per_pixel<double>(view, counts, ShortcutEngine<double>{});
#endif
}

}  // namespace mandelbrot
