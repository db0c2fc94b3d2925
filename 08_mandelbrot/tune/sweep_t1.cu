// tune/sweep_t1.cu: the sweep program (tune/sweep_variants.cuh) whose queue warps refill their lanes
// as soon as one is idle.
#define MANDELBROT_REFILL_THRESHOLD 1
#include "sweep_variants.cuh"
