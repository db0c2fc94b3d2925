"""The tree a submission is graded in: a clean copy of the course, with only the student's
files (STUDENT_SRCS of each exercise) taken from the submission. Whatever else a submission
holds (an edited harness, checker, timing, Makefile) is never read.

The clean tree is `git archive HEAD` of the instructor's repository (base "head") or a copy of
its working tree without build/ folders (base "worktree"). It is built once per grading run;
each student's tree is a copy of it, build/ folders included and their timestamps kept, so make
recompiles only the student's files and relinks.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass
from typing import Dict, Iterable, List, Optional

from .course import EXERCISE_DIR

MAX_STUDENT_FILE_BYTES = 4 << 20
SKIPPED_DIRS = {"build", ".git", "__pycache__"}


class TreeError(RuntimeError):
    pass


def git_toplevel(path: str) -> Optional[str]:
    try:
        p = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


def default_base(repo: str) -> str:
    top = git_toplevel(repo)
    return "head" if top and os.path.realpath(top) == os.path.realpath(repo) else "worktree"


def head_commit(repo: str) -> str:
    p = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else "?"


def uncommitted_exercises(repo: str) -> List[str]:
    """Exercise folders of the working tree that HEAD does not have (graded only with --base worktree)."""
    p = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", "HEAD"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    committed = set(p.stdout.split()) if p.returncode == 0 else set()
    return sorted(d for d in os.listdir(repo) if EXERCISE_DIR.match(d) and d not in committed
                  and os.path.isdir(os.path.join(repo, d)))


def make_clean_tree(repo: str, dest: str, base: str, exclude: Iterable[str] = ()) -> str:
    """Writes the clean tree into `dest` (which must not exist). Returns what it was made from."""
    os.makedirs(dest)
    if base == "head":
        archive = subprocess.Popen(["git", "-C", repo, "archive", "--format=tar", "HEAD"], stdout=subprocess.PIPE)
        untar = subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout)
        archive.stdout.close()
        if archive.wait() != 0 or untar.returncode != 0:
            raise TreeError(f"git archive HEAD of {repo} failed")
        return f"git HEAD {head_commit(repo)} of {repo}"
    if base != "worktree":
        raise TreeError(f"unknown base '{base}'")
    excluded = {os.path.realpath(e) for e in exclude}
    repo_real = os.path.realpath(repo)

    def ignore(directory: str, names: List[str]) -> List[str]:
        out = []
        for name in names:
            full = os.path.realpath(os.path.join(directory, name))
            top_hidden = os.path.realpath(directory) == repo_real and name.startswith(".") and name != ".ci" \
                and os.path.isdir(full)
            if name in SKIPPED_DIRS or full in excluded or top_hidden:
                out.append(name)
        return out

    shutil.rmtree(dest)
    shutil.copytree(repo, dest, symlinks=True, ignore=ignore)
    return f"working tree of {repo}"


def fingerprint(tree: str) -> str:
    """A digest of every source file (build/ folders left out): equal trees, equal digests."""
    h = hashlib.sha256()
    for directory, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = os.path.join(directory, name)
            h.update(os.path.relpath(path, tree).encode() + b"\0")
            if os.path.islink(path):
                h.update(b"link:" + os.readlink(path).encode())
            else:
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def copy_tree(src: str, dst: str) -> None:
    """A full copy, timestamps kept (build outputs stay up to date; never hard links: make would
    write through them into the shared base)."""
    shutil.copytree(src, dst, symlinks=True)


@dataclass
class OverlayEntry:
    path: str               # the student's file, relative to the repository root
    source: Optional[str]   # where it came from in the submission, or None
    status: str             # applied | missing (the starter stays) | ignored
    note: str = ""
    sha256: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def _index(submission: str) -> Dict[str, List[str]]:
    """Every file of the submission by base name (paths relative to it, '/'-separated)."""
    index: Dict[str, List[str]] = {}
    for directory, dirs, files in os.walk(submission):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not os.path.islink(os.path.join(directory, d)))
        for name in files:
            rel = os.path.relpath(os.path.join(directory, name), submission).replace(os.sep, "/")
            index.setdefault(name, []).append(rel)
    return index


def find_submitted(target: str, index: Dict[str, List[str]]) -> (Optional[str], str):
    """The submission's file for the student's file `target` (e.g. 02_scan/scan_student.cu):
    at that path; else at that path inside one folder (a repository zipped with its folder);
    else a file of that name alone at the top (files uploaded one by one); else the only file of
    that name. Returns (path or None, why not)."""
    candidates = index.get(target.rsplit("/", 1)[-1], [])
    if target in candidates:
        return target, ""
    nested = [c for c in candidates if c.endswith("/" + target)]
    if nested:
        shortest = min(len(c) for c in nested)
        best = [c for c in nested if len(c) == shortest]
        if len(best) == 1:
            return best[0], ""
        return None, "several copies: " + ", ".join(sorted(best))
    flat = [c for c in candidates if "/" not in c]
    if len(flat) == 1:
        return flat[0], ""
    if len(candidates) == 1:
        return candidates[0], ""
    if candidates:
        return None, "several files of that name and none at " + target + ": " + ", ".join(sorted(candidates))
    return None, ""


def overlay(tree: str, submission: str, student_paths: Iterable[str]) -> List[OverlayEntry]:
    """Copies the student's files, and nothing else, from `submission` into `tree`."""
    index = _index(submission)
    entries = []
    for target in dict.fromkeys(student_paths):  # 02_scan/scan_student.cu is 02's and 03's
        source, why = find_submitted(target, index)
        if source is None:
            entries.append(OverlayEntry(target, None, "missing" if not why else "ignored",
                                        why or "not in the submission: the starter file is graded"))
            continue
        src = os.path.join(submission, source)
        if os.path.islink(src) or not os.path.isfile(src):
            entries.append(OverlayEntry(target, source, "ignored", "not a regular file (a link?): the starter is graded"))
            continue
        size = os.path.getsize(src)
        if size > MAX_STUDENT_FILE_BYTES:
            entries.append(OverlayEntry(target, source, "ignored", f"{size} bytes: larger than a source file may be"))
            continue
        with open(src, "rb") as f:
            data = f.read()
        dst = os.path.join(tree, target)
        if not os.path.isdir(os.path.dirname(dst)):
            raise TreeError(f"the clean tree has no folder for {target}")
        if os.path.lexists(dst):
            os.remove(dst)
        with open(dst, "wb") as f:  # a new file: its timestamp is now, so make rebuilds its object
            f.write(data)
        entries.append(OverlayEntry(target, source, "applied", sha256=hashlib.sha256(data).hexdigest()))
    return entries
