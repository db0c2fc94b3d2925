#!/usr/bin/env bash
# 01_saxpy on a GPU machine, from the repository root: build, tests, the harness with every
# implementation, the sweep behind NOTES.md, compute-sanitizer and Nsight Compute on one kernel.
source "$(dirname "$0")/../../common/gpu_steps.sh"
gpu_summary
TAILN=3 step build 300 make -j16 -C 01_saxpy ARCH=sm_90 all test-build tune
TAILN=3 step test 240 make -C 01_saxpy test ARCH=sm_90
TAILN=40 step run_student 200 make -C 01_saxpy run ARCH=sm_90 RUN_ARGS="--seed 1"
TAILN=60 step run_solution 200 01_saxpy/build/saxpy_solution --impl all --seed 2
TAILN=40 step sweep 120 01_saxpy/build/tune/sweep_vectorized
TAILN=8 step sanitize 240 make -C 01_saxpy sanitize ARCH=sm_90 IMPL=naive,vectorized,cublas CHECK_MAX_SIZE=5000
TAILN=12 step profile 120 make -C 01_saxpy profile ARCH=sm_90 IMPL=vectorized PROFILE_SIZE=2^20 NCU_ARGS="--section SpeedOfLight"
