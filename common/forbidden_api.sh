#!/usr/bin/env bash
# forbidden_api.sh: the old name of the forbidden-API check, kept so that old callers still work.
# The check is now `make forbidden` (common/student_rules.sh: the use and include rules, on the
# objects and dependency files the real build produced, never on a separate compile); this runs
# it in the current exercise folder. The old options (--forbid LIST, -I DIR, FILE...) are
# ignored: the exercise's Makefile says what its student files are and what they may use.
# Exit status as before: 0 clean, 5 something forbidden ("FORBIDDEN: " lines), 2 the check or
# the build of the student's objects failed.
set -u
[ -f Makefile ] || { echo "forbidden_api: run it in an exercise folder (or run make forbidden there)" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory forbidden ${ARCH:+ARCH=$ARCH} >"$log" 2>&1
status=$?
cat "$log"
[ $status -eq 0 ] && exit 0
grep -q '^FORBIDDEN: ' "$log" && exit 5
exit 2
