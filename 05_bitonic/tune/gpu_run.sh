#!/usr/bin/env bash
# 05_bitonic on a GPU machine, from the repository root; about 4 minutes on an H200:
#  1. build (make tune builds the variant-4 sweep too), 2. the test suite (nothing may be skipped),
#  3. `make run` with the starter (must be rejected) at 2^14, 4. the reference answer with
#  --impl all --check --bench (the full case list; 2^14, 2^20, 2^24, 2^26), 5. the sweep over
#  tile shapes, long-pass widths and schedules (tune/sweep.cu), 6. DRAM bytes of variant 4 at 2^24
#  from Nsight Compute, to hold against the 4.2 GB the launch count predicts.
source "$(dirname "$0")/../../common/gpu_steps.sh"
gpu_summary

TAILN=5 step build 170 make -j16 -C 05_bitonic ARCH=sm_90 all test-build tune

TAILN=4 step test 120 make -C 05_bitonic test ARCH=sm_90
grep -E "^\[  (FAILED|SKIPPED) |Failure" -A4 "$LOGS/test.log" | head -40

TAILN=28 step run_student 60 make -C 05_bitonic run ARCH=sm_90 RUN_ARGS="--size 2^14 --seed 1"

TAILN=75 step run_solution 150 05_bitonic/build/bitonic_solution --impl all --check --bench --seed 2 --json "$LOGS/solution.json"

TAILN=60 step sweep 150 05_bitonic/build/tune/sweep

# One sort (the benchmark's untimed counting run: the first 51 kernels in the range, LaunchFormula's count
# for the shipped schedule) at 2^24.
TAILN=3 step dram_fused 90 ncu --nvtx --nvtx-include "impl:fused/" --launch-count 51 --csv --print-units base \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    05_bitonic/build/bitonic --impl fused --bench --size 2^24 --repeats 1 --warmup 0 --seed 3
awk -F'","' '/dram__bytes/ { v = $NF; gsub(/[",]/, "", v); if ($(NF-2) ~ /read/) r += v; else w += v; k++ }
    END { printf "fused, one sort of 2^24 u32: %d kernel metrics, DRAM read %.3f GB + written %.3f GB = %.3f GB\n", k, r / 1e9, w / 1e9, (r + w) / 1e9 }' \
    "$LOGS/dram_fused.log" | tee "$LOGS/dram_fused_total.txt"
