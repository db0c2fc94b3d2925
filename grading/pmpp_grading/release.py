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
clean tree, the copy written beside DEST and renamed to DEST, then checked: no withheld file in
it, and every exercise's Makefile parses (make -n all test-build) with the objects in place.
"""
from __future__ import annotations

import argparse
import configparser
import os
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


# ---- Writing the copy -------------------------------------------------------------------------

def readme_note(solution: List[str], variants: List[str]) -> str:
    """The section added to an exercise's README in the copy."""
    names = lambda files: ", ".join(f"`{f}`" for f in files)  # noqa: E731
    text = ("This is the students' copy of the course. The reference answer"
            + (f" ({names(solution)})" if solution else "") + " and the reference variants"
            + (f" ({names(variants)})" if variants else "")
            + " come compiled, in `prebuilt/`: `make run` still checks and times them beside your code and the "
              "library baseline, but their sources are not here. Nor are the course's own tests (`tests/`) and GPU "
              "scripts (`tune/`): `make test` builds an empty suite here. Where this README points to one of those "
              "files, its row in the benchmark is what you have.")
    return "\n\n## In this copy\n\n" + textwrap.fill(text, width=95, break_long_words=False,
                                                       break_on_hyphens=False) + "\n"


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
        readme = os.path.join(target, e, "README.md")
        if os.path.isfile(readme):
            mine = [p.split("/", 1)[1] for p in plan.withheld if p.startswith(e + "/")]
            solution = [os.path.basename(p) for p in plan.withheld if p.startswith(e + "/")
                        and plan.withheld[p].startswith("the reference answer")]
            with open(readme, "a") as f:
                f.write(readme_note(solution, [m for m in mine if m not in solution]))
    with open(os.path.join(target, "RELEASE.md"), "w") as f:
        f.write(release_md(plan, described, source))
    readme = os.path.join(target, "README.md")
    if os.path.isfile(readme):
        with open(readme) as f:
            text = f.read()
        title, nl, rest = text.partition("\n")
        with open(readme, "w") as f:
            f.write(title + nl + "\n> The students' copy: the reference answers come compiled (see RELEASE.md).\n" + rest)


# ---- Checking the copy ------------------------------------------------------------------------

def verify_release(target: str, plan: Plan) -> None:
    """No withheld file anywhere in the copy (by path, or a file of the same name elsewhere), and
    every exercise's Makefile parses with its prebuilt objects in place."""
    names = {os.path.basename(p) for p in plan.withheld}
    for directory, dirs, files in os.walk(target):
        for name in files:
            if name in names:
                rel = os.path.relpath(os.path.join(directory, name), target)
                raise ReleaseError(f"the copy holds {rel}, a withheld file's name")
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
        verify_release(target, plan)
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
