#!/usr/bin/env python3
"""Checks a grading run of make_submissions.py's submissions against expected.json and prints
every part: verify.py OUT (the --output of run_all.sh). A case's 'quote' names text a part's
message must hold (a sanitize part's first error). Exit status 1 on any difference."""
import fnmatch
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from pmpp_grading import reports  # noqa: E402


def part_log(out: str, student: str, part) -> str:
    """What the part's processes printed: its logs, as the student's report links them."""
    text = []
    for rel in part.details.get("logs", []):
        path = os.path.join(out, "students", student, rel)
        if os.path.isfile(path):
            with open(path, errors="replace") as f:
                text.append(f.read())
    return "\n".join(text)


def main() -> int:
    out = sys.argv[1]
    with open(os.path.join(HERE, "expected.json")) as f:
        cases = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    expected = {k: v["expect"] for k, v in cases.items()}
    quotes = {k: v.get("quote", {}) for k, v in cases.items()}
    failures = 0
    # A file a student's code planted in the reports (the sandbox must stop it).
    for folder, _, files in os.walk(out):
        for name in files:
            if name.startswith("PWNED"):
                print(f"PLANTED {os.path.join(folder, name)}: a student's code wrote into the reports")
                failures += 1
    for case, patterns in expected.items():
        path = os.path.join(out, "students", case, "grade.json")
        if cases[case].get("requires") == "root" and os.geteuid() != 0:
            print(f"\n{case}: not graded (only as root, with the sandbox)")
            continue
        if not os.path.exists(path):
            print(f"\nMISSING {case}: no {path} (its exercise folder absent?)")
            failures += 1
            continue
        with open(path) as f:
            doc = json.load(f)
        score, max_score = reports.totals(doc)
        print(f"\n{case}: {reports.fmt_points(score)}/{reports.fmt_points(max_score)} in {doc['wall_s']:.0f} s"
              f" ({reports.environment_line(doc)})")
        for p in reports.parts_of(doc):
            key = f"{p.exercise}/{p.part}"
            want = next((v for k, v in patterns.items() if fnmatch.fnmatchcase(key, k)), None)
            ok = (p.status == "passed" and p.points >= p.max_points - 1e-9) if want == "full" else p.status == want
            missing = [q for q in quotes[case].get(key, []) if q not in p.message]
            log = part_log(out, case, p)
            missing += [f"(log) {q}" for q in cases[case].get("log_quote", {}).get(key, []) if q not in log]
            missing += [f"(log, must not) {q}" for q in cases[case].get("log_refuse", {}).get(key, []) if q in log]
            ok = ok and not missing
            failures += 0 if ok else 1
            timing = "" if p.ratio is None else f"  {p.student_ms:.4g} ms vs {p.reference_ms:.4g} ms = {p.ratio:.2f}x"
            print(f"  {'ok  ' if ok else 'FAIL'} {key:48s} {p.status:18s} {reports.fmt_points(p.points):>5s}/"
                  f"{reports.fmt_points(p.max_points):<3s} expected {want}{timing}")
            for q in missing:
                print(f"       the message does not quote: {q}")
            if not ok and p.message:
                print("       " + p.message.replace("\n", "\n       ")[:600])
    print(f"\nverify: {'every part as expected' if failures == 0 else f'{failures} part(s) not as expected'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
