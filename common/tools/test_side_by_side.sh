#!/usr/bin/env bash
# common/tools/test_side_by_side.sh: `make test`'s device suites, side by side, for a GPU machine
# whose commands are limited in time (one after the other they take longer than such a limit).
#
#   common/tools/test_side_by_side.sh [native|PROFILE] [JOBS] [SHARDS]
#
# From the repository root, after `make all test-build`. The same test binaries and filters as
# `make test`: native runs every suite as its first pass does; a profile name (t4, l4) runs them as
# its second pass does (PMPP_DEVICE_PROFILE, without the student-rules tests). Each binary is cut
# into SHARDS GoogleTest shards (default 8), JOBS processes at a time (default: the cores). Then
# the tests that measure their own process (its memory peak, the GPU's free memory, timers) run
# one process at a time, with nothing beside them: *Memory*, Timing*, Time*; in a profile pass the
# harness and benchmark tests too (*Harness*, *Bench*), since a profile's free memory is its total
# less what the whole GPU has in use, and the harness drops the cases that do not fit it (seen on
# an H100: RenderHarness checked 54 of its 176 cases beside 15 other processes under t4). For the
# same reason, run the native pass and a profile pass one after the other, not together.
#
# The grader's Python suite (make test's last binary) uses no GPU; run it anywhere.
# Logs: $LOGS (default build/test-logs/<pass>), one per shard. Last line, as make test's:
# "N passed, N failed, N skipped"; exit status non-zero on any failure or crash.
set -u
pass=${1:-native}
jobs=${2:-$(nproc)}
shards=${3:-8}
logs=${LOGS:-build/test-logs/$pass}
mkdir -p "$logs"
rm -f "$logs"/*.log
tally=$logs/tally
: >"$tally"
export tally

alone='*Memory*:Timing*:Time*'
excluded=''
if [ "$pass" != native ]; then
    export PMPP_DEVICE_PROFILE=$pass
    excluded='StudentRules*:*/EveryExercise.*'
    alone="$alone:*Harness*:*Bench*"
fi

# The slowest suites first, so that their shards are not the last to start.
bins=()
for d in 04_circle_renderer 06_radix_sort 05_bitonic 07_merge_sort 03_find_repeats 02_scan 08_mandelbrot 01_saxpy \
    common; do
    [ -x "$d/build/tests" ] && bins+=("$d/build/tests")
done
for d in [0-9][0-9]_*; do  # an exercise not in the list above still runs
    case " ${bins[*]} " in *" $d/build/tests "*) ;; *) [ -x "$d/build/tests" ] && bins+=("$d/build/tests") ;; esac
done

# run_one BINARY SHARD SHARDS FILTER LOG: one process through common/run_tests.sh (its counts,
# or a crash counted as a failure, go to $tally as make test's do); its output and time in LOG.
run_one() {
    local bin=$1 shard=$2 total=$3 filter=$4 log=$5 t0 rc
    t0=$(date +%s)
    GTEST_TOTAL_SHARDS=$total GTEST_SHARD_INDEX=$shard GTEST_FILTER=$filter PMPP_TEST_TALLY=$tally \
        bash common/run_tests.sh "$bin" >"$log" 2>&1
    rc=$?
    echo "PMPP_SHARD_EXIT status=$rc seconds=$(($(date +%s) - t0))" >>"$log"
}
export -f run_one

# The counts in $tally so far, printed after each phase too: a run cut short by a time limit
# still says what its finished shards saw.
counts() { awk '{p += $1; f += $2; s += $3} END {printf "%d passed, %d failed, %d skipped", p, f, s}' "$tally"; }

t0=$(date +%s)
side_filter="*-$alone${excluded:+:$excluded}"
for bin in "${bins[@]}"; do
    for ((i = 0; i < shards; i++)); do
        echo "$bin $i $shards $side_filter $logs/$(dirname "$(dirname "$bin")")_$i.log"
    done
done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
echo "side by side: $((($(date +%s) - t0))) s ($(counts))"

t1=$(date +%s)
alone_filter="$alone${excluded:+-$excluded}"
for bin in "${bins[@]}"; do
    run_one "$bin" 0 1 "$alone_filter" "$logs/$(dirname "$(dirname "$bin")")_alone.log"
done
echo "alone: $((($(date +%s) - t1))) s"

rc=0
for log in "$logs"/*.log; do
    if ! grep -q '^PMPP_SHARD_EXIT status=0 ' "$log"; then
        rc=1
        echo "$log:"
        grep -E '^\[  FAILED  \]|^run_tests: ' "$log" | sort -u | sed 's/^/  /'
    fi
    grep -E '^\[  SKIPPED \]' "$log" | sort -u | sed "s|^|  $log: |"
done
echo "the longest shards:"
grep -H '^PMPP_SHARD_EXIT' "$logs"/*.log | sed -E 's/.*\/([^/]+\.log):.*seconds=([0-9]+)/\2 \1/' | sort -rn | head -5 |
    sed 's/^/  /'
echo "$pass: $(counts)"
exit $rc
