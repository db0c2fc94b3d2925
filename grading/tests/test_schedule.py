"""The order in which grade_tree (runner.py) runs one student's parts, on the stand-in course:
the untimed parts (check parts, and each tool of a sanitize part) side by side,
Settings.untimed_slots processes at a time, a sanitize part's tools beside each other and
beside its exercise's checks, and never side by side with one slot (each exercise's checks,
then its tools in order); then every performance part alone; a failing check still skips its
exercise's sanitize and performance parts, the sanitizer's runs started beside it discarded;
a sanitize part scores as with one slot whichever of its tools fails; the reports keep the
rubric's order; a stop leaves valid reports and no thread behind; once earlier submissions'
times are known (untimed.TaskTimes, learned from their reports or recorded as tasks pass) the
pool starts the longest tasks first, the records unchanged.
Every harness run is timed in this process (runner.run_harness wrapped), so the tests read
when each process ran. Then the default number of slots (settings.default_untimed_slots, the
GPU's memory from a stand-in nvidia-smi), the command line's --untimed-parallel, and the
performance parts' --section."""
import os
import shutil
import tempfile
import threading
import time
import unittest
from dataclasses import dataclass
from typing import List
from unittest import mock

from pmpp_grading import cli, course, record, runner, scoring, session, settings, untimed
from pmpp_grading.processes import Interrupted, StopSignal
from pmpp_grading.rubric import PERFORMANCE, Part, parse_rubric
from files import load, write
from machine import StandInMachine
from processes import alive

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
EXERCISES = ("01_alpha", "02_beta")
DELAYED = "behaviour=pass\nms=1.0\ndelay=0.2\n"  # every harness run of it takes 0.2 s more

# Parts of one kind listed apart from each other, a performance part before its checks: the
# reports must keep this order whatever order the parts run in.
RUBRIC = """
[defaults]
check_timeout = 20
bench_timeout = 20
sanitize_timeout = 20
performance_tries = 1

[01_alpha/correctness]
type = check
points = 6

[01_alpha/sanitize]
type = sanitize
points = 1
tools = memcheck racecheck
max_size = 2^10

[01_alpha/performance]
type = performance
points = 4
args = --size 2^20

[02_beta/performance vs seed]
type = performance
points = 5
reference = seed
section = *

[02_beta/correctness]
type = check
points = 4

[02_beta/sanitize]
type = sanitize
points = 1
tools = memcheck
max_size = 2^10

[02_beta/second check]
type = check
points = 1
"""


@dataclass
class Run:
    exercise: str
    kind: str      # check, sanitize, performance
    start: float
    end: float
    argv: List[str]

    @property
    def tool(self):
        return self.argv[self.argv.index("--tool") + 1] if self.kind == "sanitize" else None

    @property
    def shard(self):
        return self.argv[self.argv.index("--shard") + 1] if "--shard" in self.argv else None

    def overlaps(self, other: "Run") -> bool:
        return self.start < other.end and other.start < self.end


def kind_of(argv: List[str]) -> str:
    if os.path.basename(argv[0]) == "compute-sanitizer":
        return "sanitize"
    return "performance" if "--bench" in argv else "check"


def exercise_of(argv: List[str]) -> str:
    return next(e for e in EXERCISES if any(f"{os.sep}{e}{os.sep}" in a for a in argv))


class Graded:
    """One grade_tree of a fresh copy of the stand-in course with RUBRIC, its runs recorded."""

    def __init__(self, slots: int, alpha: str = DELAYED, beta: str = DELAYED, stop_when=None, times=None,
                 rubric: str = RUBRIC):
        self.tmp = tempfile.mkdtemp()
        try:
            self._grade(slots, alpha, beta, stop_when, times, rubric)
        except BaseException:
            shutil.rmtree(self.tmp)
            raise

    def _grade(self, slots, alpha, beta, stop_when, times, rubric):
        self.tree = os.path.join(self.tmp, "course")
        shutil.copytree(FAKE, self.tree)
        write(os.path.join(self.tree, "01_alpha", "alpha_student.txt"), alpha)
        write(os.path.join(self.tree, "02_beta", "beta_student.txt"), beta)
        self.out = os.path.join(self.tmp, "out")
        self.pids = os.path.join(self.tmp, "pids")
        os.makedirs(self.pids)
        self.rubric = parse_rubric(rubric)
        self.lines: List[str] = []
        self.runs: List[Run] = []
        self.error = None
        self.settings = settings.Settings(rubric=self.rubric, seed=42, stop=StopSignal(),
                                          progress=lambda who, text: self.lines.append(text), make_jobs=1,
                                          build_slots=2, untimed_slots=slots)
        if times is not None:
            self.settings.untimed_times = times
        original = runner.run_harness
        lock = threading.Lock()

        def recorded(argv, *args, **kwargs):
            t0 = time.monotonic()
            try:
                return original(argv, *args, **kwargs)
            finally:
                with lock:
                    self.runs.append(Run(exercise_of(argv), kind_of(argv), t0, time.monotonic(), list(argv)))

        with StandInMachine(os.path.join(self.tmp, "machine")):
            os.environ["FAKE_PID_DIR"] = self.pids
            exercises = [course.read_info(self.tree, e) for e in EXERCISES]
            self.doc = record.new_doc("student", self.tree, "the stand-in course", self.settings, exercises, {})
            watcher = None
            if stop_when is not None:
                watcher = threading.Thread(target=self._stop_when, args=(stop_when,), daemon=True)
                watcher.start()
            with mock.patch.object(runner, "run_harness", side_effect=recorded):
                try:
                    runner.grade_tree(self.tree, exercises, self.doc, self.out, self.settings, None)
                except Interrupted as e:
                    self.error = e
            self.threads_after = [t.name for t in threading.enumerate() if t.name.startswith("untimed-")]
            if watcher is not None:
                watcher.join()
        self.runs.sort(key=lambda r: r.start)

    def _stop_when(self, ready):
        deadline = time.monotonic() + 30
        while not ready(self) and time.monotonic() < deadline:
            time.sleep(0.02)
        self.settings.stop.stop()

    def of(self, exercise=None, kind=None, tool=None) -> List[Run]:
        return [r for r in self.runs if exercise in (None, r.exercise) and kind in (None, r.kind)
                and tool in (None, r.tool)]

    def part(self, key) -> dict:
        exercise, part = key.split("/", 1)
        return next(p for e in self.doc["exercises"] if e["exercise"] == exercise for p in e["parts"]
                    if p["part"] == part)

    def untimed_parts(self) -> dict:
        """Every check and sanitize part's record but its wall times (the sanitizer's path: its name)."""
        out = {}
        for e in self.doc["exercises"]:
            for p in (p for p in e["parts"] if p["kind"] != PERFORMANCE):
                p = {k: v for k, v in p.items() if k != "wall_s"}
                p["details"] = {k: v for k, v in p["details"].items() if k != "tool_wall_s"}
                if "sanitizer" in p["details"]:
                    p["details"] = dict(p["details"], sanitizer=os.path.basename(p["details"]["sanitizer"]))
                out[f"{e['exercise']}/{p['part']}"] = p
        return out

    def most_at_once(self) -> int:
        return max(sum(1 for o in self.runs if o.start <= r.start < o.end) for r in self.runs)

    def status(self, key):
        exercise, part = key.split("/", 1)
        return next((p["status"], p["points"]) for e in self.doc["exercises"] if e["exercise"] == exercise
                    for p in e["parts"] if p["part"] == part)

    def started(self) -> List[int]:
        """The processes the stand-in harness and sanitizer started (FAKE_PID_DIR)."""
        out = []
        for name in os.listdir(self.pids):
            with open(os.path.join(self.pids, name)) as f:
                out.append(int(f.read()))
        return out

    def close(self):
        shutil.rmtree(self.tmp)


class SideBySide(unittest.TestCase):
    """Every part passes: graded with 2 slots and with 1."""

    @classmethod
    def setUpClass(cls):
        cls.two = Graded(slots=2)
        cls.one = Graded(slots=1)

    @classmethod
    def tearDownClass(cls):
        cls.two.close()
        cls.one.close()

    def test_everything_passes_either_way(self):
        for g in (self.two, self.one):
            statuses = {p["status"] for e in g.doc["exercises"] for p in e["parts"]}
            self.assertEqual(statuses, {scoring.PASSED}, g.lines)
            self.assertTrue(g.doc["complete"])
            # 01: check, memcheck, racecheck, reference and student; 02: two checks, memcheck, student.
            self.assertEqual(len(g.runs), 9, g.runs)

    def test_untimed_parts_of_different_exercises_overlap_with_two_slots(self):
        pairs = [(a, b) for a in self.two.of("01_alpha") for b in self.two.of("02_beta")
                 if a.kind != "performance" and b.kind != "performance" and a.overlaps(b)]
        self.assertTrue(pairs, self.two.runs)

    def test_with_one_slot_no_two_processes_overlap(self):
        runs = self.one.runs
        self.assertEqual([(a, b) for i, a in enumerate(runs) for b in runs[i + 1:] if a.overlaps(b)], [])

    def test_with_one_slot_each_exercise_s_checks_come_first_then_its_sanitizer_tools_in_order(self):
        for exercise in EXERCISES:
            kinds = [r.kind for r in self.one.of(exercise)]
            self.assertEqual(kinds, sorted(kinds, key=("check", "sanitize", "performance").index), kinds)
        self.assertEqual([r.tool for r in self.one.of("01_alpha", "sanitize")], ["memcheck", "racecheck"])
        # The exercises one after the other, as before: 01's untimed runs all end before 02's start.
        self.assertLessEqual(max(r.end for r in self.one.of("01_alpha") if r.kind != "performance"),
                             min(r.start for r in self.one.of("02_beta")))

    def test_never_more_processes_at_once_than_slots(self):
        self.assertEqual(self.one.most_at_once(), 1)
        self.assertLessEqual(self.two.most_at_once(), 2)

    def test_with_two_slots_every_exercise_s_first_check_starts_first(self):
        first = {(r.exercise, r.kind) for r in self.two.runs[:2]}
        self.assertEqual(first, {("01_alpha", "check"), ("02_beta", "check")}, self.two.runs)

    def test_a_performance_part_never_runs_beside_any_other_part(self):
        for g in (self.two, self.one):
            timed = g.of(kind="performance")
            self.assertEqual(len(timed), 3)
            for r in timed:
                self.assertEqual([o for o in g.runs if o is not r and o.overlaps(r)], [], r)
            last_untimed = max(r.end for r in g.runs if r.kind != "performance")
            self.assertTrue(all(r.start >= last_untimed for r in timed))

    def test_the_performance_parts_run_in_the_exercise_and_rubric_order(self):
        timed = [(r.exercise, "reference" if "alpha_solution" in r.argv[0] else "student")
                 for r in self.two.of(kind="performance")]
        self.assertEqual(timed, [("01_alpha", "reference"), ("01_alpha", "student"), ("02_beta", "student")])

    def test_the_reports_keep_the_rubric_s_order(self):
        wanted = [[p.name for p in self.two.rubric.parts_for(e)] for e in EXERCISES]
        self.assertEqual(wanted[1], ["performance vs seed", "correctness", "sanitize", "second check"])
        for g in (self.two, self.one):
            on_disk = load(os.path.join(g.out, "grade.json"))
            self.assertEqual([[p["part"] for p in e["parts"]] for e in on_disk["exercises"]], wanted)
            tests = [t["name"] for t in load(os.path.join(g.out, "results.json"))["tests"]]
            self.assertEqual(tests, [f"{e}: {p}" for e, parts in zip(EXERCISES, wanted) for p in parts])

    def test_the_record_says_how_the_parts_ran(self):
        self.assertEqual(self.two.doc["environment"]["untimed_slots"], 2)
        self.assertEqual(self.one.doc["environment"]["untimed_slots"], 1)
        with open(os.path.join(self.two.out, "report.html"), encoding="utf-8") as f:
            self.assertIn("<th>parts run</th><td>checks and sanitizer runs up to 2 at once (rubric order, no earlier "
                          "times), then each performance part alone on the GPU</td>", f.read())

    def test_no_pool_thread_outlives_the_grading(self):
        self.assertEqual((self.two.threads_after, self.one.threads_after), ([], []))

    def test_a_part_that_reads_one_table_asks_the_harness_for_it_both_runs_alike(self):
        alpha = self.two.of("01_alpha", "performance")  # section: the default, kernel
        self.assertEqual(len(alpha), 2)
        for r in alpha:
            i = r.argv.index("--section")
            self.assertEqual(r.argv[i + 1], "kernel", r.argv)
        reference, student = (r.argv[r.argv.index("--json") + 2:] for r in alpha)
        self.assertEqual(reference[:4], student[:4])  # the same --section and args
        self.assertEqual(reference[:4], ["--section", "kernel", "--size", "2^20"])
        # What the harness was given, as its results file records it.
        doc = load(os.path.join(self.two.out, "logs", "01_alpha", "performance.reference.json"))
        self.assertIn("--section", doc["command"])

    def test_a_part_that_reads_every_row_passes_no_section(self):
        (beta,) = self.two.of("02_beta", "performance")  # section = *
        self.assertNotIn("--section", beta.argv)
        for r in self.two.of(kind="check") + self.two.of(kind="sanitize"):
            self.assertNotIn("--section", r.argv)


class AFailingCheck(unittest.TestCase):
    def test_it_skips_its_sanitize_and_performance_parts_and_no_other_exercise_s(self):
        g = Graded(slots=2, beta="behaviour=wrong\n")
        try:
            self.assertEqual(g.status("02_beta/correctness")[0], scoring.WRONG)
            self.assertEqual(g.status("02_beta/second check")[0], scoring.WRONG)
            self.assertEqual(g.status("02_beta/sanitize"), (scoring.SKIPPED, 0.0))
            self.assertEqual(g.status("02_beta/performance vs seed"), (scoring.SKIPPED, 0.0))
            # Its memcheck was to start once 01's check and 02's first had ended: 02's had failed.
            self.assertEqual([r.kind for r in g.of("02_beta")], ["check", "check"])
            self.assertNotIn("logs", g.part("02_beta/sanitize")["details"])
            for part in ("correctness", "sanitize", "performance"):
                self.assertEqual(g.status(f"01_alpha/{part}")[0], scoring.PASSED, g.lines)
            self.assertTrue(g.doc["complete"])
        finally:
            g.close()


class Speculative(unittest.TestCase):
    """Four slots: 01's check, 02's first check and 01's two sanitizer runs start together."""

    @classmethod
    def setUpClass(cls):
        cls.four = Graded(slots=4)
        cls.one = Graded(slots=1)

    @classmethod
    def tearDownClass(cls):
        cls.four.close()
        cls.one.close()

    def test_a_sanitizer_run_overlaps_its_exercise_s_check(self):
        (check,) = self.four.of("01_alpha", "check")
        for tool in ("memcheck", "racecheck"):
            (run,) = self.four.of("01_alpha", "sanitize", tool)
            self.assertTrue(run.overlaps(check), self.four.runs)

    def test_the_two_tools_of_one_part_overlap(self):
        (memcheck,) = self.four.of("01_alpha", "sanitize", "memcheck")
        (racecheck,) = self.four.of("01_alpha", "sanitize", "racecheck")
        self.assertTrue(memcheck.overlaps(racecheck), self.four.runs)

    def test_never_more_than_four_at_once_and_the_timings_alone(self):
        self.assertEqual(self.four.most_at_once(), 4)
        for r in self.four.of(kind="performance"):
            self.assertEqual([o for o in self.four.runs if o is not r and o.overlaps(r)], [], r)

    def test_the_part_s_wall_time_spans_its_tools(self):
        tools = self.four.of("01_alpha", "sanitize")
        span = max(r.end for r in tools) - min(r.start for r in tools)
        wall = self.four.part("01_alpha/sanitize")["wall_s"]
        self.assertLess(abs(wall - span), 0.2, (wall, span))
        self.assertLess(wall, sum(r.end - r.start for r in tools))  # not the sum: they overlapped

    def test_the_records_are_those_of_one_slot(self):
        self.assertEqual(self.four.untimed_parts(), self.one.untimed_parts())
        self.assertEqual(self.four.part("01_alpha/sanitize")["details"]["logs"],
                         [f"logs/01_alpha/sanitize.{tool}{end}" for tool in ("memcheck", "racecheck")
                          for end in (".log", ".sanitizer.log")])


SHARDED = RUBRIC.replace("tools = memcheck racecheck\nmax_size = 2^10\n",
                         "tools = memcheck racecheck\nmax_size = 2^10\nshards = racecheck:3\n")


class Shards(unittest.TestCase):
    """01's racecheck in 3 processes (`shards = racecheck:3`), each every third check case: side
    by side with four slots, one after the other with one; the same records either way."""

    @classmethod
    def setUpClass(cls):
        assert SHARDED != RUBRIC
        cls.four = Graded(slots=4, rubric=SHARDED)
        cls.one = Graded(slots=1, rubric=SHARDED)

    @classmethod
    def tearDownClass(cls):
        cls.four.close()
        cls.one.close()

    def test_each_shard_is_a_racecheck_process_of_its_own_third_of_the_cases(self):
        for g in (self.four, self.one):
            runs = g.of("01_alpha", "sanitize", "racecheck")
            self.assertEqual(sorted(r.shard for r in runs), ["1/3", "2/3", "3/3"], g.runs)
            (memcheck,) = g.of("01_alpha", "sanitize", "memcheck")
            self.assertIsNone(memcheck.shard)
            self.assertEqual(g.of("02_beta", "sanitize")[0].shard, None)

    def test_the_part_passes_over_every_case_once(self):
        for g in (self.four, self.one):
            part = g.part("01_alpha/sanitize")
            self.assertEqual((part["status"], part["points"]), (scoring.PASSED, 1.0), part["message"])
            self.assertEqual(part["message"], "memcheck and racecheck (in 3 processes) found no errors over 10 check "
                                              "case(s) up to n = 1024")
            self.assertEqual(part["details"]["cases"], 10)
            self.assertEqual(part["details"]["tools"], ["memcheck", "racecheck 1/3", "racecheck 2/3", "racecheck 3/3"])
            self.assertEqual(sorted(part["details"]["tool_wall_s"]), sorted(part["details"]["tools"]))

    def test_the_shards_run_side_by_side_with_four_slots(self):
        runs = self.four.of("01_alpha", "sanitize", "racecheck")
        self.assertTrue(any(a.overlaps(b) for a in runs for b in runs if a is not b), self.four.runs)
        self.assertLessEqual(self.four.most_at_once(), 4)

    def test_the_records_are_those_of_one_slot_with_a_log_per_shard(self):
        self.assertEqual(self.four.untimed_parts(), self.one.untimed_parts())
        self.assertEqual(self.four.part("01_alpha/sanitize")["details"]["logs"],
                         [f"logs/01_alpha/sanitize.{run}{end}" for run in ("memcheck", "racecheck_1_3",
                                                                            "racecheck_2_3", "racecheck_3_3")
                          for end in (".log", ".sanitizer.log")])

    def test_the_next_pool_knows_each_shard_s_own_time(self):
        times = untimed.TaskTimes()
        times.learn([self.four.doc])
        part = next(p for p in self.four.rubric.parts_for("01_alpha") if p.name == "sanitize")
        ex = course.Exercise("01_alpha", "alpha", (), (), "", "nvcc")
        walls = self.four.part("01_alpha/sanitize")["details"]["tool_wall_s"]
        for run in part.runs:
            self.assertAlmostEqual(times.of(untimed.Task(ex, part, tool=run)), walls[run])


class ASpeculativeRunOfAFailingCheck(unittest.TestCase):
    def test_is_killed_and_the_part_skipped_as_with_one_slot_with_no_log_of_it(self):
        # 02's check fails after 0.5 s; its memcheck, started beside it, would hang till its 20 s timeout.
        beta = "behaviour=wrong\ndelay=0.5\nsanitizer=hang\n"
        t0 = time.monotonic()
        g = Graded(slots=8, beta=beta)
        took = time.monotonic() - t0
        one = Graded(slots=1, beta=beta)
        try:
            self.assertLess(took, 12)
            (memcheck,) = g.of("02_beta", "sanitize")
            first = g.of("02_beta", "check")[0]
            self.assertTrue(memcheck.overlaps(first))
            self.assertLess(memcheck.end, max(r.end for r in g.of("02_beta", "check")) + 3)  # killed
            self.assertEqual(one.of("02_beta", "sanitize"), [])
            self.assertEqual(g.status("02_beta/sanitize"), (scoring.SKIPPED, 0.0))
            self.assertEqual(g.untimed_parts(), one.untimed_parts())
            self.assertNotIn("logs", g.part("02_beta/sanitize")["details"])
            self.assertEqual([f for f in os.listdir(os.path.join(g.out, "logs", "02_beta")) if "sanitize" in f], [])
            with open(os.path.join(g.out, "report.html"), encoding="utf-8") as f:
                self.assertNotIn("02_beta/sanitize.", f.read())
            started = g.started()
            self.assertEqual([p for p in started if alive(p)], [])
        finally:
            g.close()
            one.close()


class ToolOrder(unittest.TestCase):
    """01's sanitize part, memcheck then racecheck: the first tool that does not pass decides,
    with four slots (both run at once) as with one (the second not run after a failing first)."""

    def grade_both(self, alpha):
        four, one = Graded(slots=4, alpha=alpha), Graded(slots=1, alpha=alpha)
        self.addCleanup(four.close)
        self.addCleanup(one.close)
        self.assertEqual(four.untimed_parts(), one.untimed_parts())
        return four, one

    def test_a_failing_first_tool_decides_though_the_second_passed(self):
        four, one = self.grade_both(DELAYED + "sanitizer_error=memcheck alpha_student.txt:15\n")
        part = four.part("01_alpha/sanitize")
        self.assertEqual((part["status"], part["points"]), (scoring.SANITIZER, 0.0))
        self.assertTrue(part["message"].startswith("memcheck: "), part["message"])
        self.assertEqual(part["details"]["tools"], ["memcheck"])
        self.assertEqual(part["details"]["logs"], ["logs/01_alpha/sanitize.memcheck.log",
                                                   "logs/01_alpha/sanitize.memcheck.sanitizer.log"])
        self.assertEqual(sorted(r.tool for r in four.of("01_alpha", "sanitize")), ["memcheck", "racecheck"])  # at once
        self.assertEqual([r.tool for r in one.of("01_alpha", "sanitize")], ["memcheck"])
        self.assertFalse(os.path.exists(os.path.join(four.out, "logs", "01_alpha", "sanitize.racecheck.log")))

    def test_each_tool_s_own_time_is_recorded_with_one_slot_as_with_four(self):
        four, one = self.grade_both(DELAYED)
        for graded in (four, one):
            part = graded.part("01_alpha/sanitize")
            self.assertEqual(part["status"], scoring.PASSED)
            walls = part["details"]["tool_wall_s"]
            self.assertEqual(sorted(walls), ["memcheck", "racecheck"])
            self.assertTrue(all(0 < s <= part["wall_s"] + 0.01 for s in walls.values()), (walls, part["wall_s"]))

    def test_a_passing_first_tool_and_a_failing_second_give_the_second_s_verdict(self):
        four, one = self.grade_both(DELAYED + "sanitizer_error=racecheck alpha_student.txt:21\n")
        part = four.part("01_alpha/sanitize")
        self.assertEqual((part["status"], part["points"]), (scoring.SANITIZER, 0.0))
        self.assertTrue(part["message"].startswith("racecheck: "), part["message"])
        self.assertEqual(part["details"]["tools"], ["memcheck", "racecheck"])
        self.assertEqual([r.tool for r in one.of("01_alpha", "sanitize")], ["memcheck", "racecheck"])


def times_of(seconds: dict) -> untimed.TaskTimes:
    """A TaskTimes that knows `seconds` ({"EXERCISE/PART" or "EXERCISE/PART [TOOL]": s})."""
    times = untimed.TaskTimes()
    for key, value in seconds.items():
        head, _, tool = key.partition(" [")
        exercise, part = head.split("/", 1)
        task = untimed.Task(mock.Mock(), Part(exercise=exercise, name=part, kind="check", points=1),
                            tool=tool.rstrip("]") or None)
        task.ex.name = exercise
        times.saw(task, value)
    return times


def stand_in_tasks(rubric):
    """pool_order's input for every exercise of `rubric`, the exercises stand-ins."""
    exercises = []
    for name in sorted(e for e in rubric.parts if e != "*"):
        ex = mock.Mock()
        ex.name = name
        parts = rubric.parts_for(name)
        exercises.append(([untimed.Task(ex, p) for p in parts if p.kind == "check"],
                          [untimed.Task(ex, p, tool=tool) for p in parts if p.kind == "sanitize" for tool in p.tools]))
    return exercises


def named(tasks):
    return [f"{t.ex.name}/{t.part.name}" + (f" [{t.tool}]" if t.tool else "") for t in tasks]


class PoolOrder(unittest.TestCase):
    def test_first_checks_then_sanitizer_tools_then_the_other_checks(self):
        with open(os.path.join(os.path.dirname(HERE), "rubric.ini"), encoding="utf-8") as f:
            rubric = parse_rubric(f.read())
        names = sorted(e for e in rubric.parts if e != "*")
        order = [(t.ex.name, t.tool or t.part.name) for t in untimed.pool_order(stand_in_tasks(rubric))]
        firsts = [(n, next(p.name for p in rubric.parts_for(n) if p.kind == "check")) for n in names]
        self.assertEqual(order[:len(names)], firsts)
        self.assertEqual(order[len(names):len(names) + 3], [("01_saxpy", "memcheck"), ("02_scan", "memcheck"),
                                                            ("02_scan", "racecheck")])
        self.assertEqual(order[-1], ("07_merge_sort", "sort (task 4)"))  # the only second check
        self.assertEqual(sorted(order), sorted(
            [(n, p.name) for n in names for p in rubric.parts_for(n) if p.kind == "check"]
            + [(n, t) for n in names for p in rubric.parts_for(n) if p.kind == "sanitize" for t in p.tools]))


class PoolOrderByTimes(unittest.TestCase):
    """With the times of earlier submissions, the pool starts the longest tasks first."""

    def setUp(self):
        self.rubric = parse_rubric(RUBRIC)
        self.tasks = stand_in_tasks(self.rubric)
        self.without = named(untimed.pool_order(self.tasks))

    def test_no_times_or_an_empty_record_keep_the_rubric_s_order(self):
        self.assertEqual(self.without, ["01_alpha/correctness", "02_beta/correctness", "01_alpha/sanitize [memcheck]",
                                        "01_alpha/sanitize [racecheck]", "02_beta/sanitize [memcheck]",
                                        "02_beta/second check"])
        self.assertEqual(named(untimed.pool_order(self.tasks, untimed.TaskTimes())), self.without)

    def test_longest_first(self):
        times = times_of({"01_alpha/correctness": 3, "02_beta/correctness": 1, "01_alpha/sanitize [memcheck]": 20,
                          "01_alpha/sanitize [racecheck]": 50, "02_beta/sanitize [memcheck]": 2,
                          "02_beta/second check": 9})
        self.assertEqual(named(untimed.pool_order(self.tasks, times)),
                         ["01_alpha/sanitize [racecheck]", "01_alpha/sanitize [memcheck]", "02_beta/second check",
                          "01_alpha/correctness", "02_beta/sanitize [memcheck]", "02_beta/correctness"])

    def test_a_task_with_no_time_goes_first_and_ties_keep_the_rubric_s_order(self):
        times = times_of({"01_alpha/correctness": 5, "02_beta/correctness": 5, "01_alpha/sanitize [memcheck]": 5,
                          "02_beta/sanitize [memcheck]": 5, "02_beta/second check": 5})
        self.assertEqual(named(untimed.pool_order(self.tasks, times)),
                         ["01_alpha/sanitize [racecheck]", "01_alpha/correctness", "02_beta/correctness",
                          "01_alpha/sanitize [memcheck]", "02_beta/sanitize [memcheck]", "02_beta/second check"])

    def test_every_task_once_whatever_the_times(self):
        times = times_of({"02_beta/second check": 1000})
        self.assertEqual(sorted(named(untimed.pool_order(self.tasks, times))), sorted(self.without))


class TaskTimesLearned(unittest.TestCase):
    """TaskTimes.learn reads earlier reports: passed checks, and each tool of a passed sanitize part."""

    @staticmethod
    def report(finished, parts):
        return {"finished": finished, "exercises": [{"exercise": "01_alpha", "parts": parts}]}

    @staticmethod
    def part(name, kind, status, wall, tools=None):
        return {"part": name, "kind": kind, "status": status, "wall_s": wall,
                "details": {"tools": tools} if tools else {}}

    def test_passed_checks_and_every_tool_of_a_passed_sanitize_part(self):
        times = untimed.TaskTimes()
        times.learn([self.report("2026-12-02 10:00:00 UTC", [
            self.part("correctness", "check", "passed", 3.5),
            self.part("sanitize", "sanitize", "passed", 40.0, ["memcheck", "racecheck"]),
            self.part("performance", "performance", "passed", 9.0)])])
        order = named(untimed.pool_order(stand_in_tasks(parse_rubric(RUBRIC)), times))
        self.assertEqual(len(times), 3)
        # 02_beta's tasks have no time: first, in the rubric's order; then 01's, longest first
        self.assertEqual(order, ["02_beta/correctness", "02_beta/sanitize [memcheck]", "02_beta/second check",
                                 "01_alpha/sanitize [memcheck]", "01_alpha/sanitize [racecheck]",
                                 "01_alpha/correctness"])

    def test_each_tool_takes_its_own_time_when_the_report_has_it(self):
        times = untimed.TaskTimes()
        part = self.part("sanitize", "sanitize", "passed", 40.0, ["memcheck", "racecheck"])
        part["details"]["tool_wall_s"] = {"memcheck": 12.0, "racecheck": "slow"}  # racecheck's: not a time
        times.learn([self.report("2026-12-02 10:00:00 UTC", [part])])
        tasks = {t.tool: t for t in untimed.pool_order(stand_in_tasks(parse_rubric(RUBRIC)))
                 if t.tool and t.ex.name == "01_alpha"}
        self.assertEqual(times.of(tasks["memcheck"]), 12.0)
        self.assertEqual(times.of(tasks["racecheck"]), 40.0)  # the part's wall time stands in

    def test_a_part_that_did_not_pass_or_has_no_time_teaches_nothing(self):
        times = untimed.TaskTimes()
        times.learn([self.report("2026-12-02 10:00:00 UTC", [
            self.part("correctness", "check", "wrong result", 0.4),
            self.part("sanitize", "sanitize", "skipped", 0.0, ["memcheck"]),
            {"part": "broken", "kind": "check", "status": "passed"}, "not a part",
            {"part": "odd", "kind": "sanitize", "status": "passed", "wall_s": 1.0, "details": "tools"}]), {}, [],
            {"exercises": ["not an exercise", {"exercise": "01_alpha", "parts": None}]}, {"exercises": 3}])
        self.assertEqual(len(times), 0)

    def test_the_reports_of_an_output_folder_are_a_batch_s_students_and_a_submission_s_own(self):
        tmp = tempfile.mkdtemp()
        try:
            self.assertEqual(session.earlier_reports(tmp), [])
            write(os.path.join(tmp, "students", "ann", "grade.json"), '{"student": "ann"}')
            write(os.path.join(tmp, "students", "bob", "grade.json"), "{not json")
            write(os.path.join(tmp, "grade.json"), '{"student": "own"}')
            self.assertEqual([d["student"] for d in session.earlier_reports(tmp)], ["ann", "own"])
        finally:
            shutil.rmtree(tmp)

    def test_the_newest_report_s_time_wins(self):
        times = untimed.TaskTimes()
        newer = self.report("2026-12-02 11:00:00 UTC", [self.part("correctness", "check", "passed", 7.0)])
        older = self.report("2026-12-02 09:00:00 UTC", [self.part("correctness", "check", "passed", 2.0)])
        times.learn([newer, older])
        task = untimed.Task(mock.Mock(), Part(exercise="01_alpha", name="correctness", kind="check", points=1))
        task.ex.name = "01_alpha"
        self.assertEqual(times.of(task), 7.0)


class AnEarlierSubmissionsTimes(unittest.TestCase):
    """grade_tree records each passed task's time, and orders the next student's pool by them."""

    @classmethod
    def setUpClass(cls):
        cls.times = untimed.TaskTimes()
        cls.first = Graded(slots=2, times=cls.times)
        cls.learned = len(cls.times)
        # 02's sanitizer run and 01's racecheck "took longest": with two slots they start first
        cls.times.saw(next(t for t in cls.tasks() if t.tool == "memcheck" and t.ex.name == "02_beta"), 100.0)
        cls.times.saw(next(t for t in cls.tasks() if t.tool == "racecheck"), 90.0)
        cls.second = Graded(slots=2, times=cls.times)

    @classmethod
    def tearDownClass(cls):
        cls.first.close()
        cls.second.close()

    @staticmethod
    def tasks():
        return [t for checks, tools in stand_in_tasks(parse_rubric(RUBRIC)) for t in checks + tools]

    def test_every_task_that_passed_is_timed(self):
        self.assertEqual(self.learned, 6)

    def test_the_record_says_which_order_the_pool_took(self):
        self.assertEqual(self.first.doc["environment"]["untimed_order"], "rubric order, no earlier times")
        self.assertEqual(self.second.doc["environment"]["untimed_order"],
                         "longest first by the times of 6 tasks of earlier submissions")

    def test_the_longest_tasks_start_first(self):
        firsts = [(r.exercise, r.kind, r.tool) for r in self.second.runs[:2]]
        self.assertEqual(sorted(firsts), [("01_alpha", "sanitize", "racecheck"), ("02_beta", "sanitize", "memcheck")])
        self.assertEqual(sorted((r.exercise, r.kind) for r in self.first.runs[:2]),
                         [("01_alpha", "check"), ("02_beta", "check")])

    def test_the_order_changes_no_record(self):
        self.assertEqual(self.second.untimed_parts(), self.first.untimed_parts())


class Stopped(unittest.TestCase):
    def test_a_stop_while_parts_run_side_by_side_leaves_valid_reports_and_nothing_running(self):
        def ready(g):  # 01's check is recorded, 02's hangs: stop now
            log = os.path.join(g.out, "logs", "02_beta", "correctness.log")
            return any(l.startswith("01_alpha/correctness: passed") for l in g.lines) and os.path.exists(log)

        t0 = time.monotonic()
        g = Graded(slots=2, beta="behaviour=hang\n", stop_when=ready)
        try:
            self.assertIsInstance(g.error, Interrupted)
            self.assertLess(time.monotonic() - t0, 15)  # the hanging check (20 s timeout) was killed
            self.assertEqual(g.threads_after, [])
            started = g.started()
            deadline = time.monotonic() + 5
            while any(alive(p) for p in started) and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertEqual([p for p in started if alive(p)], [])
            doc = load(os.path.join(g.out, "grade.json"))
            self.assertFalse(doc["complete"])
            self.assertEqual(g.status("01_alpha/correctness")[0], scoring.PASSED)
            self.assertEqual(g.status("02_beta/correctness")[0], scoring.NOT_RUN)
            self.assertEqual(g.status("01_alpha/performance")[0], scoring.NOT_RUN)
            self.assertEqual(g.of(kind="performance"), [])
            self.assertIn("incomplete", load(os.path.join(g.out, "results.json"))["output"])
        finally:
            g.close()


class UntimedSlots(unittest.TestCase):
    """How many untimed parts run at once by default: min(cores / 2, GiB / 16, 8), at least 1."""

    def test_the_formula(self):
        slots = settings.default_untimed_slots
        self.assertEqual(slots(16, 139.0), 8)      # an H200 for one student of a 16-core machine
        self.assertEqual(slots(16, 140.4), 8)
        self.assertEqual(slots(64, 1000.0), 8)     # never more than 8
        self.assertEqual(slots(16, 15.0), 1)       # a 16 GB T4 reports 15 GiB: one at a time
        self.assertEqual(slots(16, 79.2), 4)       # an 80 GB A100
        self.assertEqual(slots(6, 139.0), 3)       # half the cores
        self.assertEqual(slots(1, 139.0), 1)       # at least 1
        self.assertEqual(slots(16, None), 1)       # the memory unknown (nvidia-smi failed)
        self.assertEqual(slots(16, 0.0), 1)

    def test_the_smallest_memory_of_the_gpus_and_none_if_one_is_unknown(self):
        sizes = {"0": 139.0, "1": 79.0, "2": None}
        least = settings.least_gpu_memory_gib
        self.assertEqual(least(["0", "1"], sizes.get), 79.0)
        self.assertIsNone(least(["0", "2"], sizes.get))
        self.assertIsNone(least([], sizes.get))

    def machine(self, gpus=("0", "1"), memory_mib="143771"):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        m = StandInMachine(tmp, gpus, memory_mib).__enter__()
        self.addCleanup(m.__exit__, None, None, None)
        return m.tools

    def test_the_memory_comes_from_nvidia_smi(self):
        self.machine(memory_mib="15360")
        self.assertEqual(settings.gpu_memory_gib("1"), 15.0)
        self.assertEqual(settings.gpu_memory_gib(None), 15.0)
        self.assertIsNone(settings.gpu_memory_gib("7"))  # no such GPU: nvidia-smi prints nothing

    def test_unknown_when_nvidia_smi_fails_or_is_missing_or_says_n_a(self):
        self.machine(gpus=())
        self.assertIsNone(settings.gpu_memory_gib("0"))
        tools = self.machine(memory_mib="[N/A]")
        self.assertIsNone(settings.gpu_memory_gib("0"))
        os.remove(os.path.join(tools, "nvidia-smi"))
        os.environ["PATH"] = tools
        self.assertIsNone(settings.gpu_memory_gib("0"))

    def grading(self, *options):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        repo = os.path.join(tmp, "course")
        shutil.copytree(FAKE, repo)
        args = cli.parse_args(["--repo", repo, "--rubric", os.path.join(repo, "rubric.ini"), "--no-sandbox",
                               "--quiet", *options])
        return session.Grading(args)

    def test_the_command_line_s_default_is_the_machine_s(self):
        self.machine(memory_mib="143771")
        self.assertEqual(self.grading("--jobs", "16").settings(1, 1).untimed_slots, 8)
        self.assertEqual(self.grading("--jobs", "6", "--gpus", "1").settings(1, 1).untimed_slots, 3)
        self.assertEqual(self.grading("--jobs", "2").settings(1, 1).untimed_slots, 1)

    def test_a_t4_or_no_answer_from_nvidia_smi_gets_one_slot(self):
        self.machine(memory_mib="15360")
        self.assertEqual(self.grading("--jobs", "16").settings(1, 1).untimed_slots, 1)
        self.machine(gpus=())
        self.assertEqual(self.grading("--jobs", "16").settings(1, 1).untimed_slots, 1)

    def test_untimed_parallel_decides_and_must_be_at_least_one(self):
        self.machine(memory_mib="15360")
        self.assertEqual(self.grading("--jobs", "2", "--untimed-parallel", "3").settings(1, 1).untimed_slots, 3)
        with mock.patch("sys.stderr"), self.assertRaises(SystemExit):
            cli.parse_args(["--untimed-parallel", "0"])

    def test_a_slurm_task_is_given_the_option(self):
        from pmpp_grading import batch
        args = cli.parse_args(["--submissions", "/x", "--slurm", "--untimed-parallel", "4"])
        setup = batch.BatchSetup("/x", "/out", [], {}, 1)
        line = batch.grader_args(args, setup)
        self.assertEqual(line[line.index("--untimed-parallel") + 1], "4")
        self.assertNotIn("--untimed-parallel", batch.grader_args(cli.parse_args(["--submissions", "/x"]), setup))


class InSlots(unittest.TestCase):
    """runner.in_slots: the pool itself."""

    def test_at_most_slots_at_once_and_every_item_once(self):
        running, most, seen, lock = [0], [0], [], threading.Lock()

        def one(item):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
                seen.append(item)
            time.sleep(0.05)
            with lock:
                running[0] -= 1

        runner.in_slots(one, list(range(7)), 3, "test-slot")
        self.assertEqual((sorted(seen), most[0]), (list(range(7)), 3))
        self.assertEqual([t for t in threading.enumerate() if t.name.startswith("test-slot")], [])

    def test_an_error_starts_nothing_more_and_is_raised_once_the_others_ended(self):
        ended, second = [], threading.Event()

        def one(item):
            if item == 0:
                second.wait(5)  # fails once item 1 runs beside it
                raise Interrupted()
            second.set()
            time.sleep(0.1)
            ended.append(item)

        with self.assertRaises(Interrupted):
            runner.in_slots(one, [0, 1, 2, 3, 4], 2, "test-slot")
        self.assertEqual(ended, [1])  # running when 0 failed: it ended; 2-4 never started
        self.assertEqual([t for t in threading.enumerate() if t.name.startswith("test-slot")], [])


class SectionArgs(unittest.TestCase):
    def test_section_star_passes_none(self):
        part = Part("01_alpha", "performance", PERFORMANCE, 4.0)
        self.assertEqual(runner.section_args(part), ["--section", "kernel"])  # rubric.py's default
        self.assertEqual(runner.section_args(Part("01_alpha", "p", PERFORMANCE, 4.0, section="end_to_end")),
                         ["--section", "end_to_end"])
        self.assertEqual(runner.section_args(Part("01_alpha", "p", PERFORMANCE, 4.0, section="*")), [])


if __name__ == "__main__":
    unittest.main()
