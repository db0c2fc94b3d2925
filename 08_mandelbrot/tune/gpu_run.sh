#!/usr/bin/env bash
# 08_mandelbrot on a GPU machine, from the repository root: build, tests, the starter rejected,
# the solution's full check and benchmark (a selection of the pictures into $LOGS/images), the
# sweep of the tuning knobs (tune/sweep_*.cu, built by `make tune`), warp efficiency from Nsight
# Compute, and compute-sanitizer on the queue and tile kernels. About 3-4 minutes on an H200.
source "$(dirname "$0")/../../common/gpu_steps.sh"
EX=08_mandelbrot
gpu_summary
nproc | sed 's/^/host cores: /' | tee -a "$LOGS/gpu.txt"

# The programs, the tests and tune/'s sweep programs (build/tune/sweep_NAME).
TAILN=4 step build 300 make -j16 -C $EX ARCH=sm_90 all test-build tune
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

# Sweep: variants 2-5 built with other knobs (tune/sweep_*.cu, `make tune`), beside the shipped build
# (16 steps per escape test, variants 3 and 4 one pixel per thread, refill after 8 idle lanes):
# 4 and 8 steps per escape test, variants 3 and 4 through the work queue (16 and 8 steps), and a
# refill after 1 or 24 idle lanes.
sweep_all() {
    for name in shipped u4 u8 queue queue8 t1 t24; do
        echo "=== $name"
        bin=$EX/build/tune/sweep_$name
        [ $name = shipped ] && bin=$EX/build/mandelbrot_solution
        $bin --impl refill,unrolled,shortcuts,border --bench --no-images --repeats 6 --warmup 1 \
            --view inside,full_4096,seahorse,deep --seed 3 | grep -E "^(n = | *(seed|refill|unrolled|shortcuts|border)[ :])"
    done
}
export -f sweep_all
export EX
TAILN=90 step sweep 150 bash -c sweep_all

# Warp efficiency from the hardware's counters: average active threads per executed warp
# instruction (32 = no divergence), seed vs refill, on the seahorse view (one timed launch each).
TAILN=30 step ncu 75 ncu --clock-control none -k regex:"seed_kernel|render_from_queue" \
    --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,gpu__time_duration.sum \
    $EX/build/mandelbrot_solution --impl seed,refill --bench --view seahorse --size 1920 --repeats 1 --warmup 0 --no-images

TAILN=6 step sanitize 90 make -C $EX sanitize ARCH=sm_90 IMPL=refill,shortcuts,border CHECK_MAX_SIZE=64 \
    RUN_ARGS="--view full,seahorse"
