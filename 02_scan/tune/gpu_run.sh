#!/usr/bin/env bash
# 02_scan and 03_find_repeats on a GPU machine, from the repository root: build, tests, the
# starters rejected, the reference answers with every implementation, and the sweeps behind
# NOTES.md (tile shape; the look-back priced and its waits swept; a look-back warp beside the
# loads; the tile staged in shared memory, for more tiles in flight; persistent blocks that load
# their next tiles while one waits).
source "$(dirname "$0")/../../common/gpu_steps.sh"
gpu_summary
TAILN=3 step build 400 make -j16 ARCH=sm_90 common 02_scan 03_find_repeats test-build-02_scan test-build-03_find_repeats
TAILN=2 step test02 200 make -C 02_scan test ARCH=sm_90
TAILN=2 step test03 200 make -C 03_find_repeats test ARCH=sm_90
TAILN=2 step forbidden 60 make -C 02_scan forbidden ARCH=sm_90
TAILN=4 step starter02 60 02_scan/build/scan --impl student --check --max-size 5000 --seed 1
TAILN=4 step starter03 60 03_find_repeats/build/find_repeats --impl student --check --max-size 5000 --seed 1
TAILN=24 step run02 200 02_scan/build/scan_solution --impl all --seed 5
TAILN=30 step run03 200 03_find_repeats/build/find_repeats_solution --impl all --seed 5
TAILN=3 step build-sweeps 300 make -C 02_scan -j16 ARCH=sm_90 tune
for s in sweep_tiles sweep_lookback sweep_overlap sweep_staged sweep_persistent; do
    TAILN=45 step $s 150 02_scan/build/tune/$s
done
