#!/usr/bin/env bash
# 06_radix_sort on a GPU machine, from the repository root (bash 06_radix_sort/tune/gpu_run.sh):
# build, tests, the starter rejected, the reference answer with every implementation (u32 keys
# and key-value pairs at 2^20, 2^24, 2^28 against CUB, with each variant's per-stage breakdown),
# u64 keys and 16-bit keys at 2^28, the tile-shape sweep behind NOTES.md, the instruction-count
# variants of the pass (tune/sweep_instructions.cu), Nsight Compute on the pass kernels of variants
# 5 and 6 and on CUB's (keys alone; 6 and CUB with values too), and racecheck on the kernels that
# share memory.
# Estimated on an H200 with 16 cores: build 0.7 min, tests 1 min, the harness 1.5 min, the
# rest 2.3 min (the sweeps compile while the tests run).
source "$(dirname "$0")/../../common/gpu_steps.sh"
gpu_summary
BIN=06_radix_sort/build/radix_sort_solution
TAILN=3 step build 300 make -j16 -C 06_radix_sort ARCH=sm_90 all test-build
nvcc -O3 -std=c++17 -arch=sm_90 -I. 06_radix_sort/tune/sweep_onesweep.cu common/build/libpmpp_common.a \
    -o build-sweep-radix > "$LOGS/sweep_build.log" 2>&1 &
SWEEP_BUILD=$!
nvcc -O3 -std=c++17 -arch=sm_90 -I. 06_radix_sort/tune/sweep_instructions.cu common/build/libpmpp_common.a \
    -o build-sweep-instructions > "$LOGS/sweep_instructions_build.log" 2>&1 &
INSTRUCTIONS_BUILD=$!
TAILN=3 step test 240 make -C 06_radix_sort test ARCH=sm_90
TAILN=5 step starter 60 06_radix_sort/build/radix_sort --impl student --check --max-size 5000 --seed 1
TAILN=100 step run_solution 360 $BIN --impl all --check --bench --seed 5 --json "$LOGS/results.json"
TAILN=12 step bench_u64 90 $BIN --impl onesweep,onesweep_ptx,cub --bench --type u64 --pairs no --size 2^28 --seed 5
TAILN=12 step bench_16bit 90 $BIN --impl onesweep,onesweep_ptx,cub --bench --bits 0:16 --pairs no --size 2^28 --seed 5
wait $SWEEP_BUILD
tail -n 3 "$LOGS/sweep_build.log"
TAILN=70 step sweep 150 ./build-sweep-radix 24 28
rm -f build-sweep-radix
# The pass with fewer instructions (NOTES.md, "Instruction count"): every row ok, then t/CUB.
wait $INSTRUCTIONS_BUILD
tail -n 3 "$LOGS/sweep_instructions_build.log"
TAILN=40 step sweep_instructions 120 ./build-sweep-instructions 20+13 24 28
rm -f build-sweep-instructions
# The first run found the pass bound by shared-memory instructions (NOTES.md): count them per
# kind, with their bank conflicts, for our pass and CUB's (the same tile, the same grid).
sections="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SourceCounters \
 --metrics smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__inst_executed_op_shared_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_global_red.sum"
# Then variant 6 against CUB, keys alone and pairs: the pairs pass is where variant 6 still trails
# (NOTES.md, "Variant 6 measured": values cost us 24% over keys alone, CUB 17%).
for impl in onesweep onesweep_ptx cub; do
    kernel=$([ $impl = cub ] && echo Onesweep || echo onesweep_pass)
    for pairs in no yes; do
        [ $impl = onesweep ] && [ $pairs = yes ] && continue
        TAILN=40 step profile_${impl}_pairs_$pairs 90 make -C 06_radix_sort profile ARCH=sm_90 IMPL=$impl \
            PROFILE_SIZE=2^24 RUN_ARGS="--pairs $pairs" NCU_ARGS="-k regex:$kernel --launch-count 1 $sections"
    done
done
TAILN=6 step racecheck 120 compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 \
    $BIN --impl onesweep,onesweep_ptx,coarsened --check --max-size 300 --seed 1
