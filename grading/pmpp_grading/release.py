"""grading/make_student_release.sh DEST: the students' copy of the course.

The copy holds everything but the reference answers. Withheld, for every exercise released
(grading/release.ini lists the exceptions; grading/README.md "The student release" says why):
its reference answer (SOLUTION_SRCS), its numbered reference variants, the headers only those
include, and its tests/ and tune/ folders. The withheld sources the build compiles ship as
objects instead, in NN_name/prebuilt/, compiled here for every GPU architecture (--arch); the
exercise's Makefile takes them from there. So in the copy `make` builds both programs, `make run`
times the student's code beside every reference and the library baseline as before, and the
grader, run from the instructor's copy, grades a student's copy like any submission (it takes
only the STUDENT_SRCS files from it).

Steps: a clean tree (git HEAD or the working tree, as the grader makes it), the plan (what goes,
what stays; refused if a file that stays includes one that goes), the objects built in the
clean tree, the copy written beside DEST (its Markdown made to describe the copy: "The Markdown
of the copy" below) and renamed to DEST, then checked: no withheld file in it, its Markdown's
links lead somewhere and its READMEs name only what it holds, and every exercise's Makefile
parses (make -n all test-build) with the objects in place.
"""
from __future__ import annotations

import argparse
import configparser
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from .course import EXERCISE_DIR, CourseError, exercise_folders, repo_path, select
from .tree import SKIPPED_DIRS, TreeError, default_base, make_clean_tree

GRADING_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A numbered reference variant: scan_3_single_pass.cu, bitonic_4_fused.cuh, render_3_binned.h.
NUMBERED = re.compile(r"^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_[0-9]+_[A-Za-z0-9_]+\.(?:cu|cuh|cpp|cc|h|hpp)$")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
COMMON_MK = re.compile(r"^[ \t]*-?include[ \t]+\.\./common/common\.mk[ \t]*$", re.M)
LEFT_OUT_IN_EXERCISES = ("tests", "tune")
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class ReleaseError(RuntimeError):
    """A release that cannot be made as asked (a bad command line, release.ini or course)."""


class BuildFailed(ReleaseError):
    """The reference objects, or the copy itself, do not build."""


# ---- What the Makefiles and release.ini say ---------------------------------------------------

@dataclass(frozen=True)
class Build:
    """An exercise's Makefile variables (as written there, relative to the folder)."""
    name: str
    program: str
    harness: Tuple[str, ...]
    reference: Tuple[str, ...]
    student: Tuple[str, ...]
    solution: Tuple[str, ...]

    def paths(self, srcs: Iterable[str]) -> List[str]:
        return [repo_path(self.name, s) for s in srcs]

    def compiled(self) -> List[Tuple[str, str]]:
        """(repository path, as the Makefile names it) of every file the two programs compile."""
        srcs = dict.fromkeys(self.harness + self.reference + self.student + self.solution)
        return [(repo_path(self.name, s), s) for s in srcs]


# `make --eval` adds a target to the exercise's own Makefile: its variables, whatever includes it.
INFO_RULE = ("pmpp-release-info:\n\t@:$(foreach v,PROGRAM HARNESS_SRCS REFERENCE_SRCS STUDENT_SRCS SOLUTION_SRCS,"
             "$(info $(v)=$(strip $($(v)))))")


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
                     words["STUDENT_SRCS"], words.get("SOLUTION_SRCS", ()))
    except CourseError as e:
        raise ReleaseError(str(e)) from None


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


# ---- The plan ---------------------------------------------------------------------------------

@dataclass
class Plan:
    exercises: List[str]                 # released, in order
    withheld: Dict[str, str]             # repository path -> why
    prebuilt: Dict[str, List[str]]       # exercise -> its withheld sources (as its Makefile names them)
    left_out: List[str]                  # folders and files left out whole (repository paths)
    kept_by_config: List[str] = field(default_factory=list)


def object_path(src: str) -> str:
    """Where common.mk puts a source's object, relative to build/ (its `obj` function)."""
    return "obj/" + src.replace("../", "__/") + ".o"


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
    return Plan(released, dict(sorted(withheld.items())), prebuilt, left_out, sorted(kept_by_config))


# ---- Building the objects ---------------------------------------------------------------------

def make_env() -> Dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


def arch_variables(arch: str) -> List[str]:
    """make variables for --arch: all, all-major, sm_NN, or a list sm_80,sm_90 (the first as ARCH,
    the others as -gencode in NVCCFLAGS_EXTRA: nvcc's -arch takes one value)."""
    archs = [a.strip() for a in arch.split(",") if a.strip()]
    if len(archs) == 1 and re.fullmatch(r"all|all-major|sm_[0-9]+[a-z]?", archs[0]):
        return [f"ARCH={archs[0]}"]
    if len(archs) < 2 or not all(re.fullmatch(r"sm_[0-9]+[a-z]?", a) for a in archs):
        raise ReleaseError(f"--arch '{arch}': all, all-major, sm_NN, or a list such as sm_80,sm_90")
    extra = " ".join(f"-gencode arch=compute_{a[3:]},code=sm_{a[3:]}" for a in archs[1:])
    return [f"ARCH={archs[0]}", f"NVCCFLAGS_EXTRA={extra}"]


def nvcc_version(nvcc: str) -> str:
    try:
        p = subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    m = re.search(r"release ([0-9.]+)", p.stdout)
    return m.group(1) if m else "unknown"


def build_objects(stage: str, plan: Plan, variables: List[str], jobs: int, log_path: str,
                  progress=print) -> None:
    """Compiles the withheld sources in the clean tree, with each exercise's own flags."""
    with open(log_path, "w") as log:
        for exercise in plan.exercises:
            targets = ["build/" + object_path(s) for s in plan.prebuilt.get(exercise, [])]
            if not targets:
                continue
            t0 = time.monotonic()
            cmd = ["make", "--no-print-directory", "-C", os.path.join(stage, exercise), f"-j{jobs}", *variables, *targets]
            log.write("$ " + " ".join(cmd) + "\n")
            log.flush()
            p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=make_env())
            if p.returncode != 0:
                log.flush()
                with open(log_path, errors="replace") as f:
                    tail = "".join(f.readlines()[-30:])
                raise BuildFailed(f"{exercise}: the reference objects do not build (exit {p.returncode}):\n{tail}")
            progress(f"{exercise}: {len(targets)} reference object(s) built ({time.monotonic() - t0:.0f} s)")


# ---- The Markdown of the copy -----------------------------------------------------------------
#
# One text serves both copies. In every Markdown file of the course, the lines between
#     <!-- release: course-only -->   and   <!-- /release -->
# are left out of the students' copy, and the lines between
#     <!-- release: student-only      and   -->
# (a comment in the course) appear only in it; each marker stands alone on its line. In the READMEs
# (the top one and each exercise's), a table row whose first cell names only files the copy lacks
# is dropped, unless one of them comes compiled; elsewhere a name the copy lacks (in a code span) is
# marked "(compiled in prebuilt/)" or "(withheld)", unless its paragraph says so already. Markers
# are for text that such a note would not make true ("read saxpy_2_vectorized.cu"). check_markdown
# then reads the copy as written: links, and the names of the READMEs.

COURSE_ONLY, END_COURSE_ONLY = "<!-- release: course-only -->", "<!-- /release -->"
STUDENT_ONLY, END_STUDENT_ONLY = "<!-- release: student-only", "-->"
LOOKS_LIKE_MARKER = re.compile(r"<!--\s*/?\s*release\b")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)")
FENCE = re.compile(r"^\s*(```|~~~)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|[0-9]+[.)])\s")
TABLE_RULE = re.compile(r"^\s*\|[\s:|-]*-[\s:|-]*$")
# A word that may be a path: `saxpy_2_vectorized.cu`, `tests/`, `../02_scan/scan.h`, `grading/gpu`.
PATH_WORD = re.compile(r"^(?:\.{1,2}/)*[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)*/?$")
# `bitonic_4_fused.cuh`, `.cu`: the name before it with another ending.
OTHER_ENDING = re.compile(r"^\.[A-Za-z0-9]+$")
BETWEEN_NAMES = re.compile(r"^(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)$")
# A paragraph, list item or table row holding one of these words may name what the copy lacks.
SAYS_WITHHELD = re.compile(r"withheld|prebuilt", re.I)


def apply_markers(text: str, where: str) -> str:
    """The text of a Markdown file for the students' copy: course-only blocks out, student-only
    blocks uncommented. A marker out of place (unknown, nested, unclosed) fails the release."""
    out: List[str] = []
    block, opened = None, 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        stripped = line.strip()
        if block == "student-only" and stripped == END_STUDENT_ONLY:
            block = None
            continue
        if LOOKS_LIKE_MARKER.search(CODE_SPAN.sub("", line)):  # `<!-- release: ... -->` in a code span is text
            if block is None and stripped in (COURSE_ONLY, STUDENT_ONLY):
                block, opened = ("course-only" if stripped == COURSE_ONLY else "student-only"), number
                continue
            if block == "course-only" and stripped == END_COURSE_ONLY:
                block = None
                continue
            raise ReleaseError(f"{where} line {number}: a release marker out of place: {stripped} (expected "
                               + (f"'{END_COURSE_ONLY}'" if block == "course-only" else
                                  f"'{END_STUDENT_ONLY}'" if block else f"'{COURSE_ONLY}' or '{STUDENT_ONLY}'")
                               + ", alone on its line)")
        if block == "student-only" and "-->" in line:
            raise ReleaseError(f"{where} line {number}: '-->' inside the student-only block opened at line {opened} "
                               "would end its comment in the course")
        if block != "course-only":
            out.append(line)
    if block:
        raise ReleaseError(f"{where} line {opened}: the {block} block opened here is never closed")
    return "".join(out)


class PathIndex:
    """The files and folders of a tree (build/, .git left out), to find what Markdown names."""

    def __init__(self, root: str):
        self.files, self.dirs = set(), {""}
        self.by_name: Dict[str, List[str]] = {}
        for directory, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            rel = os.path.relpath(directory, root).replace(os.sep, "/")
            rel = "" if rel == "." else rel + "/"
            self.dirs.update(rel + d for d in dirs)
            for name in files:
                self.files.add(rel + name)
                self.by_name.setdefault(name, []).append(rel + name)

    def exists(self, path: str, folder_only: bool = False) -> bool:
        return path in self.dirs or (not folder_only and path in self.files)

    def resolve(self, folder: str, name: str) -> List[str]:
        """The paths `name`, written in a Markdown file of `folder` ('' at the top), may mean: the
        path beside that file, else from the top, else (a bare file name) every file of that name."""
        want_folder = name.endswith("/")
        name = name.rstrip("/")
        for base in (folder, ""):
            path = posixpath.normpath(posixpath.join(base, name))
            if path not in (".", "..") and not path.startswith("../") and self.exists(path, want_folder):
                return [path]
        return [] if "/" in name or want_folder else list(self.by_name.get(name, []))


def path_words(text: str) -> List[str]:
    """The words of `text` that may be paths (they hold a dot or a slash)."""
    words = (w.strip("()[],;:'\"") for w in text.split())
    return [w for w in words if ("." in w or "/" in w) and PATH_WORD.match(w)]


class CopyContents:
    """What the copy holds of the course: is a name a README uses present, withheld (or left out),
    or withheld but compiled in prebuilt/?"""

    def __init__(self, course: PathIndex, plan: Plan):
        self.course = course
        self.plan = plan
        self.compiled = {repo_path(e, s) for e, srcs in plan.prebuilt.items() for s in srcs}

    def why_not_copied(self, path: str) -> Optional[str]:
        if path in self.plan.withheld:
            return f"withheld: {self.plan.withheld[path]}"
        for gone in self.plan.left_out:
            if path == gone or path.startswith(gone + "/"):
                return f"left out with {gone}" if path != gone else "left out of the copy"
        return None

    def status(self, folder: str, name: str) -> Optional[str]:
        """None (no course path), 'present', 'compiled' or 'withheld'."""
        paths = self.course.resolve(folder, name)
        if not paths:
            return None
        gone = [p for p in paths if self.why_not_copied(p)]
        if len(gone) < len(paths):
            return "present"
        return "compiled" if any(p in self.compiled for p in gone) else "withheld"


def _first_cell_end(line: str) -> int:
    """Where a table row's first cell ends (its second '|' outside code spans)."""
    start, in_code = line.index("|") + 1, False
    for i in range(start, len(line)):
        if line[i] == "`":
            in_code = not in_code
        elif line[i] == "|" and not in_code and line[i - 1] != "\\":
            return i
    return len(line)


def _marked_spans(line: str, status) -> List[Tuple[int, int, Optional[str]]]:
    """(start, end, kind) of each code span of a line: kind 'present', 'compiled' or 'withheld' for
    the course paths in it (status(name) as CopyContents.status), 'other ending' for a `.cuh` after
    a name, else None."""
    spans = []
    for m in CODE_SPAN.finditer(line):
        kinds = {k for k in (status(w) for w in path_words(m.group(1))) if k}
        if not kinds:
            kind = "other ending" if OTHER_ENDING.match(m.group(1).strip()) else None
        elif "present" in kinds:
            kind = "present"
        else:
            kind = "compiled" if "compiled" in kinds else "withheld"
        spans.append((m.start(), m.end(), kind))
    return spans


def mark_missing(line: str, status, open_before: int = 0) -> str:
    """The line with each run of code spans that name only what the copy lacks (`a.cu`, `b.cu`)
    followed by '(compiled in prebuilt/)' if one of them is compiled, else '(withheld)' (within
    parentheses, open_before of them opened on the paragraph's earlier lines: ', withheld')."""
    spans = _marked_spans(line, status)
    notes = []
    i = 0
    while i < len(spans):
        if spans[i][2] not in ("compiled", "withheld"):
            i += 1
            continue
        j = i
        while (j + 1 < len(spans) and spans[j + 1][2] in ("compiled", "withheld", "other ending")
               and BETWEEN_NAMES.match(line[spans[j][1]:spans[j + 1][0]])):
            j += 1
        compiled = any(k == "compiled" for _, _, k in spans[i:j + 1])
        notes.append((spans[j][1], "compiled in prebuilt/" if compiled else "withheld"))
        i = j + 1
    for at, note in reversed(notes):
        possessive = re.match(r"'s\s+\w+", line[at:])  # `gpu_run.sh`'s logs (withheld)
        if possessive:
            at += possessive.end()
        # Within parentheses: (`x.cu`, withheld, says ...).
        if open_before + line[:at].count("(") > line[:at].count(")"):
            note = ", " + note + ("," if re.match(r"\s+\w", line[at:]) else "")
        else:
            note = " (" + note + ")"
        if not line[at:].startswith(note):
            line = line[:at] + note + line[at:]
    return line


def row_is_dropped(line: str, status) -> bool:
    """A table row whose first cell names (in code spans or links) only what the copy lacks, none
    of it compiled: the copy's README leaves the row out."""
    first_end = _first_cell_end(line)
    kinds = [k for s, _, k in _marked_spans(line, status) if s < first_end and k in ("present", "compiled", "withheld")]
    for m in LINK.finditer(line[:first_end]):
        path = m.group(2).split("#", 1)[0]
        if path and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", path):
            kinds.append(status(path))
    kinds = [k for k in kinds if k]
    return bool(kinds) and all(k == "withheld" for k in kinds)


def rewrite_readme(text: str, status) -> Tuple[str, Optional[int]]:
    """A README for the copy (status(name) as CopyContents.status, for its folder): the table rows
    row_is_dropped says go are left out, and in every paragraph, list item or table row that does
    not already say 'withheld' or 'prebuilt', the names the copy lacks are marked (mark_missing).
    Returns the text and the number of its lines up to the end of the first table that changed
    (None if none did)."""
    lines = text.splitlines(keepends=True)
    new: List[Optional[str]] = list(lines)
    changed_rows = []
    for indexes, is_row in text_units([l.rstrip("\n") for l in lines]):
        if is_row and TABLE_RULE.match(lines[indexes[0]]):
            continue
        if is_row and row_is_dropped(lines[indexes[0]], status):
            new[indexes[0]] = None
        elif not SAYS_WITHHELD.search(" ".join(lines[i] for i in indexes)):
            open_before = 0
            for i in indexes:
                new[i] = mark_missing(lines[i], status, max(open_before, 0))
                open_before += lines[i].count("(") - lines[i].count(")")
        if is_row and new[indexes[0]] != lines[indexes[0]]:
            changed_rows.append(indexes[0])
    end = None
    if changed_rows:
        end = changed_rows[0]
        while end < len(lines) and lines[end].lstrip().startswith("|"):
            end += 1
    kept_before_end = sum(1 for l in new[:end] if l is not None) if end is not None else None
    return "".join(l for l in new if l is not None), kept_before_end


# What the note of an exercise's README calls the folders left out of it (LEFT_OUT_IN_EXERCISES).
LEFT_OUT_WHAT = {"tests": "tests", "tune": "GPU scripts"}


def readme_note(compiled: bool, left_out: List[str]) -> str:
    """What an exercise's README in the copy says it lacks, after its table of files."""
    sentences = []
    if compiled:
        sentences.append("In this copy the reference answer and the numbered variants come compiled, in `prebuilt/`: "
                         "`make` links them and `make run` checks and times them beside your code, but their sources "
                         "are withheld.")
    if left_out:
        names = " and ".join(f"`{d}/`" for d in left_out)
        sentences.append(f"The course's own {' and '.join(LEFT_OUT_WHAT[d] for d in left_out)} ({names}) "
                         + ("are withheld too" if compiled else "are withheld")
                         + (": `make test` builds an empty suite here." if "tests" in left_out else "."))
    if not sentences:
        return ""
    return textwrap.fill(" ".join(sentences), width=95, break_long_words=False, break_on_hyphens=False) + "\n"



def readme_for_copy(text: str, folder: str, contents: CopyContents, note: str = "") -> str:
    """A README of the copy (markers applied before) rewritten by rewrite_readme, with `note` after
    the first table that changed (else at the end, under its own heading)."""
    text, end = rewrite_readme(text, lambda name: contents.status(folder, name))
    if not note:
        return text
    lines = text.splitlines(keepends=True)
    if end is None:
        return text.rstrip("\n") + "\n\n## In this copy\n\n" + note
    return "".join(lines[:end]) + "\n" + note + "".join(lines[end:])


def text_units(lines: List[str]) -> List[Tuple[List[int], bool]]:
    """The paragraphs, list items, headings and table rows of Markdown lines, outside fenced code:
    (the indexes of their lines, whether it is a table row)."""
    units: List[Tuple[List[int], bool]] = []
    current: List[int] = []
    fence = None

    def close() -> None:
        if current:
            units.append((list(current), False))
            current.clear()
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence or m:
            close()
            fence = None if (fence and m and m.group(1) == fence) else (fence or m.group(1))
            continue
        stripped = line.strip()
        if not stripped:
            close()
        elif stripped.startswith("|"):
            close()
            units.append(([i], True))
        elif stripped.startswith("#"):
            close()
            units.append(([i], False))
        else:
            if LIST_ITEM.match(line):
                close()
            current.append(i)
    close()
    return units


def outside_fences(lines: List[str]) -> Iterable[Tuple[int, str]]:
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence or m:
            fence = None if (fence and m and m.group(1) == fence) else (fence or m.group(1))
            continue
        yield i, line


def dead_links(text: str, md: str, copy: PathIndex) -> List[str]:
    """The relative links of a Markdown file of the copy (md, its path there) that lead nowhere."""
    folder = posixpath.dirname(md)
    problems = []
    for i, line in outside_fences(text.splitlines()):
        line = CODE_SPAN.sub("", line)
        targets = [m.group(2) for m in LINK.finditer(line)] + [m.group(1) for m in LINK_DEFINITION.finditer(line)]
        for target in targets:
            if target.startswith("#") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
                continue  # an anchor of the same page, a URL, mailto:
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = posixpath.normpath(posixpath.join(folder, path))
            resolved = "" if resolved == "." else resolved
            if path.startswith("/") or resolved.startswith("../") or not copy.exists(resolved, path.endswith("/")):
                problems.append(f"{md} line {i + 1}: the link to {target} leads to nothing in the copy")
    return problems


def missing_names(text: str, readme: str, copy: PathIndex, contents: CopyContents,
                  course_text: str = "") -> List[str]:
    """The names a README of the copy uses (in code spans, or anywhere in a table row) that name a
    file or folder of the course the copy lacks, where the paragraph, list item or table row around
    them does not say 'withheld' or 'prebuilt'."""
    folder = posixpath.dirname(readme)
    lines = text.splitlines()
    course_lines = [l.strip() for l in course_text.splitlines()]
    problems = []
    for indexes, is_row in text_units(lines):
        if SAYS_WITHHELD.search(" ".join(lines[i] for i in indexes)):
            continue
        for i in indexes:
            line = lines[i]
            words = [w for m in CODE_SPAN.finditer(line) for w in path_words(m.group(1))]
            if is_row:
                words += path_words(LINK.sub(r" \1 ", CODE_SPAN.sub(" ", line)).replace("|", " "))
            for word in dict.fromkeys(words):
                paths = contents.course.resolve(folder, word)
                if not paths or copy.resolve(folder, word):
                    continue
                why = contents.why_not_copied(paths[0]) or "not in the copy"
                where = f" (line {course_lines.index(line.strip()) + 1} in the course)" \
                    if line.strip() in course_lines else ""
                problems.append(f"{readme} line {i + 1}{where}: '{word}' is not in the copy ({why})")
    return problems


def readmes_of(plan: Plan) -> List[str]:
    """The READMEs the release rewrites and checks by name: the top one and each exercise's."""
    return ["README.md"] + [f"{e}/README.md" for e in plan.exercises]


def markdown_files(root: str) -> List[str]:
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        rel = os.path.relpath(directory, root).replace(os.sep, "/")
        found += [posixpath.normpath(posixpath.join(rel, f)) for f in sorted(files) if f.endswith(".md")]
    return found


def check_markdown(target: str, course_root: str, plan: Plan) -> None:
    """Every relative link of every Markdown file of the copy leads to a file or folder of it, and
    every course path a README names is in it or said to be withheld (missing_names)."""
    copy, contents = PathIndex(target), CopyContents(PathIndex(course_root), plan)
    problems = []
    for md in markdown_files(target):
        with open(os.path.join(target, md), encoding="utf-8", errors="replace") as f:
            text = f.read()
        problems += dead_links(text, md, copy)
        if md in readmes_of(plan):
            course_text = ""
            if os.path.isfile(os.path.join(course_root, md)):
                with open(os.path.join(course_root, md), encoding="utf-8", errors="replace") as f:
                    course_text = f.read()
            problems += missing_names(text, md, copy, contents, course_text)
    if problems:
        shown = problems[:40] + ([f"... and {len(problems) - 40} more"] if len(problems) > 40 else [])
        raise ReleaseError("the copy's Markdown names what the copy does not hold (mark that text "
                           f"'{COURSE_ONLY}', or say 'withheld' or 'prebuilt' beside the name; grading/README.md, "
                           "\"The student release\"):\n  " + "\n  ".join(shown))


# ---- Writing the copy -------------------------------------------------------------------------

def release_makefile(text: str, has_objects: bool) -> str:
    """The exercise's Makefile for the copy: no tests, and the prebuilt objects linked."""
    found = list(COMMON_MK.finditer(text))
    if len(found) != 1:
        raise ReleaseError("its Makefile must include ../common/common.mk exactly once")
    m = found[0]
    before = ("# Student release (grading/make_student_release.sh): the course's tests are not part of it"
              + (",\n# and the reference answers come compiled, from prebuilt/ (their sources are not here).\n"
                 if has_objects else ".\n") + "TEST_SRCS :=\n")
    after = "\ninclude prebuilt/prebuilt.mk" if has_objects else ""
    return text[:m.start()] + before + m.group(0) + after + text[m.end():]


def prebuilt_mk(exercise: str, sources: List[str], described: str) -> str:
    objects = " \\\n                 ".join("$(BUILD)/" + object_path(s) for s in sources)
    return (f"# {exercise}/prebuilt/prebuilt.mk: written by grading/make_student_release.sh.\n"
            f"# The objects of the reference answers this copy has no sources of ({described}):\n"
            "# make copies them into build/ instead of compiling them.\n"
            f"PREBUILT_OBJS := {objects}\n\n"
            "$(PREBUILT_OBJS): $(BUILD)/%: prebuilt/%\n"
            "\t@mkdir -p $(dir $@)\n"
            "\tcp $< $@\n")


def _ignore_for(stage: str, plan: Plan):
    gone = {os.path.normpath(os.path.join(stage, p)) for p in list(plan.withheld) + plan.left_out}

    def ignore(directory: str, names: List[str]) -> List[str]:
        return [n for n in names if n in SKIPPED_DIRS or os.path.normpath(os.path.join(directory, n)) in gone]
    return ignore


def release_md(plan: Plan, described: str, source: str) -> str:
    intro = (f"Made by `grading/make_student_release.sh` from {source} on {time.strftime('%Y-%m-%d %H:%M:%S %Z')}. "
             "The reference answers of the exercises below are not here as sources: the ones the build compiles "
             f"are objects in each folder's `prebuilt/` ({described}), so `make` and `make run` work as in the full "
             "course. Every exercise's `tests/` and `tune/` are left out too.")
    lines = ["# The students' copy", "", textwrap.fill(intro, width=95, break_long_words=False, break_on_hyphens=False),
             "", "| exercise | withheld | compiled in prebuilt/ |", "|---|---|---|"]
    for e in plan.exercises:
        mine = [p.split("/", 1)[1] for p in plan.withheld if p.startswith(e + "/")]
        lines.append(f"| {e} | {', '.join(f'`{m}`' for m in mine) or '-'} | "
                     f"{', '.join(f'`{s}`' for s in plan.prebuilt.get(e, [])) or '-'} |")
    lines += ["", "Why each file is withheld:", ""]
    lines += [f"- `{p}`: {why}" for p, why in plan.withheld.items()]
    return "\n".join(lines) + "\n"


def write_release(stage: str, target: str, plan: Plan, described: str, source: str) -> None:
    shutil.copytree(stage, target, symlinks=True, ignore=_ignore_for(stage, plan))
    for e in plan.exercises:
        sources = plan.prebuilt.get(e, [])
        for s in sources:
            src = os.path.join(stage, e, "build", object_path(s))
            dst = os.path.join(target, e, "prebuilt", object_path(s))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        if sources:
            with open(os.path.join(target, e, "prebuilt", "prebuilt.mk"), "w") as f:
                f.write(prebuilt_mk(e, sources, described))
        makefile = os.path.join(target, e, "Makefile")
        with open(makefile) as f:
            text = f.read()
        try:
            text = release_makefile(text, bool(sources))
        except ReleaseError as err:
            raise ReleaseError(f"{e}: {err}") from None
        with open(makefile, "w") as f:
            f.write(text)
    with open(os.path.join(target, "RELEASE.md"), "w") as f:
        f.write(release_md(plan, described, source))
    write_markdown(stage, target, plan)


def write_markdown(stage: str, target: str, plan: Plan) -> None:
    """Every Markdown file of the copy with its release markers applied; the READMEs' tables
    rewritten and each exercise's README told what its folder lacks (readme_for_copy)."""
    contents = CopyContents(PathIndex(stage), plan)
    for md in markdown_files(target):
        path = os.path.join(target, md)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = apply_markers(text, md)
        if md in readmes_of(plan):
            exercise = posixpath.dirname(md)
            note = ""
            if exercise:
                left_out = [d for d in LEFT_OUT_IN_EXERCISES if f"{exercise}/{d}" in plan.left_out]
                note = readme_note(bool(plan.prebuilt.get(exercise)), left_out)
            new = readme_for_copy(new, exercise, contents, note)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)


# ---- Checking the copy ------------------------------------------------------------------------

def verify_release(target: str, plan: Plan, course_root: str) -> None:
    """No withheld file anywhere in the copy (by path, or a file of the same name elsewhere), its
    Markdown names only what it holds (check_markdown), and every exercise's Makefile parses with
    its prebuilt objects in place."""
    names = {os.path.basename(p) for p in plan.withheld}
    for directory, dirs, files in os.walk(target):
        for name in files:
            if name in names:
                rel = os.path.relpath(os.path.join(directory, name), target)
                raise ReleaseError(f"the copy holds {rel}, a withheld file's name")
    check_markdown(target, course_root, plan)
    for e in plan.exercises:
        cmd = ["make", "-n", "--no-print-directory", "-C", os.path.join(target, e), "ARCH=sm_90", "all", "test-build"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=make_env())
        if p.returncode != 0:
            raise ReleaseError(f"{e}: `make -n all test-build` fails in the copy:\n{p.stdout[-1500:]}")
        for s in plan.prebuilt.get(e, []):
            if f"cp prebuilt/{object_path(s)} " not in p.stdout:
                raise ReleaseError(f"{e}: make does not take {object_path(s)} from prebuilt/:\n{p.stdout[-1500:]}")


def listed_impls(text: str) -> List[str]:
    """The implementation names of a harness's --list table (the first column under its rule)."""
    lines = text.splitlines()
    rule = next((i for i, l in enumerate(lines) if l.startswith("---")), len(lines))
    return [l.split()[0] for l in lines[rule + 1:] if l.strip() and not l.startswith("(")]


def verify_build(target: str, plan: Plan, arch: str, jobs: int, builds: Dict[str, Build], progress=print) -> None:
    """Builds a scratch copy of the copy and lists each program's implementations (no GPU needed):
    the prebuilt references link and register."""
    scratch = tempfile.mkdtemp(prefix="pmpp-release-check-")
    try:
        work = os.path.join(scratch, "course")
        shutil.copytree(target, work, symlinks=True)
        for e in plan.exercises:
            t0 = time.monotonic()
            p = subprocess.run(["make", "--no-print-directory", "-C", os.path.join(work, e), f"-j{jobs}", f"ARCH={arch}",
                                "all"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=make_env())
            if p.returncode != 0:
                raise BuildFailed(f"{e}: the copy does not build:\n{p.stdout[-3000:]}")
            listing = subprocess.run([os.path.join(work, e, "build", builds[e].program), "--list"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if listing.returncode != 0:
                raise BuildFailed(f"{e}: build/{builds[e].program} --list fails in the copy:\n{listing.stdout[-1500:]}")
            progress(f"{e}: the copy builds ({time.monotonic() - t0:.0f} s); its implementations: "
                     + ", ".join(listed_impls(listing.stdout)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---- The command ------------------------------------------------------------------------------

def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="grading/make_student_release.sh",
                                description="Write the students' copy of the course to DEST: the reference answers "
                                            "withheld (compiled objects instead), everything else as it is. "
                                            "grading/README.md explains it.")
    p.add_argument("dest", help="where the copy goes (must not exist, or be an empty folder)")
    p.add_argument("--exercises", metavar="LIST", help="folders or numbers to release, e.g. 01,02 (default: every "
                   "exercise); an exercise that builds another's files needs that one too")
    p.add_argument("--arch", default="all-major", help="GPU architectures of the prebuilt objects: all-major "
                   "(default: machine code for each major architecture nvcc supports, sm_75 to sm_120, which runs on "
                   "every minor one too, and PTX for newer GPUs), all (every minor one as well: twice the size), "
                   "sm_90, or a list sm_80,sm_90")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2, metavar="N", help="make -j (default: every core)")
    p.add_argument("--nvcc", metavar="PATH", help="the CUDA compiler (default: make's, $(CUDA_PATH)/bin/nvcc)")
    p.add_argument("--base", choices=("head", "worktree"), help="the course to release: git HEAD (default in a git "
                   "checkout) or the working tree")
    p.add_argument("--repo", metavar="DIR", default=os.path.dirname(GRADING_DIR), help="the course (default: the one "
                   "holding this script)")
    p.add_argument("--config", metavar="FILE", default=os.path.join(GRADING_DIR, "release.ini"))
    p.add_argument("--verify-build", metavar="ARCH", help="then build a scratch copy of the release for ARCH (e.g. "
                   "sm_90) and list each program's implementations")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    return args


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    repo = os.path.abspath(args.repo)
    dest = os.path.abspath(args.dest)
    progress = print
    if os.path.exists(dest) and (not os.path.isdir(dest) or os.listdir(dest)):
        print(f"make_student_release.sh: {dest} exists and is not an empty folder", file=sys.stderr)
        return EXIT_USAGE
    if os.path.realpath(dest).startswith(os.path.realpath(repo) + os.sep):
        print(f"make_student_release.sh: {dest} lies inside the course {repo}", file=sys.stderr)
        return EXIT_USAGE
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    # Everything is written beside DEST first: a release that fails leaves nothing at DEST.
    work = tempfile.mkdtemp(prefix=".pmpp-release-", dir=os.path.dirname(dest))
    try:
        variables = arch_variables(args.arch) + ([f"NVCC={args.nvcc}"] if args.nvcc else [])
        config = load_config(args.config)
        base = args.base or default_base(repo)
        stage = os.path.join(work, "clean")
        source = make_clean_tree(repo, stage, base)
        progress(f"clean tree: {source}")
        builds: Dict[str, Build] = {}
        for name in select(exercise_folders(stage), args.exercises):
            try:
                builds[name] = read_build(stage, name)
            except ReleaseError as e:
                if args.exercises:
                    raise
                progress(f"warning: {name} left out: {e}")
        if not builds:
            raise ReleaseError("no exercise to release")
        plan = make_plan(stage, builds, config)
        for path, why in plan.withheld.items():
            progress(f"withheld {path}: {why}")
        for path in plan.kept_by_config:
            progress(f"kept {path} (release.ini keep)")
        nvcc = args.nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        described = f"nvcc {nvcc_version(nvcc)}, --arch {args.arch}"
        build_objects(stage, plan, variables, args.jobs, os.path.join(work, "objects.log"), progress)
        target = os.path.join(work, "release")
        write_release(stage, target, plan, described, source)
        verify_release(target, plan, stage)
        if args.verify_build:
            verify_build(target, plan, args.verify_build, args.jobs, builds, progress)
        if os.path.isdir(dest):
            os.rmdir(dest)
        os.rename(target, dest)
    except BuildFailed as e:
        print(f"make_student_release.sh: {e}", file=sys.stderr)
        return EXIT_FAILED
    except (ReleaseError, TreeError, CourseError) as e:
        print(f"make_student_release.sh: {e}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        shutil.rmtree(work, ignore_errors=True)
    progress(f"the students' copy: {dest} ({len(plan.exercises)} exercise(s), {len(plan.withheld)} file(s) withheld, "
             "listed in its RELEASE.md)")
    return EXIT_OK
