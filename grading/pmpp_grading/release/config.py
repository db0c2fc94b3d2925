"""What the release reads of the course: each exercise's Makefile variables (read_build: its
programs' sources, the student's files, the functions the student defines) and release.ini
(load_config: what it drops, withholds beyond the rules, keeps)."""
from __future__ import annotations

import configparser
import os
import subprocess
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from ..course import EXERCISE_DIR, CourseError, exercise_folders, repo_path, select
from ..toolchain import make_env
from .errors import ReleaseError

GRADING_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass(frozen=True)
class Build:
    """An exercise's Makefile variables (as written there, relative to the folder)."""
    name: str
    program: str
    harness: Tuple[str, ...]
    reference: Tuple[str, ...]
    student: Tuple[str, ...]
    solution: Tuple[str, ...]
    api: Tuple[str, ...] = ()        # STUDENT_API: what the student's files define (merge_sort::sort_student)

    def paths(self, srcs: Iterable[str]) -> List[str]:
        return [repo_path(self.name, s) for s in srcs]

    def compiled(self) -> List[Tuple[str, str]]:
        """(repository path, as the Makefile names it) of every file the two programs compile."""
        srcs = dict.fromkeys(self.harness + self.reference + self.student + self.solution)
        return [(repo_path(self.name, s), s) for s in srcs]


# `make --eval` adds a target to the exercise's own Makefile: its variables, whatever includes it.
INFO_RULE = ("pmpp-release-info:\n\t@:$(foreach v,PROGRAM HARNESS_SRCS REFERENCE_SRCS STUDENT_SRCS SOLUTION_SRCS "
             "STUDENT_API,$(info $(v)=$(strip $($(v)))))")


def read_build(root: str, name: str, make: str = "make") -> Build:
    cmd = [make, "-s", "--no-print-directory", "-C", os.path.join(root, name), "ARCH=sm_90", "--eval", INFO_RULE,
           "pmpp-release-info"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120, env=make_env())
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReleaseError(f"{name}: cannot read its Makefile: {e}") from None
    if p.returncode != 0:
        raise ReleaseError(f"{name}: cannot read its Makefile (exit {p.returncode}): {p.stderr.strip()[-500:]}")
    info = dict(line.partition("=")[::2] for line in p.stdout.splitlines() if "=" in line)
    words = {k: tuple(v.split()) for k, v in info.items()}
    if not info.get("PROGRAM") or not words.get("STUDENT_SRCS"):
        raise ReleaseError(f"{name}: its Makefile names no PROGRAM or no STUDENT_SRCS")
    try:
        return Build(name, info["PROGRAM"].strip(), words.get("HARNESS_SRCS", ()), words.get("REFERENCE_SRCS", ()),
                     words["STUDENT_SRCS"], words.get("SOLUTION_SRCS", ()), words.get("STUDENT_API", ()))
    except CourseError as e:
        raise ReleaseError(str(e)) from None


def read_builds(root: str, exercises: Optional[str], progress: Callable[[str], None]) -> Dict[str, Build]:
    """The Makefile variables of the exercises asked (--exercises; default every exercise folder,
    leaving out, with a warning, one whose Makefile cannot be read)."""
    builds: Dict[str, Build] = {}
    for name in select(exercise_folders(root), exercises):
        try:
            builds[name] = read_build(root, name)
        except ReleaseError as e:
            if exercises:
                raise
            progress(f"warning: {name} left out: {e}")
    if not builds:
        raise ReleaseError("no exercise to release")
    return builds


@dataclass
class Config:
    drop: List[str] = field(default_factory=list)
    withhold: Dict[str, List[str]] = field(default_factory=dict)
    keep: Dict[str, List[str]] = field(default_factory=dict)


def load_config(path: str) -> Config:
    parser = configparser.ConfigParser(interpolation=None, default_section="__none__")
    parser.optionxform = str
    try:
        with open(path, encoding="utf-8") as f:
            parser.read_file(f, source=path)
    except (OSError, configparser.Error) as e:
        raise ReleaseError(f"{path}: {e}") from None
    config = Config()
    for section in parser.sections():
        allowed = {"drop"} if section == "release" else {"withhold", "keep"}
        if section != "release" and not EXERCISE_DIR.match(section):
            raise ReleaseError(f"{path}: [{section}] is neither [release] nor an exercise folder (NN_name)")
        for key, value in parser[section].items():
            if key not in allowed:
                raise ReleaseError(f"{path}: [{section}] unknown key '{key}' (known: {', '.join(sorted(allowed))})")
            files = value.split()
            if section == "release":
                config.drop += files
            else:
                getattr(config, key).setdefault(section, []).extend(files)
    return config

