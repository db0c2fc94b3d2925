"""compute-sanitizer over the harness's check: the rubric's `sanitize` parts.

A kernel that reads or writes out of bounds without changing the output it is checked on (a
read of x[n] it then discards, a shared-memory race that happens to give the right answer)
passes the check; the sanitizer finds it. Each tool of a part runs in its own process:

  SANITIZER --tool TOOL --error-exitcode 99 --print-limit 20 --log-file REPORT
            build/<program> --impl student --check --max-size N --seed S --json F [args]

The sanitizer writes its report to REPORT, a file of its own, never to the output the
student's code shares with the harness: that code could print a clean "ERROR SUMMARY" there,
but may not open files (the use rule of `make forbidden`). The verdict comes from the
sanitizer's exit status, its summary line and the harness's results file, never from what the
program printed. This module finds the sanitizer, reads its report and judges one tool's run;
runner.run_sanitize runs the processes.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from . import scoring
from .rubric import Part, run_tool
from .scoring import PartResult, RunOutcome

NAME = "compute-sanitizer"
# Set, it names the sanitizer and nothing else is looked for (the tests point it at a stand-in;
# a path that does not exist is "not found", never a search elsewhere).
VARIABLE = "PMPP_COMPUTE_SANITIZER"
ERROR_EXIT_CODE = 99  # as `make sanitize` (common/common.mk); the harness's own codes are 0-4
PRINT_LIMIT = 20      # errors the report spells out; the summary counts them all
PREFIX = "========="

ERROR_SUMMARY = re.compile(r"ERROR SUMMARY:\s*(\d+) errors?")
RACECHECK_SUMMARY = re.compile(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed\s*\((\d+) errors?,\s*(\d+) warnings?\)")
# Top-level lines of a report that are not an error of the program's kernels. A crash is
# judged from the exit status and the results file, so its line is not one either.
NOT_AN_ERROR = ("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY", "Process ID",
                "Target application returned an error", "Error: process didn't terminate successfully",
                "Error: couldn't find exit code", "Error: Target application terminated before",
                "Tracking kernels launched by child processes")
# Where an access happened: "at KERNEL+0xOFFSET in FILE:LINE" (compute-sanitizer 2022 and
# later; FILE:LINE only with -lineinfo, which common.mk sets), or the older
# "at 0xOFFSET in FILE:LINE:KERNEL".
AT = re.compile(r"\bat (?P<kernel>\S.*?)\+0x[0-9a-fA-F]+(?: in (?P<file>\S+?):(?P<line>\d+))?(?=\s*(?:\[|$))")
AT_OLD = re.compile(r"\bat 0x[0-9a-fA-F]+ in (?P<file>\S+?):(?P<line>\d+):(?P<kernel>.+)$")
SOURCE = re.compile(r"(?<= in )(\S+?)(?=:\d+)")
DETAIL_LINES = 8  # of the first error's block, quoted in the part's message


def find(nvcc: str, env: Dict[str, str]) -> Tuple[Optional[str], List[str]]:
    """The sanitizer to run and the places looked at. $PMPP_COMPUTE_SANITIZER when set; else
    the one beside the nvcc the exercise builds with (`make grading-info` names it, so the
    sanitizer is of the same toolkit), $CUDA_PATH/bin, then PATH (run_all.sh puts
    ${CUDA_PATH:-/usr/local/cuda}/bin first)."""
    explicit = env.get(VARIABLE)
    if explicit:
        return (explicit if _runnable(explicit) else None), [explicit]
    places: List[str] = []
    path = env.get("PATH", os.defpath)
    compiler = nvcc if os.sep in nvcc else shutil.which(nvcc, path=path)
    if compiler:
        places.append(os.path.join(os.path.dirname(compiler), NAME))
        places.append(os.path.join(os.path.dirname(os.path.realpath(compiler)), NAME))
    if env.get("CUDA_PATH"):
        places.append(os.path.join(env["CUDA_PATH"], "bin", NAME))
    places.append(shutil.which(NAME, path=path) or f"{NAME} on PATH")
    places = list(dict.fromkeys(places))
    return next((p for p in places if _runnable(p)), None), places


def _runnable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def command(sanitizer: str, tool: str, report: str, program: List[str]) -> List[str]:
    # --log-file expands %p and %q{VAR}; %% is a literal % (a report folder may hold one).
    return [sanitizer, "--tool", tool, "--error-exitcode", str(ERROR_EXIT_CODE), "--print-limit", str(PRINT_LIMIT),
            "--log-file", report.replace("%", "%%"), *program]


# ---- The report -------------------------------------------------------------------------------

@dataclass
class FirstError:
    """The first error of a report: its line, where it happened, and the lines that follow it."""
    error: str
    kernel: Optional[str] = None
    file: Optional[str] = None
    line: Optional[int] = None
    details: List[str] = field(default_factory=list)

    def headline(self, tool: str) -> str:
        """One line: the tool, the error, the kernel and the source line."""
        text = f"{tool}: {self.error}"
        if self.kernel and short_kernel(self.kernel) not in self.error:
            text += f" at {short_kernel(self.kernel)}"
        if self.file and f"{self.file}:{self.line}" not in text:
            text += f" in {self.file}:{self.line}"
        return text

    def to_json(self) -> dict:
        return {"error": self.error, "kernel": self.kernel, "file": self.file, "line": self.line,
                "details": self.details}


@dataclass
class Report:
    present: bool                     # the sanitizer wrote its report file
    errors: Optional[int] = None      # the summary's count; None: no summary line (it did not finish)
    warnings: int = 0                 # racecheck's warnings (benign hazards): not counted
    first: Optional[FirstError] = None
    tail: str = ""                    # its last lines, for a report without a summary


def short_kernel(signature: str) -> str:
    """A kernel's name without its parameters (and without a leading `void `):
    "saxpy_kernel(unsigned long, float, ...)" -> "saxpy_kernel", templates kept whole."""
    depth = 0
    for i, c in enumerate(signature):
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0 and i > 0:
            signature = signature[:i]
            break
    return signature[5:] if signature.startswith("void ") else signature


def shorten(path: str, tree: str, exercise: str, student_paths: Sequence[str]) -> str:
    """A source path of the report as the submission names it: relative to the graded tree
    (01_saxpy/saxpy_student.cu), whether the build gave nvcc an absolute path, one relative to
    the exercise folder (saxpy_student.cu, ../02_scan/scan_student.cu) or the tree lies
    elsewhere now; any other path (a CUDA header) is left as it is."""
    if not os.path.isabs(path):
        return os.path.normpath(os.path.join(exercise, path)).replace(os.sep, "/")
    normal = os.path.normpath(path)
    for root in dict.fromkeys((os.path.normpath(tree), os.path.realpath(tree))):
        if normal.startswith(root + os.sep):
            return normal[len(root) + 1:].replace(os.sep, "/")
    for student in student_paths:
        if normal.replace(os.sep, "/").endswith("/" + student):
            return student
    return normal


def read_report(path: str, tree: str, exercise: str, student_paths: Sequence[str]) -> Report:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(4 << 20)  # a report of --print-limit errors is short; never read a huge one whole
    except OSError:
        return Report(present=False)
    report = Report(present=True)
    lines = text.splitlines()
    report.tail = "\n".join(lines[-8:])
    # One summary line a process (the harness starts none); should racecheck print both kinds,
    # they count the same errors, so the larger count stands.
    counted = {"error": None, "race": None}
    for line in lines:
        for kind, pattern, group in (("error", ERROR_SUMMARY, 1), ("race", RACECHECK_SUMMARY, 2)):
            m = pattern.search(line)
            if m:
                counted[kind] = (counted[kind] or 0) + int(m.group(group))
                if kind == "race":
                    report.warnings += int(m.group(3))
    present = [c for c in counted.values() if c is not None]
    report.errors = max(present) if present else None
    report.first = _first_error(lines, lambda p: shorten(p, tree, exercise, student_paths))
    return report


def _first_error(lines: List[str], shorten_path) -> Optional[FirstError]:
    """The first block of the report that is an error: a line one space after the prefix that is
    neither a summary nor a warning, and the more indented lines under it."""
    first: Optional[FirstError] = None
    for raw in lines:
        if not raw.startswith(PREFIX):
            if first:
                break  # the program's own output between the sanitizer's lines ends the block
            continue
        body = raw[len(PREFIX):]
        if not body.strip():
            if first:
                break
            continue
        text = SOURCE.sub(lambda m: shorten_path(m.group(1)), body.strip())
        top = body.startswith(" ") and not body.startswith("  ")
        if first is None:
            if top and not text.startswith(NOT_AN_ERROR) and not text.startswith("Warning"):
                first = FirstError(error=text)
                _locate(first, text)
            continue
        if top:
            break
        if text.startswith("Saved host backtrace"):
            break  # the host's frames say little; the kernel's line is above
        if len(first.details) < DETAIL_LINES:
            first.details.append(text)
        if first.kernel is None:
            _locate(first, text)
    return first


def _locate(first: FirstError, text: str) -> None:
    m = AT.search(text) or AT_OLD.search(text)
    if not m:
        return
    first.kernel = m.group("kernel").strip()
    if m.group("file"):
        first.file, first.line = m.group("file"), int(m.group("line"))


# ---- The verdict ------------------------------------------------------------------------------

@dataclass
class ToolVerdict:
    tool: str
    status: str
    message: str
    errors: Optional[int] = None
    cases: Optional[int] = None        # check cases the harness ran under the sanitizer
    wrong_cases: int = 0
    first: Optional[FirstError] = None


def judge_tool(tool: str, outcome: RunOutcome, report: Report, seed: Optional[int], report_name: str,
               log_tail: str = "") -> ToolVerdict:
    """One tool's process. A sanitizer error (its error exit code, or a summary counting errors)
    fails it, with the first error; so does a crash or a timeout, with its reason. No errors and
    the harness's check ran to its end, right or wrong (a wrong result is the check part's
    business): it passes. A report without a summary says the sanitizer did not check the run:
    the course's side, never a pass."""
    if outcome.timed_out:
        return ToolVerdict(tool, scoring.TIMED_OUT, f"{tool}: no result within {outcome.timeout_s:g} s: the process "
                           "was killed (the sanitizer slows kernels 10-100x; a kernel that never finishes)")
    rc = outcome.returncode
    if rc is None:
        return ToolVerdict(tool, scoring.GRADER_ERROR, f"{tool}: compute-sanitizer did not start")
    if (report.errors or 0) > 0 or (rc == ERROR_EXIT_CODE and report.errors is None):
        count = report.errors
        lines = [report.first.headline(tool) if report.first else
                 f"{tool}: compute-sanitizer reported errors (exit status {rc}) but its report {report_name} "
                 + ("names none" if report.present else "is missing")]
        if report.first:
            lines += ["    " + d for d in report.first.details]
        counted = "errors" if count is None else f"{count} error" + ("" if count == 1 else "s")
        lines.append(f"{tool}: {counted} in all; the first is quoted (the whole report: {report_name})")
        return ToolVerdict(tool, scoring.SANITIZER, "\n".join(lines), count, first=report.first)
    if not report.present:
        # The sanitizer writes its report from its start, whatever the program then does (a
        # crash included): without one, it never ran the program as it should.
        return ToolVerdict(tool, scoring.GRADER_ERROR, f"{tool}: compute-sanitizer wrote no report {report_name} "
                           f"(exit status {rc}): the sanitizer did not run the check" + _tail(log_tail))
    run = scoring.classify_run(outcome, seed)
    if run.status not in (scoring.PASSED, scoring.WRONG):
        return ToolVerdict(tool, run.status, f"under {tool}: {run.message}" if run.message else f"under {tool}",
                           report.errors)
    if report.errors is None:
        return ToolVerdict(tool, scoring.GRADER_ERROR, f"{tool}: compute-sanitizer's report {report_name} has no "
                           "summary line: the sanitizer did not check this run" + _tail(report.tail))
    summary = (outcome.results.get("check_summary") or {}).get("student") or {}
    total, failed = scoring._as_int(summary.get("total")), scoring._as_int(summary.get("failed")) or 0
    if not total and not run_tool(tool)[1]:  # a shard may hold no case; its tool's shards together must
        return ToolVerdict(tool, scoring.GRADER_ERROR, _NO_CASE.format(tool=tool), 0)
    return ToolVerdict(tool, scoring.PASSED, "", 0, total or 0, failed)


_NO_CASE = "{tool}: no check case ran under the sanitizer (every case above the part's max_size?)"


def _tail(text: str) -> str:
    return f"\n{text}" if text.strip() else ""


def not_found(part: Part, looked: List[str]) -> PartResult:
    """A sanitize part without a sanitizer: "not run", 0 points, saying where it was looked for."""
    return scoring.blocked(part, scoring.NOT_RUN, f"compute-sanitizer not found (looked for {', '.join(looked)}; "
                                                  f"set {VARIABLE} to its path)")


def judge_sanitize(part: Part, verdicts: List[ToolVerdict], wall_s: float,
                   found: Optional[str] = None, tool_walls: Optional[Dict[str, float]] = None) -> PartResult:
    """The part from its tools' verdicts, in the rubric's order: the first that did not pass
    decides (the tools after it do not run, or their verdicts are not given); every one passing
    earns the points. `found`: the sanitizer that ran, recorded last. `tool_walls`: each tool's
    own seconds (details.tool_wall_s, for the tools whose verdicts are given): the part's wall
    time spans them all, and the next submission's pool orders each tool by its own."""
    result = _judge_sanitize(part, verdicts, wall_s)
    if tool_walls:
        result.details["tool_wall_s"] = {v.tool: round(float(tool_walls[v.tool]), 2)
                                         for v in verdicts if v.tool in tool_walls}
    if found is not None:
        result.details["sanitizer"] = found
    return result


def _judge_sanitize(part: Part, verdicts: List[ToolVerdict], wall_s: float) -> PartResult:
    result = scoring.blocked(part, scoring.PASSED, "")
    result.wall_s = wall_s
    failed = next((v for v in verdicts if v.status != scoring.PASSED), None)
    ran = [v.tool for v in verdicts]
    result.details = {"tools": ran, "max_size": part.max_size,
                      "errors": {v.tool: v.errors for v in verdicts if v.errors is not None}}
    if failed is not None:
        result.status, result.message = failed.status, scoring.clip(failed.message)
        if failed.first is not None:
            result.details["first_error"] = dict(failed.first.to_json(), tool=failed.tool)
        return result
    # A tool's cases: those of its shards together (each ran every N-th case).
    per_tool: Dict[str, int] = {}
    wrong_per_tool: Dict[str, int] = {}
    for v in verdicts:
        tool = run_tool(v.tool)[0]
        per_tool[tool] = per_tool.get(tool, 0) + (v.cases or 0)
        wrong_per_tool[tool] = wrong_per_tool.get(tool, 0) + v.wrong_cases
    empty = next((t for t, n in per_tool.items() if n == 0), None)
    if empty is not None:
        result.status, result.message = scoring.GRADER_ERROR, _NO_CASE.format(tool=empty + " (in all its shards)")
        return result
    cases = max(per_tool.values()) if per_tool else 0
    result.points = part.points
    shards = dict(part.shards)
    names = [t + (f" (in {shards[t]} processes)" if shards.get(t, 1) > 1 else "") for t in per_tool]
    lines = [f"{' and '.join(names)} found no errors over {cases} check case(s) up to n = {part.max_size}"]
    wrong = max(wrong_per_tool.values(), default=0)
    if wrong:
        lines.append(f"(the harness found {wrong} of them wrong under the sanitizer: the check part scores that)")
    result.message = " ".join(lines)
    result.details["cases"] = cases
    return result
