// tune/sweep_variants.cuh: variants 2 to 5 compiled into one sweep program, with the knobs its
// tune/sweep_NAME.cu sets before it includes this file: steps per escape test
// (MANDELBROT_UNROLL) and idle lanes before a refill (MANDELBROT_REFILL_THRESHOLD), which
// mandelbrot_device.cuh reads, and whether variants 3 and 4 take their pixels from variant 2's
// work queue (MANDELBROT_UNROLLED_QUEUE, MANDELBROT_SHORTCUTS_QUEUE). `make tune` links each one
// with the rest of the solution build (the Makefile's TUNE_SRCS: the harness and its main,
// variants 0 and 1, the CPU reference, the reference answer) into build/tune/sweep_NAME, the
// same program as build/mandelbrot_solution but for those knobs; tune/gpu_run.sh runs them.
#pragma once

#include "../mandelbrot_2_refill.cu"
#include "../mandelbrot_3_unrolled.cu"
#include "../mandelbrot_4_shortcuts.cu"
#include "../mandelbrot_5_border_tracing.cu"
