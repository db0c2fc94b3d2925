#!/usr/bin/env bash
# Stand-in for the course's forbidden-API check, run by `make forbidden` (fake.mk) on the
# objects the student's build made: forbidden_api.sh --forbid LIBRARIES OBJECT...
# A finding is a line "FORBIDDEN: ..." and exit status 5: an object that says uses_thrust where
# LIBRARIES holds thrust; one that says calls_reference in every exercise (as every real
# exercise forbids calling a reference variant). Exit 2, without a finding, when it cannot
# read an object: one the build did not make, or one that says hides_from_checker.
forbid=""
objects=()
while [ $# -gt 0 ]; do
    case "$1" in
        --forbid) forbid=$2; shift 2 ;;
        *) objects+=("$1"); shift ;;
    esac
done
status=0
for obj in "${objects[@]}"; do
    src=$(basename "$obj" .o)
    if [ ! -f "$obj" ]; then
        echo "forbidden_api: $obj: no such object (build the program first)" >&2; exit 2
    fi
    if grep -q hides_from_checker "$obj"; then
        echo "forbidden_api: cannot read the symbols of $obj" >&2; exit 2
    fi
    if [[ ",$forbid," == *,thrust,* ]] && grep -q uses_thrust "$obj"; then
        echo "FORBIDDEN: $src uses thrust, which this exercise forbids"; status=5
    fi
    if grep -q calls_reference "$obj"; then
        echo "FORBIDDEN: $src calls beta_reference_variant, a reference variant"; status=5
    fi
done
[ $status -eq 0 ] && echo "forbidden: clean"
exit $status
