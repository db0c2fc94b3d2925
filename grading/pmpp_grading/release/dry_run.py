"""python3 -m pmpp_grading.release.dry_run [--exercises LIST] [--base head|worktree]: the release's
answer check (answers.py) on the course as the students' copy would hold it, its findings
printed as the release prints them. Nothing is built or written: no nvcc needed."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import List, Optional

from ..course import CourseError
from ..tree import TreeError, default_base, make_clean_tree
from .answers import find_answers
from .config import GRADING_DIR, load_config, read_builds
from .contents import files_below
from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, ReleaseError
from .plan import make_plan
from .write_copy import ignore_for


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m pmpp_grading.release.dry_run",
                                description="The student release's answer check, on the course as the students' "
                                            "copy would hold it: nothing is built or written. Exit status 0 clean, "
                                            "1 an answer found, 2 a bad command line, release.ini or course.")
    p.add_argument("--exercises", metavar="LIST", help="as make_student_release.sh's (default: every exercise)")
    p.add_argument("--base", choices=("head", "worktree"), help="git HEAD (default in a git checkout) or the "
                   "working tree")
    p.add_argument("--repo", metavar="DIR", default=os.path.dirname(GRADING_DIR))
    p.add_argument("--config", metavar="FILE", default=os.path.join(GRADING_DIR, "release.ini"))
    args = p.parse_args(argv)
    repo = os.path.abspath(args.repo)
    with tempfile.TemporaryDirectory(prefix="pmpp-answers-") as work:
        try:
            config = load_config(args.config)
            stage = os.path.join(work, "clean")
            print(f"clean tree: {make_clean_tree(repo, stage, args.base or default_base(repo))}")
            builds = read_builds(stage, args.exercises, print)
            plan = make_plan(stage, builds, config)
            findings = find_answers(stage, files_below(stage, ignore_for(stage, plan)), plan, builds, config)
        except (ReleaseError, TreeError, CourseError) as e:
            print(f"dry_run: {e}", file=sys.stderr)
            return EXIT_USAGE
    for f in findings:
        print(f)
    print(f"{len(findings)} answer(s) the copy of {', '.join(plan.exercises)} would hold")
    return EXIT_FAILED if findings else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
