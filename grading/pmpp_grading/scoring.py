"""The scoring logic, all of it: how a run is classified, and what a part scores.

Everything here is a pure function of a part of the rubric, what the process did (exit status,
signal, timeout) and the results file the harness wrote (schema pmpp.results.v1,
docs/CONTRACT.md). Nothing reads the program's printed text: a student's code shares the
process with the harness and can print anything.

Statuses (the reports show these words):
  passed             the run finished and the harness found the output right
  wrong result       the harness's check, or its re-check of a timed run, found a wrong output
  build failed       the student's files do not compile or link (the link refuses files that
                     define what course code defines), or `make forbidden` could not run on the build
  crashed            a CUDA error (e.g. an illegal address), a signal, out of memory, an exit
                     that is not the harness's (the results file missing or unfinished)
  timed out          the part's process ran past its timeout and was killed
  sanitizer error    a sanitize part: compute-sanitizer found an error in the student's run of
                     the check (an out-of-bounds access, a shared-memory race, a bad barrier);
                     the message quotes the first (sanitizer.py)
  forbidden API used `make forbidden`, run on the student's build, found what the exercise does not
                     allow (a library, a reference variant, file or process access, a course file)
  implausible timing a performance part whose timing cannot be the student's code's: a row faster
                     than the copy bandwidth measured in the same run allows, or a run whose
                     measured copy bandwidth differs from the reference run's (no points)
  no GPU             the harness found no usable GPU: nothing could be measured
  skipped            a performance or sanitize part whose exercise did not pass its check
  grader error       the course's side failed (the reference run, a rubric option the harness
                     refuses, a results file without the rows the rubric names): not the student's
  not run            not graded yet (a stopped run's reports show what is left), or, with its
                     reason, a part that could not run here (compute-sanitizer not found)
"""
from __future__ import annotations

import math
import signal
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional

from .rubric import PERFORMANCE, Part

PASSED = "passed"
WRONG = "wrong result"
BUILD_FAILED = "build failed"
CRASHED = "crashed"
TIMED_OUT = "timed out"
SANITIZER = "sanitizer error"
FORBIDDEN = "forbidden API used"
IMPLAUSIBLE = "implausible timing"
NO_GPU = "no GPU"
SKIPPED = "skipped"
GRADER_ERROR = "grader error"
NOT_RUN = "not run"
STATUSES = (PASSED, WRONG, BUILD_FAILED, CRASHED, TIMED_OUT, SANITIZER, FORBIDDEN, IMPLAUSIBLE, NO_GPU, SKIPPED,
            GRADER_ERROR, NOT_RUN)

RESULTS_SCHEMA = "pmpp.results.v1"
MESSAGE_LIMIT = 1500  # characters of one part's message in the reports


@dataclass
class RunOutcome:
    """What one process did. returncode < 0: killed by that signal (Python's convention)."""
    returncode: Optional[int]
    timed_out: bool = False
    timeout_s: float = 0.0
    results: Optional[dict] = None   # the parsed results file, or None
    results_problem: str = ""         # why there is none (missing, unreadable, not JSON)
    wall_s: float = 0.0


@dataclass
class Verdict:
    status: str
    message: str = ""


@dataclass
class PartResult:
    exercise: str
    part: str
    kind: str
    status: str
    points: float
    max_points: float
    message: str = ""
    student_ms: Optional[float] = None
    reference_ms: Optional[float] = None
    ratio: Optional[float] = None
    n: Optional[int] = None
    wall_s: float = 0.0
    details: Dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_json(d: dict) -> "PartResult":
        return PartResult(**{k: d[k] for k in PartResult.__dataclass_fields__ if k in d})


def clip(message: str, limit: int = MESSAGE_LIMIT) -> str:
    message = message.strip()
    return message if len(message) <= limit else message[: limit - 20].rstrip() + "\n... (cut)"


def signal_name(number: int) -> str:
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    meaning = {"SIGSEGV": "segmentation fault", "SIGABRT": "abort", "SIGBUS": "bus error",
               "SIGFPE": "arithmetic error", "SIGILL": "illegal instruction", "SIGKILL": "killed",
               "SIGTERM": "terminated"}.get(name)
    return f"{name} ({meaning})" if meaning else name


# ---- The performance curve ---------------------------------------------------------------------

def performance_fraction(ratio: float, full_within: float = 1.2, curve: str = "classic") -> float:
    """The fraction of a performance part's points for a student time `ratio` x the reference's.

    Full points at or below `full_within`. Beyond it, classic (the CS149 checker): reference /
    student time, so the fraction steps from 1 down to 1/full_within at the threshold;
    continuous: full_within x reference / student time, no step.
    """
    if not (ratio > 0) or math.isinf(ratio):
        return 0.0
    if ratio <= full_within:
        return 1.0
    if curve == "continuous":
        return full_within / ratio
    if curve == "classic":
        return 1.0 / ratio
    raise ValueError(f"unknown curve '{curve}'")


# ---- One run ----------------------------------------------------------------------------------

def classify_run(outcome: RunOutcome, seed: Optional[int]) -> Verdict:
    """What one harness process did. PASSED here means: it ran to the end and the harness's own
    status is ok. The results file must be complete and consistent with the exit status, or the
    program did not end the way the harness ends (the student's code exited, aborted or was killed)."""
    if outcome.timed_out:
        return Verdict(TIMED_OUT, f"no result within {outcome.timeout_s:g} s: the process was killed "
                                  "(a kernel that never finishes, or far too slow)")
    rc = outcome.returncode
    if rc is None:
        return Verdict(GRADER_ERROR, "the process did not run")
    if rc < 0:
        return Verdict(CRASHED, f"killed by {signal_name(-rc)}")
    r = outcome.results
    if r is None:
        if rc == 2:
            return Verdict(GRADER_ERROR, "the harness refused its command line (exit 2) and left no results file")
        why = outcome.results_problem or "no results file"
        return Verdict(CRASHED, f"exited with status {rc} without the harness's results file ({why}): "
                                "the program ended before the harness did (exit(), abort, or a crash)")
    if not isinstance(r, dict) or r.get("schema") != RESULTS_SCHEMA:
        return Verdict(CRASHED, f"exited with status {rc}; its results file is not a {RESULTS_SCHEMA} file")
    status = r.get("status")
    if status is None or r.get("exit_code") != rc:
        return Verdict(CRASHED, f"exited with status {rc} before the harness finished its results file "
                                "(the program ended outside the harness: exit(), abort, or a crash)")
    if seed is not None and status != "usage_error" and _as_int(r.get("seed")) != seed:
        return Verdict(CRASHED, f"the results file is not this run's (seed {r.get('seed')}, expected {seed})")
    error = str(r.get("error", "")).strip()
    if status == "ok" and rc == 0:
        return Verdict(PASSED)
    if status == "wrong" and rc == 1:
        return Verdict(WRONG)
    if status == "no_gpu":
        return Verdict(NO_GPU, error or "no usable GPU")
    if status in ("cuda_error", "error"):
        return Verdict(CRASHED, error or "CUDA error")
    if status == "out_of_memory":
        return Verdict(CRASHED, "out of memory: " + (error or "the GPU's memory is exhausted"))
    if status == "usage_error":
        return Verdict(GRADER_ERROR, "the harness refused the rubric's options: " + (error or "usage error"))
    return Verdict(CRASHED, f"harness status '{status}' with exit status {rc}" + (f": {error}" if error else ""))


def _as_int(value) -> Optional[int]:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# ---- Parts ------------------------------------------------------------------------------------

def blocked(part: Part, status: str, message: str) -> PartResult:
    """A part that could not run (build failed, forbidden API, skipped, no GPU, not run)."""
    return PartResult(part.exercise, part.name, part.kind, status, 0.0, part.points, clip(message))


def judge_check(part: Part, outcome: RunOutcome, seed: Optional[int]) -> PartResult:
    v = classify_run(outcome, seed)
    result = blocked(part, v.status, v.message)
    result.wall_s = outcome.wall_s
    if v.status not in (PASSED, WRONG):
        return result
    summary = (outcome.results.get("check_summary") or {}).get("student")
    if not isinstance(summary, dict):
        result.status = GRADER_ERROR
        result.message = "the results file has no check of the student's implementation"
        return result
    passed, total = _as_int(summary.get("passed")) or 0, _as_int(summary.get("total")) or 0
    failed = _as_int(summary.get("failed")) or 0
    result.details = {"cases_passed": passed, "cases_total": total}
    if total == 0:
        result.status = GRADER_ERROR
        result.message = "no check case ran (every case skipped?)"
        return result
    if v.status == PASSED and failed == 0 and passed == total:
        result.status, result.points = PASSED, part.points
        result.message = f"{passed}/{total} cases pass"
        return result
    result.status = WRONG
    result.points = round(part.points * passed / total, 2) if part.credit == "per_case" else 0.0
    failing = [c for c in outcome.results.get("checks", []) if c.get("impl") == "student" and not c.get("passed")]
    lines = [f"{passed}/{total} cases pass" + (" (credit per case)" if part.credit == "per_case" else
                                                " (every case must pass)")]
    for c in failing[:3]:
        lines.append(f"- {c.get('case', '?')}: {str(c.get('message', '')).strip()}")
    if len(failing) > 3:
        lines.append(f"... {len(failing) - 3} more failing case(s)")
    result.message = clip("\n".join(lines))
    return result


def prerequisite(part: Part, done: Dict[str, PartResult]) -> Optional[PartResult]:
    """A performance or sanitize part is scored only when the check parts it requires passed.
    Returns the part's result when it must not run (no GPU stays no GPU), None when it may."""
    why = ("performance counts only for a correct implementation" if part.kind == PERFORMANCE else
           "the sanitizer's point is for a correct implementation")
    for name in part.requires:
        r = done.get(name)
        if r is None or r.status == NOT_RUN:
            return blocked(part, SKIPPED, f"not scored: the check '{name}' did not run")
        if r.status == NO_GPU:
            return blocked(part, NO_GPU, r.message)
        if r.status != PASSED:
            return blocked(part, SKIPPED, f"not scored: {why} ('{name}': {r.status})")
    return None


def _rows(results: Optional[dict]) -> List[dict]:
    rows = (results or {}).get("bench") or []
    return [r for r in rows if isinstance(r, dict)]


def _suffix(label: str, impl: str) -> str:
    """A row's label without its implementation's name: "student pinned" and "vectorized pinned"
    are the same row of two implementations."""
    return label[len(impl):] if label.startswith(impl) else label


def _selected(rows: List[dict], impl: str, part: Part) -> List[dict]:
    out = []
    for r in rows:
        if r.get("impl") != impl:
            continue
        if part.section != "*" and r.get("section") != part.section:
            continue
        if part.label is not None and _suffix(str(r.get("label", "")), impl) != _suffix(part.label, "student"):
            continue
        out.append(r)
    return out


def judge_performance(part: Part, student: RunOutcome, reference: Optional[RunOutcome],
                      seed: Optional[int]) -> PartResult:
    """Student's time against the reference's. With reference = solution, `reference` is the run
    of build/<program>_solution (its student row: the reference answer timed by the same code);
    otherwise the reference variant's rows come from the student's own run."""
    result = blocked(part, GRADER_ERROR, "")
    result.wall_s = student.wall_s + (reference.wall_s if reference else 0.0)
    ref_results = None
    if part.reference == "solution":
        if reference is None:
            result.message = "the reference answer was not run"
            return result
        rv = classify_run(reference, seed)
        if rv.status == NO_GPU:
            return _with(result, NO_GPU, rv.message)
        if rv.status != PASSED:
            return _with(result, GRADER_ERROR, f"the reference answer's run failed ({rv.status}): {rv.message}")
        ref_results = reference.results

    v = classify_run(student, seed)
    if v.status == WRONG:
        wrong = [r for r in _rows(student.results) if r.get("impl") == "student" and r.get("correct") is False]
        lines = ["the output of a timed run is wrong (the harness checks every timed run again)"]
        lines += [f"- {r.get('label', 'student')} at n={_as_int(r.get('n'))}: {str(r.get('message', '')).strip()}"
                  for r in wrong[:3]]
        return _with(result, WRONG, "\n".join(lines))
    if v.status != PASSED:
        return _with(result, v.status, v.message)

    mine = _selected(_rows(student.results), "student", part)
    if not mine:
        return _with(result, GRADER_ERROR, f"no benchmark row of the student in section '{part.section}'"
                                           + (f" with label '{part.label}'" if part.label else ""))
    n = max(_as_int(r.get("n")) or 0 for r in mine)
    mine = [r for r in mine if (_as_int(r.get("n")) or 0) == n]
    if any(r.get("correct") is not True for r in mine):
        return _with(result, WRONG, "the output of a timed run is wrong")

    if part.reference == "solution":
        theirs_rows, theirs_impl = _selected(_rows(ref_results), "student", part), "student"
    else:
        theirs_rows, theirs_impl = _selected(_rows(student.results), part.reference, part), part.reference
    theirs = {(r.get("section"), _suffix(str(r.get("label", "")), theirs_impl)): r
              for r in theirs_rows if (_as_int(r.get("n")) or 0) == n}
    pairs, compared = [], []
    for r in mine:
        key = (r.get("section"), _suffix(str(r.get("label", "")), "student"))
        if key not in theirs:
            return _with(result, GRADER_ERROR, f"no reference row ({part.reference}) for '{r.get('label')}' in "
                                               f"section '{r.get('section')}' at n={n}")
        pairs.append((float(r.get("median_ms") or 0.0), float(theirs[key].get("median_ms") or 0.0)))
        compared.append((r, theirs[key]))
    if any(ref <= 0 or stu <= 0 for stu, ref in pairs):
        return _with(result, GRADER_ERROR, "a median time of zero in the results file")

    if part.aggregate == "worst":
        stu_ms, ref_ms = max(pairs, key=lambda p: p[0] / p[1])
    else:
        stu_ms, ref_ms = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    ratio = stu_ms / ref_ms
    result.student_ms, result.reference_ms, result.ratio, result.n = stu_ms, ref_ms, ratio, n
    doubts = implausible_timing(part, student.results, ref_results, compared, n)
    if doubts:
        result.details = {"rows": len(pairs), "plausible_fraction_of_copy": part.plausible_fraction_of_copy,
                          "copy_bandwidth_tolerance": part.copy_bandwidth_tolerance}
        return _with(result, IMPLAUSIBLE, "\n".join(doubts) + f"\nno performance points ({ratio:.2f}x the "
                     "reference's time, as measured): a timing the harness cannot vouch for earns nothing")
    fraction = performance_fraction(ratio, part.full_within, part.curve)
    result.status = PASSED
    result.points = round(part.points * fraction, 2)
    what = (f"{len(pairs)} rows, the slowest relative to the reference" if part.aggregate == "worst" and len(pairs) > 1
            else f"{len(pairs)} rows summed" if len(pairs) > 1 else "median")
    against = "the reference answer" if part.reference == "solution" else f"reference '{part.reference}'"
    verdict = ("full points" if fraction >= 1.0 else
               f"{100 * fraction:.0f}% of the points (full points within {part.full_within:g}x)")
    result.message = (f"{stu_ms:.4g} ms against {ref_ms:.4g} ms for {against} at n={n} ({what}): "
                      f"{ratio:.2f}x, {verdict}")
    result.details = {"rows": len(pairs), "full_within": part.full_within, "curve": part.curve}
    return result


def _number(value) -> Optional[float]:
    """A finite number from a results file, else None (a missing key, a string, NaN)."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def copy_bandwidth_gbs(results: Optional[dict]) -> Optional[float]:
    """The device-to-device copy bandwidth the run measured (copy_bandwidth.gbs), or None."""
    copy = (results or {}).get("copy_bandwidth")
    return _number(copy.get("gbs")) if isinstance(copy, dict) else None


def implausible_timing(part: Part, student: Optional[dict], reference: Optional[dict],
                       compared: List[tuple], n: int) -> List[str]:
    """Why the student's timing cannot be trusted, one line each (none: it can).

    The numbers come from the student's own process, where the student's code runs beside the
    harness's timer, so two cross-checks:
    - the copy bandwidth the student's run measured against the one the reference answer's run
      measured (a process of course code only, just before, on the same GPU): code that slows or
      speeds up the harness's clock, or its view of the GPU, moves that figure too;
    - every compared row of the student against that copy bandwidth: a memory-bound row cannot
      move its bytes much faster than a copy does. The row's GB/s is recomputed from its bytes
      (the reference run's row's, when it says more) and its median time, and the larger of that
      and the GB/s the file reports counts; rows that move no bytes are not judged here.
    `compared` holds (student row, reference row) pairs; with reference = a variant, `reference`
    is None and the variant's rows come from the student's own run."""
    doubts = []
    copy = copy_bandwidth_gbs(student)
    reference_copy = copy_bandwidth_gbs(reference) if reference is not None else None
    if reference_copy is not None and reference_copy > 0:
        tolerance = part.copy_bandwidth_tolerance
        if copy is None or copy <= 0:
            doubts.append(f"the student's run reports no copy bandwidth; the reference run measured "
                          f"{reference_copy:.0f} GB/s")
        elif abs(copy / reference_copy - 1) > tolerance:
            doubts.append(f"the copy bandwidth measured in the student's run, {copy:.0f} GB/s, differs from the "
                          f"reference run's, {reference_copy:.0f} GB/s, by {100 * abs(copy / reference_copy - 1):.0f}% "
                          f"(more than {100 * tolerance:g}%): the run's clock or its GPU is not the reference's")
    limit = part.plausible_fraction_of_copy
    yardstick = copy if copy is not None and copy > 0 else reference_copy
    for row, theirs in compared:
        ms = _number(row.get("median_ms")) or 0.0
        moved = max(_number(row.get("bytes")) or 0.0,
                    (_number(theirs.get("bytes")) or 0.0) if reference is not None else 0.0)
        gbs = max(_number(row.get("gbs")) or 0.0, moved / (ms * 1e6) if ms > 0 else 0.0)
        if gbs <= 0:
            continue  # a row that moves no bytes (compute-bound): the copy says nothing about it
        label = f"'{row.get('label', 'student')}' at n={n}"
        if yardstick is None or yardstick <= 0:
            # Every benchmark run of the harness measures the copy: a file without it is not one.
            doubts.append(f"{label}: {gbs:.0f} GB/s in a run that reports no copy bandwidth to judge it by")
            continue
        fraction = max(gbs / yardstick, _number(row.get("fraction_of_copy")) or 0.0)
        if fraction > limit:
            doubts.append(f"{label}: {gbs:.0f} GB/s, {fraction:.2f}x the copy bandwidth measured in the same run "
                          f"({yardstick:.0f} GB/s); no code moves its bytes faster than {limit:g}x a copy")
    return doubts


def _with(result: PartResult, status: str, message: str) -> PartResult:
    result.status, result.points, result.message = status, 0.0, clip(message)
    return result


def exercise_points(results: List[PartResult]) -> float:
    return round(sum(r.points for r in results), 2)


def worst_status(results: List[PartResult]) -> str:
    """One word for an exercise in a summary: passed only if every part passed."""
    order = (FORBIDDEN, BUILD_FAILED, CRASHED, TIMED_OUT, WRONG, SANITIZER, IMPLAUSIBLE, GRADER_ERROR, NO_GPU, NOT_RUN,
             SKIPPED, PASSED)
    present = {r.status for r in results}
    for s in order:
        if s in present:
            return s
    return NOT_RUN


def gradescope_status(result: PartResult) -> str:
    return "passed" if result.status == PASSED and result.points >= result.max_points - 1e-9 else "failed"


# ---- a student's record (grade.json) summed up: what every report prints ----------------------

def parts_of(doc: dict) -> List[PartResult]:
    return [PartResult.from_json(p) for e in doc.get("exercises", []) for p in e.get("parts", [])]


def totals(doc: dict) -> (float, float):
    parts = parts_of(doc)
    return round(sum(p.points for p in parts), 2), round(sum(p.max_points for p in parts), 2)


def fmt_points(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def fmt_ms(v: Optional[float]) -> str:
    return "-" if v is None else f"{v:.4g}"
