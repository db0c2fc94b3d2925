"""The untimed parts' pool of runner.grade_tree (check parts and sanitizer runs, several at a
time; the performance parts run alone, after): in_slots runs the tasks, at most `slots` at once;
with more than one slot every check part and every tool of a sanitize part is a Task, in
pool_order (longest first, by the times of earlier submissions: TaskTimes), and a sanitize
part's tools (SanitizeTasks) start without waiting for the checks it
requires or for each other; the part is decided once they have all ended, as run one after the
other: a failing check makes it what scoring.prerequisite says, the speculative runs discarded,
and the first tool in the rubric's order that did not pass decides, those after it ignored.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, TypeVar

from . import sanitizer, scoring
from .course import Exercise
from .processes import CancelScope, StopSignal
from .rubric import CHECK, SANITIZE, Part
from .scoring import PartResult, RunOutcome

T = TypeVar("T")


def in_slots(fn: Callable[[T], None], items: Sequence[T], slots: int, name: str = "slot") -> None:
    """fn(item) for every item, at most `slots` at a time, started in the items' order; returns
    once every call has ended. The first exception a call raises (Interrupted: the run is being
    stopped, its processes killed) starts no further item and is raised once the calls still
    running have ended: no thread outlives this call. slots 1: one after another, here."""
    if slots <= 1 or len(items) <= 1:
        for item in items:
            fn(item)
        return
    lock = threading.Lock()
    waiting = list(items)
    errors: List[BaseException] = []

    def worker() -> None:
        while True:
            with lock:
                if errors or not waiting:
                    return
                item = waiting.pop(0)
            try:
                fn(item)
            except BaseException as e:  # noqa: B902 - raised in the calling thread
                with lock:
                    errors.append(e)
                return

    threads = [threading.Thread(target=worker, name=f"{name}-{k}", daemon=True) for k in range(min(slots, len(items)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


@dataclass
class ToolRun:
    """One tool's task of a SanitizeTasks, once it has ended."""
    verdict: Optional[sanitizer.ToolVerdict] = None  # None: not started (its part decided without it)
    outcome: Optional[RunOutcome] = None
    start: float = 0.0
    end: float = 0.0


class SanitizeTasks:
    """A sanitize part in the untimed pool: each tool one task, started whenever a slot is free,
    maybe before the check parts it requires have ended (speculatively). The part is decided
    once its tools and those checks have all ended (result): the checks' prerequisite first,
    exactly as run one after the other, then the tools' verdicts in the rubric's order, the
    first that did not pass deciding. A tool whose verdict cannot count is not started, or
    killed if it runs (cancel): a required check did not pass, or a tool before it did not.
    Its fields change under runner.grade_tree's lock."""

    def __init__(self, ex: Exercise, part: Part, env: Dict[str, str], stop: StopSignal):
        self.ex, self.part = ex, part
        self.found, self.looked = sanitizer.find(ex.nvcc, env)
        # Its processes, each one task: a tool, or each shard of a tool ("racecheck 2/3"), as
        # part.runs orders them; "tool" below means one of these.
        self.tools: List[str] = list(part.runs) if self.found else []
        self.scopes = {tool: CancelScope(stop) for tool in self.tools}
        self.runs: Dict[str, ToolRun] = {}
        self.decided = False

    def needless(self, tool: str, checks: Dict[str, PartResult]) -> bool:
        """Whether the tool's verdict can no longer count: a required check ended without passing,
        or a tool before it in the rubric's order did."""
        if any(name in checks and checks[name].status != scoring.PASSED for name in self.part.requires):
            return True
        before = (self.runs.get(t) for t in self.tools[:self.tools.index(tool)])
        return any(r is not None and r.verdict is not None and r.verdict.status != scoring.PASSED for r in before)

    def cancel(self, after: Optional[str] = None) -> None:
        """Kills the tools' runs (those after `after` only, when given), now or when they start."""
        for tool in self.tools[self.tools.index(after) + 1:] if after else self.tools:
            self.scopes[tool].cancel()

    def ready(self, checks: Dict[str, PartResult]) -> bool:
        """Every tool's task and every required check has ended, and the part is not decided yet
        (True once: the caller decides it)."""
        if self.decided or len(self.runs) < len(self.tools) or any(n not in checks for n in self.part.requires):
            return False
        self.decided = True
        return True

    def result(self, checks: Dict[str, PartResult]) -> (PartResult, List[RunOutcome], List[str]):
        """The part's result, the outcomes that count, and the tools whose runs do not (their
        files are not the part's)."""
        blocked = scoring.prerequisite(self.part, checks)
        if blocked is not None:
            return blocked, [], self.tools  # as if the tools had never run
        if self.found is None:
            return sanitizer.not_found(self.part, self.looked), [], []
        verdicts, outcomes = [], []
        for tool in self.tools:
            run = self.runs[tool]
            verdicts.append(run.verdict)  # never None here: a tool is skipped only after a failure before it
            outcomes.append(run.outcome)
            if run.verdict.status != scoring.PASSED:
                break
        ran = [r for r in self.runs.values() if r.verdict is not None]
        wall = max(r.end for r in ran) - min(r.start for r in ran)
        walls = {tool: self.runs[tool].end - self.runs[tool].start for tool in self.tools[:len(verdicts)]}
        return (sanitizer.judge_sanitize(self.part, verdicts, wall, self.found, walls), outcomes,
                self.tools[len(verdicts):])


@dataclass
class Task:
    """One process of the untimed pool: a check part, or one tool of a sanitize part."""
    ex: Exercise
    part: Part
    sanitize: Optional[SanitizeTasks] = None
    tool: Optional[str] = None


class TaskTimes:
    """How long each untimed task (a check part, one tool of a sanitize part) took when it last
    ran to a pass: the order of the next submission's pool (pool_order). One batch's workers
    share it; seeded from the reports already in the output folder (learn), so that a resumed
    batch or a second grading of one submission starts with it too. Only passes count: a check
    that failed early, or a run killed because its verdict could not count, says nothing of
    how long the task takes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds: Dict[str, float] = {}

    @staticmethod
    def key(exercise: str, part: str, tool: Optional[str] = None) -> str:
        return f"{exercise}/{part}" + (f" [{tool}]" if tool else "")

    def of(self, task: "Task") -> Optional[float]:
        with self._lock:
            return self._seconds.get(self.key(task.ex.name, task.part.name, task.tool))

    def saw(self, task: "Task", seconds: float) -> None:
        with self._lock:
            self._seconds[self.key(task.ex.name, task.part.name, task.tool)] = float(seconds)

    def learn(self, docs: Sequence[dict]) -> None:
        """The passed check and sanitize parts of earlier reports (grade.json documents), oldest
        first, so that the newest time of a task is kept. A sanitize tool's time is its own
        (details.tool_wall_s); in a report from before those, the part's wall time, which spans
        its tools' runs (an over-estimate for the shorter)."""
        def finished(doc: dict) -> str:
            return str(doc.get("finished") or "")

        def dicts(value) -> List[dict]:  # a report's list of objects; anything else: none
            return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []

        for doc in sorted(dicts(list(docs)), key=finished):
            for e in dicts(doc.get("exercises")):
                for p in dicts(e.get("parts")):
                    wall = p.get("wall_s")
                    if p.get("status") != scoring.PASSED or not isinstance(wall, (int, float)):
                        continue
                    if p.get("kind") == CHECK:
                        keys = [(self.key(e.get("exercise"), p.get("part")), wall)]
                    elif p.get("kind") == SANITIZE:
                        details = p.get("details") if isinstance(p.get("details"), dict) else {}
                        tools = details.get("tools")
                        own = details.get("tool_wall_s") if isinstance(details.get("tool_wall_s"), dict) else {}
                        keys = [(self.key(e.get("exercise"), p.get("part"), t),
                                 own[t] if isinstance(own.get(t), (int, float)) else wall)
                                for t in (tools if isinstance(tools, list) else []) if isinstance(t, str)]
                    else:
                        continue
                    with self._lock:
                        for k, seconds in keys:
                            self._seconds[k] = float(seconds)

    def __len__(self) -> int:
        with self._lock:
            return len(self._seconds)


def pool_order(exercises: List[Tuple[List[Task], List[Task]]], times: Optional[TaskTimes] = None) -> List[Task]:
    """The untimed pool's tasks, from each exercise's (check tasks, sanitize tool tasks).

    With the times of earlier submissions (TaskTimes): longest first, so that the long tails
    (06's sanitizer runs, 50 s on an H200, against 3 s for 02's check) start at once and the
    short tasks fill the slots around them; a task with no time yet goes first (it may be
    long), ties in the order below. Measured on an H200 with 8 slots: the order below started
    06's tools 9 s late, when the first short checks ended, and its sanitize part ended the
    untimed phase (109 s in all).

    Without times (the batch's first submission): every exercise's first check, then every
    exercise's sanitize tools (exercise after exercise, each part's in the rubric's order), then
    the remaining checks. With a slot an exercise (8 on an H200 for the course's 8), every
    exercise starts at once, with the task that decides whether the rest counts (a failing
    check kills its tools' runs) and is often its longest; the sanitizer's runs, 10-100x slower
    a case, are the long tails, so they come next, before the few second checks (07's alone in
    the course's rubric), the only checks that wait behind sanitizer runs."""
    firsts = [checks[0] for checks, _ in exercises if checks]
    order = (firsts + [t for _, tools in exercises for t in tools]
             + [t for checks, _ in exercises for t in checks[1:]])
    if times is None or len(times) == 0:
        return order

    def longest_first(task: Task) -> float:
        seconds = times.of(task)
        return -(math.inf if seconds is None else seconds)

    return sorted(order, key=longest_first)  # stable: ties keep the order above
