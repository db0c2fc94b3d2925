"""The plan of a release: what goes (the reference answers, the numbered variants, the headers
only they include, what release.ini names, tests/ and tune/), what stays, and which withheld
sources ship as objects. A file that stays but includes one that goes is refused here, before
anything is built."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from ..course import EXERCISE_DIR, exercise_folders, repo_path
from .config import Build, Config
from .errors import ReleaseError

# A numbered reference variant: scan_3_single_pass.cu, bitonic_4_fused.cuh, render_3_binned.h.
NUMBERED = re.compile(r"^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_[0-9]+_[A-Za-z0-9_]+\.(?:cu|cuh|cpp|cc|h|hpp)$")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
LEFT_OUT_IN_EXERCISES = ("tests", "tune")


@dataclass
class Plan:
    exercises: List[str]                 # released, in order
    withheld: Dict[str, str]             # repository path -> why
    prebuilt: Dict[str, List[str]]       # exercise -> its withheld sources (as its Makefile names them)
    left_out: List[str]                  # folders and files left out whole (repository paths)
    kept_by_config: List[str] = field(default_factory=list)
    reference: Dict[str, List[str]] = field(default_factory=dict)  # exercise -> REFERENCE_SRCS, as evaluated here


def _resolve(root: str, includer: str, exercise: str, name: str) -> Optional[str]:
    """A quoted include as the compiler finds it: beside the includer, then -I of the repository's
    root (common.mk's -I$(COMMON_DIR)/..), then -I. (the folder being built)."""
    for base in (os.path.dirname(includer), "", exercise):
        path = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
        if not path.startswith("../") and os.path.isfile(os.path.join(root, path)):
            return path
    return None


def include_closure(root: str, files: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    """Every file the (file, exercise built) pairs include, directly or not -> the first includer."""
    reached: Dict[str, str] = {}
    todo = list(files)
    seen = set()
    while todo:
        path, exercise = todo.pop()
        if (path, exercise) in seen:
            continue
        seen.add((path, exercise))
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for name in INCLUDE.findall(text):
            target = _resolve(root, path, exercise, name)
            if target is not None:
                reached.setdefault(target, path)
                todo.append((target, exercise))
    return reached


def make_plan(root: str, builds: Dict[str, Build], config: Config) -> Plan:
    released = list(builds)
    folders = exercise_folders(root)

    def top(path: str) -> str:
        return path.split("/", 1)[0]

    for b in builds.values():
        for path, _ in b.compiled():
            if EXERCISE_DIR.match(top(path)) and top(path) not in builds:
                raise ReleaseError(f"{b.name} builds {path}: release {top(path)} with it")
            if not os.path.isfile(os.path.join(root, path)):
                raise ReleaseError(f"{b.name}: its Makefile names {path}, which does not exist")

    withheld: Dict[str, str] = {}
    for b in builds.values():
        for path in b.paths(b.solution):
            withheld[path] = "the reference answer (SOLUTION_SRCS)"
        for name in sorted(os.listdir(os.path.join(root, b.name))):
            if NUMBERED.match(name) and os.path.isfile(os.path.join(root, b.name, name)):
                withheld[f"{b.name}/{name}"] = "a numbered reference variant"

    def listed(section: Dict[str, List[str]], key: str) -> List[str]:
        out = []
        for exercise, files in section.items():
            if exercise not in folders:
                raise ReleaseError(f"release.ini: [{exercise}] names no exercise folder here")
            if exercise not in builds:
                continue
            for f in files:
                path = repo_path(exercise, f)
                if not os.path.isfile(os.path.join(root, path)):
                    raise ReleaseError(f"release.ini: [{exercise}] {key} = {f}: no such file")
                out.append(path)
        return out

    for path in listed(config.withhold, "withhold"):
        withheld[path] = "listed in release.ini (withhold)"
    keep = set(listed(config.keep, "keep"))
    kept_by_config = sorted(p for p in keep if p in withheld)
    for path in keep:
        withheld.pop(path, None)

    for b in builds.values():
        for what, srcs in (("harness", b.harness), ("student's", b.student)):
            for path in b.paths(srcs):
                if path in withheld:
                    raise ReleaseError(f"{path} is one of {b.name}'s {what} files: it cannot be withheld "
                                       f"({withheld[path]})")

    kept_sources = [(path, b.name) for b in builds.values() for path, _ in b.compiled() if path not in withheld]
    needed = include_closure(root, kept_sources)
    for header, includer in sorted(needed.items()):
        if header in withheld:
            raise ReleaseError(f"{header} is withheld ({withheld[header]}), but {includer}, which the students "
                               "get, includes it: keep it (release.ini keep =) or withhold the includer too")
        if EXERCISE_DIR.match(top(header)) and top(header) not in builds:
            raise ReleaseError(f"{includer} includes {header}: release {top(header)} with it")

    withheld_files = [(path, b.name) for b in builds.values() for path, _ in b.compiled() if path in withheld]
    withheld_files += [(path, top(path)) for path in withheld if top(path) in builds]
    for header in sorted(include_closure(root, withheld_files)):
        if header in needed or header in withheld or top(header) not in builds:
            continue
        if header in keep:
            kept_by_config.append(header)
        else:
            withheld[header] = "included only by withheld files"

    prebuilt = {b.name: [s for s in dict.fromkeys(b.reference + b.solution) if repo_path(b.name, s) in withheld]
                for b in builds.values()}
    left_out = [f"{e}/{d}" for e in released for d in LEFT_OUT_IN_EXERCISES if os.path.isdir(os.path.join(root, e, d))]
    left_out += [d for d in folders if d not in builds]
    left_out += [p for p in config.drop if os.path.lexists(os.path.join(root, p))]
    reference = {e: list(builds[e].reference) for e in released}
    return Plan(released, dict(sorted(withheld.items())), prebuilt, left_out, sorted(kept_by_config), reference)

