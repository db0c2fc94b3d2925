"""grading/run_all.sh: grade the working tree, one submission, or a folder of submissions.

  run_all.sh                         the working tree as it is (a student's files in place)
  run_all.sh --submission DIR        a clean tree with only the student's files taken from DIR
  run_all.sh --submissions DIR       every folder in DIR is one student; one student per GPU at
                                     a time; resumable (students already graded are skipped)

Exit status: 0 graded (whatever the scores), 2 bad command line or rubric, 3 something could
not be graded by the course's side (no GPU, a grader error), 130 stopped (reports kept).
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

from . import reports, scoring
from .course import CourseError, Exercise, exercise_folders, read_info, select
from .rubric import RubricError, load_rubric
from . import slurm
from .slurm import allocated_cores
from .runner import (Interrupted, Settings, StopSignal, build_all, gpu_environment, grade_tree, new_doc, run_env)
from .tree import TreeError, copy_tree, default_base, fingerprint, make_clean_tree, overlay, uncommitted_exercises

GRADING_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_OK, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_STOPPED = 0, 2, 3, 130
STUDENT_FILES = "report.html, results.json, junit.xml, report.txt, logs/"


class UsageError(Exception):
    pass


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="grading/run_all.sh",
        description="Grade the exercises: each rubric part in its own process under a timeout, scored from the "
                    "harness's results files. grading/README.md explains everything.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--submission", metavar="DIR", help="grade one submission: a clean tree with only the "
                      "student's files (STUDENT_SRCS) taken from DIR")
    mode.add_argument("--submissions", metavar="DIR", help="grade every folder in DIR as one student")
    p.add_argument("--exercises", metavar="LIST", help="comma list of exercise folders or numbers (default: every NN_* folder)")
    p.add_argument("--seed", metavar="S", type=int, help="the inputs' seed (default: fresh; printed and recorded; "
                   "a resumed batch keeps its own)")
    p.add_argument("--timeout", metavar="SECONDS", type=float, help="time limit of every part's process "
                   "(default: the rubric's check_timeout / bench_timeout)")
    p.add_argument("--build-timeout", metavar="SECONDS", type=float, help="time limit of each build (default: the rubric's)")
    p.add_argument("--output", metavar="DIR", help="where the reports go (default: build/grading/...)")
    p.add_argument("--rubric", metavar="FILE", default=os.path.join(GRADING_DIR, "rubric.ini"))
    p.add_argument("--regrade", action="store_true", help="with --submissions: grade students already graded again")
    p.add_argument("--gpus", metavar="LIST", help="GPUs to use, e.g. 0,1 (default: every visible GPU; one student per GPU)")
    p.add_argument("--jobs", metavar="N", type=int, help="CPU cores per student for builds (default: cores / GPUs)")
    p.add_argument("--base", choices=("head", "worktree"), help="the clean tree: git archive of HEAD (default in a "
                   "git checkout) or a copy of the working tree without build/ folders")
    p.add_argument("--repo", metavar="DIR", default=os.path.dirname(GRADING_DIR),
                   help="the course repository to grade with (default: the one holding this grader)")
    p.add_argument("--arch", metavar="SM", help="ARCH for make (default: the GPU found, as make does)")
    p.add_argument("--keep-trees", action="store_true", help="keep each student's built tree (default: removed)")
    p.add_argument("--no-sandbox", action="store_true", help="as root: run the students' code as root too, not as "
                   "a user of its own (grading/README.md, 'The sandbox')")
    p.add_argument("--sandbox-dir", metavar="DIR", help="as root: where the sandbox's folder is made (default "
                   "/var/tmp; a local disk; every folder above it must be traversable by others)")
    slurm = p.add_argument_group("a batch on a Slurm cluster (grading/README.md, 'Grading a class on a cluster')")
    slurm.add_argument("--slurm", action="store_true", help="with --submissions: submit a job array (a task per "
                       "pack of students, one GPU each) and a collect job instead of grading here")
    slurm.add_argument("--slurm-args", metavar="'OPTIONS'", default="", help="sbatch options for every job, e.g. "
                       "\"--partition=gpu --time=02:00:00 --cpus-per-task=8\" (they override the grader's own)")
    slurm.add_argument("--pack", metavar="K", type=int, default=1, help="students per array task (default 1; more "
                       "for large classes where the cluster limits how fast jobs may start)")
    slurm.add_argument("--max-parallel", metavar="N", type=int, help="at most N tasks at once (the array's %%N)")
    slurm.add_argument("--slurm-dry-run", action="store_true", help="print the sbatch scripts and commands; submit "
                       "nothing")
    slurm.add_argument("--status", metavar="OUT", help="how far the batch whose reports are in OUT is: done, "
                       "running, waiting and failed students")
    slurm.add_argument("--slurm-task", choices=("prepare", "grade", "collect"), help=argparse.SUPPRESS)
    slurm.add_argument("--slurm-round", metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--check-rubric", action="store_true", help="validate the rubric, list the parts, and stop")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    argv = list(sys.argv[1:] if argv is None else argv)
    for i in range(len(argv) - 1):  # its value begins with "--", which argparse would take for an option
        if argv[i] == "--slurm-args":
            argv[i:i + 2] = ["--slurm-args=" + argv[i + 1]]
            break
    args = p.parse_args(argv)
    for name in ("timeout", "build_timeout"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            p.error(f"--{name.replace('_', '-')} must be positive")
    if args.jobs is not None and args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.seed is not None and not 0 <= args.seed < 2 ** 53:
        p.error("--seed must lie in [0, 2^53)")
    if (args.slurm or args.slurm_task) and not args.submissions:
        p.error("--slurm grades a batch: give --submissions DIR")
    if args.pack < 1 or (args.max_parallel is not None and args.max_parallel < 1):
        p.error("--pack and --max-parallel must be at least 1")
    if args.slurm_dry_run:
        args.slurm = True
    if args.slurm_task and not (args.slurm_round and args.output and args.seed is not None):
        p.error("--slurm-task is run by the jobs that --slurm submits (with --slurm-round, --output and --seed)")
    return args


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
        self.base_description = ""
        from .sandbox import Fence, SandboxError  # as root, each student's code runs as a user of its own
        try:
            self.fence = Fence.decide(args.no_sandbox, args.sandbox_dir, lambda text: self.progress("grader", text))
        except SandboxError as e:
            raise UsageError(str(e)) from None
        if self.fence.enabled:
            os.umask(0o077)  # every report the grader writes is unreadable to the sandbox's users

    # -- shared pieces --

    def settings(self, seed: int, workers: int) -> Settings:
        cores = self.args.jobs or max(1, allocated_cores() // max(1, workers))
        slots = max(1, min(len(self.exercise_names), cores // 2))
        return Settings(rubric=self.rubric, seed=seed, stop=self.stop, progress=self.progress,
                        timeout=self.args.timeout, build_timeout=self.args.build_timeout, arch=self.args.arch,
                        make_jobs=max(1, cores // slots), build_slots=slots)

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
        return (_read_doc(os.path.join(out, "base.json")) or {}).get("source", "the clean tree")

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
        settings = self.settings(seed, 1)
        docs: List[dict] = []

        def go():
            base, exercises = self.prepare_base(out, settings)
            sandbox = self.sandbox_slot([out, submission])
            docs.append(self.grade_submission(name, submission, out, base, exercises, settings, self.gpus[0],
                                              sandbox))

        try:
            run_guarded(go, self.stop)
        finally:
            doc = _read_doc(os.path.join(out, "grade.json"))
            if doc:
                print("\n" + reports.terminal_table(doc) + f"\nreports: {out} ({STUDENT_FILES})", flush=True)
        return docs

    def batch_setup(self, seed_arg: Optional[int], record: bool = True) -> "BatchSetup":
        """The batch's students (a folder each), its report folder and its seed (kept in
        OUT/batch.json, so that a resumed batch, and every task of a Slurm batch, uses the same)."""
        root = os.path.abspath(self.args.submissions)
        if not os.path.isdir(root):
            raise UsageError(f"--submissions: no folder {root}")
        if self.args.output:
            out = os.path.abspath(self.args.output)
        else:
            out = os.path.join(self.repo, "build", "grading", "batch-" + safe_name(os.path.basename(root.rstrip("/"))))
        students = sorted(d for d in os.listdir(root) if not d.startswith(".") and os.path.isdir(os.path.join(root, d)))
        if not students:
            raise UsageError(f"--submissions: {root} holds no folder (one folder per student)")
        names = {d: safe_name(d) for d in students}
        if len(set(names.values())) != len(names):
            raise UsageError("--submissions: two folders map to the same student name: rename one")

        batch_file = os.path.join(out, "batch.json")
        recorded = _read_doc(batch_file) or {}
        seed = seed_arg if seed_arg is not None else recorded.get("seed") or fresh_seed()
        if record:
            if recorded.get("seed") not in (None, seed):
                self.progress("grader", f"note: students graded earlier in {out} used seed {recorded['seed']}")
            if recorded.get("rubric_digest") not in (None, self.rubric.digest):
                self.progress("grader", "note: the rubric changed since earlier students were graded (--regrade "
                                        "grades them again)")
            os.makedirs(out, exist_ok=True)
            reports.write_atomically(batch_file, json.dumps({"submissions": root, "seed": seed,
                                                             "rubric_digest": self.rubric.digest}, indent=1) + "\n")
        return BatchSetup(root, out, students, names, seed)

    def ungraded(self, setup: "BatchSetup", say: bool = True) -> List[str]:
        """The students (folders) without a finished report, or every one with --regrade."""
        todo = []
        for d in setup.students:
            doc = _read_doc(os.path.join(setup.out, "students", setup.names[d], "grade.json"))
            if doc and doc.get("complete") and not self.args.regrade:
                if say:
                    score, max_score = reports.totals(doc)
                    self.progress(setup.names[d], f"already graded ({reports.fmt_points(score)}/"
                                                  f"{reports.fmt_points(max_score)}): skipped (--regrade grades again)")
            else:
                todo.append(d)
        return todo

    def batch(self, seed_arg: Optional[int]) -> List[dict]:
        setup = self.batch_setup(seed_arg)
        root, out, names, seed = setup.root, setup.out, setup.names, setup.seed
        self.print_seed(seed)
        todo = self.ungraded(setup)
        workers = max(1, min(len(self.gpus), len(todo)))
        settings = self.settings(seed, workers)
        lock = threading.Lock()

        def refresh() -> None:
            with lock:
                reports.write_batch_reports(_all_docs(out), out)

        def go():
            refresh()
            if not todo:
                return
            base, exercises = self.prepare_base(out, settings)
            pending: "queue.Queue[str]" = queue.Queue()
            for d in todo:
                pending.put(d)
            errors: List[BaseException] = []

            def worker(gpu: Optional[str]) -> None:
                try:  # this slot's sandbox: its students are graded one after another, cleaned between
                    sandbox = self.sandbox_slot([out, root])
                except UsageError as e:
                    self.progress("grader", f"{e}: stopping")
                    self.stop.stop()
                    return
                while not self.stop.event.is_set():
                    try:
                        d = pending.get_nowait()
                    except queue.Empty:
                        return
                    name = names[d]
                    try:
                        with slurm.StateFile(out, name):  # --status reads it, for a local batch too
                            doc = self.grade_submission(name, os.path.join(root, d),
                                                        os.path.join(out, "students", name), base, exercises,
                                                        settings, gpu, sandbox)
                        score, max_score = reports.totals(doc)
                        self.progress(name, f"done: {reports.fmt_points(score)}/{reports.fmt_points(max_score)} "
                                            f"in {doc['wall_s']:.0f} s")
                    except Interrupted:
                        return
                    except Exception as e:  # one student's broken folder must not stop the batch
                        self.progress(name, f"could not be graded: {type(e).__name__}: {e}")
                        errors.append(e)
                    finally:
                        refresh()

            threads = [threading.Thread(target=worker, args=(gpu,), daemon=True) for gpu in self.gpus[:workers]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if self.stop.event.is_set():
                raise Interrupted()

        try:
            run_guarded(go, self.stop)
        finally:
            refresh()
            docs = _all_docs(out)
            print("\n" + reports.batch_table(docs) + f"\nreports: {out} (index.html, scores.csv, totals.csv, "
                  "students/*/)", flush=True)
        return docs

    def all_docs(self, out: str) -> List[dict]:
        return _all_docs(out)

    def grade_pack(self, setup: BatchSetup, folders: List[str], array_job: str) -> List[dict]:
        """A Slurm task's students, one after another on the task's GPU, as a local batch's
        worker grades them; each with a state file kept fresh while it is graded. A student
        this array graded already (a task started again) is not graded twice."""
        out = setup.out
        base = os.path.join(out, "base")
        exercises = self.infos(base)
        self.base_description = self.base_source(out)
        settings = self.settings(setup.seed, 1)
        gpu = self.gpus[0]
        sandbox = self.sandbox_slot([out, setup.root])
        docs: List[dict] = []

        def go():
            for d in folders:
                name = setup.names.get(d, safe_name(d))
                earlier = _read_doc(os.path.join(out, "students", name, "grade.json")) or {}
                if earlier.get("complete") and str(earlier.get("environment", {}).get("slurm_job", "")).split("_")[0] \
                        == array_job:
                    self.progress(name, "graded by this array already: skipped")
                    continue
                with slurm.StateFile(out, name):
                    doc = self.grade_submission(name, os.path.join(setup.root, d), os.path.join(out, "students", name),
                                                base, exercises, settings, gpu, sandbox)
                score, max_score = reports.totals(doc)
                self.progress(name, f"done: {reports.fmt_points(score)}/{reports.fmt_points(max_score)} "
                                    f"in {doc['wall_s']:.0f} s")
                docs.append(doc)

        run_guarded(go, self.stop)
        return docs

    def print_seed(self, seed: int) -> None:
        self.progress("grader", f"seed {seed} (replay with --seed {seed})")


@dataclass
class BatchSetup:
    root: str                # the submissions folder
    out: str                 # the batch's reports
    students: List[str]      # the students' folders in root, sorted
    names: Dict[str, str]    # folder -> student name (the report folder's)
    seed: int


def clear_outputs(out_dir: str) -> None:
    """An earlier grading's logs and pictures, which the new reports must not link."""
    for name in ("logs", "images"):
        shutil.rmtree(os.path.join(out_dir, name), ignore_errors=True)


def _read_doc(path: str) -> Optional[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _all_docs(out: str) -> List[dict]:
    folder = os.path.join(out, "students")
    docs = []
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            doc = _read_doc(os.path.join(folder, name, "grade.json"))
            if doc:
                docs.append(doc)
    return docs


def check_rubric(g: Grading) -> int:
    print(f"{g.rubric.path}: valid")
    total = 0.0
    for name in g.exercise_names:
        parts = g.rubric.parts_for(name)
        print(f"  {name}" + ("" if name in g.rubric.parts else "  (the [*/...] parts)"))
        for p in parts:
            if p.kind == "sanitize":
                extra = (f", {' then '.join(p.tools)} over the check cases up to n = {p.max_size}, "
                         f"{p.timeout:g} s a tool, " + (f"after {', '.join(p.requires)}" if p.requires
                                                        else "whatever the checks score"))
            else:
                extra = "" if p.kind == "check" else (f", against {p.reference}, section {p.section}, full within "
                                                      f"{p.full_within:g}x ({p.curve}), implausible above "
                                                      f"{p.plausible_fraction_of_copy:g}x the copy"
                                                      + (f" or {100 * p.copy_bandwidth_tolerance:g}% off the "
                                                         "reference run's copy" if p.reference == "solution" else ""))
            print(f"    {p.name}: {p.kind}, {reports.fmt_points(p.points)} points{extra}"
                  + (f", args {' '.join(p.args)}" if p.args else ""))
            total += p.points
    print(f"  total {reports.fmt_points(total)} points over {len(g.exercise_names)} exercises")
    return EXIT_OK


def batch_status(out: str) -> int:
    """--status OUT: done, running, waiting and failed students of the batch reported in OUT."""
    out = os.path.abspath(out)
    recorded = _read_doc(os.path.join(out, "batch.json"))
    if not recorded or not os.path.isdir(recorded.get("submissions", "")):
        print(f"run_all.sh: --status: {out} holds no batch (no batch.json naming its submissions folder)",
              file=sys.stderr)
        return EXIT_USAGE
    root = recorded["submissions"]
    names = {d: safe_name(d) for d in sorted(os.listdir(root)) if not d.startswith(".")
             and os.path.isdir(os.path.join(root, d))}
    print(slurm.status_text(out, names), flush=True)
    return EXIT_OK


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if args.status:
        return batch_status(args.status)
    try:
        g = Grading(args)
    except (UsageError, RubricError) as e:
        print(f"run_all.sh: {e}", file=sys.stderr)
        return EXIT_USAGE
    if args.check_rubric:
        return check_rubric(g)

    def on_signal(signum, frame):
        if not g.stop.event.is_set():
            g.progress("grader", f"{signal.Signals(signum).name}: stopping; the reports keep what was graded")
        g.stop.stop()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        if args.slurm_task:
            docs = slurm.run_task(g, g.batch_setup(args.seed, record=False), args.slurm_task)
        elif args.slurm:
            setup = g.batch_setup(args.seed, record=not args.slurm_dry_run)
            g.print_seed(setup.seed)
            return slurm.submit(g, setup, os.path.join(GRADING_DIR, "run_all.sh"))
        elif args.submissions:
            docs = g.batch(args.seed)
        else:
            seed = args.seed if args.seed is not None else fresh_seed()
            g.print_seed(seed)
            docs = g.one_submission(seed) if args.submission else g.working_tree(seed)
    except Interrupted:
        return EXIT_STOPPED
    except (UsageError, TreeError, CourseError, slurm.SlurmUsageError) as e:
        print(f"run_all.sh: {e}", file=sys.stderr)
        return EXIT_USAGE
    incomplete = [p for d in docs for p in reports.parts_of(d)
                  if p.status in (scoring.NO_GPU, scoring.GRADER_ERROR, scoring.NOT_RUN)]
    if incomplete:
        statuses = sorted({p.status for p in incomplete})
        print(f"run_all.sh: {len(incomplete)} part(s) not graded by the course's side ({', '.join(statuses)})",
              file=sys.stderr)
        return EXIT_INCOMPLETE
    return EXIT_OK
