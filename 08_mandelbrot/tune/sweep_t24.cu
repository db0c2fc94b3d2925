// tune/sweep_t24.cu: the sweep program (tune/sweep_variants.cuh) whose queue warps refill their lanes
// only once 24 are idle.
#define MANDELBROT_REFILL_THRESHOLD 24
#include "sweep_variants.cuh"
