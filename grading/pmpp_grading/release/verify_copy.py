"""The copy checked before it moves to DEST: no file of a withheld name anywhere, its Markdown
names only what it holds (markdown_check.py), every exercise's Makefile parses and takes its
objects from prebuilt/ (verify_release); and, asked (--verify-build), a scratch copy of it built
and each program's implementations listed (verify_build)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from typing import Dict, List

from ..toolchain import make_env
from .config import Build
from .errors import BuildFailed, ReleaseError
from .markdown_check import check_markdown
from .objects import object_path
from .plan import Plan


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
