// tune/sweep_u8.cu: the sweep program (tune/sweep_variants.cuh) with 8 iteration steps per escape test.
#define MANDELBROT_UNROLL 8
#include "sweep_variants.cuh"
