// tune/sweep_queue.cu: the sweep program (tune/sweep_variants.cuh) with variants 3 and 4 taking their
// pixels from variant 2's work queue.
#define MANDELBROT_UNROLLED_QUEUE 1
#define MANDELBROT_SHORTCUTS_QUEUE 1
#include "sweep_variants.cuh"
