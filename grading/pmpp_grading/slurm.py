"""A batch graded on a Slurm cluster: `run_all.sh --submissions DIR --slurm`.

The machine that runs it (a login node) prepares the clean tree once (OUT/base) and submits
three jobs of one round, OUT/slurm/round-<k>/:
  prepare   builds the clean tree on a GPU node (the builds every student's tree starts from);
  grade     a job array after it, one task per pack of `--pack` students (a task per student by
            default), each on one GPU (--gres=gpu:1), at most `--max-parallel` at once: each
            task grades its students one after another exactly as a local batch's worker does
            (same seed, each student's times against the reference answer run by the same task
            on the same GPU), writing OUT/students/<name>/ and a state file, never the batch's
            reports;
  collect   after the array, however its tasks ended: the batch's reports (scores.csv,
            totals.csv, summary.txt, index.html), as a local batch writes them.
Every job runs run_all.sh itself, with the options of the submitting command; the scripts are
in the round's folder (and printed by --slurm-dry-run, which submits nothing).

Running the same command again submits a new round for the students without a finished report
(a task that died, a node that failed) and not running or waiting now; `run_all.sh --status
OUT` counts done, running, waiting and failed students from the reports, the state files each
task keeps fresh, and squeue (for a local batch, whose workers keep the same state files, from
the first two)."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import threading
import time
from typing import Dict, List, Optional, Tuple

from . import reports

SLURM_DIR = "slurm"
STATE_DIR = "state"          # OUT/slurm/state/<student>.json: the task's (or local worker's) word
HEARTBEAT_S = 15.0           # a running task rewrites its student's state file this often
STALE_S = 4 * HEARTBEAT_S    # ... and a state file older than this is a task that died
DONE, RUNNING, WAITING, FAILED = "done", "running", "waiting", "failed"


class SlurmUsageError(Exception):
    pass


def slurm_command(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise SlurmUsageError(f"{name} not found: --slurm needs Slurm's commands (sbatch, squeue) on PATH")
    return found


def packs(students: List[str], size: int) -> List[List[str]]:
    """The students in order, `size` to a task."""
    return [students[i:i + size] for i in range(0, len(students), size)]


def rounds(out: str) -> List[str]:
    """The rounds' folders of a batch, oldest first."""
    folder = os.path.join(out, SLURM_DIR)
    if not os.path.isdir(folder):
        return []
    found = [d for d in os.listdir(folder) if d.startswith("round-") and d[6:].isdigit()]
    return [os.path.join(folder, d) for d in sorted(found, key=lambda d: int(d[6:]))]


def latest_plan(out: str) -> Optional[dict]:
    for folder in reversed(rounds(out)):
        plan = reports.read_json(os.path.join(folder, "plan.json"))
        if plan:
            return plan
    return None


# ---- the scripts ------------------------------------------------------------------------------

def script(command: List[str], options: List[str], what: str) -> str:
    lines = ["#!/bin/bash", f"# {what}", "# written by grading/run_all.sh --slurm (grading/pmpp_grading/slurm.py)"]
    lines += [f"#SBATCH {o}" for o in options]
    lines += ["exec " + " ".join(shlex.quote(c) for c in command), ""]
    return "\n".join(lines)


def job_scripts(run_all: str, grader_args: List[str], round_dir: str, tasks: int, max_parallel: Optional[int],
                user_args: List[str]) -> Dict[str, Tuple[str, List[str]]]:
    """kind -> (script text, extra sbatch options given on the command line after the script's
    own: the user's --slurm-args, so that they override ours)."""
    logs = os.path.join(round_dir, "logs")
    array = f"0-{tasks - 1}" + (f"%{max_parallel}" if max_parallel else "")
    base = grader_args + ["--slurm-round", round_dir]
    out = {
        "prepare": (script([run_all, *base, "--slurm-task", "prepare"],
                           ["--job-name=pmpp-prepare", "--gres=gpu:1", "--ntasks=1",
                            f"--output={os.path.join(logs, 'prepare-%j.out')}"],
                           "builds the clean tree (OUT/base) once, on a GPU node like the graders'"), user_args),
        "grade": (script([run_all, *base, "--slurm-task", "grade"],
                         ["--job-name=pmpp-grade", "--gres=gpu:1", "--ntasks=1", f"--array={array}",
                          f"--output={os.path.join(logs, 'grade-%A_%a.out')}"],
                         f"grades the students of task $SLURM_ARRAY_TASK_ID (plan.json), {tasks} task(s)"), user_args),
        "collect": (script([run_all, *base, "--slurm-task", "collect"],
                           ["--job-name=pmpp-collect", "--ntasks=1",
                            f"--output={os.path.join(logs, 'collect-%j.out')}"],
                           "writes the batch's reports once the array has ended"),
                    [a for a in user_args if not a.startswith("--gres") and not a.startswith("--gpus")]),
    }
    return out


def sbatch(path: str, options: List[str], env: Optional[Dict[str, str]] = None) -> str:
    cmd = [slurm_command("sbatch"), "--parsable", *options, path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    if p.returncode != 0:
        raise SlurmUsageError(f"sbatch refused {os.path.basename(path)} ({' '.join(cmd)}): "
                              f"{p.stderr.strip() or p.stdout.strip()}")
    return p.stdout.strip().split(";")[0]


# ---- what the queue holds ---------------------------------------------------------------------

def queued_tasks(array_job: Optional[str]) -> Optional[Dict[str, str]]:
    """Array task index -> Slurm state (PENDING, RUNNING, ...) of what squeue still lists; None
    when squeue cannot say (not installed, or the controller does not answer)."""
    squeue = shutil.which("squeue")
    if not squeue or not array_job:
        return None
    try:
        p = subprocess.run([squeue, "-h", "-r", "-j", array_job, "-o", "%K %T"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        # An array squeue no longer knows has ended (its jobs left the controller's memory).
        return {} if "Invalid job id" in p.stderr else None
    tasks = {}
    for line in p.stdout.splitlines():
        index, _, state = line.strip().partition(" ")
        if index.isdigit():
            tasks[index] = state
        elif "-" in index or "[" in index:  # a pending range printed as one line ("0-3%2")
            for part in index.strip("[]").split("%")[0].split(","):
                lo, _, hi = part.partition("-")
                if lo.isdigit():
                    for i in range(int(lo), int(hi or lo) + 1):
                        tasks[str(i)] = state
    return tasks


def student_states(out: str, students: Dict[str, str], now: Optional[float] = None) -> Dict[str, str]:
    """student name -> done | running | waiting | failed, for every student of the batch."""
    now = time.time() if now is None else now
    plan = latest_plan(out)
    queue = queued_tasks(plan.get("array_job")) if plan else None
    task_of = {name: str(i) for i, pack in enumerate(plan["tasks"]) for name in pack} if plan else {}
    states = {}
    for name in students.values():
        doc = reports.read_json(os.path.join(out, "students", name, "grade.json")) or {}
        state = reports.read_json(os.path.join(out, SLURM_DIR, STATE_DIR, name + ".json")) or {}
        fresh = state.get("state") == RUNNING and now - float(state.get("updated", 0)) < STALE_S
        if fresh:
            states[name] = RUNNING
        elif doc.get("complete"):
            states[name] = DONE
        elif not plan:
            # A local batch: a report cut short failed; a student without one is still to come.
            states[name] = FAILED if doc or state else WAITING
        elif name in task_of and queue is not None and queue.get(task_of[name]) in ("PENDING", "RUNNING",
                                                                                   "CONFIGURING", "REQUEUED"):
            # Running but not yet on this student (an earlier one of its pack), or not started.
            states[name] = WAITING
        elif name in task_of and queue is None and not state:
            states[name] = WAITING  # squeue cannot say; nothing shows the task ever started
        else:
            states[name] = FAILED
    return states


def status_text(out: str, students: Dict[str, str]) -> str:
    states = student_states(out, students)
    counts = {s: sum(1 for v in states.values() if v == s) for s in (DONE, RUNNING, WAITING, FAILED)}
    lines = [f"{out}: {len(states)} students: " + ", ".join(f"{counts[s]} {s}" for s in counts)]
    for s in (RUNNING, WAITING, FAILED):
        names = sorted(n for n, v in states.items() if v == s)
        if names:
            lines.append(f"  {s}: {', '.join(names)}")
    if counts[FAILED]:
        lines.append("  run the same run_all.sh --slurm command again to grade the failed ones")
    return "\n".join(lines)


# ---- inside a task: the state file and its heartbeat ------------------------------------------

def job_name() -> str:
    job, task = os.environ.get("SLURM_ARRAY_JOB_ID"), os.environ.get("SLURM_ARRAY_TASK_ID")
    return f"{job}_{task}" if job and task else os.environ.get("SLURM_JOB_ID", "")


def where_graded() -> Dict[str, str]:
    """The node, and the Slurm job when there is one: the reports name them beside the GPU."""
    where = {"node": socket.gethostname()}
    if job_name():
        where["slurm_job"] = job_name()
    return where


class StateFile:
    """OUT/slurm/state/<student>.json while a task grades that student: rewritten every
    HEARTBEAT_S seconds, so that a task that died (a node lost, scancel, a time limit) shows as
    a state file gone stale."""

    def __init__(self, out: str, student: str):
        self.path = os.path.join(out, SLURM_DIR, STATE_DIR, student + ".json")
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.info = {"student": student, "job": job_name(), "node": socket.gethostname(), "started": time.time()}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def write(self, state: str) -> None:
        reports.write_atomically(self.path, json.dumps({**self.info, "state": state, "updated": time.time()}) + "\n")

    def _beat(self) -> None:
        while not self.stop.wait(HEARTBEAT_S):
            self.write(RUNNING)

    def __enter__(self) -> "StateFile":
        self.write(RUNNING)
        self.thread.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.stop.set()
        self.thread.join()
        self.write("finished" if exc_type is None else "stopped")


def allocated_cores() -> int:
    """The cores this task may use: Slurm's allocation, else the CPUs this process may run on."""
    for var in ("SLURM_CPUS_PER_TASK", "SLURM_CPUS_ON_NODE"):
        v = os.environ.get(var, "")
        if v.isdigit() and int(v) > 0:
            return int(v)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 2
