#!/usr/bin/env python3
"""After `make run` in the students' copy (gpu_run.sh release): every reference implementation,
compiled from prebuilt/, passed its check and was timed beside the library baseline; the
student's starter was checked (and fails, as a starter does).

Usage: check_release.py RELEASE EXERCISE..."""
import json
import os
import sys


def main() -> int:
    root, exercises = sys.argv[1], sys.argv[2:]
    ok = True
    for ex in exercises:
        path = os.path.join(root, ex, "build", "results.json")
        try:
            with open(path) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{ex}: no results file ({e})")
            ok = False
            continue
        checks = r.get("check_summary", {})
        timed = sorted({row.get("impl") for row in r.get("bench", [])})
        failing = [k for k, v in checks.items() if k != "student" and v.get("failed")]
        counts = ", ".join(f"{k} {v.get('passed')}/{v.get('total')}" for k, v in checks.items())
        print(f"{ex}: checked {counts}; timed {', '.join(timed)}")
        if failing or "student" not in checks or len(timed) < 2:
            print(f"{ex}: FAILED: " + (f"references failing: {', '.join(failing)}" if failing else "too little ran"))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
