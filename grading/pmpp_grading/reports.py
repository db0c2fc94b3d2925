"""Reports of a grading: the terminal table, Gradescope's results.json, JUnit XML, an HTML
report (html_report.py), and in batch mode two CSV files and an HTML index. All of them are made
from one record per student (grade.json) and rewritten after every part, atomically, so a run
that is stopped leaves valid reports of what it graded (the parts left show as "not run",
scoring 0).
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from typing import Dict, Iterable, List, Optional

from . import html_report, scoring
# Every report's sums and number format, kept here under their old names for the callers.
from .scoring import PartResult, fmt_ms, fmt_points, parts_of, totals  # noqa: F401

GRADE_SCHEMA = "pmpp.grade.v1"


def read_json(path: str) -> Optional[dict]:
    """A JSON file the grader wrote (a grade.json, a batch's or a round's record); None when it is
    missing or unreadable (a run stopped while writing it never leaves half a file: below)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def environment_line(doc: dict) -> str:
    env = doc.get("environment", {})
    extras = [f"driver {env['driver']}" if env.get("driver") else "",
              f"CUDA runtime {env['cuda_runtime']}" if env.get("cuda_runtime") else "",
              f"nvcc {env['nvcc']}" if env.get("nvcc") else ""]
    extras = [x for x in extras if x]
    gpu = f"GPU {env['gpu']}" if env.get("gpu") else "no GPU found"
    if env.get("node"):
        gpu += f" on {env['node']}" + (f" (Slurm job {env['slurm_job']})" if env.get("slurm_job") else "")
    return (gpu + (f" ({', '.join(extras)})" if extras else "") +
            (f"; sandbox {env['sandbox']}" if env.get("sandbox") else "") +
            f"; seed {doc.get('seed')}; {doc.get('date', '?')}")


def _ratio(v: Optional[float]) -> str:
    return "-" if v is None else f"{v:.2f}x"


def file_notes(doc: dict) -> List[str]:
    """The student's files not taken from the submission, each once (03 shares 02's scan file)."""
    notes = {}
    for e in doc.get("exercises", []):
        for f in e.get("files", []):
            if f.get("status") != "applied":
                notes[f["path"]] = f"{f['path']}: {f['status']}" + (f" ({f['note']})" if f.get("note") else "")
    return list(notes.values())


def terminal_table(doc: dict) -> str:
    header = ("exercise", "part", "status", "points", "student ms", "reference ms", "ratio")
    rows = []
    for p in parts_of(doc):
        rows.append((p.exercise, p.part, p.status, f"{fmt_points(p.points)}/{fmt_points(p.max_points)}",
                     fmt_ms(p.student_ms), fmt_ms(p.reference_ms), _ratio(p.ratio)))
    score, max_score = totals(doc)
    rows.append(("total", "", "" if doc.get("complete") else "incomplete", f"{fmt_points(score)}/{fmt_points(max_score)}", "", "", ""))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    right = {3, 4, 5, 6}

    def line(r):
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)).rstrip()

    out = [f"{doc.get('student', '?')}: {environment_line(doc)}", line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows[:-1]]
    out += [line(["-" * w for w in widths]), line(rows[-1])]
    notes = file_notes(doc)
    why: Dict[str, List[str]] = {}  # the first line of a message -> the parts that gave it
    for p in parts_of(doc):
        # A part not run for a reason (compute-sanitizer not found) says so; one a stopped run
        # left has no message.
        if p.status not in (scoring.PASSED, scoring.SKIPPED) and p.message:
            why.setdefault(p.message.splitlines()[0][:160], []).append(f"{p.exercise}/{p.part}")
    for first, keys in why.items():
        notes.append(f"{keys[0]}: {first}" if len(keys) == 1 else
                     f"{keys[0]} and {len(keys) - 1} more part(s): {first}")
    if notes:
        out.append("")
        out += notes
    return "\n".join(out) + "\n"


def gradescope(doc: dict) -> dict:
    """Gradescope's autograder results format: score, tests[name, score, max_score, output, status]."""
    tests = []
    for p in parts_of(doc):
        output = f"{p.status}" + (f": {p.message}" if p.message else "")
        tests.append({"name": f"{p.exercise}: {p.part}", "score": round(p.points, 2), "max_score": p.max_points,
                      "output": output, "status": scoring.gradescope_status(p), "visibility": "visible"})
    score, max_score = totals(doc)
    lines = [environment_line(doc)]
    if not doc.get("complete"):
        lines.append("grading incomplete: the parts marked 'not run' were not graded")
    lines += file_notes(doc)
    env = doc.get("environment", {})
    return {"score": score, "max_score": max_score, "output": "\n".join(lines), "tests": tests,
            "execution_time": round(float(doc.get("wall_s", 0.0)), 1), "visibility": "visible",
            "extra_data": {"student": doc.get("student"), "seed": doc.get("seed"), "date": doc.get("date"),
                           "gpu": env.get("gpu"), "driver": env.get("driver"), "cuda_runtime": env.get("cuda_runtime"),
                           "complete": bool(doc.get("complete"))}}


def junit(doc: dict) -> str:
    """JUnit XML: a test suite per exercise, a test case per part. A part with full points passes;
    fewer points (wrong, slow, crashed, implausible timing, sanitizer error, ...) is a failure;
    the course's side (grader error, no GPU, a part not run for a reason such as a missing
    compute-sanitizer) an error; skipped parts and those a stopped run left are skipped."""
    env = doc.get("environment", {})
    suites = ET.Element("testsuites", name=f"pmpp grading: {doc.get('student', '?')}")
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for e in doc.get("exercises", []):
        parts = [PartResult.from_json(p) for p in e.get("parts", [])]
        suite = ET.SubElement(suites, "testsuite", name=e["exercise"])
        props = ET.SubElement(suite, "properties")
        for key, value in (("student", doc.get("student")), ("seed", doc.get("seed")), ("date", doc.get("date")),
                           ("gpu", env.get("gpu")), ("driver", env.get("driver")),
                           ("cuda_runtime", env.get("cuda_runtime")), ("nvcc", env.get("nvcc"))):
            ET.SubElement(props, "property", name=key, value="" if value is None else str(value))
        c = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for p in parts:
            case = ET.SubElement(suite, "testcase", name=p.part, classname=f"{doc.get('student', '?')}.{p.exercise}",
                                 time=f"{p.wall_s:.3f}")
            c["tests"] += 1
            text = f"{p.status}, {fmt_points(p.points)}/{fmt_points(p.max_points)} points" + (f": {p.message}" if p.message else "")
            if p.status == scoring.SKIPPED or (p.status == scoring.NOT_RUN and not p.message):
                ET.SubElement(case, "skipped", message=text)
                c["skipped"] += 1
            elif p.status in (scoring.GRADER_ERROR, scoring.NO_GPU, scoring.NOT_RUN):
                ET.SubElement(case, "error", message=p.status, type=p.status).text = text
                c["errors"] += 1
            elif scoring.gradescope_status(p) != "passed":
                ET.SubElement(case, "failure", message=p.status if p.status != scoring.PASSED else "slower than full marks",
                              type=p.status).text = text
                c["failures"] += 1
            else:
                ET.SubElement(case, "system-out").text = text
        for k, v in c.items():
            suite.set(k, str(v))
            counts[k] += v
    for k, v in counts.items():
        suites.set(k, str(v))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_student_reports(doc: dict, directory: str) -> None:
    """grade.json (everything), results.json (Gradescope), junit.xml, report.txt, report.html."""
    write_atomically(os.path.join(directory, "grade.json"), json.dumps(doc, indent=1) + "\n")
    write_atomically(os.path.join(directory, "results.json"), json.dumps(gradescope(doc), indent=1) + "\n")
    write_atomically(os.path.join(directory, "junit.xml"), junit(doc))
    write_atomically(os.path.join(directory, "report.txt"), terminal_table(doc))
    write_atomically(os.path.join(directory, "report.html"), html_report.student_html(doc, directory))


SCORE_COLUMNS = ["student", "exercise", "status", "points", "max_points", "parts", "student_ms", "reference_ms",
                 "ratio", "seed", "gpu", "node", "driver", "cuda_runtime", "date", "complete"]


def score_rows(doc: dict) -> List[Dict[str, object]]:
    """One row per student and exercise."""
    env = doc.get("environment", {})
    rows = []
    for e in doc.get("exercises", []):
        parts = [PartResult.from_json(p) for p in e.get("parts", [])]
        timed = next((p for p in parts if p.ratio is not None), None)
        rows.append({
            "student": doc.get("student"), "exercise": e["exercise"], "status": scoring.worst_status(parts),
            "points": scoring.exercise_points(parts), "max_points": round(sum(p.max_points for p in parts), 2),
            "parts": "; ".join(f"{p.part}: {p.status} {fmt_points(p.points)}/{fmt_points(p.max_points)}" for p in parts),
            "student_ms": "" if timed is None else f"{timed.student_ms:.6g}",
            "reference_ms": "" if timed is None else f"{timed.reference_ms:.6g}",
            "ratio": "" if timed is None else f"{timed.ratio:.4f}",
            "seed": doc.get("seed"), "gpu": env.get("gpu") or "", "node": env.get("node") or "",
            "driver": env.get("driver") or "",
            "cuda_runtime": env.get("cuda_runtime") or "", "date": doc.get("date"),
            "complete": "yes" if doc.get("complete") else "no"})
    return rows


def batch_csv(docs: Iterable[dict]) -> (str, str):
    """scores.csv (a row per student and exercise) and totals.csv (a row per student)."""
    docs = sorted(docs, key=lambda d: str(d.get("student")))
    exercises = sorted({e["exercise"] for d in docs for e in d.get("exercises", [])})
    scores = io.StringIO()
    w = csv.DictWriter(scores, fieldnames=SCORE_COLUMNS, lineterminator="\n")
    w.writeheader()
    for d in docs:
        w.writerows(score_rows(d))
    total_columns = ["student", "score", "max_score"] + exercises + ["complete", "seed", "gpu", "node", "date",
                                                                     "wall_s"]
    tot = io.StringIO()
    w = csv.DictWriter(tot, fieldnames=total_columns, lineterminator="\n")
    w.writeheader()
    for d in docs:
        score, max_score = totals(d)
        row = {"student": d.get("student"), "score": score, "max_score": max_score,
               "complete": "yes" if d.get("complete") else "no", "seed": d.get("seed"),
               "gpu": d.get("environment", {}).get("gpu") or "", "node": d.get("environment", {}).get("node") or "",
               "date": d.get("date"),
               "wall_s": round(float(d.get("wall_s", 0.0)), 1)}
        for e in d.get("exercises", []):
            row[e["exercise"]] = scoring.exercise_points([PartResult.from_json(p) for p in e.get("parts", [])])
        w.writerow(row)
    return scores.getvalue(), tot.getvalue()


def batch_table(docs: Iterable[dict]) -> str:
    docs = sorted(docs, key=lambda d: str(d.get("student")))
    exercises = sorted({e["exercise"] for d in docs for e in d.get("exercises", [])})
    header = ["student", "total"] + exercises + ["time"]
    rows = []
    for d in docs:
        score, max_score = totals(d)
        per = {e["exercise"]: [PartResult.from_json(p) for p in e.get("parts", [])] for e in d.get("exercises", [])}
        cells = [str(d.get("student")), f"{fmt_points(score)}/{fmt_points(max_score)}" + ("" if d.get("complete") else " (incomplete)")]
        for ex in exercises:
            parts = per.get(ex)
            if not parts:
                cells.append("-")
                continue
            status = scoring.worst_status(parts)
            cells.append(fmt_points(scoring.exercise_points(parts)) + ("" if status == scoring.PASSED else " " + status))
        cells.append(f"{float(d.get('wall_s', 0.0)):.0f}s")
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip()  # noqa: E731
    return "\n".join([fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]) + "\n"


def write_batch_reports(docs: Iterable[dict], directory: str) -> None:
    docs = list(docs)
    scores, tot = batch_csv(docs)
    write_atomically(os.path.join(directory, "scores.csv"), scores)
    write_atomically(os.path.join(directory, "totals.csv"), tot)
    write_atomically(os.path.join(directory, "summary.txt"), batch_table(docs))
    write_atomically(os.path.join(directory, "index.html"), html_report.index_html(docs, directory))
