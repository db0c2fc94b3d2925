"""The command, grading/make_student_release.sh DEST [options]: its options (parse_args) and its
steps, in order (main): the clean tree, the plan, the objects, the copy written beside DEST,
checked (no answer in it, then its files, Markdown and Makefiles), and renamed to DEST."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from typing import List, Optional

from ..course import CourseError
from ..toolchain import nvcc_release
from ..tree import TreeError, default_base, make_clean_tree
from .answers import check_answers
from .config import GRADING_DIR, load_config, read_builds
from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, BuildFailed, ReleaseError
from .objects import arch_variables, build_objects
from .plan import make_plan
from .verify_copy import verify_build, verify_release
from .write_copy import write_release


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
        builds = read_builds(stage, args.exercises, progress)
        plan = make_plan(stage, builds, config)
        for path, why in plan.withheld.items():
            progress(f"withheld {path}: {why}")
        for path in plan.kept_by_config:
            progress(f"kept {path} (release.ini keep)")
        nvcc = args.nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        described = f"nvcc {nvcc_release(nvcc, timeout=60) or 'unknown'}, --arch {args.arch}"
        build_objects(stage, plan, variables, args.jobs, os.path.join(work, "objects.log"), progress)
        target = os.path.join(work, "release")
        write_release(stage, target, plan, described, source)
        check_answers(stage, target, plan, builds, config)
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
