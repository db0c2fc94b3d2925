"""One run of the grader (class Grading): the course and rubric it grades with, the clean tree
(OUT/base, built once), one student's tree graded in it (grade_submission, in a sandbox as
root), and two of run_all.sh's modes: the working tree in place, one submission. A folder of
submissions is batch.py's; the command line is cli.py's.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import threading
import time
from typing import Callable, Dict, List, Optional

from . import reports, scoring, slurm
from .builds import build_all
from .course import CourseError, Exercise, exercise_folders, read_info, select
from .errors import UsageError
from .processes import StopSignal
from .record import new_doc
from .rubric import load_rubric
from .runner import grade_tree
from .settings import Settings, default_untimed_slots, gpu_environment, gpu_memory_gib, least_gpu_memory_gib, run_env
from .slurm import allocated_cores
from .tree import copy_tree, default_base, fingerprint, make_clean_tree, overlay, uncommitted_exercises


GRADING_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDENT_FILES = "report.html, results.json, junit.xml, report.txt, logs/"


class Progress:
    def __init__(self, quiet: bool, t0: float):
        self.quiet, self.t0, self.lock = quiet, t0, threading.Lock()

    def __call__(self, who: str, text: str) -> None:
        if self.quiet:
            return
        elapsed = int(time.monotonic() - self.t0)
        with self.lock:
            print(f"[{elapsed // 60:02d}:{elapsed % 60:02d} {who}] {text}", flush=True)


def fresh_seed() -> int:
    return random.SystemRandom().randrange(1, 10 ** 9)  # nine digits, as the harness's own seeds


def visible_gpus(arg: Optional[str]) -> List[Optional[str]]:
    if arg:
        return [g.strip() for g in arg.split(",") if g.strip()] or [None]
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        gpus = [g.strip() for g in env.split(",") if g.strip() and g.strip() != "-1"]
        return gpus or [None]
    import subprocess
    try:
        p = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=30)
        gpus = [l.strip() for l in p.stdout.splitlines() if l.strip()] if p.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired):
        gpus = []
    return gpus or [None]


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._@+-]+", "_", name).strip("._") or "student"


def run_guarded(fn: Callable[[], None], stop: StopSignal) -> None:
    """Runs fn in a thread while this (main) thread waits, so Ctrl-C and SIGTERM reach the
    handler at once; re-raises what fn raised."""
    error: List[BaseException] = []

    def body():
        try:
            fn()
        except BaseException as e:  # noqa: B902 - handed to the main thread
            error.append(e)

    t = threading.Thread(target=body, daemon=True)
    t.start()
    while t.is_alive():
        t.join(0.2)
    if error:
        raise error[0]


class Grading:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.t0 = time.monotonic()
        self.progress = Progress(args.quiet, self.t0)
        self.stop = StopSignal()
        self.repo = os.path.abspath(args.repo)
        if not os.path.isdir(self.repo):
            raise UsageError(f"--repo: no folder {self.repo}")
        self.rubric = load_rubric(args.rubric)
        folders = exercise_folders(self.repo)
        try:
            self.exercise_names = select(folders, args.exercises)
        except CourseError as e:
            raise UsageError(str(e)) from None
        # A section for a folder that does not exist is a typo or an exercise not written yet.
        self.unknown = sorted(e for e in self.rubric.parts if e != "*" and e not in folders)
        for name in self.unknown:
            self.progress("grader", f"note: {self.rubric.path} has parts for {name}, which is not an exercise "
                                    "folder here (a typo?): not graded")
        # A folder whose Makefile cannot say what the student's files are (an exercise still
        # being written) is left out with a warning, unless it was asked for by name.
        for name in list(self.exercise_names):
            try:
                read_info(self.repo, name)
            except CourseError as e:
                if args.exercises:
                    raise UsageError(str(e)) from None
                self.progress("grader", f"warning: {name} left out: {e}")
                self.exercise_names.remove(name)
        if not self.exercise_names:
            raise UsageError(f"no exercise folder (NN_name with a Makefile) in {self.repo}")
        missing = [e for e in self.exercise_names if not self.rubric.parts_for(e)]
        if missing:
            raise UsageError(f"{self.rubric.path}: no part for {', '.join(missing)} (and no [*/...] parts)")
        self.gpus = visible_gpus(args.gpus)
        self._memory: Dict[Optional[str], Optional[float]] = {}  # GPU -> GiB (nvidia-smi), asked once
        self.base_description = ""
        from .sandbox import Fence, SandboxError  # as root, each student's code runs as a user of its own
        try:
            self.fence = Fence.decide(args.no_sandbox, args.sandbox_dir, lambda text: self.progress("grader", text))
        except SandboxError as e:
            raise UsageError(str(e)) from None
        if self.fence.enabled:
            os.umask(0o077)  # every report the grader writes is unreadable to the sandbox's users

    # -- shared pieces --

    def settings(self, seed: int, workers: int, out: Optional[str] = None) -> Settings:
        """One student's share of the machine when `workers` students are graded at once (one per
        GPU, self.gpus in order): cores for the builds, and the untimed parts run at once
        (--untimed-parallel, else default_untimed_slots of those cores and the smallest memory of
        the workers' GPUs). With the output folder `out`, the untimed tasks' times of the reports
        already there (earlier_reports), the pool's order: longest first."""
        cores = self.args.jobs or max(1, allocated_cores() // max(1, workers))
        slots = max(1, min(len(self.exercise_names), cores // 2))
        untimed = getattr(self.args, "untimed_parallel", None)
        if untimed is None:
            untimed = default_untimed_slots(cores, least_gpu_memory_gib(self.gpus[:max(1, workers)], self.gpu_memory))
        settings = Settings(rubric=self.rubric, seed=seed, stop=self.stop, progress=self.progress,
                            timeout=self.args.timeout, build_timeout=self.args.build_timeout, arch=self.args.arch,
                            make_jobs=max(1, cores // slots), build_slots=slots, untimed_slots=untimed)
        if out is not None:
            settings.untimed_times.learn(earlier_reports(out))
        return settings

    def gpu_memory(self, gpu: Optional[str]) -> Optional[float]:
        if gpu not in self._memory:
            self._memory[gpu] = gpu_memory_gib(gpu)
        return self._memory[gpu]

    def infos(self, tree: str) -> List[Exercise]:
        try:
            return [read_info(tree, name) for name in self.exercise_names]
        except CourseError as e:
            raise UsageError(str(e)) from None

    def output(self, default_name: str) -> str:
        out = os.path.abspath(self.args.output or os.path.join(self.repo, "build", "grading", default_name))
        os.makedirs(out, exist_ok=True)
        return out

    def prepare_base(self, out: str, settings: Settings, build: bool = True) -> (str, List[Exercise]):
        """The clean tree, built once (kept in OUT/base and reused while the course's files are
        unchanged), and what its exercise Makefiles say. build=False makes the tree only (a Slurm
        batch builds it in its prepare job, on a GPU node: build_base)."""
        base_kind = self.args.base or default_base(self.repo)
        if base_kind == "head":
            left_out = [e for e in uncommitted_exercises(self.repo) if e in self.exercise_names]
            if left_out:
                raise UsageError(f"{', '.join(left_out)} not committed: git HEAD has no such folder "
                                 "(commit it, or grade against the working tree with --base worktree)")
        base, fresh = os.path.join(out, "base"), os.path.join(out, "base.new")
        marker = os.path.join(out, "base.json")
        shutil.rmtree(fresh, ignore_errors=True)
        described = make_clean_tree(self.repo, fresh, base_kind, exclude=[out])
        digest = fingerprint(fresh)
        previous = {}
        if os.path.exists(marker):
            try:
                with open(marker) as f:
                    previous = json.load(f)
            except (OSError, ValueError):
                previous = {}
        if previous.get("fingerprint") == digest and os.path.isdir(base):
            shutil.rmtree(fresh)
            self.progress("base", f"clean tree unchanged ({described}): reusing its builds")
        else:
            shutil.rmtree(base, ignore_errors=True)
            os.rename(fresh, base)
            self.progress("base", f"clean tree: {described}")
        reports.write_atomically(marker, json.dumps({"fingerprint": digest, "source": described}) + "\n")
        self.base_description = described
        exercises = self.infos(base)
        if build:
            self.build_base(out, base, exercises, settings)
        return base, exercises

    def base_source(self, out: str) -> str:
        """What OUT/base was made from (base.json), for a Slurm task that did not make it."""
        return (reports.read_json(os.path.join(out, "base.json")) or {}).get("source", "the clean tree")

    def build_base(self, out: str, base: str, exercises: List[Exercise], settings: Settings) -> None:
        base_settings = self.settings(settings.seed, 1)

        def built(ex: Exercise, r) -> None:
            word = "built" if r.status == scoring.PASSED else f"{r.status}: {r.message.splitlines()[0] if r.message else ''}"
            self.progress("base", f"{ex.name}: {word} ({r.wall_s:.0f} s)")

        # A failure here stops nothing: each student's build meets it again and reports it (the
        # reference answer's as a grader error). Nor is `make forbidden` run here: it judges a
        # student's files, and this tree holds only the starters, which nobody is graded on.
        build_all(base, exercises, os.path.join(out, "base-logs"), base_settings, run_env(None), built,
                  check_forbidden=False)

    def grade_submission(self, name: str, submission: str, out_dir: str, base: str, exercises: List[Exercise],
                         settings: Settings, gpu: Optional[str], sandbox=None) -> dict:
        """One student in a fresh tree: out_dir/tree, or, with a sandbox (sandbox.Sandbox), the
        sandbox's tree, adopted by its user (cleaned before and after: no process, no file left)."""
        started = time.monotonic()
        if sandbox is not None:
            sandbox.clean()
        tree = sandbox.tree if sandbox is not None else os.path.join(out_dir, "tree")
        shutil.rmtree(tree, ignore_errors=True)
        clear_outputs(out_dir)
        copy_tree(base, tree)
        files = overlay(tree, submission, [p for ex in exercises for p in ex.student_paths()])
        if sandbox is not None:
            sandbox.adopt(tree)
        applied = sum(1 for f in files if f.status == "applied")
        self.progress(name, f"{applied} of {len(files)} student files taken from {submission}"
                      + (f" (GPU {gpu})" if gpu is not None else ""))
        doc = new_doc(name, os.path.abspath(submission), f"{self.base_description}, with the student's files", settings,
                      exercises,
                      gpu_environment(gpu, exercises[0].nvcc))
        doc["environment"]["sandbox"] = self.fence.description(sandbox)
        doc["environment"].update(slurm.where_graded())
        for e in doc["exercises"]:
            ex = next(x for x in exercises if x.name == e["exercise"])
            mine = set(ex.student_paths())
            e["files"] = [f.to_json() for f in files if f.path in mine]
        try:
            grade_tree(tree, exercises, doc, out_dir, settings, gpu, started=started, sandbox=sandbox,
                       reference_tree=base if sandbox is not None else None,
                       reference_logs=os.path.join(os.path.dirname(base), "base-logs"))
        finally:
            if sandbox is not None:
                sandbox.kill_all()
                if self.args.keep_trees:
                    sandbox.keep_tree(os.path.join(out_dir, "tree"))
                sandbox.clean()
            elif not self.args.keep_trees:
                shutil.rmtree(tree, ignore_errors=True)
        return doc

    def sandbox_slot(self, closed: List[str]):
        """As root, a sandbox of its own for one worker (sandbox.Sandbox), with `closed` (the
        reports, the submissions) taken from other users; None without the sandbox. The reports
        folder, by default beside other gradings' (build/grading/), is closed with them."""
        if not self.fence.enabled:
            return None
        from .sandbox import SandboxError
        try:
            sandbox = self.fence.new_slot()
        except SandboxError as e:
            raise UsageError(f"the sandbox: {e}") from None
        self.fence.lock_down(closed + ([] if self.args.output else [os.path.dirname(closed[0])]))
        return sandbox

    # -- the three modes --

    def working_tree(self, seed: int) -> List[dict]:
        out = self.output("working-tree")
        settings = self.settings(seed, 1)
        exercises = self.infos(self.repo)
        gpu = self.gpus[0]
        self.progress("grader", f"grading the working tree {self.repo} as it is (its harness included; "
                                "--submission grades a clean copy)")
        doc = new_doc("working-tree", self.repo, "the working tree, in place", settings, exercises,
                      gpu_environment(gpu, exercises[0].nvcc))
        doc["environment"].update(slurm.where_graded())
        # The course's own tree, as its owner left it: nothing to fence it with.
        doc["environment"]["sandbox"] = ("off: the working tree is graded in place" if self.fence.enabled
                                         else self.fence.description(None))
        clear_outputs(out)
        try:
            run_guarded(lambda: grade_tree(self.repo, exercises, doc, out, settings, gpu), self.stop)
        finally:
            print("\n" + reports.terminal_table(doc) + f"\nreports: {out} ({STUDENT_FILES})", flush=True)
        return [doc]

    def one_submission(self, seed: int) -> List[dict]:
        submission = os.path.abspath(self.args.submission)
        if not os.path.isdir(submission):
            raise UsageError(f"--submission: no folder {submission}")
        name = safe_name(os.path.basename(submission.rstrip("/")))
        out = self.output(name)
        settings = self.settings(seed, 1, out)
        docs: List[dict] = []

        def go():
            base, exercises = self.prepare_base(out, settings)
            sandbox = self.sandbox_slot([out, submission])
            docs.append(self.grade_submission(name, submission, out, base, exercises, settings, self.gpus[0],
                                              sandbox))

        try:
            run_guarded(go, self.stop)
        finally:
            doc = reports.read_json(os.path.join(out, "grade.json"))
            if doc:
                print("\n" + reports.terminal_table(doc) + f"\nreports: {out} ({STUDENT_FILES})", flush=True)
        return docs

    def print_seed(self, seed: int) -> None:
        self.progress("grader", f"seed {seed} (replay with --seed {seed})")


def clear_outputs(out_dir: str) -> None:
    """An earlier grading's logs and pictures, which the new reports must not link."""
    for name in ("logs", "images"):
        shutil.rmtree(os.path.join(out_dir, name), ignore_errors=True)


def earlier_reports(out: str) -> List[dict]:
    """The records already in an output folder: a batch's students' (all_docs), or the one
    submission's own (OUT/grade.json)."""
    own = reports.read_json(os.path.join(out, "grade.json"))
    return all_docs(out) + ([own] if own else [])


def all_docs(out: str) -> List[dict]:
    folder = os.path.join(out, "students")
    docs = []
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            doc = reports.read_json(os.path.join(folder, name, "grade.json"))
            if doc:
                docs.append(doc)
    return docs
