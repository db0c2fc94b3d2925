"""The exercise folders of a course tree and what their Makefiles say.

Each NN_name folder's Makefile is the one place that lists the student's files (STUDENT_SRCS);
`make grading-info` (common/common.mk) prints them with the program's name, the reference
answer's files and the forbidden libraries, so the grader never keeps a second list.
"""
from __future__ import annotations

import os
import posixpath
import re
import subprocess
from dataclasses import dataclass
from typing import List, Optional, Tuple

EXERCISE_DIR = re.compile(r"^[0-9][0-9]_[A-Za-z0-9_]+$")


class CourseError(RuntimeError):
    pass


@dataclass(frozen=True)
class Exercise:
    name: str                       # folder, e.g. 03_find_repeats
    program: str                    # harness binary, build/<program> and build/<program>_solution
    student_srcs: Tuple[str, ...]   # as the Makefile lists them, relative to the folder
    solution_srcs: Tuple[str, ...]
    forbidden_apis: str             # "thrust,cub" or ""
    nvcc: str

    def student_paths(self) -> List[str]:
        """The student's files relative to the repository root (../02_scan/x.cu -> 02_scan/x.cu)."""
        return [repo_path(self.name, s) for s in self.student_srcs]

    def solution_paths(self) -> List[str]:
        return [repo_path(self.name, s) for s in self.solution_srcs]


def repo_path(exercise: str, src: str) -> str:
    path = posixpath.normpath(posixpath.join(exercise, src))
    if path.startswith("../") or path == ".." or posixpath.isabs(path):
        raise CourseError(f"{exercise}: '{src}' lies outside the repository")
    return path


def exercise_folders(root: str) -> List[str]:
    return sorted(d for d in os.listdir(root)
                  if EXERCISE_DIR.match(d) and os.path.isfile(os.path.join(root, d, "Makefile")))


def select(available: List[str], wanted: Optional[str]) -> List[str]:
    """--exercises: a comma list of folder names or their two-digit numbers ("02,03_find_repeats")."""
    if not wanted:
        return list(available)
    chosen = []
    for item in (w.strip() for w in wanted.split(",")):
        if not item:
            continue
        matches = [e for e in available if e == item or e.split("_", 1)[0] == item]
        if not matches:
            raise CourseError(f"--exercises: no exercise folder '{item}' (there are: {', '.join(available)})")
        for m in matches:
            if m not in chosen:
                chosen.append(m)
    return sorted(chosen)


def read_info(root: str, name: str, make: str = "make") -> Exercise:
    cmd = [make, "-s", "--no-print-directory", "-C", os.path.join(root, name), "grading-info"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CourseError(f"{name}: `make grading-info` failed: {e}") from None
    if p.returncode != 0:
        raise CourseError(f"{name}: `make grading-info` failed (exit {p.returncode}): {p.stderr.strip()[-500:]}")
    info = {}
    for line in p.stdout.splitlines():
        key, eq, value = line.partition("=")
        if eq:
            info[key.strip()] = value.strip()
    program = info.get("PROGRAM", "")
    students = tuple(info.get("STUDENT_SRCS", "").split())
    if not program or not students:
        raise CourseError(f"{name}: its Makefile names no PROGRAM or no STUDENT_SRCS")
    ex = Exercise(name=name, program=program, student_srcs=students,
                  solution_srcs=tuple(info.get("SOLUTION_SRCS", "").split()),
                  forbidden_apis=info.get("FORBIDDEN_APIS", "").strip(), nvcc=info.get("NVCC", "nvcc") or "nvcc")
    ex.student_paths()  # refuses paths outside the tree
    return ex
