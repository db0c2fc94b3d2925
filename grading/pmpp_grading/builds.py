"""An exercise's builds in a student's tree: the reference answer's, the student's, then the
forbidden-API check, `make forbidden`, on what the student's build produced (its dependency
files and objects, made with the build's own flags), and how each outcome is classified
(BuildResult: built, build failed, forbidden API used, grader error). build_all builds the
common library once, then every exercise, a few at a time (they use only the CPU). With a
sandbox the student's build and the check run as its user; the reference answer is then the
clean tree's, built once, never the student's tree's.
"""
from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from . import pictures, scoring
from .course import Exercise
from .processes import StopSignal, log_lines, log_tail, run_process
from .sandbox import Sandbox
from .settings import Settings

ERROR_LINE = re.compile(r"(?i:\berror\b|undefined reference|multiple definition)|FORBIDDEN")
MAKE_ERROR = re.compile(r"^g?make(\[\d+\])?: \*\*\*")


def log_excerpt(path: str, lines: int = 25) -> str:
    """The lines of a build log worth showing: the errors first (the compiler's and the link
    rule's, then make's own "*** ... Error N" lines, which say only where), else its end."""
    text = log_lines(path)
    errors = [l for l in text if ERROR_LINE.search(l)]
    if not errors:
        return "\n".join(text[-lines:])
    telling = [l for l in errors if not MAKE_ERROR.match(l)]
    return "\n".join((telling + [l for l in errors if MAKE_ERROR.match(l)])[:lines])


FORBIDDEN_LINE = "FORBIDDEN: "  # how `make forbidden` names each finding, one per line


def forbidden_findings(path: str) -> List[str]:
    """The findings of `make forbidden` in its log: the lines that start with FORBIDDEN_LINE."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [l.rstrip() for l in f if l.startswith(FORBIDDEN_LINE)]
    except OSError:
        return []


@dataclass
class BuildResult:
    status: str          # passed (built), build failed, forbidden API used, grader error
    message: str = ""
    wall_s: float = 0.0
    details: Dict[str, object] = field(default_factory=dict)


def make_command(settings: Settings, directory: str, target: str) -> List[str]:
    cmd = [settings.make, "--no-print-directory", "-C", directory, f"-j{max(1, settings.make_jobs)}", target]
    if settings.arch:
        cmd.append(f"ARCH={settings.arch}")
    return cmd


def reference_binary(tree: str, ex: Exercise) -> str:
    return os.path.join(tree, ex.name, "build", ex.program + "_solution")


def build_exercise(tree: str, ex: Exercise, log_dir: str, settings: Settings,
                   env: Dict[str, str], check_forbidden: bool = True, sandbox: Optional[Sandbox] = None,
                   reference_tree: Optional[str] = None, reference_logs: Optional[str] = None) -> BuildResult:
    """The reference answer's build, the student's, then `make forbidden` on the student's build
    (its dependency files and objects, made with the build's own flags: the check reads what was
    built, never a compile of its own). check_forbidden=False (the clean tree's build, which only
    prepares the objects every student's tree starts from) leaves the check out.
    With a reference_tree (the clean tree, built: sandboxed grading) the reference answer is that
    tree's binary, not built again here; its absence is a grader error naming its build log
    (reference_logs/<exercise>/build_solution.log). The student's build and the check run in
    the sandbox, when there is one."""
    t0 = time.monotonic()
    folder = os.path.join(tree, ex.name)
    limit = settings.build_time_limit()
    if reference_tree is None:
        solution_log = os.path.join(log_dir, "build_solution.log")
        pr = run_process(make_command(settings, folder, f"build/{ex.program}_solution"), tree, env, limit,
                         solution_log, settings.stop, sandbox)
        if pr.returncode != 0:
            return BuildResult(scoring.GRADER_ERROR, "the reference answer does not build (the course's side):\n"
                               + log_excerpt(solution_log), time.monotonic() - t0)
        probe = (reference_binary(tree, ex), folder, sandbox)
    else:
        solution = reference_binary(reference_tree, ex)
        if not os.path.isfile(solution):
            base_log = os.path.join(reference_logs or os.path.dirname(reference_tree), ex.name, "build_solution.log")
            return BuildResult(scoring.GRADER_ERROR, f"the reference answer was not built in the clean tree ({solution} "
                               f"is missing; its build's log: {base_log}):\n" + log_excerpt(base_log),
                               time.monotonic() - t0)
        probe = (solution, os.path.join(reference_tree, ex.name), None)  # course code only: as the grader
    details = {"pictures": harness_takes_images(probe[0], probe[1], os.path.join(log_dir, "solution_help.log"), env,
                                                settings.stop, probe[2])}
    log = os.path.join(log_dir, "build.log")
    pr = run_process(make_command(settings, folder, f"build/{ex.program}"), tree, env, limit, log, settings.stop,
                     sandbox)
    if pr.timed_out:
        return BuildResult(scoring.BUILD_FAILED, f"the build took longer than {limit:g} s", time.monotonic() - t0)
    if pr.returncode != 0:
        # The link rule's refusals (a student file defining what course code defines) are errors
        # of this log too: log_excerpt shows them before make's own lines.
        return BuildResult(scoring.BUILD_FAILED, "the student's files do not build:\n" + log_excerpt(log),
                           time.monotonic() - t0)
    if check_forbidden:
        refused = forbidden_check(folder, tree, log_dir, settings, env, sandbox)
        if refused is not None:
            status, message = refused
            return BuildResult(status, message, time.monotonic() - t0)
    return BuildResult(scoring.PASSED, "", time.monotonic() - t0, details)


def forbidden_check(folder: str, tree: str, log_dir: str, settings: Settings,
                    env: Dict[str, str], sandbox: Optional[Sandbox] = None) -> Optional[Tuple[str, str]]:
    """`make forbidden` in an exercise folder whose student build is done, every exercise (each
    has symbol and include rules, not only those with FORBIDDEN_APIS). Exit 0: clean (None).
    Otherwise its FORBIDDEN lines make it "forbidden API used"; without any, the check could not
    run, and files it cannot check fail like a build (`make run` stops at the same check)."""
    log = os.path.join(log_dir, "forbidden.log")
    limit = settings.build_time_limit()
    pr = run_process(make_command(settings, folder, "forbidden"), tree, env, limit, log, settings.stop, sandbox)
    if pr.returncode == 0:
        return None
    if pr.timed_out:
        return scoring.BUILD_FAILED, f"the forbidden-API check could not run: it took longer than {limit:g} s"
    findings = forbidden_findings(log)
    if findings:
        return scoring.FORBIDDEN, "\n".join(findings)
    return scoring.BUILD_FAILED, ("the forbidden-API check could not run:\n"
                                  + (log_tail(log) or f"make forbidden ended with exit status {pr.returncode}"))


BUILD_LOGS = ("build_solution.log", "build.log", "forbidden.log")


def harness_takes_images(solution: str, cwd: str, log: str, env: Dict[str, str], stop: StopSignal,
                         sandbox: Optional[Sandbox] = None) -> bool:
    """Does the harness take --images DIR? Asked of the reference answer's binary (course code
    only: a student's code cannot make the grader pass an option the harness refuses)."""
    pr = run_process([solution, "--help"], cwd, env, 60, log, stop, sandbox)
    if pr.returncode != 0:
        return False
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            return pictures.takes_images(f.read())
    except OSError:
        return False


def build_all(tree: str, exercises: List[Exercise], log_root: str, settings: Settings, env: Dict[str, str],
              on_done: Callable[[Exercise, BuildResult], None], check_forbidden: bool = True,
              sandbox: Optional[Sandbox] = None, reference_tree: Optional[str] = None,
              reference_logs: Optional[str] = None) -> Dict[str, BuildResult]:
    """The common library once, then every exercise, `build_slots` at a time (in the sandbox, if
    any: its user's processes are killed once every build is done, whatever a build left)."""
    try:
        common = os.path.join(tree, "common")
        if os.path.isfile(os.path.join(common, "Makefile")):
            run_process(make_command(settings, common, "lib"), tree, env, settings.build_time_limit(),
                        os.path.join(log_root, "common_build.log"), settings.stop, sandbox)
        results: Dict[str, BuildResult] = {}

        def one(ex: Exercise) -> None:
            r = build_exercise(tree, ex, os.path.join(log_root, ex.name), settings, env, check_forbidden, sandbox,
                               reference_tree, reference_logs)
            results[ex.name] = r
            on_done(ex, r)

        with ThreadPoolExecutor(max_workers=max(1, settings.build_slots)) as pool:
            futures = [pool.submit(one, ex) for ex in exercises]
            for f in futures:
                f.result()  # re-raises Interrupted
        return results
    finally:
        if sandbox is not None:
            sandbox.kill_all()

