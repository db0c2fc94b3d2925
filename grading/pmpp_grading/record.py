"""The student's record (grade.json, written by reports.write_student_reports after every part):
a fresh one with every part "not run" (new_doc), a part's result put in its place (set_part),
the GPU the harness names (note_device)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Dict, List, Optional

from . import reports, scoring
from .course import Exercise
from .scoring import PartResult
from .settings import Settings


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


def set_part(doc: dict, result: PartResult) -> None:
    for e in doc["exercises"]:
        if e["exercise"] == result.exercise:
            for i, p in enumerate(e["parts"]):
                if p["part"] == result.part:
                    e["parts"][i] = result.to_json()
                    return
    raise KeyError(result.part)


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
