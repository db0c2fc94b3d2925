#!/usr/bin/env bash
# run_tests.sh BINARY...: runs GoogleTest binaries built on common/test_main.cpp and ends with
# one line alone: "N passed, N failed, N skipped". Exit status non-zero on any failure,
# including a binary that crashed or never printed its counts.
#
# Counts are accumulated in $PMPP_TEST_TALLY when set (the top-level `make test` uses that to
# print one line for the whole repository), otherwise printed at the end of this run.
set -u
passed=0 failed=0 skipped=0 rc=0
for bin in "$@"; do
    log=$(mktemp)
    "$bin" --gtest_color=no 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    counts=$(grep -E '^PMPP_TEST_COUNTS ' "$log" | tail -n 1)
    rm -f "$log"
    if [ -z "$counts" ]; then
        echo "run_tests: $bin stopped before reporting (exit status $status): counted as 1 failure" >&2
        failed=$((failed + 1)); rc=1; continue
    fi
    p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$counts")
    f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$counts")
    s=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$counts")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$status" -ne 0 ] || [ "$f" -ne 0 ]; then rc=1; fi
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "run_tests: $bin exited with status $status after its tests: counted as 1 failure" >&2
        failed=$((failed + 1))
    fi
done
if [ -n "${PMPP_TEST_TALLY:-}" ]; then
    echo "$passed $failed $skipped" >> "$PMPP_TEST_TALLY"
else
    echo "$passed passed, $failed failed, $skipped skipped"
fi
exit $rc
