"""A batch: every folder of --submissions one student, graded here one student per GPU at a
time (grade_batch) or by the tasks of a Slurm job array: submit_round writes and submits a round's
jobs (slurm.py: the scripts, sbatch, the queue, the state files), run_slurm_task is what each
job does, grade_pack a grading task's students. Resumable: the
students with a finished report are skipped; the batch's seed is kept in OUT/batch.json.
"""
from __future__ import annotations

import json
import os
import queue
import shlex
import socket
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

from . import reports, slurm
from .errors import UsageError
from .processes import Interrupted
from .session import all_docs, fresh_seed, run_guarded, safe_name


@dataclass
class BatchSetup:
    root: str                # the submissions folder
    out: str                 # the batch's reports
    students: List[str]      # the students' folders in root, sorted
    names: Dict[str, str]    # folder -> student name (the report folder's)
    seed: int


def batch_setup(g, seed_arg: Optional[int], record: bool = True) -> BatchSetup:
    """The batch's students (a folder each), its report folder and its seed (kept in
    OUT/batch.json, so that a resumed batch, and every task of a Slurm batch, uses the same)."""
    root = os.path.abspath(g.args.submissions)
    if not os.path.isdir(root):
        raise UsageError(f"--submissions: no folder {root}")
    if g.args.output:
        out = os.path.abspath(g.args.output)
    else:
        out = os.path.join(g.repo, "build", "grading", "batch-" + safe_name(os.path.basename(root.rstrip("/"))))
    students = sorted(d for d in os.listdir(root) if not d.startswith(".") and os.path.isdir(os.path.join(root, d)))
    if not students:
        raise UsageError(f"--submissions: {root} holds no folder (one folder per student)")
    names = {d: safe_name(d) for d in students}
    if len(set(names.values())) != len(names):
        raise UsageError("--submissions: two folders map to the same student name: rename one")

    batch_file = os.path.join(out, "batch.json")
    recorded = reports.read_json(batch_file) or {}
    seed = seed_arg if seed_arg is not None else recorded.get("seed") or fresh_seed()
    if record:
        if recorded.get("seed") not in (None, seed):
            g.progress("grader", f"note: students graded earlier in {out} used seed {recorded['seed']}")
        if recorded.get("rubric_digest") not in (None, g.rubric.digest):
            g.progress("grader", "note: the rubric changed since earlier students were graded (--regrade "
                                 "grades them again)")
        os.makedirs(out, exist_ok=True)
        reports.write_atomically(batch_file, json.dumps({"submissions": root, "seed": seed,
                                                         "rubric_digest": g.rubric.digest}, indent=1) + "\n")
    return BatchSetup(root, out, students, names, seed)


def ungraded(g, setup: BatchSetup, say: bool = True) -> List[str]:
    """The students (folders) without a finished report, or every one with --regrade."""
    todo = []
    for d in setup.students:
        doc = reports.read_json(os.path.join(setup.out, "students", setup.names[d], "grade.json"))
        if doc and doc.get("complete") and not g.args.regrade:
            if say:
                score, max_score = reports.totals(doc)
                g.progress(setup.names[d], f"already graded ({reports.fmt_points(score)}/"
                                           f"{reports.fmt_points(max_score)}): skipped (--regrade grades again)")
        else:
            todo.append(d)
    return todo

def grade_student(g, setup: BatchSetup, folder: str, base: str, exercises, settings, gpu: Optional[str],
                  sandbox) -> dict:
    """One student of the batch (a local worker's or a Slurm task's), with its state file kept
    fresh meanwhile (--status reads it); says the score when done."""
    name = setup.names.get(folder, safe_name(folder))
    with slurm.StateFile(setup.out, name):
        doc = g.grade_submission(name, os.path.join(setup.root, folder), os.path.join(setup.out, "students", name),
                                 base, exercises, settings, gpu, sandbox)
    score, max_score = reports.totals(doc)
    g.progress(name, f"done: {reports.fmt_points(score)}/{reports.fmt_points(max_score)} in {doc['wall_s']:.0f} s")
    return doc


def grade_batch(g, seed_arg: Optional[int]) -> List[dict]:
    """A folder of submissions graded here, one student per GPU at a time (resumable)."""
    setup = batch_setup(g, seed_arg)
    root, out, names, seed = setup.root, setup.out, setup.names, setup.seed
    g.print_seed(seed)
    todo = ungraded(g, setup)
    workers = max(1, min(len(g.gpus), len(todo)))
    settings = g.settings(seed, workers, out)
    lock = threading.Lock()

    def refresh() -> None:
        with lock:
            reports.write_batch_reports(all_docs(out), out)

    def go():
        refresh()
        if not todo:
            return
        base, exercises = g.prepare_base(out, settings)
        pending: "queue.Queue[str]" = queue.Queue()
        for d in todo:
            pending.put(d)
        errors: List[BaseException] = []

        def worker(gpu: Optional[str]) -> None:
            try:  # this slot's sandbox: its students are graded one after another, cleaned between
                sandbox = g.sandbox_slot([out, root])
            except UsageError as e:
                g.progress("grader", f"{e}: stopping")
                g.stop.stop()
                return
            while not g.stop.event.is_set():
                try:
                    d = pending.get_nowait()
                except queue.Empty:
                    return
                name = names[d]
                try:
                    grade_student(g, setup, d, base, exercises, settings, gpu, sandbox)
                except Interrupted:
                    return
                except Exception as e:  # one student's broken folder must not stop the batch
                    g.progress(name, f"could not be graded: {type(e).__name__}: {e}")
                    errors.append(e)
                finally:
                    refresh()

        threads = [threading.Thread(target=worker, args=(gpu,), daemon=True) for gpu in g.gpus[:workers]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if g.stop.event.is_set():
            raise Interrupted()

    try:
        run_guarded(go, g.stop)
    finally:
        refresh()
        docs = all_docs(out)
        print("\n" + reports.batch_table(docs) + f"\nreports: {out} (index.html, scores.csv, totals.csv, "
              "students/*/)", flush=True)
    return docs


def grade_pack(g, setup: BatchSetup, folders: List[str], array_job: str) -> List[dict]:
    """A Slurm task's students, one after another on the task's GPU, as a local batch's
    worker grades them; each with a state file kept fresh while it is graded. A student
    this array graded already (a task started again) is not graded twice."""
    out = setup.out
    base = os.path.join(out, "base")
    exercises = g.infos(base)
    g.base_description = g.base_source(out)
    settings = g.settings(setup.seed, 1, out)  # the other tasks' reports too: longest first
    gpu = g.gpus[0]
    sandbox = g.sandbox_slot([out, setup.root])
    docs: List[dict] = []

    def go():
        for d in folders:
            name = setup.names.get(d, safe_name(d))
            earlier = reports.read_json(os.path.join(out, "students", name, "grade.json")) or {}
            if earlier.get("complete") and str(earlier.get("environment", {}).get("slurm_job", "")).split("_")[0] \
                    == array_job:
                g.progress(name, "graded by this array already: skipped")
                continue
            docs.append(grade_student(g, setup, d, base, exercises, settings, gpu, sandbox))

    run_guarded(go, g.stop)
    return docs


# ---- a batch on a Slurm cluster: submitting a round (slurm.py's jobs), and their three tasks ------

def grader_args(args, setup: BatchSetup) -> List[str]:
    """The options every job passes to run_all.sh: those of the submitting command that decide
    how students are graded, the batch's folders and its seed."""
    out = ["--submissions", setup.root, "--output", setup.out, "--seed", str(setup.seed)]
    path = lambda p: None if p is None else os.path.abspath(p)  # noqa: E731 - a job starts elsewhere
    for option, value in (("--repo", path(args.repo)), ("--rubric", path(args.rubric)),
                          ("--exercises", args.exercises), ("--timeout", args.timeout),
                          ("--build-timeout", args.build_timeout), ("--arch", args.arch), ("--jobs", args.jobs),
                          ("--untimed-parallel", getattr(args, "untimed_parallel", None)),
                          ("--base", args.base), ("--sandbox-dir", path(getattr(args, "sandbox_dir", None)))):
        if value is not None:
            out += [option, str(value)]
    for flag in ("quiet", "keep_trees", "no_sandbox", "regrade"):
        if getattr(args, flag, False):
            out.append("--" + flag.replace("_", "-"))
    return out


def submit_round(g, setup: BatchSetup, run_all: str) -> int:
    """A new round for the students without a finished report that no task holds now; prints
    what it submitted (or, with --slurm-dry-run, what it would)."""
    args = g.args
    dry = args.slurm_dry_run
    if not dry:
        slurm.slurm_command("sbatch")
    states = slurm.student_states(setup.out, setup.names) if slurm.rounds(setup.out) else {}
    busy = [d for d in setup.students if states.get(setup.names[d]) in (slurm.RUNNING, slurm.WAITING)]
    for d in busy:
        g.progress(setup.names[d], f"{states[setup.names[d]]} in an earlier round: not submitted again")
    todo = [d for d in ungraded(g, setup) if d not in busy]
    if not todo:
        g.progress("grader", "every student has a finished report or a task: nothing to submit "
                             f"(run_all.sh --status {setup.out})")
        return 0
    task_packs = slurm.packs([setup.names[d] for d in todo], args.pack)
    number = len(slurm.rounds(setup.out)) + 1
    round_dir = os.path.join(setup.out, slurm.SLURM_DIR, f"round-{number}")
    user_args = shlex.split(args.slurm_args or "")
    scripts = slurm.job_scripts(run_all, grader_args(args, setup), round_dir, len(task_packs), args.max_parallel,
                          user_args)
    plan = {"round": number, "submissions": setup.root, "seed": setup.seed, "pack": args.pack,
            "tasks": task_packs, "folders": {setup.names[d]: d for d in todo}, "submitted": time.time()}
    if dry:
        print(f"# --slurm-dry-run: round {number} of {setup.out}: {len(todo)} student(s) in {len(task_packs)} "
              f"task(s); nothing submitted")
        for kind in ("prepare", "grade", "collect"):
            text, extra = scripts[kind]
            dep = {"prepare": [], "grade": ["--dependency=afterok:<prepare>", "--kill-on-invalid-dep=yes"],
                   "collect": ["--dependency=afterany:<prepare>:<grade>"]}[kind]
            print(f"\n# sbatch --parsable {' '.join(shlex.quote(o) for o in dep + extra)} {kind}.sbatch\n{text}")
        print("# tasks: " + "; ".join(f"{i}: {', '.join(p)}" for i, p in enumerate(task_packs)))
        return 0
    os.makedirs(os.path.join(round_dir, "logs"), exist_ok=True)
    paths = {}
    for kind, (text, _) in scripts.items():
        paths[kind] = os.path.join(round_dir, f"{kind}.sbatch")
        reports.write_atomically(paths[kind], text)
    # The plan first: a task may start the moment its array is submitted.
    reports.write_atomically(os.path.join(round_dir, "plan.json"), json.dumps(plan, indent=1) + "\n")
    g.prepare_base(setup.out, g.settings(setup.seed, 1), build=False)
    prepare = slurm.sbatch(paths["prepare"], scripts["prepare"][1])
    grade = slurm.sbatch(paths["grade"], ["--dependency=afterok:" + prepare, "--kill-on-invalid-dep=yes",
                                    *scripts["grade"][1]])
    collect = slurm.sbatch(paths["collect"], [f"--dependency=afterany:{prepare}:{grade}", *scripts["collect"][1]])
    plan.update(prepare_job=prepare, array_job=grade, collect_job=collect)
    reports.write_atomically(os.path.join(round_dir, "plan.json"), json.dumps(plan, indent=1) + "\n")
    g.progress("grader", f"round {number}: {len(todo)} student(s) in {len(task_packs)} task(s): jobs {prepare} "
                         f"(prepare), {grade} (array), {collect} (collect); scripts in {round_dir}")
    g.progress("grader", f"follow it with: grading/run_all.sh --status {setup.out}")
    return 0


def run_slurm_task(g, setup: BatchSetup, kind: str) -> List[dict]:
    """What one job does (--slurm-task): prepare builds OUT/base, grade grades the students of
    $SLURM_ARRAY_TASK_ID one after another, collect writes the batch's reports."""
    out = setup.out
    round_dir = os.path.abspath(g.args.slurm_round)
    plan = reports.read_json(os.path.join(round_dir, "plan.json"))
    if not plan:
        raise UsageError(f"--slurm-round: no plan.json in {round_dir}")
    g.progress("grader", f"{kind} task of round {plan['round']} on {socket.gethostname()} "
                         f"(job {slurm.job_name() or '?'})")
    if kind == "prepare":
        # OUT/base as the submitting command made it (the course may have changed since).
        base = os.path.join(out, "base")
        g.build_base(out, base, g.infos(base), g.settings(setup.seed, 1))
        return []
    if kind == "collect":
        docs = all_docs(out)
        reports.write_batch_reports(docs, out)
        print(reports.batch_table(docs) + "\n" + slurm.status_text(out, setup.names), flush=True)
        return docs
    index = os.environ.get("SLURM_ARRAY_TASK_ID", "")
    if not index.isdigit() or int(index) >= len(plan["tasks"]):
        raise UsageError(f"--slurm-task grade: SLURM_ARRAY_TASK_ID is '{index}', the plan has {len(plan['tasks'])} "
                         "task(s)")
    names = plan["tasks"][int(index)]
    return grade_pack(g, setup, [plan["folders"][n] for n in names], plan.get("array_job") or
                        os.environ.get("SLURM_ARRAY_JOB_ID", ""))
