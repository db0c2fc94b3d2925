"""The HTML reports: report.html per student, index.html for a batch.

One file each, no script and no style sheet of its own to fetch: it opens from a zip on any
machine. Pictures and logs are linked by paths relative to the student's report folder (the
grader writes them there: logs/, images/), so the folder travels whole. Everything a student
could have influenced (names, messages, printed output, file names) is escaped; printed output
is shown as an excerpt, its head and its tail, never read whole.
"""
from __future__ import annotations

import html
import os
import re
from typing import Dict, Iterable, List, Optional
from urllib.parse import quote

from . import pictures, scoring
from .scoring import fmt_ms as _ms, fmt_points as _points, parts_of, totals
from .scoring import PartResult

EXCERPT_HEAD_LINES = 8
EXCERPT_TAIL_LINES = 40
EXCERPT_LINE_CHARS = 300
EXCERPT_READ_BYTES = 64 << 10
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:75em;padding:0 1em;color:#222}
h1{font-size:1.5em}
h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin-bottom:.3em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.total td{font-weight:bold}
pre{background:#f6f6f6;border:1px solid #ddd;padding:.5em;overflow-x:auto;white-space:pre-wrap;font-size:.85em}
.status{padding:.05em .4em;border-radius:.3em;white-space:nowrap}
.s-passed{background:#d4edda}
.s-full{background:#b8e0c2}
.s-wrong,.s-crashed,.s-timed,.s-build,.s-forbidden,.s-implausible,.s-sanitizer{background:#f8d7da}
.s-grader,.s-no{background:#fff3cd}
.s-skipped,.s-not{background:#e9ecef}
.note{color:#555}
.warn{background:#fff3cd;padding:.5em;border:1px solid #e0c97a}
figure{display:inline-block;margin:.3em;vertical-align:top}
figure img{min-width:8em;max-width:22em;max-height:22em;border:1px solid #ccc;image-rendering:pixelated}
figcaption{font-size:.8em;color:#555;max-width:22em;word-break:break-all}
.group{margin:.5em 0 1em}
"""


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def href(relative: str) -> str:
    """A relative path as a link: every component percent-encoded, never a scheme or an absolute path."""
    parts = [p for p in relative.replace(os.sep, "/").split("/") if p not in ("", ".")]
    return "/".join(quote(p, safe="") for p in parts)


def status_class(status: str) -> str:
    return "status s-" + (status.split()[0] if status else "not")


def excerpt(path: str) -> Optional[str]:
    """The head and the tail of a log (what the harness printed), without terminal escapes;
    None when there is no such file. A log of megabytes is never read whole."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(EXCERPT_READ_BYTES)
            tail = b""
            if size > 2 * EXCERPT_READ_BYTES:
                f.seek(size - EXCERPT_READ_BYTES)
            tail = f.read()
    except OSError:
        return None

    def lines_of(data: bytes) -> List[str]:
        return [_CONTROL.sub("", l)[:EXCERPT_LINE_CHARS] for l in data.decode("utf-8", "replace").splitlines()]

    if size > 2 * EXCERPT_READ_BYTES:
        lines = lines_of(head)[:EXCERPT_HEAD_LINES] + [f"... ({size} bytes in all)"] + lines_of(tail)[1:]
    else:
        lines = lines_of(head + tail)
    if len(lines) > EXCERPT_HEAD_LINES + EXCERPT_TAIL_LINES + 1:
        cut = len(lines) - EXCERPT_HEAD_LINES - EXCERPT_TAIL_LINES
        lines = lines[:EXCERPT_HEAD_LINES] + [f"... ({cut} lines left out: the whole log is linked above)"] \
            + lines[-EXCERPT_TAIL_LINES:]
    return "\n".join(lines)


def _how_parts_ran(untimed_slots, untimed_order=None) -> Optional[str]:
    """How grade_tree ran the parts (the record's untimed_slots and untimed_order)."""
    if not isinstance(untimed_slots, int):
        return None
    if untimed_slots <= 1:
        return "one at a time: the checks and sanitizer runs, then each performance part alone on the GPU"
    order = f" ({untimed_order})" if isinstance(untimed_order, str) and untimed_order else ""
    return (f"checks and sanitizer runs up to {untimed_slots} at once{order}, then each performance part alone on "
            "the GPU")


def _environment(doc: dict) -> str:
    env = doc.get("environment", {})
    rubric = doc.get("rubric", {})
    rows = [("student", doc.get("student")), ("GPU", env.get("gpu") or "no GPU found"), ("node", env.get("node")),
            ("Slurm job", env.get("slurm_job")), ("sandbox", env.get("sandbox")),
            ("driver", env.get("driver")), ("CUDA runtime", env.get("cuda_runtime")), ("nvcc", env.get("nvcc")),
            ("compute capability", env.get("compute_capability")),
            ("device profile", (env.get("device_profile") + ": shapes and sizes as on that GPU, timings this GPU's")
             if env.get("device_profile") else "none (the GPU's own limits)"),
            ("parts run", _how_parts_ran(env.get("untimed_slots"), env.get("untimed_order"))),
            ("seed", doc.get("seed")),
            ("date", doc.get("date")), ("finished", doc.get("finished") or "not finished"),
            ("grading time", f"{float(doc.get('wall_s', 0.0)):.0f} s"), ("graded from", doc.get("source")),
            ("tree", doc.get("tree")), ("rubric", f"{rubric.get('path', '?')} (digest {rubric.get('digest', '?')})")]
    # A local batch has no job; a record of an older grader does not say how its parts ran.
    rows = [(k, v) for k, v in rows if v is not None or k not in ("node", "Slurm job", "parts run")]
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v if v is not None else '-')}</td></tr>" for k, v in rows)
    return f'<table class="env">{body}</table>'


def _anchor(*names: str) -> str:
    return "p-" + re.sub(r"[^A-Za-z0-9_-]+", "-", "-".join(names)).strip("-")


def _score_table(doc: dict, parts: List[PartResult]) -> str:
    out = ['<table class="scores"><tr><th>exercise</th><th>part</th><th>status</th><th>points</th>'
           "<th>student ms</th><th>reference ms</th><th>ratio</th></tr>"]
    for p in parts:
        full = p.status == scoring.PASSED and p.points >= p.max_points - 1e-9
        out.append(f'<tr><td>{esc(p.exercise)}</td><td><a href="#{_anchor(p.exercise, p.part)}">{esc(p.part)}</a></td>'
                   f'<td><span class="{status_class("full" if full else p.status)}">{esc(p.status)}</span></td>'
                   f'<td class="num">{_points(p.points)}/{_points(p.max_points)}</td>'
                   f'<td class="num">{_ms(p.student_ms)}</td><td class="num">{_ms(p.reference_ms)}</td>'
                   f'<td class="num">{"-" if p.ratio is None else f"{p.ratio:.2f}x"}</td></tr>')
    score, max_score = totals(doc)
    out.append(f'<tr class="total"><td>total</td><td></td><td>{"" if doc.get("complete") else "incomplete"}</td>'
               f'<td class="num">{_points(score)}/{_points(max_score)}</td><td></td><td></td><td></td></tr></table>')
    return "".join(out)


def _files(doc: dict) -> str:
    seen: Dict[str, dict] = {}
    for e in doc.get("exercises", []):
        for f in e.get("files", []):
            seen.setdefault(f.get("path", "?"), f)
    if not seen:
        return ""
    rows = "".join(f"<tr><td>{esc(path)}</td><td>{esc(f.get('status'))}</td><td>{esc(f.get('source') or '-')}</td>"
                   f"<td>{esc(f.get('note') or '')}</td></tr>" for path, f in seen.items())
    return ("<h2>The student's files</h2><table><tr><th>file</th><th>taken</th><th>from the submission</th>"
            f"<th>note</th></tr>{rows}</table>")


def _links(directory: str, paths: Iterable[str]) -> str:
    present = [p for p in paths if os.path.isfile(os.path.join(directory, p))]
    if not present:
        return ""
    return '<p class="note">logs: ' + ", ".join(f'<a href="{href(p)}">{esc(p)}</a>' for p in present) + "</p>"


def _gallery(directory: str, relative: str) -> str:
    g = pictures.gallery(os.path.join(directory, relative))
    if not g.groups:
        return ""
    out = ["<div class=\"pictures\">"]
    for group in g.groups:
        out.append(f'<div class="group"><div class="note">{esc(group.title)}</div>')
        for role, name in group.images:
            path = href(relative + "/" + name)
            caption = (pictures.ROLE_WORDS[role] + ": " if pictures.ROLE_WORDS[role] else "") + name
            out.append(f'<figure><a href="{path}"><img src="{path}" alt="{esc(caption)}" loading="lazy"></a>'
                       f"<figcaption>{esc(caption)}</figcaption></figure>")
        out.append("</div>")
    if g.left_out:
        out.append(f'<p class="note">{g.left_out} more picture(s) in <a href="{href(relative)}">{esc(relative)}</a></p>')
    out.append("</div>")
    return "".join(out)


def _part(directory: str, p: PartResult) -> str:
    out = [f'<h3 id="{_anchor(p.exercise, p.part)}">{esc(p.part)} '
           f'<span class="{status_class(p.status)}">{esc(p.status)}</span> '
           f"{_points(p.points)}/{_points(p.max_points)}</h3>"]
    if p.ratio is not None:
        out.append(f"<p>student {_ms(p.student_ms)} ms, reference {_ms(p.reference_ms)} ms: {p.ratio:.2f}x</p>")
    if p.message:
        out.append(f"<pre>{esc(p.message)}</pre>")
    logs = [l for l in p.details.get("logs", []) if isinstance(l, str)]
    out.append(_links(directory, logs))
    for log in logs[-1:]:  # the student's run (a performance part's reference run comes first)
        text = excerpt(os.path.join(directory, log))
        if text:
            out.append(f"<details><summary>output of {esc(log)}</summary><pre>{esc(text)}</pre></details>")
    for folder in p.details.get("images", []):
        if isinstance(folder, str):
            out.append(_gallery(directory, folder))
    return "".join(out)


def student_html(doc: dict, directory: str) -> str:
    """report.html of one student; `directory` is the folder it is written to (logs and pictures
    are looked up there)."""
    exercises = doc.get("exercises", [])
    parts = parts_of(doc)
    score, max_score = totals(doc)
    title = f"{doc.get('student', '?')}: {_points(score)}/{_points(max_score)}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{esc(doc.get('student', '?'))}: {_points(score)} of {_points(max_score)} points</h1>"]
    if not doc.get("complete"):
        out.append('<p class="warn">Grading incomplete: the parts marked <em>not run</em> were not graded '
                   "(this report is rewritten after every part).</p>")
    out.append(_environment(doc))
    out.append(_score_table(doc, parts))
    out.append(_files(doc))
    for e in exercises:
        build = e.get("build", {})
        out.append(f'<h2 id="{_anchor(e.get("exercise", "?"))}">{esc(e.get("exercise"))}</h2>')
        status = build.get("status", scoring.NOT_RUN)
        out.append(f'<p>build: <span class="{status_class(status)}">{esc("built" if status == scoring.PASSED else status)}'
                   f'</span> ({float(build.get("wall_s", 0.0)):.0f} s)</p>')
        if build.get("message"):
            out.append(f"<pre>{esc(build['message'])}</pre>")
        out.append(_links(directory, [l for l in build.get("logs", []) if isinstance(l, str)]))
        for p in e.get("parts", []):
            out.append(_part(directory, PartResult.from_json(p)))
    out.append("</body></html>\n")
    return "\n".join(x for x in out if x)


def index_html(docs: Iterable[dict], directory: str, students: str = "students") -> str:
    """index.html of a batch: a row per student, linked to the student's report.html."""
    docs = sorted(docs, key=lambda d: str(d.get("student")))
    exercises = sorted({e["exercise"] for d in docs for e in d.get("exercises", [])})
    head = "".join(f"<th>{esc(e)}</th>" for e in exercises)
    rows = []
    for d in docs:
        parts = {e["exercise"]: [PartResult.from_json(p) for p in e.get("parts", [])] for e in d.get("exercises", [])}
        score, max_score = totals(d)
        name = str(d.get("student", "?"))
        report = f"{students}/{name}/report.html"
        link = (f'<a href="{href(report)}">{esc(name)}</a>' if os.path.isfile(os.path.join(directory, report))
                else esc(name))
        cells = []
        for ex in exercises:
            ps = parts.get(ex)
            if not ps:
                cells.append("<td>-</td>")
                continue
            status = scoring.worst_status(ps)
            cells.append(f'<td><span class="{status_class(status)}">{_points(scoring.exercise_points(ps))}'
                         f'</span>{"" if status == scoring.PASSED else " " + esc(status)}</td>')
        env = d.get("environment", {})
        rows.append(f'<tr><td>{link}</td><td class="num">{_points(score)}/{_points(max_score)}</td>{"".join(cells)}'
                    f'<td>{"yes" if d.get("complete") else "no"}</td><td>{esc(env.get("gpu") or "-")}</td>'
                    f'<td class="num">{float(d.get("wall_s", 0.0)):.0f} s</td></tr>')
    seeds = sorted({str(d.get("seed")) for d in docs})
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Grading: {len(docs)} student(s)</title><style>{STYLE}</style></head><body>",
        f"<h1>Grading: {len(docs)} student(s)</h1>",
        f'<p class="note">seed {esc(", ".join(seeds) or "-")}; scores.csv and totals.csv beside this file</p>',
        f"<table><tr><th>student</th><th>total</th>{head}<th>complete</th><th>GPU</th><th>time</th></tr>",
        "".join(rows), "</table></body></html>\n"])
