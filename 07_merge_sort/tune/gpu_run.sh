#!/usr/bin/env bash
# 07_merge_sort on a GPU machine, from the repository root: build, tests, the reference answer
# checked and benchmarked, the tuning sweep of the fast variant (tune/sweep.cu, six parts
# compiled in the background while the tests run), the 4-way merge pass (tune/sweep_multiway.cu),
# the persistent merge pass (tune/sweep_persistent.cu), variant 5's network tiles
# (tune/sweep_network.cu), the partition whose searches share their bounds
# (tune/sweep_partition.cu) and the starter's `make run` (rejected).
# About 8 minutes on an H200.
source "$(dirname "$0")/../../common/gpu_steps.sh"
gpu_summary

TAILN=4 step build 150 make -j16 -C 07_merge_sort ARCH=sm_90 all test-build
grep -E "warning|error" "$LOGS/build.log" | head -10

# The sweep compiles while the tests run (CPU only; six parts in parallel).
rm -rf /tmp/07_sweep && mkdir -p /tmp/07_sweep
( for p in 0 1 2 3 4 5; do
    nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I. -DSWEEP_PART=$p 07_merge_sort/tune/sweep.cu \
      common/build/libpmpp_common.a -o /tmp/07_sweep/part$p > "$LOGS/sweep_build$p.log" 2>&1 &
  done
  for m in check_multiway_partition sweep_multiway sweep_persistent sweep_network check_window_partition sweep_partition; do
    nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I. 07_merge_sort/tune/$m.cu \
      common/build/libpmpp_common.a -o /tmp/07_sweep/$m > "$LOGS/${m}_build.log" 2>&1 &
  done
  wait ) &
SWEEP_BUILD=$!

TAILN=4 step test 120 make -C 07_merge_sort test ARCH=sm_90
grep -E "^\[  FAILED  \]|Failure|error:" -A4 "$LOGS/test.log" | head -40

# The starter must be rejected (exit code 1): one size keeps it short.
TAILN=14 step run_starter 20 make -C 07_merge_sort run ARCH=sm_90 RUN_ARGS="--size 1000 --seed 1"

# Every case up to 2^17+1 for every implementation (the tests cover 2^20+5 and 2^26+3), then
# the benchmark at 2^20, 2^24, 2^28: sort keys, sort pairs, merge.
TAILN=110 step solution 110 07_merge_sort/build/merge_sort_solution --impl all --check --bench --max-size 2^17+1 \
  --repeats 10 --seed 2 --json "$LOGS/solution.json"

wait $SWEEP_BUILD
for p in 0 5 4 1 3 2; do  # most telling first: CUB, the shipped shape and where its time goes, PDL
  if [ -x /tmp/07_sweep/part$p ]; then TAILN=90 step sweep$p 60 /tmp/07_sweep/part$p
  else echo "sweep part $p did not build:"; tail -5 "$LOGS/sweep_build$p.log"; fi
done
# The 4-way merge pass (NOTES.md, "A 4-way merge pass"): the host check of its partition and
# block steps, then the sweep against the shipped 2-way passes and CUB (about a minute); then the
# persistent merge pass (NOTES.md, "A persistent merge pass") against the same (about a minute);
# then variant 5's network tiles against variant 4 and CUB (NOTES.md, "A network tile sort for
# plain keys", about 20 s); then the partition whose searches share their bounds (NOTES.md,
# "Partitions that share their bounds"): its host check, and the merge of two halves (beside CUB's
# DeviceMerge) and whole sorts with it (about 30 s).
for m in check_multiway_partition sweep_multiway sweep_persistent sweep_network check_window_partition sweep_partition; do
  if [ -x /tmp/07_sweep/$m ]; then TAILN=90 step $m 300 /tmp/07_sweep/$m
  else echo "$m did not build:"; tail -5 "$LOGS/${m}_build.log"; fi
done
rm -rf /tmp/07_sweep

# Where CUB's time goes at 2^28 (the same question the breakdown answers for ours): the duration
# of each of its kernels in one sort of u32 keys (the benchmark's first, untimed run).
TAILN=45 step cub_kernels 120 ncu --nvtx --nvtx-include "impl:cub/" -k regex:DeviceMergeSort --launch-count 40 \
  --csv --print-units base --metrics gpu__time_duration.sum \
  07_merge_sort/build/merge_sort_solution --impl cub --bench --size 2^28 --repeats 1 --warmup 0 --seed 3
awk -F'","' '/gpu__time_duration/ { v = $NF; gsub(/[",]/, "", v); name = "?"
        for (i = 1; i <= NF; i++) if ($i ~ /DeviceMergeSort/) { name = $i; break }
        split(name, k, "<"); t[k[1]] += v; n[k[1]]++ }
    END { for (x in t) printf "  %-60s %3d launches %9.3f ms\n", substr(x, 1, 60), n[x], t[x] / 1e6 }' \
    "$LOGS/cub_kernels.log" | sort | tee "$LOGS/cub_kernels_total.txt"
