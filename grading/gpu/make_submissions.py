#!/usr/bin/env python3
"""Writes the submissions the grader's GPU check grades (gpu_run.sh), as expected.json lists
them, one folder of submissions per list of exercises they are graded on:

  DEST/groupN/reference/          every exercise's reference answer (SOLUTION_SRCS) in the
                                  student's files (STUDENT_SRCS): must score full marks
  DEST/groupN/CASE/               the reference answers with the files of bad/CASE on top: one
                                  mistake each (does not compile, illegal address, hangs, wrong
                                  results, uses Thrust, edits the harness, render order). A file
                                  bad/CASE/PATH.diff is a unified diff against own_answers/PATH,
                                  a right answer in a student's own code: the case's PATH is that
                                  answer with the diff applied, so the diff shows only the mistake
  DEST/groups.txt                 one line per folder: NAME EXERCISES TIMEOUT FOLDER (NAME:
                                  reference for the folder with the reference answers, else
                                  badN; TIMEOUT: seconds, or - for the rubric's)

Usage: make_submissions.py DEST [--repo DIR]"""
import argparse
import json
import os
import re
import shutil
import sys
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from pmpp_grading import course  # noqa: E402

BAD = os.path.join(HERE, "bad")
OWN_ANSWERS = os.path.join(HERE, "own_answers")
DIFF = ".diff"
HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class BadCaseError(Exception):
    """A bad case that cannot be written: a diff with no own answer under it, or one that does not
    apply to it. The message names the case and the diff."""


def apply_diff(diff: str, base: str) -> str:
    """base changed as the unified diff says (one file, as `diff -u` writes it). Strict, where
    `patch` would guess: every hunk starts at the line its header names, and its context and
    removed lines are base's to the letter (no offset, no fuzz). Otherwise ValueError says which
    line of the diff does not match."""
    old = base.splitlines(keepends=True)
    lines = diff.splitlines(keepends=True)
    new: List[str] = []
    k = next((k for k, line in enumerate(lines) if line.startswith("@@")), len(lines))  # past ---/+++
    if k == len(lines):
        raise ValueError("it has no hunk (no line starts with @@)")
    copied = 0  # base's lines before this index are in new already
    while k < len(lines):
        header = HUNK_HEADER.match(lines[k])
        if not header:
            raise ValueError(f"line {k + 1}: a hunk header (@@ -LINE,COUNT +LINE,COUNT @@) expected, not {lines[k]!r}")
        old_left = int(header[2]) if header[2] is not None else 1  # "@@ -5 +5 @@" counts one line
        new_left = int(header[4]) if header[4] is not None else 1
        at = int(header[1]) - (1 if old_left else 0)  # a hunk that removes nothing names the line before it
        if at < copied:
            raise ValueError(f"line {k + 1}: the hunk starts at line {at + 1}, inside the hunk before it")
        new += old[copied:at]
        hunk_line = k + 1  # the hunk's header, as a line number of the diff
        k += 1
        while old_left or new_left:
            if k == len(lines):
                raise ValueError(f"the diff ends inside the hunk of line {hunk_line}, short of its counts")
            tag, text = lines[k][:1], lines[k][1:]
            if tag == "+" and new_left:
                new.append(text)
                new_left -= 1
            elif (tag == "-" and old_left) or (tag == " " and old_left and new_left):
                if at >= len(old) or old[at] != text:
                    found = repr(old[at]) if at < len(old) else "the end of the file"
                    raise ValueError(f"line {k + 1} wants line {at + 1} of the base to be {text!r}, it is {found}")
                at += 1
                old_left -= 1
                if tag == " ":
                    new.append(text)
                    new_left -= 1
            else:
                raise ValueError(f"line {k + 1}: {lines[k]!r} where the hunk's counts want "
                                 f"{old_left} more context or removed and {new_left} more context or added lines")
            k += 1
        copied = at
    return "".join(new + old[copied:])


def patched_files(case: str, bad: str = BAD, own_answers: str = OWN_ANSWERS) -> Dict[str, str]:
    """The files of bad/CASE written as diffs, by their path in the submission: each PATH.diff
    applied to own_answers/PATH, whose path its first line names (--- own_answers/PATH). Raises
    BadCaseError, naming the case and the diff, where one does not apply."""
    folder = os.path.join(bad, case)
    files = {}
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(n for n in names if n.endswith(DIFF)):
            path = os.path.relpath(os.path.join(root, name), folder)[: -len(DIFF)]
            where = f"bad submission {case}: {path}{DIFF}"
            base = os.path.join(own_answers, path)
            if not os.path.isfile(base):
                raise BadCaseError(f"{where}: there is no own answer own_answers/{path} for it to change")
            with open(os.path.join(root, name), encoding="utf-8", newline="") as f:
                diff = f.read()
            if not diff.startswith(f"--- own_answers/{path}\n"):
                raise BadCaseError(f"{where}: its first line must name what it changes: --- own_answers/{path}")
            with open(base, encoding="utf-8", newline="") as f:
                try:
                    files[path] = apply_diff(diff, f.read())
                except ValueError as e:
                    raise BadCaseError(f"{where} does not apply to own_answers/{path}: {e}") from None
    return files


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
            whole_files = shutil.ignore_patterns("*" + DIFF)  # the diffs are applied, not copied
            shutil.copytree(os.path.join(BAD, case), dest, dirs_exist_ok=True, ignore=whole_files)
            for path, text in patched_files(case).items():
                with open(os.path.join(dest, path), "w", encoding="utf-8", newline="") as f:
                    f.write(text)
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
    try:
        sys.exit(main())
    except BadCaseError as e:
        sys.exit(f"make_submissions: {e}")  # no groups.txt: gpu_run.sh grades nothing
