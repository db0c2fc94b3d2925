// tune/sweep_u4.cu: the sweep program (tune/sweep_variants.cuh) with 4 iteration steps per escape test.
#define MANDELBROT_UNROLL 4
#include "sweep_variants.cuh"
