// tune/sweep_queue8.cu: the sweep program (tune/sweep_variants.cuh) as the first H200 run built it:
// variants 3 and 4 through variant 2's work queue, 8 iteration steps per escape test.
#define MANDELBROT_UNROLLED_QUEUE 1
#define MANDELBROT_SHORTCUTS_QUEUE 1
#define MANDELBROT_UNROLL 8
#include "sweep_variants.cuh"
