"""grading/run_all.sh's command line: its options, and which of session.py's, batch.py's or
slurm.py's modes they ask for: grade the working tree, one submission, or a folder of submissions.

  run_all.sh                         the working tree as it is (a student's files in place)
  run_all.sh --submission DIR        a clean tree with only the student's files taken from DIR
  run_all.sh --submissions DIR       every folder in DIR is one student; one student per GPU at
                                     a time; resumable (students already graded are skipped)

Exit status: 0 graded (whatever the scores), 2 bad command line or rubric, 3 something could
not be graded by the course's side (no GPU, a grader error), 130 stopped (reports kept).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import List, Optional

from . import batch, reports, scoring, slurm
from .course import CourseError
from .errors import UsageError
from .rubric import RubricError
from .processes import Interrupted
from .session import GRADING_DIR, Grading, fresh_seed, safe_name
from .tree import TreeError

EXIT_OK, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_STOPPED = 0, 2, 3, 130


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
    p.add_argument("--untimed-parallel", metavar="N", type=int, help="check and sanitizer processes run N at a "
                   "time, before the performance parts, which run alone (1: one at a time; default: min(cores per "
                   "student / 2, GPU memory / 16 GiB, 8), 1 if nvidia-smi cannot say)")
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
    if args.untimed_parallel is not None and args.untimed_parallel < 1:
        p.error("--untimed-parallel must be at least 1")
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


def check_rubric(g: Grading) -> int:
    print(f"{g.rubric.path}: valid")
    total = 0.0
    for name in g.exercise_names:
        parts = g.rubric.parts_for(name)
        print(f"  {name}" + ("" if name in g.rubric.parts else "  (the [*/...] parts)"))
        for p in parts:
            if p.kind == "sanitize":
                shards = dict(p.shards)
                tools = [t + (f" (in {shards[t]} processes)" if t in shards else "") for t in p.tools]
                extra = (f", {' then '.join(tools)} over the check cases up to n = {p.max_size}, "
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
    recorded = reports.read_json(os.path.join(out, "batch.json"))
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
            docs = batch.run_slurm_task(g, batch.batch_setup(g, args.seed, record=False), args.slurm_task)
        elif args.slurm:
            setup = batch.batch_setup(g, args.seed, record=not args.slurm_dry_run)
            g.print_seed(setup.seed)
            return batch.submit_round(g, setup, os.path.join(GRADING_DIR, "run_all.sh"))
        elif args.submissions:
            docs = batch.grade_batch(g, args.seed)
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
