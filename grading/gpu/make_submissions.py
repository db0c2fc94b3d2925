#!/usr/bin/env python3
"""Writes the submissions the grader's GPU check grades (gpu_run.sh), as expected.json lists
them, one folder of submissions per list of exercises they are graded on:

  DEST/reference-all/reference/   every exercise's reference answer (SOLUTION_SRCS) in the
                                  student's files (STUDENT_SRCS): must score full marks
  DEST/CASE-GROUP/CASE/           the reference answers with the files of bad/CASE on top: one
                                  mistake each (does not compile, illegal address, hangs, wrong
                                  results, uses Thrust, edits the harness, render order)
  DEST/groups.txt                 one line per folder: NAME EXERCISES TIMEOUT FOLDER (NAME:
                                  reference for the folder with the reference answers, else
                                  badN; TIMEOUT: seconds, or - for the rubric's)

Usage: make_submissions.py DEST [--repo DIR]"""
import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from pmpp_grading import course  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dest")
    p.add_argument("--repo", default=os.path.dirname(os.path.dirname(HERE)))
    args = p.parse_args()
    with open(os.path.join(HERE, "expected.json")) as f:
        cases = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    shutil.rmtree(args.dest, ignore_errors=True)
    reference = os.path.join(args.dest, "reference-answers")
    present = []
    for name in course.exercise_folders(args.repo):
        try:
            ex = course.read_info(args.repo, name)
        except course.CourseError as e:
            print(f"make_submissions: {name} left out: {e}", file=sys.stderr)
            continue
        present.append(name)
        for student, solution in zip(ex.student_paths(), ex.solution_paths()):
            os.makedirs(os.path.dirname(os.path.join(reference, student)), exist_ok=True)
            shutil.copyfile(os.path.join(args.repo, solution), os.path.join(reference, student))
    groups = {}
    for case, spec in cases.items():
        if spec.get("requires") == "root" and os.geteuid() != 0:
            print(f"make_submissions: {case} left out: graded only as root, where the grader's sandbox is on",
                  file=sys.stderr)
            continue
        exercises = spec["exercises"]
        wanted = present if exercises == "all" else exercises.split(",")
        if any(e not in present for e in wanted):
            print(f"make_submissions: {case} left out: it needs {exercises}", file=sys.stderr)
            continue
        key = (",".join(wanted), str(spec.get("timeout", "-")))
        folder = groups.setdefault(key, os.path.join(args.dest, f"group{len(groups) + 1}"))
        dest = os.path.join(folder, case)
        shutil.copytree(reference, dest)
        if case != "reference":
            shutil.copytree(os.path.join(HERE, "bad", case), dest, dirs_exist_ok=True)
    with open(os.path.join(args.dest, "groups.txt"), "w") as f:
        for k, ((exercises, timeout), folder) in enumerate(groups.items()):
            name = "reference" if os.path.isdir(os.path.join(folder, "reference")) else f"bad{k}"
            f.write(f"{name} {exercises} {timeout} {folder}\n")
    shutil.rmtree(reference)
    for (exercises, timeout), folder in groups.items():
        print(f"make_submissions: {folder}: {', '.join(sorted(os.listdir(folder)))} on {exercises}"
              + ("" if timeout == "-" else f", {timeout} s a part"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
