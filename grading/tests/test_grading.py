"""grading/run_all.sh end to end on the stand-in course (tests/fake_course): the working tree,
one submission, a batch of submissions that covers every outcome (on two "GPUs" at once), a
resumed batch, a stopped run, and a machine without a GPU. Every run sees a stand-in machine
(machine.py): its nvidia-smi, never the real one, whatever GPUs the machine has."""
import csv
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from urllib.parse import unquote

from files import load, write
from machine import hermetic_env, stand_in_tools
from processes import alive
from test_html_report import Page

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
RUN_ALL = os.path.join(os.path.dirname(HERE), "run_all.sh")
PASS = "behaviour=pass\nms=1.0\n"


def statuses(doc):
    return {f"{p['exercise']}/{p['part']}": (p["status"], p["points"]) for e in doc["exercises"] for p in e["parts"]}


class Course:
    """A private copy of the stand-in course, a folder for reports, and a stand-in machine whose
    nvidia-smi lists the GPUs `gpus` (none: a machine without a GPU or without nvidia-smi). Its
    runs pass --no-sandbox (as root the grader would run the student's code as users of their
    own, who cannot reach this folder) unless `sandbox` (test_sandbox.py)."""

    def __init__(self, gpus=("0", "1"), sandbox=False):
        self.sandbox = sandbox
        self.tmp = tempfile.mkdtemp()
        self.repo = os.path.join(self.tmp, "course")
        shutil.copytree(FAKE, self.repo)
        self.out = os.path.join(self.tmp, "out")
        self.tools = stand_in_tools(os.path.join(self.tmp, "machine", "bin"), gpus)

    def env(self, extra=None):
        return hermetic_env(self.tools, extra)

    def command(self, *args):
        return [RUN_ALL, "--repo", self.repo, "--rubric", os.path.join(self.repo, "rubric.ini"),
                "--output", self.out, "--jobs", "2", *([] if self.sandbox else ["--no-sandbox"]), *args]

    def run(self, *args, env=None, timeout=120):
        return subprocess.run(self.command(*args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=self.env(env), timeout=timeout)

    def submissions(self, students):
        root = os.path.join(self.tmp, "submissions")
        for name, files in students.items():
            os.makedirs(os.path.join(root, name), exist_ok=True)
            for path, text in files.items():
                write(os.path.join(root, name, path), text)
        return root

    def close(self):
        shutil.rmtree(self.tmp)


class WorkingTree(unittest.TestCase):
    def test_graded_in_place_with_full_marks_for_correct_files(self):
        c = Course()
        try:
            write(os.path.join(c.repo, "01_alpha/alpha_student.txt"), PASS)
            write(os.path.join(c.repo, "02_beta/beta_student.txt"), PASS)
            p = c.run("--gpus", "0")
            self.assertEqual(p.returncode, 0, p.stdout)
            g = load(os.path.join(c.out, "results.json"))
            self.assertEqual((g["score"], g["max_score"]), (20.0, 20.0), p.stdout)
            self.assertIn("seed", p.stdout)
            for words in ("01_alpha", "performance vs seed", "0.50x", "20/20"):
                self.assertIn(words, p.stdout)
        finally:
            c.close()

    def test_the_starter_is_graded_as_wrong(self):
        c = Course()
        try:
            p = c.run("--gpus", "0", "--seed", "99")
            doc = load(os.path.join(c.out, "grade.json"))
            self.assertEqual(doc["seed"], 99)
            self.assertEqual(statuses(doc)["01_alpha/correctness"], ("wrong result", 1.8))
            self.assertEqual(statuses(doc)["01_alpha/performance"][0], "skipped")
            self.assertEqual(p.returncode, 0, p.stdout)
        finally:
            c.close()

    def test_without_a_gpu_every_part_says_no_gpu(self):
        c = Course()
        try:
            p = c.run(env={"FAKE_NO_GPU": "1"})
            self.assertEqual(p.returncode, 3, p.stdout)
            doc = load(os.path.join(c.out, "grade.json"))
            self.assertEqual({s for s, _ in statuses(doc).values()}, {"no GPU"})
            self.assertIn("no GPU", p.stdout)
        finally:
            c.close()

    def test_a_rubric_section_for_no_folder_is_reported(self):
        c = Course()
        try:
            with open(os.path.join(c.repo, "rubric.ini"), "a") as f:
                f.write("\n[01_alhpa/extra]\ntype = check\npoints = 1\n")
            p = c.run("--check-rubric")
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertIn("01_alhpa", p.stdout)
            self.assertIn("typo", p.stdout)
        finally:
            c.close()

    def test_a_bad_rubric_stops_before_anything_runs(self):
        c = Course()
        try:
            write(os.path.join(c.repo, "rubric.ini"), "[01_alpha/correctness]\ntype = check\npionts = 3\n")
            p = c.run()
            self.assertEqual(p.returncode, 2)
            self.assertIn("pionts", p.stdout)
            self.assertFalse(os.path.exists(os.path.join(c.out, "grade.json")))
        finally:
            c.close()


class Machine(unittest.TestCase):
    """The GPUs come from the machine's nvidia-smi (here a stand-in), never from the real one."""

    def test_the_first_gpu_nvidia_smi_lists_grades_the_working_tree(self):
        c = Course(gpus=("4", "7"))
        try:
            p = c.run("--seed", "5")
            self.assertEqual(p.returncode, 0, p.stdout)
            env = load(os.path.join(c.out, "grade.json"))["environment"]
            self.assertEqual((env["gpu"], env["gpu_index"], env["nvcc"]), ("Fake GPU 4", "4", "13.0"))
        finally:
            c.close()

    def test_without_nvidia_smi_s_gpus_the_harness_picks_its_own(self):
        c = Course(gpus=())
        try:
            write(os.path.join(c.repo, "01_alpha/alpha_student.txt"), "behaviour=segfault\n")
            p = c.run("--seed", "5", "--exercises", "01")
            self.assertEqual(p.returncode, 0, p.stdout)
            env = load(os.path.join(c.out, "grade.json"))["environment"]
            # No GPU named by nvidia-smi, none by the harness (it crashed): the reports say so.
            self.assertEqual((env["gpu"], env["gpu_index"]), (None, None))
            self.assertIn("no GPU found", open(os.path.join(c.out, "report.txt")).read())
        finally:
            c.close()


class OneSubmission(unittest.TestCase):
    def test_only_the_student_files_are_taken(self):
        c = Course()
        try:
            sub = c.submissions({"eve": {
                "01_alpha/alpha_student.txt": "behaviour=wrong\n",
                "01_alpha/alpha_harness.txt": "always_pass\n",  # would make every check pass
                "common/fake_harness.py": "import sys; sys.exit(0)\n",
                "02_beta/beta_student.txt": PASS}})
            p = c.run("--submission", os.path.join(sub, "eve"), "--base", "worktree")
            self.assertEqual(p.returncode, 0, p.stdout)
            s = statuses(load(os.path.join(c.out, "grade.json")))
            self.assertEqual(s["01_alpha/correctness"][0], "wrong result", p.stdout)
            # 02_beta also links the student's 01_alpha file (as 03 links 02's scan): wrong too.
            self.assertEqual(s["02_beta/correctness"][0], "wrong result")
            with open(os.path.join(c.repo, "01_alpha/alpha_harness.txt")) as f:
                self.assertNotIn("always_pass", f.read())
            # The second run reuses the clean tree's builds.
            p = c.run("--submission", os.path.join(sub, "eve"), "--base", "worktree")
            self.assertIn("reusing its builds", p.stdout)
        finally:
            c.close()


    def test_a_second_grading_starts_the_longest_untimed_tasks_of_the_first_first(self):
        c = Course()
        try:
            sub = c.submissions({"ann": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS}})
            for order in ("rubric order, no earlier times", "longest first by the times of"):
                p = c.run("--submission", os.path.join(sub, "ann"), "--base", "worktree", "--untimed-parallel", "2")
                self.assertEqual(p.returncode, 0, p.stdout)
                doc = load(os.path.join(c.out, "grade.json"))
                self.assertTrue(doc["environment"]["untimed_order"].startswith(order), doc["environment"])
                self.assertEqual(doc["environment"]["untimed_slots"], 2)
        finally:
            c.close()


class Batch(unittest.TestCase):
    """One batch covering every outcome, graded once on two GPUs; the tests read its reports."""

    STUDENTS = {
        "good": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS},
        "slow": {"alpha_student.txt": "behaviour=pass\nms=2.0\n", "beta_student.txt": PASS},  # uploaded flat
        # 3x the reference's time in the first measurement only: a hiccup, measured again.
        "hiccup": {"01_alpha/alpha_student.txt": "behaviour=pass\nms=3.0,1.0\n", "02_beta/beta_student.txt": PASS},
        "broken_build": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": "does_not_compile\n"},
        "forbidden": {"01_alpha/alpha_student.txt": PASS + "# uses_thrust\n", "02_beta/beta_student.txt": PASS},
        "hides_from_check": {"01_alpha/alpha_student.txt": PASS + "# hides_from_checker\n",
                             "02_beta/beta_student.txt": PASS},
        "crash": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": "behaviour=cuda_error\n"},
        "segfault": {"01_alpha/alpha_student.txt": "behaviour=segfault\n", "02_beta/beta_student.txt": PASS},
        "hang": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": "behaviour=hang\n"},
        "timed_wrong": {"01_alpha/alpha_student.txt": "behaviour=wrong_timed\n", "02_beta/beta_student.txt": PASS},
        "liar": {"01_alpha/alpha_student.txt": "behaviour=lie\n", "02_beta/beta_student.txt": PASS},
        "planted_pictures": {"01_alpha/alpha_student.txt": "behaviour=wrong\nevil_pictures=1\n",
                             "02_beta/beta_student.txt": PASS},
        # Forbidden API behind token pasting: only the build (its objects) shows it.
        "hidden_forbidden": {"01_alpha/alpha_student.txt": PASS + "# uses_##thrust\n", "02_beta/beta_student.txt": PASS},
        # Calling a reference variant is forbidden in every exercise, FORBIDDEN_APIS or not.
        "calls_reference": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS + "# calls_reference\n"},
        "replaces_course_code": {"01_alpha/alpha_student.txt": PASS,
                                 "02_beta/beta_student.txt": PASS + "# defines_course_code\n"},
        # Timings the harness cannot vouch for (01_alpha moves 8e8 bytes a row; the copy: 1000 GB/s).
        "faster_than_copy": {"01_alpha/alpha_student.txt": "behaviour=pass\nms=0.5\n", "02_beta/beta_student.txt": PASS},
        "copy_15_percent_off": {"01_alpha/alpha_student.txt": PASS + "copy_gbs=850\n", "02_beta/beta_student.txt": PASS},
        "copy_5_percent_off": {"01_alpha/alpha_student.txt": PASS + "copy_gbs=950\n", "02_beta/beta_student.txt": PASS},
        # Slow (measured again), then implausible on the second measurement.
        "slow_then_implausible": {"01_alpha/alpha_student.txt": "behaviour=pass\nms=2.0\ncopy_gbs=1000,850\n",
                                  "02_beta/beta_student.txt": PASS},
    }

    @classmethod
    def setUpClass(cls):
        cls.c = Course()
        cls.root = cls.c.submissions(cls.STUDENTS)
        cls.pids = os.path.join(cls.c.tmp, "pids")
        os.makedirs(cls.pids)
        cls.first = cls.c.run("--submissions", cls.root, "--gpus", "0,1", "--timeout", "3", "--base", "worktree",
                              env={"FAKE_PID_DIR": cls.pids})
        cls.docs = {n: load(os.path.join(cls.c.out, "students", n, "grade.json")) for n in cls.STUDENTS}

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def expect(self, student, part, status, points=None):
        got = statuses(self.docs[student])[part]
        self.assertEqual(got[0], status, f"{student} {part}: {got}\n{self.first.stdout}")
        if points is not None:
            self.assertAlmostEqual(got[1], points, msg=f"{student} {part}")

    def test_batch_finishes(self):
        self.assertEqual(self.first.returncode, 0, self.first.stdout)

    def test_correct_submission_scores_full_marks(self):
        for part in ("01_alpha/correctness", "01_alpha/performance", "02_beta/correctness", "02_beta/performance vs seed"):
            self.expect("good", part, "passed")
        self.assertEqual(load(os.path.join(self.c.out, "students/good/results.json"))["score"], 20.0)

    def test_slow_submission_loses_performance_points_only(self):
        self.expect("slow", "01_alpha/correctness", "passed", 6.0)
        self.expect("slow", "01_alpha/performance", "passed", 2.0)
        self.expect("slow", "02_beta/correctness", "passed", 5.0)

    def test_a_slow_part_is_measured_again_and_stays_slow(self):
        part = next(p for e in self.docs["slow"]["exercises"] for p in e["parts"] if p["part"] == "performance")
        self.assertIn("best of 3 measurements (ratios 2.00x, 2.00x, 2.00x)", part["message"])

    def test_a_hiccup_on_one_measurement_costs_no_points(self):
        self.expect("hiccup", "01_alpha/performance", "passed", 4.0)
        part = next(p for e in self.docs["hiccup"]["exercises"] for p in e["parts"] if p["part"] == "performance")
        self.assertIn("best of 2 measurements (ratios 3.00x, 1.00x)", part["message"])
        logs = os.listdir(os.path.join(self.c.out, "students", "hiccup", "logs", "01_alpha"))
        self.assertIn("performance.try2.log", logs)

    def test_build_failure_costs_that_exercise_only(self):
        self.expect("broken_build", "02_beta/correctness", "build failed", 0.0)
        self.expect("broken_build", "02_beta/performance vs seed", "build failed", 0.0)
        self.expect("broken_build", "01_alpha/correctness", "passed", 6.0)
        self.assertIn("beta_student.txt:3:5: error", self.docs["broken_build"]["exercises"][1]["build"]["message"])

    def build_message(self, student, exercise):
        return next(e for e in self.docs[student]["exercises"] if e["exercise"] == exercise)["build"]["message"]

    def test_forbidden_library_scores_zero_there(self):
        self.expect("forbidden", "01_alpha/correctness", "forbidden API used", 0.0)
        self.expect("forbidden", "01_alpha/performance", "forbidden API used", 0.0)
        self.assertEqual(self.build_message("forbidden", "01_alpha"),
                         "FORBIDDEN: alpha_student.txt uses thrust, which this exercise forbids")
        self.expect("forbidden", "02_beta/correctness", "passed")  # 02_beta forbids no library

    def test_the_forbidden_check_reads_the_build_not_the_sources(self):
        # "uses_##thrust" is "uses_thrust" only after the build's preprocessor: a check of the
        # sources, or of the objects before this build (the starter's), would find nothing.
        self.expect("hidden_forbidden", "01_alpha/correctness", "forbidden API used", 0.0)
        self.assertIn("FORBIDDEN: alpha_student.txt uses thrust", self.build_message("hidden_forbidden", "01_alpha"))
        self.expect("hidden_forbidden", "02_beta/correctness", "passed")

    def test_the_forbidden_check_runs_in_every_exercise(self):
        self.expect("calls_reference", "02_beta/correctness", "forbidden API used", 0.0)
        self.expect("calls_reference", "02_beta/performance vs seed", "forbidden API used", 0.0)
        self.assertIn("beta_reference_variant", self.build_message("calls_reference", "02_beta"))
        self.expect("calls_reference", "01_alpha/correctness", "passed", 6.0)

    def test_a_forbidden_check_that_cannot_run_fails_like_a_build(self):
        self.expect("hides_from_check", "01_alpha/correctness", "build failed", 0.0)
        message = self.build_message("hides_from_check", "01_alpha")
        self.assertTrue(message.startswith("the forbidden-API check could not run:\n"), message)
        self.assertIn("cannot read the symbols of build/obj/alpha_student.txt.o", message)
        # 02_beta links the same file, and checks it too.
        self.expect("hides_from_check", "02_beta/correctness", "build failed", 0.0)

    def test_a_student_file_that_replaces_course_code_fails_the_build_naming_the_symbol(self):
        self.expect("replaces_course_code", "02_beta/correctness", "build failed", 0.0)
        message = self.build_message("replaces_course_code", "02_beta")
        self.assertIn("defines pmpp::summarize(std::vector<double> const&), which course code defines", message)
        self.expect("replaces_course_code", "01_alpha/correctness", "passed", 6.0)

    def test_a_row_faster_than_the_copy_allows_is_implausible(self):
        self.expect("faster_than_copy", "01_alpha/correctness", "passed", 6.0)
        self.expect("faster_than_copy", "01_alpha/performance", "implausible timing", 0.0)
        part = next(p for p in self.docs["faster_than_copy"]["exercises"][0]["parts"] if p["part"] == "performance")
        self.assertIn("1600 GB/s, 1.60x the copy bandwidth measured in the same run (1000 GB/s)", part["message"])
        self.expect("faster_than_copy", "02_beta/performance vs seed", "passed", 5.0)

    def test_a_copy_bandwidth_15_percent_off_the_reference_run_s_is_implausible(self):
        self.expect("copy_15_percent_off", "01_alpha/performance", "implausible timing", 0.0)
        part = next(p for p in self.docs["copy_15_percent_off"]["exercises"][0]["parts"] if p["part"] == "performance")
        self.assertIn("850 GB/s", part["message"])
        self.assertIn("1000 GB/s", part["message"])
        # 02_beta is timed against a variant of the same run: the copy is not compared there.
        self.expect("copy_15_percent_off", "02_beta/performance vs seed", "passed", 5.0)

    def test_a_copy_bandwidth_5_percent_off_is_within_the_noise(self):
        self.expect("copy_5_percent_off", "01_alpha/performance", "passed", 4.0)

    def test_an_implausible_measurement_decides_the_part_after_a_slow_one(self):
        self.expect("slow_then_implausible", "01_alpha/performance", "implausible timing", 0.0)
        logs = os.listdir(os.path.join(self.c.out, "students", "slow_then_implausible", "logs", "01_alpha"))
        self.assertIn("performance.try2.log", logs)
        self.assertNotIn("performance.try3.log", logs)

    def test_the_new_status_reaches_the_batch_reports(self):
        with open(os.path.join(self.c.out, "scores.csv")) as f:
            rows = {(r["student"], r["exercise"]): r for r in csv.DictReader(f)}
        self.assertEqual(rows[("faster_than_copy", "01_alpha")]["status"], "implausible timing")
        self.assertEqual(rows[("faster_than_copy", "01_alpha")]["points"], "6.0")
        with open(os.path.join(self.c.out, "summary.txt")) as f:
            self.assertIn("6 implausible timing", f.read())
        with open(os.path.join(self.c.out, "index.html"), encoding="utf-8") as f:
            self.assertIn('class="status s-implausible"', f.read())

    def test_cuda_error_is_crashed(self):
        self.expect("crash", "02_beta/correctness", "crashed", 0.0)
        self.expect("crash", "02_beta/performance vs seed", "skipped", 0.0)
        self.expect("crash", "01_alpha/correctness", "passed", 6.0)

    def test_signal_is_crashed(self):
        self.expect("segfault", "01_alpha/correctness", "crashed")
        self.expect("segfault", "02_beta/correctness", "crashed")  # 02_beta links the same file

    def test_hang_is_timed_out_and_killed(self):
        self.expect("hang", "02_beta/correctness", "timed out", 0.0)
        self.expect("hang", "01_alpha/correctness", "passed", 6.0)
        started = [int(open(os.path.join(self.pids, f)).read()) for f in os.listdir(self.pids)]
        self.assertEqual([pid for pid in started if alive(pid)], [])

    def test_wrong_output_on_a_timed_run(self):
        self.expect("timed_wrong", "01_alpha/correctness", "passed", 6.0)
        self.expect("timed_wrong", "01_alpha/performance", "wrong result", 0.0)

    def test_printed_text_is_never_believed(self):
        self.expect("liar", "01_alpha/correctness", "wrong result")

    def test_each_gpu_took_students(self):
        gpus = {d["environment"]["gpu"] for d in self.docs.values() if d["environment"].get("gpu")}
        self.assertEqual(gpus, {"Fake GPU 0", "Fake GPU 1"})

    def test_one_seed_for_the_batch_recorded_everywhere(self):
        seeds = {d["seed"] for d in self.docs.values()}
        self.assertEqual(len(seeds), 1)
        self.assertEqual(load(os.path.join(self.c.out, "batch.json"))["seed"], seeds.pop())

    def test_csv_reports(self):
        with open(os.path.join(self.c.out, "scores.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 2 * len(self.STUDENTS))
        good = [r for r in rows if r["student"] == "good"]
        self.assertEqual([(r["exercise"], r["points"], r["status"]) for r in good],
                         [("01_alpha", "10.0", "passed"), ("02_beta", "10.0", "passed")])
        with open(os.path.join(self.c.out, "totals.csv")) as f:
            totals = {r["student"]: r for r in csv.DictReader(f)}
        self.assertEqual(set(totals), set(self.STUDENTS))
        self.assertEqual(totals["good"]["score"], "20.0")

    def test_every_student_has_all_reports(self):
        for name in self.STUDENTS:
            d = os.path.join(self.c.out, "students", name)
            for f in ("grade.json", "results.json", "junit.xml", "report.txt", "report.html"):
                self.assertTrue(os.path.isfile(os.path.join(d, f)), f"{name}/{f}")
            ET.parse(os.path.join(d, "junit.xml"))
            self.assertFalse(os.path.exists(os.path.join(d, "tree")), "the student's tree is removed")

    def report_page(self, student):
        folder = os.path.join(self.c.out, "students", student)
        with open(os.path.join(folder, "report.html"), encoding="utf-8") as f:
            text = f.read()
        page = Page(text)
        self.assertEqual(page.errors, [], student)
        return folder, page, text

    def test_html_report_per_student_and_an_index_linking_them(self):
        with open(os.path.join(self.c.out, "index.html"), encoding="utf-8") as f:
            index = Page(f.read())
        self.assertEqual(index.errors, [])
        self.assertEqual(sorted(index.links), sorted(f"students/{n}/report.html" for n in self.STUDENTS))
        for name in self.STUDENTS:
            folder, page, _ = self.report_page(name)
            for target in page.links + page.images:
                if not target.startswith("#"):
                    self.assertTrue(os.path.isfile(os.path.join(folder, unquote(target))), f"{name}: {target}")

    def test_pictures_of_a_failing_check_reference_student_difference(self):
        folder, page, _ = self.report_page("liar")
        shown = [os.path.basename(unquote(src)) for src in page.images]
        self.assertEqual(shown[:3], ["student_case3_expected.png", "student_case3_actual.png", "student_case3_diff.png"])
        self.assertEqual(len([s for s in shown if s.startswith("student_case")]), 9, "three failures, three pictures each")
        self.assertTrue(all(src.startswith("images/01_alpha/correctness/") for src in page.images), page.images)

    def test_pictures_of_the_timed_run_side_by_side(self):
        _, page, _ = self.report_page("good")
        self.assertEqual([unquote(src) for src in page.images],
                         ["images/01_alpha/performance/scene.png", "images/01_alpha/performance/student_scene.png"])

    def test_the_reference_run_of_a_harness_that_draws_draws_nothing(self):
        doc = load(os.path.join(self.c.out, "students", "good", "logs", "01_alpha", "performance.reference.json"))
        self.assertIn("--no-images", doc["command"])
        self.assertNotIn("--images", doc["command"])

    def test_a_harness_without_the_option_is_never_given_it(self):
        for name in self.STUDENTS:
            self.assertFalse(os.path.exists(os.path.join(self.c.out, "students", name, "images", "02_beta")), name)
        self.expect("good", "02_beta/correctness", "passed")

    def test_planted_links_and_markup_in_the_pictures_folder_are_not_shown(self):
        _, page, text = self.report_page("planted_pictures")
        self.assertFalse(any("stolen" in src for src in page.images + page.links))
        planted = [src for src in page.images if "onerror" in unquote(src)]
        self.assertEqual(len(planted), 1, "a PNG file is shown, whatever its name")
        self.assertFalse(any("not_a_picture" in src for src in page.images), "a .png that is not a PNG is not shown")
        self.assertIn("%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E.png", planted[0])
        self.assertNotIn("<img src=x", text)
        self.assertEqual(len([s for s in page.images if "student_case" in s]), 9)

    def test_resumed_batch_skips_graded_students_and_keeps_the_seed(self):
        seed = self.docs["good"]["seed"]
        again = self.c.run("--submissions", self.root, "--gpus", "0")
        self.assertEqual(again.returncode, 0, again.stdout)
        self.assertEqual(again.stdout.count("already graded"), len(self.STUDENTS), again.stdout)
        # A student whose grading was cut short is graded again, with the batch's seed.
        path = os.path.join(self.c.out, "students", "slow", "grade.json")
        doc = load(path)
        doc["complete"] = False
        write(path, json.dumps(doc))
        again = self.c.run("--submissions", self.root, "--gpus", "0")
        self.assertEqual(again.stdout.count("already graded"), len(self.STUDENTS) - 1, again.stdout)
        regraded = load(path)
        self.assertTrue(regraded["complete"])
        self.assertEqual(regraded["seed"], seed)


class Stopped(unittest.TestCase):
    def test_a_stopped_batch_leaves_valid_partial_reports(self):
        c = Course()
        try:
            root = c.submissions({"a_hangs": {"01_alpha/alpha_student.txt": "behaviour=hang\n"},
                                  "b_later": {"01_alpha/alpha_student.txt": PASS}})
            cmd = c.command("--submissions", root, "--gpus", "0", "--timeout", "60", "--base", "worktree")
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=c.env())
            log = os.path.join(c.out, "students", "a_hangs", "logs", "01_alpha", "correctness.log")
            deadline = time.monotonic() + 60
            while not os.path.exists(log) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.5)
            p.send_signal(signal.SIGTERM)
            out, _ = p.communicate(timeout=30)
            self.assertEqual(p.returncode, 130, out)
            # Nothing the stopped student started outlives the grader: the hanging harness is killed.
            left = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
            self.assertEqual([line for line in left.splitlines() if c.tmp in line], [], out)
            doc = load(os.path.join(c.out, "students", "a_hangs", "grade.json"))
            self.assertFalse(doc["complete"])
            self.assertEqual(statuses(doc)["01_alpha/correctness"][0], "not run")
            g = load(os.path.join(c.out, "students", "a_hangs", "results.json"))
            self.assertEqual(g["score"], 0.0)
            self.assertIn("incomplete", g["output"])
            ET.parse(os.path.join(c.out, "students", "a_hangs", "junit.xml"))
            with open(os.path.join(c.out, "students", "a_hangs", "report.html"), encoding="utf-8") as f:
                page = Page(f.read())
            self.assertEqual(page.errors, [])
            self.assertIn("Grading incomplete", " ".join(page.text))
            with open(os.path.join(c.out, "scores.csv")) as f:
                self.assertIn("a_hangs", f.read())
            with open(os.path.join(c.out, "index.html"), encoding="utf-8") as f:
                self.assertEqual(Page(f.read()).links, ["students/a_hangs/report.html"])
            self.assertFalse(os.path.exists(os.path.join(c.out, "students", "b_later", "grade.json")))
            # Resumed, it grades both (the hanging one times out this time).
            again = c.run("--submissions", root, "--gpus", "0", "--timeout", "2")
            self.assertEqual(again.returncode, 0, again.stdout)
            self.assertEqual(statuses(load(os.path.join(c.out, "students", "a_hangs", "grade.json")))
                             ["01_alpha/correctness"][0], "timed out")
        finally:
            c.close()


if __name__ == "__main__":
    unittest.main()
