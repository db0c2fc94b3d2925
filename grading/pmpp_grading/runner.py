"""Builds an exercise and runs each rubric part of it in its own process under a timeout.

One student's tree is graded by grade_tree(): every exercise's builds first, each followed by
`make forbidden` on what the build produced (exercises in parallel: they only use the CPU), then
the parts, one process each, on the student's GPU, in the exercise order; the student's record
(grade.json) and the reports are rewritten after every part.

A harness that takes `--images DIR` (its --help says so: 04's renderer, 08's Mandelbrot) is
given a folder of the report per part, OUT/images/<exercise>/<part>/, for the student's run;
the HTML report shows what it writes there (pictures.py). A sanitize part runs the check under
compute-sanitizer, one process per tool (sanitizer.py), and draws nothing (--no-images).

With a sandbox (sandbox.py: the grader runs as root), every process that runs the student's code
(the builds in the student's tree, `make forbidden`, the check and benchmark runs, the sanitizer)
runs as the sandbox's user; the files such a process writes for the grader (its results file,
its pictures, the sanitizer's report) go to a fresh folder of the sandbox, and the grader copies
them into the report folder once every process of that user is gone (Outputs). The reference
answer then runs from the clean tree (reference_tree: root's, out of the student's reach), as
root, never from the student's tree, where the student's code could replace it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Dict, List, Optional, Set, Tuple

from . import pictures, reports, sanitizer, scoring
from .course import Exercise
from .sandbox import Sandbox
from .rubric import CHECK, PERFORMANCE, SANITIZE, Part, Rubric
from .scoring import PartResult, RunOutcome


class Interrupted(Exception):
    """The grading run was asked to stop (Ctrl-C, SIGTERM): what is not graded stays 'not run'."""


class StopSignal:
    """Shared by every worker: the stop request and the process groups running now."""

    def __init__(self):
        self.event = threading.Event()
        self._procs: Set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def add(self, p: subprocess.Popen) -> None:
        with self._lock:
            self._procs.add(p)
        if self.event.is_set():
            _kill_group(p)

    def remove(self, p: subprocess.Popen) -> None:
        with self._lock:
            self._procs.discard(p)

    def stop(self) -> None:
        self.event.set()
        with self._lock:
            procs = list(self._procs)
        for p in procs:
            _kill_group(p)

    def check(self) -> None:
        if self.event.is_set():
            raise Interrupted()


def _kill_group(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class ProcessResult:
    returncode: Optional[int]
    timed_out: bool
    wall_s: float


def run_process(argv: List[str], cwd: str, env: Dict[str, str], timeout: float, log_path: str,
                stop: StopSignal, sandbox: Optional[Sandbox] = None) -> ProcessResult:
    """Runs argv in its own process group, output to log_path. On timeout the whole group is
    killed (a hung kernel's process and anything it started); so is anything left behind after
    the program ends. Raises Interrupted when the grading run is being stopped.
    With a sandbox it runs as the sandbox's user, in its environment; the log is opened here, by
    the grader, and the child only inherits the descriptor. What left the process group (setsid)
    is the caller's to kill (Sandbox.kill_all), once no other process of the user must run."""
    stop.check()
    extra: Dict[str, object] = {}
    if sandbox is not None:
        env = sandbox.env(env)
        extra = sandbox.popen_arguments()
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    t0 = time.monotonic()
    with open(log_path, "wb") as log:
        log.write(("$ " + " ".join(argv) + "\n").encode())
        log.flush()
        try:
            p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True, **extra)
        except OSError as e:
            log.write(f"cannot start: {e}\n".encode())
            return ProcessResult(None, False, 0.0)
        stop.add(p)
        timed_out = False
        try:
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(p)
                rc = p.wait()
        finally:
            _kill_group(p)
            stop.remove(p)
    stop.check()
    return ProcessResult(None if timed_out else rc, timed_out, time.monotonic() - t0)


def read_results(path: str) -> (Optional[dict], str):
    if not os.path.exists(path):
        return None, "no results file"
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), ""
    except (OSError, ValueError) as e:
        return None, f"unreadable results file: {e}"


class Outputs:
    """The files one process writes for the grader: its results file (--json), and maybe a
    sanitizer's report (--log-file) and a pictures folder (--images). `json`, `report`, `images`
    are where the grader keeps them (the report folder); the process is told to write them at
    `json_arg`, `report_arg`, `images_arg`: the same paths, or, with a sandbox, a fresh folder
    of the sandbox's, copied back by collect() once every process of its user is gone."""

    def __init__(self, sandbox: Optional[Sandbox], json: str, report: Optional[str] = None,
                 images: Optional[str] = None):
        self.sandbox, self.json, self.report, self.images = sandbox, json, report, images
        for path in (json, report):
            if path and os.path.lexists(path):
                os.remove(path)  # never read an earlier run's file
        if sandbox is None:
            self.json_arg, self.report_arg, self.images_arg = json, report, images
            return
        run = sandbox.new_run_folder(images=images is not None)
        self.json_arg = os.path.join(run, "results.json")
        self.report_arg = os.path.join(run, "sanitizer.log") if report else None
        self.images_arg = os.path.join(run, "images") if images is not None else None

    def collect(self, log_path: str) -> None:
        """Copies what the process left into the report folder (regular files only, never through
        a link, at most sandbox.MAX_COPIED_BYTES each); what is left out is noted in its log."""
        if self.sandbox is None:
            return
        left_out = []
        for staged, final in ((self.json_arg, self.json), (self.report_arg, self.report)):
            if staged:
                why = self.sandbox.collect_file(staged, final)
                if why not in (None, "missing"):
                    left_out.append(f"{os.path.basename(final)}: {why}")
        if self.images_arg:
            left_out += self.sandbox.collect_folder(self.images_arg, self.images)
        if left_out:
            with open(log_path, "a", encoding="utf-8") as log:
                for line in left_out:
                    log.write(f"[grader] not taken from the sandbox: {line}\n")


def run_harness(argv: List[str], json_path: str, log_path: str, cwd: str, env: Dict[str, str], timeout: float,
                stop: StopSignal, sandbox: Optional[Sandbox] = None, outputs: Optional[Outputs] = None) -> RunOutcome:
    """One harness run. `outputs` (made before argv, which names its paths) says where the process
    writes; without it, argv writes json_path itself. A sandboxed run ends with every process
    of the sandbox's user killed (a daemon it left must not run during the next part, nor the
    reference's timing), then its files copied back."""
    if outputs is None:
        outputs = Outputs(None, json_path)
    try:
        pr = run_process(argv, cwd, env, timeout, log_path, stop, sandbox)
    finally:
        if sandbox is not None:
            sandbox.kill_all()
    outputs.collect(log_path)
    results, problem = (None, "") if pr.timed_out else read_results(json_path)
    return RunOutcome(pr.returncode, pr.timed_out, timeout, results, problem, pr.wall_s)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "part"


ERROR_LINE = re.compile(r"(?i:\berror\b|undefined reference|multiple definition)|FORBIDDEN")
MAKE_ERROR = re.compile(r"^g?make(\[\d+\])?: \*\*\*")


def _log_lines(path: str) -> List[str]:
    """A log's lines without the command line run_process writes first ("$ make ...")."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return []
    return text[1:] if text and text[0].startswith("$ ") else text


def log_excerpt(path: str, lines: int = 25) -> str:
    """The lines of a build log worth showing: the errors first (the compiler's and the link
    rule's, then make's own "*** ... Error N" lines, which say only where), else its end."""
    text = _log_lines(path)
    errors = [l for l in text if ERROR_LINE.search(l)]
    if not errors:
        return "\n".join(text[-lines:])
    telling = [l for l in errors if not MAKE_ERROR.match(l)]
    return "\n".join((telling + [l for l in errors if MAKE_ERROR.match(l)])[:lines])


def log_tail(path: str, lines: int = 25) -> str:
    """The end of a short log (a check's own words need not say "error")."""
    return "\n".join(_log_lines(path)[-lines:])


FORBIDDEN_LINE = "FORBIDDEN: "  # how `make forbidden` names each finding, one per line


def forbidden_findings(path: str) -> List[str]:
    """The findings of `make forbidden` in its log: the lines that start with FORBIDDEN_LINE."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [l.rstrip() for l in f if l.startswith(FORBIDDEN_LINE)]
    except OSError:
        return []


# ---- Context of one grading run ---------------------------------------------------------------

@dataclass
class Settings:
    rubric: Rubric
    seed: int
    stop: StopSignal
    progress: Callable[[str, str], None]
    timeout: Optional[float] = None        # overrides every part's timeout
    build_timeout: Optional[float] = None
    make: str = "make"
    arch: Optional[str] = None
    make_jobs: int = 2                     # make -j of one build
    build_slots: int = 1                   # exercises built at once for one student

    def part_timeout(self, part: Part) -> float:
        return self.timeout if self.timeout is not None else part.timeout

    def build_time_limit(self) -> float:
        return self.build_timeout if self.build_timeout is not None else self.rubric.defaults.build_timeout


def run_env(gpu: Optional[str]) -> Dict[str, str]:
    # A calling make's flags (make grade, make test) must not reach the builds: its jobserver
    # and its -j are not the grader's.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"  # the numbering nvidia-smi uses
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = str(gpu)
    return env


def gpu_environment(gpu: Optional[str], nvcc: str = "nvcc") -> Dict[str, object]:
    env: Dict[str, object] = {"gpu": None, "gpu_index": gpu, "driver": None, "cuda_runtime": None, "nvcc": None,
                              "compute_capability": None}
    # PMPP_DEVICE_PROFILE=t4 (common/device_limits.h): every run chooses shapes and sizes as on
    # that GPU; the timings stay this GPU's. The report says so.
    if os.environ.get("PMPP_DEVICE_PROFILE"):
        env["device_profile"] = os.environ["PMPP_DEVICE_PROFILE"]
    query = ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]
    if gpu is not None:
        query += ["-i", str(gpu)]
    try:
        p = subprocess.run(query, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
        if p.returncode == 0 and p.stdout.strip():
            name, _, driver = p.stdout.strip().splitlines()[0].rpartition(",")
            env["gpu"], env["driver"] = name.strip(), driver.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        p = subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
        m = re.search(r"release ([0-9.]+)", p.stdout)
        env["nvcc"] = m.group(1) if m else None
    except (OSError, subprocess.TimeoutExpired):
        pass
    return env


def note_device(doc: dict, results: Optional[dict]) -> None:
    """The harness names the GPU it ran on: the reports quote that."""
    device = (results or {}).get("device")
    if not isinstance(device, dict) or not device.get("name"):
        return
    env = doc.setdefault("environment", {})
    env["gpu"] = device.get("name")
    env["driver"] = device.get("driver") or env.get("driver")
    env["cuda_runtime"] = device.get("runtime") or env.get("cuda_runtime")
    env["compute_capability"] = device.get("compute_capability") or env.get("compute_capability")


# ---- The student's record ---------------------------------------------------------------------

def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def new_doc(student: str, source: str, tree: str, settings: Settings, exercises: List[Exercise],
            environment: Dict[str, object]) -> dict:
    doc = {"schema": reports.GRADE_SCHEMA, "student": student, "source": source, "tree": tree,
           "seed": settings.seed, "date": now_iso(), "finished": None, "complete": False,
           "rubric": {"path": settings.rubric.path, "digest": settings.rubric.digest},
           "environment": environment, "wall_s": 0.0, "exercises": []}
    for ex in exercises:
        doc["exercises"].append({
            "exercise": ex.name, "build": {"status": scoring.NOT_RUN, "message": "", "wall_s": 0.0}, "files": [],
            "parts": [scoring.blocked(p, scoring.NOT_RUN, "").to_json() for p in settings.rubric.parts_for(ex.name)]})
    return doc


def _set_part(doc: dict, result: PartResult) -> None:
    for e in doc["exercises"]:
        if e["exercise"] == result.exercise:
            for i, p in enumerate(e["parts"]):
                if p["part"] == result.part:
                    e["parts"][i] = result.to_json()
                    return
    raise KeyError(result.part)


# ---- Building ---------------------------------------------------------------------------------

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


def run_check(tree: str, ex: Exercise, part: Part, log_dir: str, settings: Settings,
              env: Dict[str, str], pictures_dir: Optional[str] = None,
              sandbox: Optional[Sandbox] = None) -> (PartResult, RunOutcome):
    base = os.path.join(log_dir, slug(part.name))
    outputs, images = _student_outputs(sandbox, base + ".json", part, pictures_dir)
    argv = [os.path.join(tree, ex.name, "build", ex.program), "--impl", "student", "--check",
            "--seed", str(settings.seed), "--json", outputs.json_arg, *part.args, *images]
    outcome = run_harness(argv, base + ".json", base + ".log", os.path.join(tree, ex.name), env,
                          settings.part_timeout(part), settings.stop, sandbox, outputs)
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
                "--seed", str(settings.seed), "--json", ref_outputs.json_arg, *part.args, *quiet]
        reference = run_harness(argv, base + ".reference.json", base + ".reference.log",
                                os.path.join(reference_tree or tree, ex.name), env, timeout, settings.stop, runs_as,
                                ref_outputs)
    impls = "student" if part.reference == "solution" else "student," + part.reference
    outputs, images = _student_outputs(sandbox, base + ".json", part, pictures_dir)
    argv = [os.path.join(cwd, "build", ex.program), "--impl", impls, "--bench",
            "--seed", str(settings.seed), "--json", outputs.json_arg, *part.args, *images]
    student = run_harness(argv, base + ".json", base + ".log", cwd, env, timeout, settings.stop, sandbox, outputs)
    return scoring.judge_performance(part, student, reference, settings.seed), [o for o in (reference, student) if o]


def run_sanitize(tree: str, ex: Exercise, part: Part, log_dir: str, settings: Settings, env: Dict[str, str],
                 takes_images: bool = False, sandbox: Optional[Sandbox] = None) -> (PartResult, List[RunOutcome]):
    """The student's check cases up to the part's max_size under each of its tools, one process
    each, in order; the first tool that does not pass decides the part and the rest do not run.
    Without a sanitizer the part is "not run", scoring 0, saying so: never a silent pass."""
    found, looked = sanitizer.find(ex.nvcc, env)
    if found is None:
        return scoring.blocked(part, scoring.NOT_RUN, f"compute-sanitizer not found (looked for {', '.join(looked)}; "
                                                      f"set {sanitizer.VARIABLE} to its path)"), []
    cwd = os.path.join(tree, ex.name)
    quiet = ["--no-images"] if takes_images and "--no-images" not in part.args else []
    verdicts, outcomes, wall = [], [], 0.0
    for tool in part.tools:
        base = _tool_base(log_dir, part, tool)
        report = base + ".sanitizer.log"
        outputs = Outputs(sandbox, base + ".json", report=report)  # never an earlier run's report
        program = [os.path.join(cwd, "build", ex.program), "--impl", "student", "--check", "--max-size",
                   str(part.max_size), "--seed", str(settings.seed), "--json", outputs.json_arg, *part.args, *quiet]
        outcome = run_harness(sanitizer.command(found, tool, outputs.report_arg, program), base + ".json",
                              base + ".log", cwd, env, settings.part_timeout(part), settings.stop, sandbox, outputs)
        outcomes.append(outcome)
        wall += outcome.wall_s
        verdict = sanitizer.judge_tool(tool, outcome, sanitizer.read_report(report, tree, ex.name, ex.student_paths()),
                                       settings.seed, os.path.basename(report), log_tail(base + ".log", 8))
        verdicts.append(verdict)
        if verdict.status != scoring.PASSED:
            break
    result = sanitizer.judge_sanitize(part, verdicts, wall)
    result.details["sanitizer"] = found
    return result, outcomes


def _tool_base(log_dir: str, part: Part, tool: str) -> str:
    """The path stem of one tool's logs and results of a sanitize part."""
    return os.path.join(log_dir, slug(part.name)) + "." + tool


def record_files(result: PartResult, out_dir: str, log_dir: str, part: Part, folder: Optional[str]) -> None:
    """The part's logs and pictures, relative to the report folder (the HTML report links them);
    the pictures made viewable first (PPM to PNG)."""
    base = os.path.join(log_dir, slug(part.name))
    logs = [base + ".reference.log", base + ".log"]
    for tool in part.tools if part.kind == SANITIZE else ():
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
                    _set_part(doc, scoring.blocked(p, r.status, r.message))
        word = "built" if r.status == scoring.PASSED else r.status
        settings.progress(student, f"{ex.name}: {word} ({r.wall_s:.0f} s)")
        save()

    save()
    builds = build_all(tree, exercises, log_root, settings, env, built, check_forbidden, sandbox, reference_tree,
                       reference_logs)
    for ex in exercises:
        if builds[ex.name].status != scoring.PASSED:
            continue
        log_dir = os.path.join(log_root, ex.name)
        parts = settings.rubric.parts_for(ex.name)
        takes_images = bool(builds[ex.name].details.get("pictures"))
        done: Dict[str, PartResult] = {}
        # The checks first (the other parts may require them), then the timings, then the
        # sanitizer, slowest per case and timed by nothing.
        for part in sorted(parts, key=lambda p: (CHECK, PERFORMANCE, SANITIZE).index(p.kind)):
            folder = os.path.join(out_dir, "images", ex.name, slug(part.name)) if takes_images else None
            if part.kind == CHECK:
                result, outcome = run_check(tree, ex, part, log_dir, settings, env, folder, sandbox)
                outcomes = [outcome]
            else:
                result = scoring.prerequisite(part, done)
                outcomes = []
                if result is None and part.kind == PERFORMANCE:
                    result, outcomes = run_performance(tree, ex, part, log_dir, settings, env, folder, sandbox,
                                                       reference_tree)
                elif result is None:
                    result, outcomes = run_sanitize(tree, ex, part, log_dir, settings, env, takes_images, sandbox)
                    folder = None
            for o in outcomes:
                note_device(doc, o.results)
            if outcomes:
                record_files(result, out_dir, log_dir, part, folder)
            done[part.name] = result
            _set_part(doc, result)
            shown = f"{result.status} {reports.fmt_points(result.points)}/{reports.fmt_points(result.max_points)}"
            if result.ratio is not None:
                shown += f" ({result.ratio:.2f}x the reference)"
            settings.progress(student, f"{ex.name}/{part.name}: {shown} ({result.wall_s:.1f} s)")
            save()
    doc["complete"] = True
    doc["finished"] = now_iso()
    save()
    return doc
