"""What the copy holds of the course, for the names its Markdown uses: the files and folders of
a tree (PathIndex), the words of a text that may be paths (path_words), and whether a name is
present in the copy, withheld, or withheld but compiled in prebuilt/ (CopyContents); and the
files of a tree, as the checks of the copy read them (files_below)."""
from __future__ import annotations

import os
import posixpath
import re
from typing import Dict, List, Optional

from ..course import repo_path
from ..tree import SKIPPED_DIRS
from .plan import Plan

# A word that may be a path: `saxpy_2_vectorized.cu`, `tests/`, `../02_scan/scan.h`, `grading/gpu`.
PATH_WORD = re.compile(r"^(?:\.{1,2}/)*[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)*/?$")


def files_below(root: str, ignore=None) -> Dict[str, str]:
    """Repository path -> file, for every file below `root`, but what `ignore` (copytree's: a
    folder and the names in it -> the names to leave out) leaves out."""
    found = {}
    for directory, dirs, files in os.walk(root):
        gone = set(ignore(directory, dirs + files)) if ignore else set()
        dirs[:] = sorted(d for d in dirs if d not in gone)
        rel = os.path.relpath(directory, root).replace(os.sep, "/")
        for name in sorted(f for f in files if f not in gone):
            found[posixpath.normpath(posixpath.join(rel, name))] = os.path.join(directory, name)
    return found


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
