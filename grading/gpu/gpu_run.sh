#!/usr/bin/env bash
# The grader on a GPU machine, from the repository root (logs and reports in $OUT or
# build/gpu-logs): its unit tests; every exercise's reference answer submitted as a student,
# which must score full marks, timed (the time to grade one submission, builds included); the
# bad submissions of grading/gpu/bad (mistakes such as an off-by-one bound or a hung
# kernel, and tricks such as a cached result, a call to the course's own code or an attack on the
# sandbox; expected.json lists them), each classified as expected.json says while the other
# exercise it is graded on keeps its points.
#   bash grading/gpu/gpu_run.sh            (about 5 + 5 minutes on one H200; every GPU is used,
#                                           one student per GPU)
#   bash grading/gpu/gpu_run.sh bad        only the bad submissions, without the grader's unit
#                                           tests (the clean tree's builds of an earlier run in
#                                           build/grading-gpu are reused)
#   bash grading/gpu/gpu_run.sh release    only the students' copy (about 5 minutes): made for
#                                           sm_90, built, `make run` in 01 and 02 (every
#                                           reference, from prebuilt/, must pass and be timed),
#                                           and graded from this copy as a submission (the
#                                           starters: wrong result, every other part skipped)
source "$(dirname "$0")/../../common/gpu_steps.sh"
stage=${1:-all}
work=build/grading-gpu
gpu_summary
if [ "$stage" = release ]; then
    copy=$(mktemp -d)/students  # outside the course: the release refuses a folder inside it
    rm -rf "$work/release-out"
    mkdir -p "$work"
    TAILN=4 step release_make 900 grading/make_student_release.sh "$copy" --base worktree --arch sm_90 --jobs 16
    TAILN=4 step release_build 900 make -C "$copy" -j16 ARCH=sm_90
    for ex in 01_saxpy 02_scan; do
        TAILN=30 step "release_run_$ex" 300 make -C "$copy/$ex" ARCH=sm_90 run  # the starter fails: rc 2
    done
    TAILN=10 step release_check 60 python3 grading/gpu/check_release.py "$copy" 01_saxpy 02_scan
    TAILN=16 step release_graded 560 grading/run_all.sh --submission "$copy" --exercises 01,02 \
        --output "$work/release-out" --base worktree
    mkdir -p "$LOGS/grading/release"
    cp "$copy/RELEASE.md" "$LOGS/grading/release/"
    tar -C "$work/release-out" --exclude=./base --exclude=./base.new --exclude=./tree -cf - . \
        | tar -C "$LOGS/grading/release" -xf -
    rm -rf "$(dirname "$copy")"
    exit 0
fi
[ "$stage" = bad ] || rm -rf "$work"
python3 grading/gpu/make_submissions.py "$work/submissions"
# The grader's own tests use no GPU (CI runs them too): only the whole self-test repeats them here.
[ "$stage" = bad ] || TAILN=3 step grader_tests 300 python3 grading/tests/run_tests.py
while read -r name exercises timeout folder; do
    [ "$stage" = bad ] && [ "$name" = reference ] && continue
    limit=()
    [ "$timeout" = - ] || limit=(--timeout "$timeout")
    TAILN=16 step "grade_$name" 560 grading/run_all.sh --submissions "$folder" --exercises "$exercises" \
        ${limit[@]+"${limit[@]}"} --output "$work/out" --base worktree
done < "$work/submissions/groups.txt"
TAILN=100 step verify 60 python3 grading/gpu/verify.py "$work/out"
mkdir -p "$LOGS/grading"
tar -C "$work/out" --exclude=./base --exclude=./base.new --exclude='./students/*/tree' -cf - . | tar -C "$LOGS/grading" -xf -
echo "reports copied to $LOGS/grading"
