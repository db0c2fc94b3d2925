"""Runs the rubric's parts of a student's tree, each in its own process under a timeout.

One student's tree is graded by grade_tree(): every exercise's builds first, each followed by
`make forbidden` on what the build produced (builds.py; exercises in parallel: they only use the
CPU), then the parts, one process each, on the student's GPU: first the untimed parts, then the
performance parts whose checks passed, one at a time in the exercise and rubric order, each
alone on the GPU. The untimed parts with one slot (Settings.untimed_slots): each exercise's
check parts, then its sanitize parts (those whose checks passed), one tool after the other.
With more: every check part and every tool of a sanitize part is one task of a pool, that many
processes at a time (untimed.py): a sanitize part's tools start without waiting for its checks
or each other, and its result, decided once they all ended, is the one-slot result. The
student's record (grade.json) and the reports are rewritten after every part; its parts stay
in rubric order (set_part puts a result in its part's place), whatever order they end in.

A harness that takes `--images DIR` (its --help says so: 04's renderer, 08's Mandelbrot) is
given a folder of the report per part, OUT/images/<exercise>/<part>/, for the student's run;
the HTML report shows what it writes there (pictures.py). A sanitize part runs the check under
compute-sanitizer, one process per tool (sanitizer.py), and draws nothing (--no-images).

With a sandbox (sandbox.py: the grader runs as root), every process that runs the student's code
(the builds in the student's tree, `make forbidden`, the check and benchmark runs, the sanitizer)
runs as the sandbox's user; the files such a process writes for the grader (its results file,
its pictures, the sanitizer's report) go to a fresh folder of the sandbox, and the grader copies
them into the report folder once the process is gone (Outputs); every process of that user is
killed after each part run alone, and after the untimed parts when several ran at once. The
reference answer then runs from the clean tree (reference_tree: root's, out of the student's
reach), as root, never from the student's tree, where the student's code could replace it.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
import time
from typing import Dict, List, Optional

from . import pictures, reports, sanitizer, scoring
from .builds import BUILD_LOGS, BuildResult, build_all, reference_binary
from .course import Exercise
from .outputs import Outputs, read_results
from .processes import StopSignal, log_tail, run_process
from .record import note_device, now_iso, set_part
from .rubric import CHECK, PERFORMANCE, SANITIZE, Part, run_tool
from .sandbox import Sandbox
from .scoring import PartResult, RunOutcome
from .settings import Settings, run_env
from .untimed import SanitizeTasks, Task, ToolRun, in_slots, pool_order


def run_harness(argv: List[str], json_path: str, log_path: str, cwd: str, env: Dict[str, str], timeout: float,
                stop: StopSignal, sandbox: Optional[Sandbox] = None, outputs: Optional[Outputs] = None,
                alone: bool = True) -> RunOutcome:
    """One harness run. `outputs` (made before argv, which names its paths) says where the process
    writes; without it, argv writes json_path itself. A sandboxed run `alone` ends with every
    process of the sandbox's user killed (a daemon it left must not run during the next part,
    nor the reference's timing), then its files copied back; one beside others (untimed parts
    several at a time) with its own process group killed only, as any run: the user's other
    processes are its neighbours', and grade_tree kills them all once the untimed parts end."""
    if outputs is None:
        outputs = Outputs(None, json_path)
    try:
        pr = run_process(argv, cwd, env, timeout, log_path, stop, sandbox)
    finally:
        if sandbox is not None and alone:
            sandbox.kill_all()
    outputs.collect(log_path)
    results, problem = (None, "") if pr.timed_out else read_results(json_path)
    return RunOutcome(pr.returncode, pr.timed_out, timeout, results, problem, pr.wall_s)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "part"


# ---- Running the parts ------------------------------------------------------------------------

def picture_args(part: Part, folder: Optional[str]) -> List[str]:
    """--images FOLDER for a harness that takes it, unless the rubric's args say --no-images; the
    folder is emptied first (an earlier grading's pictures are not this one's)."""
    if folder is None or "--no-images" in part.args:
        return []
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return ["--images", folder]


def _student_outputs(sandbox: Optional[Sandbox], json_path: str, part: Part,
                     pictures_dir: Optional[str]) -> (Outputs, List[str]):
    """Where the student's run writes its results and pictures, and its --images option."""
    images = pictures_dir if picture_args(part, pictures_dir) else None
    outputs = Outputs(sandbox, json_path, images=images)
    return outputs, (["--images", outputs.images_arg] if images is not None else [])


def section_args(part: Part) -> List[str]:
    """--section NAME for a performance part that reads one benchmark table: the harness then
    times and reports that table's rows only. Section "*" reads every row: no option."""
    return [] if part.section == "*" else ["--section", part.section]


def run_check(tree: str, ex: Exercise, part: Part, log_dir: str, settings: Settings,
              env: Dict[str, str], pictures_dir: Optional[str] = None,
              sandbox: Optional[Sandbox] = None, alone: bool = True) -> (PartResult, RunOutcome):
    base = os.path.join(log_dir, slug(part.name))
    outputs, images = _student_outputs(sandbox, base + ".json", part, pictures_dir)
    argv = [os.path.join(tree, ex.name, "build", ex.program), "--impl", "student", "--check",
            "--seed", str(settings.seed), "--json", outputs.json_arg, *part.args, *images]
    outcome = run_harness(argv, base + ".json", base + ".log", os.path.join(tree, ex.name), env,
                          settings.part_timeout(part), settings.stop, sandbox, outputs, alone)
    return scoring.judge_check(part, outcome, settings.seed), outcome


def run_performance(tree: str, ex: Exercise, part: Part, log_dir: str, settings: Settings,
                    env: Dict[str, str], pictures_dir: Optional[str] = None, sandbox: Optional[Sandbox] = None,
                    reference_tree: Optional[str] = None) -> (PartResult, List[RunOutcome]):
    """The student's time against the reference's. A part short of full points is measured again,
    up to the rubric's performance_tries in all, and the best try counts: a hiccup of the machine
    (a clock still rising, another process) must not cost points, and a slow solution is slow
    every time. A try that fails (a wrong timed output, a crash, an implausible timing) decides at
    once, even after a try that counted: a run whose timing cannot be trusted says the student's
    code is not what was timed, and an earlier, slower measurement does not outweigh that."""
    base = os.path.join(log_dir, slug(part.name))
    tries = max(1, settings.rubric.defaults.performance_tries)
    best: Optional[PartResult] = None
    outcomes: List[RunOutcome] = []
    ratios: List[float] = []
    wall = 0.0
    for attempt in range(1, tries + 1):
        result, outs = _measure_performance(tree, ex, part, _try_base(base, attempt), settings, env,
                                            pictures_dir, sandbox, reference_tree)
        outcomes += outs
        wall += result.wall_s
        if result.status != scoring.PASSED:
            best = result
            break
        if result.ratio is not None:
            ratios.append(result.ratio)
        if best is None or result.points > best.points:
            best = result
        if best.points >= best.max_points - 1e-9:
            break
    best.wall_s = wall
    if best.status == scoring.PASSED and len(ratios) > 1:
        best.message = (best.message + "; " if best.message else "") + (
            f"best of {len(ratios)} measurements (ratios {', '.join(f'{r:.2f}x' for r in ratios)})")
    return best, outcomes


def _try_base(base: str, attempt: int) -> str:
    """The path stem of a performance part's logs and results for measurement `attempt` (from 1)."""
    return base if attempt == 1 else f"{base}.try{attempt}"


def _measure_performance(tree: str, ex: Exercise, part: Part, base: str, settings: Settings,
                         env: Dict[str, str], pictures_dir: Optional[str], sandbox: Optional[Sandbox] = None,
                         reference_tree: Optional[str] = None) -> (PartResult, List[RunOutcome]):
    """One measurement: the reference answer's run (reference = solution), then the student's.
    With a reference_tree the reference is that tree's binary, run as the grader, after every
    process of the sandbox's user is killed (none may load the GPU while it is timed)."""
    cwd = os.path.join(tree, ex.name)
    timeout = settings.part_timeout(part)
    reference = None
    if part.reference == "solution":
        # Only the student's run draws (the report shows its pictures): a harness that takes
        # --images would otherwise draw the reference's into its default folder, for nothing.
        quiet = ["--no-images"] if pictures_dir is not None and "--no-images" not in part.args else []
        if sandbox is not None:
            sandbox.kill_all()
        runs_as = None if reference_tree else sandbox
        ref_outputs = Outputs(runs_as, base + ".reference.json")
        argv = [reference_binary(reference_tree or tree, ex), "--impl", "student", "--bench",
                "--seed", str(settings.seed), "--json", ref_outputs.json_arg, *section_args(part), *part.args, *quiet]
        reference = run_harness(argv, base + ".reference.json", base + ".reference.log",
                                os.path.join(reference_tree or tree, ex.name), env, timeout, settings.stop, runs_as,
                                ref_outputs)
    impls = "student" if part.reference == "solution" else "student," + part.reference
    outputs, images = _student_outputs(sandbox, base + ".json", part, pictures_dir)
    argv = [os.path.join(cwd, "build", ex.program), "--impl", impls, "--bench",
            "--seed", str(settings.seed), "--json", outputs.json_arg, *section_args(part), *part.args, *images]
    student = run_harness(argv, base + ".json", base + ".log", cwd, env, timeout, settings.stop, sandbox, outputs)
    return scoring.judge_performance(part, student, reference, settings.seed), [o for o in (reference, student) if o]


def run_sanitize(tree: str, ex: Exercise, part: Part, log_dir: str, settings: Settings, env: Dict[str, str],
                 takes_images: bool = False, sandbox: Optional[Sandbox] = None,
                 alone: bool = True) -> (PartResult, List[RunOutcome]):
    """The student's check cases up to the part's max_size under each of its tools, one process
    each, in order; the first tool that does not pass decides the part and the rest do not run.
    Without a sanitizer the part is "not run", scoring 0, saying so: never a silent pass.
    (grade_tree with several slots runs the tools as tasks of their own: untimed.SanitizeTasks.)"""
    found, looked = sanitizer.find(ex.nvcc, env)
    if found is None:
        return sanitizer.not_found(part, looked), []
    verdicts, outcomes, walls = [], [], {}
    for run in part.runs:
        verdict, outcome = run_sanitizer_tool(tree, ex, part, run, log_dir, settings, env, found, takes_images,
                                              sandbox, alone)
        outcomes.append(outcome)
        walls[run] = outcome.wall_s
        verdicts.append(verdict)
        if verdict.status != scoring.PASSED:
            break
    return sanitizer.judge_sanitize(part, verdicts, sum(walls.values()), found, walls), outcomes


def run_sanitizer_tool(tree: str, ex: Exercise, part: Part, tool: str, log_dir: str, settings: Settings,
                       env: Dict[str, str], found: str, takes_images: bool = False, sandbox: Optional[Sandbox] = None,
                       alone: bool = True, stop=None) -> (sanitizer.ToolVerdict, RunOutcome):
    """One tool's process of a sanitize part (`tool`: one of part.runs, a tool or one of its
    shards, "racecheck 2/3"), judged. `stop`: the run's own CancelScope (default the grading's
    StopSignal)."""
    cwd = os.path.join(tree, ex.name)
    quiet = ["--no-images"] if takes_images and "--no-images" not in part.args else []
    base = _tool_base(log_dir, part, tool)
    report = base + ".sanitizer.log"
    outputs = Outputs(sandbox, base + ".json", report=report)  # never an earlier run's report
    name, shard = run_tool(tool)
    program = [os.path.join(cwd, "build", ex.program), "--impl", "student", "--check", "--max-size",
               str(part.max_size), *shard, "--seed", str(settings.seed), "--json", outputs.json_arg, *part.args,
               *quiet]
    outcome = run_harness(sanitizer.command(found, name, outputs.report_arg, program), base + ".json",
                          base + ".log", cwd, env, settings.part_timeout(part), stop or settings.stop, sandbox,
                          outputs, alone)
    verdict = sanitizer.judge_tool(tool, outcome, sanitizer.read_report(report, tree, ex.name, ex.student_paths()),
                                   settings.seed, os.path.basename(report), log_tail(base + ".log", 8))
    return verdict, outcome


def _tool_base(log_dir: str, part: Part, tool: str) -> str:
    """The path stem of one tool's (or one shard's) logs and results of a sanitize part:
    sanitize.racecheck, sanitize.racecheck_2_3."""
    return os.path.join(log_dir, slug(part.name)) + "." + slug(tool)


def record_files(result: PartResult, out_dir: str, log_dir: str, part: Part, folder: Optional[str]) -> None:
    """The part's logs and pictures, relative to the report folder (the HTML report links them);
    the pictures made viewable first (PPM to PNG)."""
    base = os.path.join(log_dir, slug(part.name))
    logs = [base + ".reference.log", base + ".log"]
    for tool in part.runs if part.kind == SANITIZE else ():
        # The process's output, then the sanitizer's report: the report's excerpt is shown.
        logs += [_tool_base(log_dir, part, tool) + ".log", _tool_base(log_dir, part, tool) + ".sanitizer.log"]
    for attempt in range(2, 100):  # performance parts measured again (run_performance)
        more = [_try_base(base, attempt) + ".reference.log", _try_base(base, attempt) + ".log"]
        if not any(os.path.isfile(l) for l in more):
            break
        logs += more
    result.details["logs"] = [os.path.relpath(l, out_dir) for l in logs if os.path.isfile(l)]
    if folder is not None and os.path.isdir(folder):
        pictures.tidy(folder)
        result.details["images"] = [os.path.relpath(folder, out_dir)]


def grade_tree(tree: str, exercises: List[Exercise], doc: dict, out_dir: str, settings: Settings,
               gpu: Optional[str], check_forbidden: bool = True, started: Optional[float] = None,
               sandbox: Optional[Sandbox] = None, reference_tree: Optional[str] = None,
               reference_logs: Optional[str] = None) -> dict:
    """Builds and grades every exercise of `tree` into `doc`, rewriting the reports in `out_dir`
    as it goes. Raises Interrupted (doc and reports are left valid) when the run is stopped.
    `started` (time.monotonic()) counts the preparation of the tree into the student's time.
    With a sandbox (whose user owns `tree`), every process of the student's code runs as its
    user, and the reference answer is reference_tree's (the clean tree, built; its build logs
    in reference_logs), which a sandbox requires."""
    if sandbox is not None and reference_tree is None:
        raise ValueError("a sandboxed grading needs the clean tree's reference answers (reference_tree)")
    t0 = time.monotonic() if started is None else started
    doc.setdefault("environment", {})["untimed_slots"] = max(1, settings.untimed_slots)  # how the parts ran
    env = run_env(gpu)
    log_root = os.path.join(out_dir, "logs")
    lock = threading.Lock()
    student = doc["student"]

    def save() -> None:
        with lock:
            doc["wall_s"] = round(time.monotonic() - t0, 1)
            reports.write_student_reports(doc, out_dir)

    def entry(name: str) -> dict:
        return next(e for e in doc["exercises"] if e["exercise"] == name)

    def built(ex: Exercise, r: BuildResult) -> None:
        logs = [os.path.relpath(os.path.join(log_root, ex.name, name), out_dir) for name in BUILD_LOGS
                if os.path.isfile(os.path.join(log_root, ex.name, name))]
        with lock:
            entry(ex.name)["build"] = {"status": r.status, "message": scoring.clip(r.message), "wall_s": round(r.wall_s, 1),
                                       "logs": logs}
            if r.status != scoring.PASSED:
                for p in settings.rubric.parts_for(ex.name):
                    set_part(doc, scoring.blocked(p, r.status, r.message))
        word = "built" if r.status == scoring.PASSED else r.status
        settings.progress(student, f"{ex.name}: {word} ({r.wall_s:.0f} s)")
        save()

    save()
    builds = build_all(tree, exercises, log_root, settings, env, built, check_forbidden, sandbox, reference_tree,
                       reference_logs)
    graded = [ex for ex in exercises if builds[ex.name].status == scoring.PASSED]
    done: Dict[str, Dict[str, PartResult]] = {ex.name: {} for ex in graded}
    slots = max(1, settings.untimed_slots)
    alone = slots == 1  # one part at a time: the sandbox's user is killed after each

    def pictures_folder(ex: Exercise, part: Part) -> Optional[str]:
        takes_images = bool(builds[ex.name].details.get("pictures"))
        return os.path.join(out_dir, "images", ex.name, slug(part.name)) if takes_images else None

    def finished(ex: Exercise, part: Part, result: PartResult, outcomes: List[RunOutcome],
                 folder: Optional[str]) -> None:
        if outcomes:
            record_files(result, out_dir, os.path.join(log_root, ex.name), part, folder)
        with lock:
            for o in outcomes:
                note_device(doc, o.results)
            done[ex.name][part.name] = result
            set_part(doc, result)
        shown = f"{result.status} {reports.fmt_points(result.points)}/{reports.fmt_points(result.max_points)}"
        if result.ratio is not None:
            shown += f" ({result.ratio:.2f}x the reference)"
        settings.progress(student, f"{ex.name}/{part.name}: {shown} ({result.wall_s:.1f} s)")
        save()

    def untimed(ex: Exercise) -> None:
        """One slot: the exercise's check parts, then its sanitize parts (those whose checks
        passed), one process at a time."""
        log_dir = os.path.join(log_root, ex.name)
        parts = settings.rubric.parts_for(ex.name)
        for part in (p for p in parts if p.kind == CHECK):
            folder = pictures_folder(ex, part)
            result, outcome = run_check(tree, ex, part, log_dir, settings, env, folder, sandbox, alone)
            finished(ex, part, result, [outcome], folder)
        for part in (p for p in parts if p.kind == SANITIZE):
            result, outcomes = scoring.prerequisite(part, done[ex.name]), []
            if result is None:
                result, outcomes = run_sanitize(tree, ex, part, log_dir, settings, env,
                                                pictures_folder(ex, part) is not None, sandbox, alone)
            finished(ex, part, result, outcomes, None)

    # Several slots: every check part and every tool of a sanitize part is one task of one pool,
    # `slots` processes at a time, in pool_order (longest first once earlier submissions' times
    # are known: settings.untimed_times, which each passed task updates); a sanitize part's tools
    # do not wait for its checks, and whichever of its tools and required checks ends last
    # decides it (SanitizeTasks).
    sanitizing: Dict[str, List[SanitizeTasks]] = {}

    def decide_if_ready(s: SanitizeTasks) -> None:
        with lock:
            if not s.ready(done[s.ex.name]):
                return
            checks = dict(done[s.ex.name])
        result, outcomes, dropped = s.result(checks)
        for tool in dropped:  # runs that do not count: no file of theirs is the part's
            base = _tool_base(os.path.join(log_root, s.ex.name), s.part, tool)
            for path in (base + ".log", base + ".json", base + ".sanitizer.log"):
                if os.path.lexists(path):
                    os.remove(path)
        finished(s.ex, s.part, result, outcomes, None)

    def task(t: Task) -> None:
        ex, part = t.ex, t.part
        log_dir = os.path.join(log_root, ex.name)
        if t.sanitize is None:
            folder = pictures_folder(ex, part)
            result, outcome = run_check(tree, ex, part, log_dir, settings, env, folder, sandbox, alone)
            if result.status == scoring.PASSED:
                settings.untimed_times.saw(t, result.wall_s)
            finished(ex, part, result, [outcome], folder)
            for s in sanitizing[ex.name]:
                if part.name in s.part.requires:
                    if result.status != scoring.PASSED:
                        s.cancel()  # its tools' runs cannot count
                    decide_if_ready(s)
            return
        s, run = t.sanitize, ToolRun()
        with lock:
            needless = s.needless(t.tool, done[ex.name])
        if not needless:
            run.start = time.monotonic()
            run.verdict, run.outcome = run_sanitizer_tool(tree, ex, part, t.tool, log_dir, settings, env, s.found,
                                                          pictures_folder(ex, part) is not None, sandbox, alone,
                                                          s.scopes[t.tool])
            run.end = time.monotonic()
            if run.verdict.status != scoring.PASSED:
                s.cancel(after=t.tool)  # the tools after it cannot count
            elif not s.scopes[t.tool].cancelled:
                settings.untimed_times.saw(t, run.end - run.start)
        with lock:
            s.runs[t.tool] = run
        decide_if_ready(s)

    if alone:
        in_slots(untimed, graded, slots, f"untimed-{student}")
    else:
        tasks = []
        for ex in graded:
            parts = settings.rubric.parts_for(ex.name)
            sanitizing[ex.name] = [SanitizeTasks(ex, p, env, settings.stop) for p in parts if p.kind == SANITIZE]
            tasks.append(([Task(ex, p) for p in parts if p.kind == CHECK],
                          [Task(ex, s.part, s, tool) for s in sanitizing[ex.name] for tool in s.tools]))
        for s in (s for parts in sanitizing.values() for s in parts):
            decide_if_ready(s)  # no tool to run (no sanitizer) and no check required: decided now
        known = len(settings.untimed_times)
        doc["environment"]["untimed_order"] = (f"longest first by the times of {known} tasks of earlier submissions"
                                               if known else "rubric order, no earlier times")
        in_slots(task, pool_order(tasks, settings.untimed_times), slots, f"untimed-{student}")
    if sandbox is not None:
        sandbox.kill_all()  # what the untimed parts left (a setsid daemon) must not run beside a timing
    # Then the timings, one at a time: nothing else of this student runs on the GPU meanwhile.
    for ex in graded:
        for part in (p for p in settings.rubric.parts_for(ex.name) if p.kind == PERFORMANCE):
            folder = pictures_folder(ex, part)
            result, outcomes = scoring.prerequisite(part, done[ex.name]), []
            if result is None:
                result, outcomes = run_performance(tree, ex, part, os.path.join(log_root, ex.name), settings, env,
                                                   folder, sandbox, reference_tree)
            finished(ex, part, result, outcomes, folder)
    doc["complete"] = True
    doc["finished"] = now_iso()
    save()
    return doc
