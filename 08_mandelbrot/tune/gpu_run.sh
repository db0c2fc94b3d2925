#!/usr/bin/env bash
# 08_mandelbrot on a GPU machine, from the repository root: build, tests, the starter rejected,
# the solution's full check and benchmark (a selection of the pictures into $LOGS/images), a
# sweep of the two tuning knobs, warp efficiency from Nsight Compute, and compute-sanitizer on
# the queue and tile kernels. About 3-4 minutes on an H200.
source "$(dirname "$0")/../../common/gpu_steps.sh"
EX=08_mandelbrot
gpu_summary
nproc | sed 's/^/host cores: /' | tee -a "$LOGS/gpu.txt"

TAILN=4 step build 240 make -j16 -C $EX ARCH=sm_90 all test-build
TAILN=4 step test 150 make -C $EX test ARCH=sm_90
grep -E "^\[  FAILED|Failure|Expected|Which is|error" -A4 "$LOGS/test.log" | head -60
grep -E "^\[       OK \].*\([0-9]{4,} ms\)" "$LOGS/test.log" | head -20   # the slow tests

# The starter: rejected (exit 1), every reference correct. Shortened: two views, few repeats.
TAILN=30 step run_student 90 make -C $EX run ARCH=sm_90 RUN_ARGS="--seed 1 --view full,seahorse --repeats 5 --no-images"

# The solution build: every case, every view, the pictures (a selection comes back for the README).
TAILN=150 step run_solution 150 $EX/build/mandelbrot_solution --impl all --check --bench --seed 2 \
    --json "$LOGS/results.json" --images $EX/build/images
mkdir -p "$LOGS/images"
for f in full deep deep_float seahorse seahorse_warp_cost seahorse_warp_efficiency full_4096_warp_cost \
         full_4096_warp_efficiency; do cp $EX/build/images/$f.png "$LOGS/images/" 2>/dev/null; done
ls -la $EX/build/images | tail -n +2 | awk '{print $5, $9}' | tr '\n' ' '; echo

# Sweep: steps per escape test (MANDELBROT_UNROLL, default 8), idle lanes before a refill
# (MANDELBROT_REFILL_THRESHOLD, default 8) and variant 3 without the work queue
# (MANDELBROT_UNROLLED_QUEUE=0: one pixel per thread). Only the files that include mandelbrot_device.cuh
# are rebuilt per setting; the rest of the program is the build above.
sweep() {
    local name=$1 flag="${*:2}" dir=/tmp/08_sweep_$1
    mkdir -p $dir
    for f in mandelbrot_2_refill mandelbrot_3_unrolled mandelbrot_4_shortcuts mandelbrot_5_border_tracing; do
        nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo --expt-relaxed-constexpr -I. -I$EX $flag -c $EX/$f.cu -o $dir/$f.o &
    done
    wait
    nvcc -arch=sm_90 -o $dir/mandelbrot $EX/build/obj/harness/*.o $EX/build/obj/mandelbrot_0_pinned.cu.o \
        $EX/build/obj/mandelbrot_1_seed.cu.o $EX/build/obj/mandelbrot_cpu.cpp.o $dir/*.o common/build/libpmpp_common.a \
        -lgomp -L${CUDA_PATH:-/usr/local/cuda}/lib64 -lcudart $(pkg-config --libs libpng 2>/dev/null) -lpthread
}
sweep_all() {
    for cfg in "u4 -DMANDELBROT_UNROLL=4" "u16 -DMANDELBROT_UNROLL=16" "t1 -DMANDELBROT_REFILL_THRESHOLD=1" \
               "t24 -DMANDELBROT_REFILL_THRESHOLD=24" "grid -DMANDELBROT_UNROLLED_QUEUE=0" \
               "grid16 -DMANDELBROT_UNROLLED_QUEUE=0 -DMANDELBROT_UNROLL=16"; do
        sweep $cfg &
    done
    wait
    for name in u4 u16 t1 t24 grid grid16; do
        echo "=== $name"
        /tmp/08_sweep_$name/mandelbrot --impl refill,unrolled,shortcuts,border --bench --no-images --repeats 6 \
            --warmup 1 --view inside,full_4096,seahorse,deep --seed 3 | grep -E "^(n = | *(seed|refill|unrolled|shortcuts|border)[ :])"
    done
}
export -f sweep sweep_all
export EX
TAILN=80 step sweep 120 bash -c sweep_all

# Warp efficiency from the hardware's counters: average active threads per executed warp
# instruction (32 = no divergence), seed vs refill, on the seahorse view (one timed launch each).
TAILN=30 step ncu 75 ncu --clock-control none -k regex:"seed_kernel|render_from_queue" \
    --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,gpu__time_duration.sum \
    $EX/build/mandelbrot_solution --impl seed,refill --bench --view seahorse --size 1920 --repeats 1 --warmup 0 --no-images

TAILN=6 step sanitize 90 make -C $EX sanitize ARCH=sm_90 IMPL=refill,shortcuts,border CHECK_MAX_SIZE=64 \
    RUN_ARGS="--view full,seahorse"
rm -rf /tmp/08_sweep_*
