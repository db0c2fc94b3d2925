"""The sanitize parts: compute-sanitizer over the student's check cases.

- The sanitizer's report, as compute-sanitizer writes it: the first error, its kernel and its
  source line (the path as the submission names it), the summary's count, old and new formats,
  racecheck's hazards and warnings.
- One tool's run judged from the sanitizer's exit status, its summary and the harness's results
  file: an error costs the part; a wrong result with no error passes (the check part's
  business); a crash, a timeout, a report without a summary are never a pass.
- The runner with the stand-in compute-sanitizer of machine.py: clean, an error quoted, not
  found ("not run", 0 points, the reason), a hang killed at the timeout, what the program
  prints never read.
- run_all.sh on the stand-in course with sanitize parts: scores, and the first error in every
  report (report.txt, results.json, junit.xml, report.html, grade.json).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from pmpp_grading import course, reports, runner, sanitizer, scoring
from pmpp_grading.rubric import parse_rubric
from pmpp_grading.scoring import PartResult, RunOutcome
from machine import StandInMachine, stand_in_tools
from processes import alive
from test_grading import PASS, Course, load, statuses, write
from test_html_report import Page

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
SEED = 777
SAXPY = ["01_saxpy/saxpy_student.cu"]

# compute-sanitizer 2025's memcheck report of a write one past the end (the format of its log).
MEMCHECK = """========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0 in /x/y/01_saxpy/saxpy_student.cu:15
=========     by thread (0,0,0) in block (4,0,0)
=========     Address 0x7f8e3a001000 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f8e3a000000 of size 4096 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2a1f] in libcuda.so.1
=========         Host Frame: saxpy_student(unsigned long, float, float const*, float const*, float*) [0x5d1b] in saxpy
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaDeviceSynchronize.
=========     Saved host backtrace up to driver entry point at error
=========
========= Target application returned an error
========= ERROR SUMMARY: 2 errors
"""
RACECHECK = """========= COMPUTE-SANITIZER
========= Warning: Race reported between Read access at scan_tile(int *, unsigned long)+0x40 in /t/02_scan/scan_student.cu:30
=========     and Write access at scan_tile(int *, unsigned long)+0x60 in /t/02_scan/scan_student.cu:31 [2 hazards]
=========
========= Error: Race reported between Write access at scan_tile(int *, unsigned long)+0x70 in /t/02_scan/scan_student.cu:41
=========     and Read access at scan_tile(int *, unsigned long)+0x90 in /t/02_scan/scan_student.cu:44 [248 hazards]
=========
========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)
"""
CLEAN = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"


def results(status="ok", rc=0, passed=10, total=10, seed=SEED):
    return {"schema": "pmpp.results.v1", "seed": seed, "status": status, "exit_code": rc,
            "check_summary": {"student": {"passed": passed, "failed": total - passed, "total": total}}}


class TheReport(unittest.TestCase):
    def read(self, text, tree="/x/y", exercise="01_saxpy", students=SAXPY):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "report.log")
            with open(path, "w") as f:
                f.write(text)
            return sanitizer.read_report(path, tree, exercise, students)

    def test_the_first_error_names_the_kernel_and_the_source_line_of_the_submission(self):
        r = self.read(MEMCHECK)
        self.assertEqual(r.errors, 2)
        self.assertEqual(r.first.error, "Invalid __global__ write of size 4 bytes")
        self.assertEqual(r.first.kernel, "saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)")
        self.assertEqual((r.first.file, r.first.line), ("01_saxpy/saxpy_student.cu", 15))
        self.assertEqual(r.first.headline("memcheck"), "memcheck: Invalid __global__ write of size 4 bytes at "
                                                       "saxpy::saxpy_kernel in 01_saxpy/saxpy_student.cu:15")

    def test_the_error_s_own_lines_are_kept_the_host_s_frames_left_out(self):
        details = self.read(MEMCHECK).first.details
        self.assertEqual(details[0], "at saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0 "
                                     "in 01_saxpy/saxpy_student.cu:15")
        self.assertEqual(details[1:], ["by thread (0,0,0) in block (4,0,0)", "Address 0x7f8e3a001000 is out of bounds",
                                       "and is 1 bytes after the nearest allocation at 0x7f8e3a000000 of size 4096 bytes"])

    def test_a_path_is_shortened_to_the_submission_s_file_wherever_the_tree_was_built(self):
        self.assertEqual(self.read(MEMCHECK, tree="/elsewhere").first.file, "01_saxpy/saxpy_student.cu")
        relative = MEMCHECK.replace("/x/y/01_saxpy/saxpy_student.cu", "saxpy_student.cu")
        self.assertEqual(self.read(relative, tree="/elsewhere").first.file, "01_saxpy/saxpy_student.cu")
        scan = MEMCHECK.replace("/x/y/01_saxpy/saxpy_student.cu", "/x/y/03_find_repeats/../02_scan/scan_student.cu")
        self.assertEqual(self.read(scan, exercise="03_find_repeats").first.file, "02_scan/scan_student.cu")
        self.assertEqual(self.read(scan.replace("/x/y/03_find_repeats/", ""), tree="/z", exercise="03_find_repeats")
                         .first.file, "02_scan/scan_student.cu")
        header = MEMCHECK.replace("/x/y/01_saxpy/saxpy_student.cu", "/usr/local/cuda/include/cuda_fp16.hpp")
        self.assertEqual(self.read(header).first.file, "/usr/local/cuda/include/cuda_fp16.hpp")

    def test_the_older_format_is_read_too(self):
        old = MEMCHECK.replace("at saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0 in "
                               "/x/y/01_saxpy/saxpy_student.cu:15",
                               "at 0x000001b0 in /x/y/01_saxpy/saxpy_student.cu:15:saxpy::saxpy_kernel(unsigned long, float, "
                               "float const *, float const *, float*)")
        first = self.read(old).first
        self.assertEqual((first.file, first.line, sanitizer.short_kernel(first.kernel)),
                         ("01_saxpy/saxpy_student.cu", 15, "saxpy::saxpy_kernel"))

    def test_racecheck_counts_errors_not_warnings_and_quotes_the_first_error(self):
        r = self.read(RACECHECK, tree="/t", exercise="02_scan", students=["02_scan/scan_student.cu"])
        self.assertEqual((r.errors, r.warnings), (1, 1))
        self.assertEqual(r.first.headline("racecheck"), "racecheck: Error: Race reported between Write access at "
                                                        "scan_tile(int *, unsigned long)+0x70 in 02_scan/scan_student.cu:41")
        self.assertEqual(r.first.details, ["and Read access at scan_tile(int *, unsigned long)+0x90 in "
                                           "02_scan/scan_student.cu:44 [248 hazards]"])

    def test_an_error_of_the_runtime_api_is_quoted_without_a_kernel(self):
        r = self.read("========= COMPUTE-SANITIZER\n========= Program hit cudaErrorInvalidValue (error 1) due to "
                      "\"invalid argument\" on CUDA API call to cudaMemcpy.\n=========     Saved host backtrace up to "
                      "driver entry point at error\n=========\n========= ERROR SUMMARY: 1 error\n")
        self.assertEqual(r.errors, 1)
        self.assertEqual((r.first.kernel, r.first.file), (None, None))
        self.assertTrue(r.first.headline("memcheck").startswith("memcheck: Program hit cudaErrorInvalidValue"))

    def test_a_clean_report_has_no_error_and_a_missing_one_is_said_to_be_missing(self):
        r = self.read(CLEAN)
        self.assertEqual((r.present, r.errors, r.first), (True, 0, None))
        self.assertEqual(sanitizer.read_report("/no/such/report.log", "/x", "01_saxpy", SAXPY).present, False)

    def test_kernel_names_lose_their_parameters_not_their_templates(self):
        self.assertEqual(sanitizer.short_kernel("void mandelbrot::mandelbrot_kernel<float>(mandelbrot::Frame<float>, "
                                                "unsigned int *)"), "mandelbrot::mandelbrot_kernel<float>")
        self.assertEqual(sanitizer.short_kernel("tile_kernel<std::pair<int, int>>(int *)"),
                         "tile_kernel<std::pair<int, int>>")


class OneTool(unittest.TestCase):
    def judge(self, text, rc=0, res=None, timed_out=False):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.log")
            if text is not None:
                with open(path, "w") as f:
                    f.write(text)
            report = sanitizer.read_report(path, "/x/y", "01_saxpy", SAXPY)
        outcome = RunOutcome(None if timed_out else rc, timed_out, 60.0, res if res is not None else results(rc=rc))
        return sanitizer.judge_tool("memcheck", outcome, report, SEED, "r.log", "the process's last lines")

    def test_no_errors_and_every_case_right_passes(self):
        v = self.judge(CLEAN)
        self.assertEqual((v.status, v.errors, v.cases), (scoring.PASSED, 0, 10))

    def test_a_wrong_result_without_errors_passes_the_check_part_scores_it(self):
        v = self.judge(CLEAN + "========= Target application returned an error\n", 1,
                       results("wrong", 1, passed=7))
        self.assertEqual((v.status, v.wrong_cases), (scoring.PASSED, 3))

    def test_errors_fail_with_the_first_quoted(self):
        v = self.judge(MEMCHECK, 99, results("cuda_error", 3))
        self.assertEqual(v.status, scoring.SANITIZER)
        self.assertTrue(v.message.startswith("memcheck: Invalid __global__ write of size 4 bytes at saxpy::saxpy_kernel in "
                                             "01_saxpy/saxpy_student.cu:15\n"), v.message)
        self.assertIn("memcheck: 2 errors in all; the first is quoted (the whole report: r.log)", v.message)

    def test_a_summary_that_counts_errors_fails_whatever_the_exit_status(self):
        self.assertEqual(self.judge(MEMCHECK, 0).status, scoring.SANITIZER)

    def test_the_error_exit_code_fails_even_without_a_summary(self):
        v = self.judge("========= COMPUTE-SANITIZER\n", 99, results("cuda_error", 3))
        self.assertEqual(v.status, scoring.SANITIZER)
        self.assertIn("names none", v.message)

    def test_a_report_without_a_summary_or_no_report_at_all_is_never_a_pass(self):
        v = self.judge("========= COMPUTE-SANITIZER\n", 0)
        self.assertEqual(v.status, scoring.GRADER_ERROR)
        self.assertIn("no summary line", v.message)
        v = self.judge(None, 0)
        self.assertEqual(v.status, scoring.GRADER_ERROR)
        self.assertIn("wrote no report r.log (exit status 0)", v.message)
        self.assertIn("the process's last lines", v.message)

    def test_a_timeout_and_a_crash_fail_with_their_reason(self):
        v = self.judge(None, timed_out=True)
        self.assertEqual(v.status, scoring.TIMED_OUT)
        self.assertIn("no result within 60 s", v.message)
        v = self.judge(CLEAN, -11, res={})
        self.assertEqual(v.status, scoring.CRASHED)
        self.assertIn("under memcheck: killed by SIGSEGV", v.message)
        v = self.judge(CLEAN, 3, results("no_gpu", 3))
        self.assertEqual(v.status, scoring.NO_GPU)

    def test_no_case_at_or_below_max_size_is_the_rubric_s_mistake(self):
        v = self.judge(CLEAN, 0, results(passed=0, total=0))
        self.assertEqual(v.status, scoring.GRADER_ERROR)

    def test_the_part_is_decided_by_the_first_tool_that_does_not_pass(self):
        part = parse_rubric("[01_saxpy/sanitize]\ntype = sanitize\npoints = 1\ntools = memcheck racecheck\n"
                            ).parts_for("01_saxpy")[0]
        clean = sanitizer.ToolVerdict("memcheck", scoring.PASSED, "", 0, 40)
        raced = sanitizer.ToolVerdict("racecheck", scoring.SANITIZER, "racecheck: Error: Race reported ...", 1,
                                      first=sanitizer.FirstError("Error: Race reported ...", "k(int *)", "a.cu", 3))
        r = sanitizer.judge_sanitize(part, [clean, raced], 12.0)
        self.assertEqual((r.status, r.points, r.max_points, r.wall_s), (scoring.SANITIZER, 0.0, 1.0, 12.0))
        self.assertEqual(r.details["first_error"]["tool"], "racecheck")
        r = sanitizer.judge_sanitize(part, [clean, sanitizer.ToolVerdict("racecheck", scoring.PASSED, "", 0, 40)], 1.0)
        self.assertEqual((r.status, r.points), (scoring.PASSED, 1.0))
        self.assertEqual(r.message, "memcheck and racecheck found no errors over 40 check case(s) up to n = 4096")

    def test_a_tool_s_shards_add_up_their_cases_and_an_empty_shard_is_no_mistake_unless_all_are(self):
        part = parse_rubric("[01_saxpy/sanitize]\ntype = sanitize\npoints = 1\ntools = memcheck racecheck\n"
                            "shards = racecheck:3\n").parts_for("01_saxpy")[0]
        clean = sanitizer.ToolVerdict("memcheck", scoring.PASSED, "", 0, 5)
        shards = [sanitizer.ToolVerdict(f"racecheck {i}/3", scoring.PASSED, "", 0, n) for i, n in ((1, 2), (2, 2), (3, 1))]
        r = sanitizer.judge_sanitize(part, [clean] + shards, 3.0)
        self.assertEqual((r.status, r.points, r.details["cases"]), (scoring.PASSED, 1.0, 5))
        self.assertEqual(r.message, "memcheck and racecheck (in 3 processes) found no errors over 5 check case(s) "
                                    "up to n = 4096")
        wrong = [sanitizer.ToolVerdict(f"racecheck {i}/3", scoring.PASSED, "", 0, 2, 1) for i in (1, 2, 3)]
        r = sanitizer.judge_sanitize(part, [clean] + wrong, 3.0)
        self.assertIn("(the harness found 3 of them wrong under the sanitizer", r.message)  # 1 in each shard
        empty = [sanitizer.ToolVerdict(f"racecheck {i}/3", scoring.PASSED, "", 0, 0) for i in (1, 2, 3)]
        r = sanitizer.judge_sanitize(part, [clean] + empty, 3.0)
        self.assertEqual((r.status, r.points), (scoring.GRADER_ERROR, 0.0))
        self.assertIn("racecheck (in all its shards): no check case ran", r.message)

    def test_a_shard_that_ran_no_case_passes_but_a_tool_that_ran_none_does_not(self):
        self.assertEqual(sanitizer.judge_tool("racecheck 3/3", RunOutcome(0, False, 60.0, results(passed=0, total=0)),
                                              sanitizer.Report(present=True, errors=0), SEED, "r.log").status,
                         scoring.PASSED)
        self.assertEqual(self.judge(CLEAN, 0, results(passed=0, total=0)).status, scoring.GRADER_ERROR)


class FindingTheSanitizer(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tools = stand_in_tools(os.path.join(self.tmp, "cuda", "bin"))
        self.bare = stand_in_tools(os.path.join(self.tmp, "bare", "bin"), sanitizer=False)

    def test_the_one_beside_the_exercise_s_nvcc(self):
        found, _ = sanitizer.find(os.path.join(self.tools, "nvcc"), {"PATH": self.bare})
        self.assertEqual(found, os.path.join(self.tools, "compute-sanitizer"))
        found, _ = sanitizer.find("nvcc", {"PATH": self.tools})  # nvcc named without a folder: found on PATH
        self.assertEqual(found, os.path.join(self.tools, "compute-sanitizer"))

    def test_then_cuda_path_then_path(self):
        nvcc = os.path.join(self.bare, "nvcc")
        self.assertEqual(sanitizer.find(nvcc, {"PATH": self.bare, "CUDA_PATH": os.path.dirname(self.tools)})[0],
                         os.path.join(self.tools, "compute-sanitizer"))
        self.assertEqual(sanitizer.find(nvcc, {"PATH": self.bare + os.pathsep + self.tools})[0],
                         os.path.join(self.tools, "compute-sanitizer"))

    def test_the_variable_wins_and_a_missing_file_there_is_not_found(self):
        fake = os.path.join(self.bare, "my-sanitizer")
        shutil.copy(os.path.join(self.tools, "compute-sanitizer"), fake)
        self.assertEqual(sanitizer.find("nvcc", {"PATH": self.tools, sanitizer.VARIABLE: fake})[0], fake)
        found, looked = sanitizer.find("nvcc", {"PATH": self.tools, sanitizer.VARIABLE: "/no/such/compute-sanitizer"})
        self.assertEqual((found, looked), (None, ["/no/such/compute-sanitizer"]))

    def test_none_anywhere_names_every_place_looked_at(self):
        found, looked = sanitizer.find(os.path.join(self.bare, "nvcc"), {"PATH": self.bare})
        self.assertIsNone(found)
        self.assertIn(os.path.join(self.bare, "compute-sanitizer"), looked)


class SanitizeRuns(unittest.TestCase):
    """runner.run_sanitize on a stand-in program of 01_alpha and the stand-in sanitizer."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = os.path.join(self.tmp, "tree")
        self.logs = os.path.join(self.tmp, "logs")
        os.makedirs(os.path.join(self.tree, "01_alpha", "build"))
        self.machine = StandInMachine(os.path.join(self.tmp, "machine")).__enter__()
        self.addCleanup(self.machine.__exit__, None, None, None)
        self.ex = course.Exercise("01_alpha", "alpha", ("alpha_student.txt",), ("alpha_solution.txt",), "thrust", "nvcc")

    def run_part(self, student, tools="memcheck racecheck", timeout=20.0, env=None, takes_images=False, extra=""):
        src = os.path.join(self.tmp, "alpha_student.txt")
        with open(src, "w") as f:
            f.write(student)
        subprocess.run([sys.executable, os.path.join(FAKE, "common", "fake_build.py"),
                        os.path.join(self.tree, "01_alpha", "build", "alpha"),
                        os.path.join(FAKE, "01_alpha", "alpha_harness.txt"), "--", src], check=True)
        rubric = parse_rubric("[01_alpha/correctness]\ntype = check\npoints = 6\n[01_alpha/sanitize]\ntype = sanitize\n"
                              f"points = 1\ntools = {tools}\nmax_size = 2^10\ntimeout = {timeout}\n{extra}")
        part = rubric.parts_for("01_alpha")[1]
        settings = runner.Settings(rubric=rubric, seed=SEED, stop=runner.StopSignal(), progress=lambda who, text: None)
        return runner.run_sanitize(self.tree, self.ex, part, self.logs, settings, env or runner.run_env(None),
                                   takes_images)

    def log(self, name):
        with open(os.path.join(self.logs, name)) as f:
            return f.read()

    def test_a_clean_run_passes_each_tool_in_its_own_process_on_the_small_cases(self):
        r, outcomes = self.run_part(PASS)
        self.assertEqual((r.status, r.points), (scoring.PASSED, 1.0), r.message)
        self.assertEqual(r.message, "memcheck and racecheck found no errors over 10 check case(s) up to n = 1024")
        self.assertEqual(len(outcomes), 2)
        for tool in ("memcheck", "racecheck"):
            command = self.log(f"sanitize.{tool}.log").splitlines()[0]
            self.assertIn(f"compute-sanitizer --tool {tool} --error-exitcode 99 --print-limit 20 --log-file "
                          f"{self.logs}/sanitize.{tool}.sanitizer.log {self.tree}/01_alpha/build/alpha --impl student "
                          f"--check --max-size 1024 --seed {SEED} --json", command)
            self.assertIn("SUMMARY: 0 ", self.log(f"sanitize.{tool}.sanitizer.log"))

    def test_an_error_costs_the_part_quotes_the_first_and_the_later_tools_do_not_run(self):
        r, outcomes = self.run_part(PASS + "sanitizer_error=memcheck alpha_student.txt:15\n")
        self.assertEqual((r.status, r.points), (scoring.SANITIZER, 0.0))
        self.assertEqual(r.message.splitlines()[0], "memcheck: Invalid __global__ write of size 4 bytes at alpha_kernel "
                                                    "in 01_alpha/alpha_student.txt:15")
        self.assertEqual(r.details["first_error"]["file"], "01_alpha/alpha_student.txt")
        self.assertEqual(len(outcomes), 1)
        self.assertFalse(os.path.exists(os.path.join(self.logs, "sanitize.racecheck.log")))

    def test_a_race_is_found_by_racecheck_after_a_clean_memcheck(self):
        r, outcomes = self.run_part(PASS + "sanitizer_error=racecheck ../01_alpha/alpha_student.txt:21\n")
        self.assertEqual((r.status, len(outcomes)), (scoring.SANITIZER, 2))
        self.assertEqual(r.message.splitlines()[0], "racecheck: Error: Race reported between Write access at "
                                                    "tile_kernel(int *, unsigned long)+0x70 in 01_alpha/alpha_student.txt:21")
        self.assertEqual(r.details["errors"], {"memcheck": 0, "racecheck": 1})

    def test_a_tool_in_shards_runs_one_process_per_shard_each_on_its_own_cases(self):
        r, outcomes = self.run_part(PASS, extra="shards = racecheck:3\n")
        self.assertEqual((r.status, r.points), (scoring.PASSED, 1.0), r.message)
        self.assertEqual(r.message, "memcheck and racecheck (in 3 processes) found no errors over 10 check case(s) "
                                    "up to n = 1024")
        self.assertEqual(len(outcomes), 4)
        self.assertNotIn("--shard", self.log("sanitize.memcheck.log").splitlines()[0])
        for i, cases in ((1, 4), (2, 3), (3, 3)):
            command = self.log(f"sanitize.racecheck_{i}_3.log").splitlines()[0]
            self.assertIn(f"compute-sanitizer --tool racecheck --error-exitcode 99", command)
            self.assertIn(f"--check --max-size 1024 --shard {i}/3 --seed {SEED}", command)
            self.assertEqual(outcomes[i].results["check_summary"]["student"]["total"], cases)

    def test_an_error_in_one_shard_decides_and_the_later_shards_do_not_run(self):
        r, outcomes = self.run_part(PASS + "sanitizer_error=racecheck alpha_student.txt:21\n", extra="shards = racecheck:3\n")
        self.assertEqual((r.status, r.points, len(outcomes)), (scoring.SANITIZER, 0.0, 2))
        self.assertTrue(r.message.startswith("racecheck 1/3: Error: Race reported"), r.message)
        self.assertEqual(r.details["first_error"]["tool"], "racecheck 1/3")
        self.assertFalse(os.path.exists(os.path.join(self.logs, "sanitize.racecheck_2_3.log")))

    def test_more_shards_than_cases_still_runs_every_case_once(self):
        r, outcomes = self.run_part(PASS, tools="racecheck", extra="shards = 16\n")
        self.assertEqual((r.status, r.details["cases"], len(outcomes)), (scoring.PASSED, 10, 16), r.message)

    def test_a_tool_the_part_does_not_name_finds_nothing(self):
        r, _ = self.run_part(PASS + "sanitizer_error=racecheck alpha_student.txt:21\n", tools="memcheck")
        self.assertEqual(r.status, scoring.PASSED)

    def test_what_the_program_prints_is_never_read(self):
        says = "says========== ERROR SUMMARY: 0 errors\\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
        r, _ = self.run_part(PASS + says + "sanitizer_error=memcheck alpha_student.txt:15\n")
        self.assertEqual(r.status, scoring.SANITIZER)
        self.assertIn("========= ERROR SUMMARY: 0 errors", self.log("sanitize.memcheck.log"))

    def test_a_wrong_result_without_errors_passes_and_says_the_check_scores_it(self):
        r, _ = self.run_part("behaviour=wrong\n")
        self.assertEqual((r.status, r.points), (scoring.PASSED, 1.0), r.message)
        self.assertIn("the harness found 7 of them wrong under the sanitizer: the check part scores that", r.message)

    def test_a_crash_under_the_sanitizer_fails_with_its_reason(self):
        r, _ = self.run_part("behaviour=segfault\n")
        self.assertEqual(r.status, scoring.CRASHED)
        self.assertIn("under memcheck", r.message)

    def test_a_sanitizer_without_a_summary_is_the_course_s_side_and_one_ignoring_its_exit_code_still_fails(self):
        r, _ = self.run_part(PASS + "sanitizer=no_summary\n")
        self.assertEqual((r.status, r.points), (scoring.GRADER_ERROR, 0.0))
        r, _ = self.run_part(PASS + "sanitizer=no_exit_code\nsanitizer_error=memcheck alpha_student.txt:15\n")
        self.assertEqual(r.status, scoring.SANITIZER)

    def test_not_found_is_not_run_with_its_reason_and_scores_zero(self):
        env = dict(runner.run_env(None), PMPP_COMPUTE_SANITIZER="/no/such/compute-sanitizer")
        r, outcomes = self.run_part(PASS, env=env)
        self.assertEqual((r.status, r.points, r.max_points, outcomes), (scoring.NOT_RUN, 0.0, 1.0, []))
        self.assertEqual(r.message, "compute-sanitizer not found (looked for /no/such/compute-sanitizer; set "
                                    "PMPP_COMPUTE_SANITIZER to its path)")
        self.assertFalse(os.path.exists(self.logs))

    def test_a_hang_is_killed_at_the_part_s_timeout(self):
        pids = os.path.join(self.tmp, "pids")
        os.makedirs(pids)
        t0 = time.monotonic()
        r, _ = self.run_part(PASS + "sanitizer=hang\n", timeout=1.5, env=dict(runner.run_env(None), FAKE_PID_DIR=pids))
        self.assertLess(time.monotonic() - t0, 15)
        self.assertEqual((r.status, r.points), (scoring.TIMED_OUT, 0.0))
        self.assertIn("memcheck: no result within 1.5 s", r.message)
        started = [int(open(os.path.join(pids, f)).read()) for f in os.listdir(pids)]
        deadline = time.monotonic() + 5
        while any(alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual([p for p in started if alive(p)], [])

    def test_a_harness_that_draws_draws_nothing_and_args_are_passed_on(self):
        self.run_part(PASS, tools="memcheck", takes_images=True, extra="args = --size 17\n")
        command = self.log("sanitize.memcheck.log").splitlines()[0]
        self.assertTrue(command.endswith("--size 17 --no-images"), command)

    def test_an_earlier_report_is_never_read(self):
        os.makedirs(self.logs)
        with open(os.path.join(self.logs, "sanitize.memcheck.sanitizer.log"), "w") as f:
            f.write(MEMCHECK)
        r, _ = self.run_part(PASS, tools="memcheck")
        self.assertEqual(r.status, scoring.PASSED, r.message)


class Prerequisites(unittest.TestCase):
    def test_a_sanitize_part_waits_for_the_checks_unless_it_requires_none(self):
        rubric = parse_rubric("[e/c]\ntype = check\npoints = 6\n[e/s]\ntype = sanitize\npoints = 1\n"
                              "[e/t]\ntype = sanitize\npoints = 1\nrequires = none\n")
        _, s, t = rubric.parts_for("e")
        wrong = {"c": PartResult("e", "c", "check", scoring.WRONG, 1.0, 6.0)}
        blocked = scoring.prerequisite(s, wrong)
        self.assertEqual(blocked.status, scoring.SKIPPED)
        self.assertEqual(blocked.message, "not scored: the sanitizer's point is for a correct implementation "
                                          "('c': wrong result)")
        self.assertIsNone(scoring.prerequisite(t, wrong))
        self.assertIsNone(scoring.prerequisite(s, {"c": PartResult("e", "c", "check", scoring.PASSED, 6.0, 6.0)}))

    def test_a_sanitizer_error_ranks_after_a_wrong_result_in_a_summary(self):
        parts = [PartResult("e", "c", "check", scoring.PASSED, 6, 6), PartResult("e", "s", "sanitize", scoring.SANITIZER, 0, 1)]
        self.assertEqual(scoring.worst_status(parts), scoring.SANITIZER)
        parts.append(PartResult("e", "d", "check", scoring.WRONG, 0, 1))
        self.assertEqual(scoring.worst_status(parts), scoring.WRONG)


def sanitized_doc(sanitize_part):
    return {"schema": reports.GRADE_SCHEMA, "student": "ada", "seed": 5, "date": "2026-12-01 10:00:00 UTC",
            "complete": True, "wall_s": 10.0, "environment": {},
            "exercises": [{"exercise": "01_saxpy", "build": {"status": "passed"}, "files": [],
                           "parts": [PartResult("01_saxpy", "correctness", "check", scoring.PASSED, 6.0, 6.0).to_json(),
                                     sanitize_part.to_json()]}]}


QUOTE = ("memcheck: Invalid __global__ write of size 4 bytes at saxpy::saxpy_kernel in 01_saxpy/saxpy_student.cu:15\n"
         "    at saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0 in "
         "01_saxpy/saxpy_student.cu:15\nmemcheck: 1 error in all; the first is quoted")


class TheReports(unittest.TestCase):
    def test_every_report_quotes_the_first_error(self):
        doc = sanitized_doc(PartResult("01_saxpy", "sanitize", "sanitize", scoring.SANITIZER, 0.0, 1.0, message=QUOTE))
        self.assertIn("01_saxpy/sanitize: memcheck: Invalid __global__ write of size 4 bytes at saxpy::saxpy_kernel in "
                      "01_saxpy/saxpy_student.cu:15", reports.terminal_table(doc))
        test = reports.gradescope(doc)["tests"][1]
        self.assertEqual((test["status"], test["output"]), ("failed", "sanitizer error: " + QUOTE))
        case = ET.fromstring(reports.junit(doc).split("\n", 1)[1]).find(".//testcase[@name='sanitize']")
        self.assertEqual(case.find("failure").get("type"), "sanitizer error")
        self.assertIn("saxpy_student.cu:15", case.find("failure").text)
        with tempfile.TemporaryDirectory() as tmp:
            from pmpp_grading import html_report
            page = html_report.student_html(doc, tmp)
        self.assertEqual(Page(page).errors, [])
        self.assertIn('class="status s-sanitizer"', page)
        self.assertIn("at saxpy::saxpy_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0", page)

    def test_a_part_not_run_for_a_reason_is_shown_everywhere_and_is_an_error_in_junit(self):
        why = "compute-sanitizer not found (looked for /opt/cuda/bin/compute-sanitizer; set PMPP_COMPUTE_SANITIZER to its path)"
        doc = sanitized_doc(PartResult("01_saxpy", "sanitize", "sanitize", scoring.NOT_RUN, 0.0, 1.0, message=why))
        self.assertIn("01_saxpy/sanitize: " + why, reports.terminal_table(doc))
        self.assertEqual(reports.gradescope(doc)["tests"][1]["output"], "not run: " + why)
        case = ET.fromstring(reports.junit(doc).split("\n", 1)[1]).find(".//testcase[@name='sanitize']")
        self.assertIsNotNone(case.find("error"))
        # A part a stopped run left (no reason) stays skipped.
        doc = sanitized_doc(PartResult("01_saxpy", "sanitize", "sanitize", scoring.NOT_RUN, 0.0, 1.0))
        case = ET.fromstring(reports.junit(doc).split("\n", 1)[1]).find(".//testcase[@name='sanitize']")
        self.assertIsNotNone(case.find("skipped"))


SANITIZE_PARTS = """
[01_alpha/sanitize]
type = sanitize
points = 1
tools = memcheck racecheck
max_size = 2^10

[02_beta/sanitize]
type = sanitize
points = 1
requires = none
timeout = 5
"""


class EndToEnd(unittest.TestCase):
    """run_all.sh on the stand-in course with a sanitize part in each exercise (02_beta's runs
    whatever its check scores); 02_beta also links 01_alpha's student file, as 03 links 02's."""

    STUDENTS = {
        "clean": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS},
        # The error's path as nvcc was given it in 01_alpha, and in 02_beta, which compiles the file too.
        "reads_past_the_end": {"01_alpha/alpha_student.txt": PASS + "sanitizer_error=memcheck ../01_alpha/alpha_student.txt:15\n",
                               "02_beta/beta_student.txt": PASS},
        "races": {"01_alpha/alpha_student.txt": PASS + "sanitizer_error=racecheck alpha_student.txt:21\n",
                  "02_beta/beta_student.txt": PASS},
        "wrong": {"01_alpha/alpha_student.txt": "behaviour=wrong\n", "02_beta/beta_student.txt": PASS},
        "slow_under_sanitizer": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS + "sanitizer=hang\n"},
    }

    @classmethod
    def setUpClass(cls):
        cls.c = Course()
        with open(os.path.join(cls.c.repo, "rubric.ini"), "a") as f:
            f.write(SANITIZE_PARTS)
        cls.root = cls.c.submissions(cls.STUDENTS)
        # The rubric's timeouts: 20 s a part (a loaded machine is not a hang), 02_beta's sanitize 5 s.
        cls.graded = cls.c.run("--submissions", cls.root, "--gpus", "0,1", "--base", "worktree")
        cls.docs = {n: load(os.path.join(cls.c.out, "students", n, "grade.json")) for n in cls.STUDENTS}

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def expect(self, student, part, status, points):
        self.assertEqual(statuses(self.docs[student])[part], (status, points), f"{student} {part}\n{self.graded.stdout}")

    def student_file(self, student, name):
        with open(os.path.join(self.c.out, "students", student, name), encoding="utf-8") as f:
            return f.read()

    def test_the_batch_finishes(self):
        self.assertEqual(self.graded.returncode, 0, self.graded.stdout)

    def test_a_clean_submission_earns_the_sanitize_points(self):
        self.expect("clean", "01_alpha/sanitize", "passed", 1.0)
        self.expect("clean", "02_beta/sanitize", "passed", 1.0)
        self.assertEqual(load(os.path.join(self.c.out, "students/clean/results.json"))["score"], 22.0)

    def test_an_access_past_the_end_costs_only_the_sanitize_point_and_every_report_quotes_it(self):
        self.expect("reads_past_the_end", "01_alpha/correctness", "passed", 6.0)
        self.expect("reads_past_the_end", "01_alpha/performance", "passed", 4.0)
        self.expect("reads_past_the_end", "01_alpha/sanitize", "sanitizer error", 0.0)
        self.expect("reads_past_the_end", "02_beta/sanitize", "sanitizer error", 0.0)  # it links the same file
        quote = ("memcheck: Invalid __global__ write of size 4 bytes at alpha_kernel in 01_alpha/alpha_student.txt:15")
        self.assertIn("01_alpha/sanitize and 1 more part(s): " + quote, self.student_file("reads_past_the_end", "report.txt"))
        outputs = [t["output"] for t in json.loads(self.student_file("reads_past_the_end", "results.json"))["tests"]]
        self.assertIn(quote, outputs[2])
        self.assertIn(quote, self.student_file("reads_past_the_end", "junit.xml"))
        page = self.student_file("reads_past_the_end", "report.html")
        self.assertIn(quote, page)
        self.assertIn('href="logs/01_alpha/sanitize.memcheck.sanitizer.log"', page)
        first = self.docs["reads_past_the_end"]["exercises"][0]["parts"][2]["details"]["first_error"]
        self.assertEqual((first["tool"], first["file"], first["line"]), ("memcheck", "01_alpha/alpha_student.txt", 15))

    def test_a_race_is_racecheck_s_and_the_exercise_that_only_runs_memcheck_passes(self):
        self.expect("races", "01_alpha/sanitize", "sanitizer error", 0.0)
        self.expect("races", "02_beta/sanitize", "passed", 1.0)

    def test_a_wrong_submission_is_not_sanitized_unless_the_part_requires_nothing(self):
        self.expect("wrong", "01_alpha/sanitize", "skipped", 0.0)
        self.expect("wrong", "02_beta/correctness", "wrong result", 1.88)
        self.expect("wrong", "02_beta/sanitize", "passed", 1.0)

    def test_a_run_slower_than_the_timeout_under_the_sanitizer_times_out_that_part_only(self):
        self.expect("slow_under_sanitizer", "02_beta/sanitize", "timed out", 0.0)
        self.expect("slow_under_sanitizer", "02_beta/correctness", "passed", 5.0)
        self.expect("slow_under_sanitizer", "01_alpha/sanitize", "passed", 1.0)

    def test_without_a_sanitizer_the_parts_are_not_run_say_why_and_the_run_says_it_is_incomplete(self):
        out = os.path.join(self.c.tmp, "no-sanitizer")
        p = subprocess.run([*self.c.command("--submission", os.path.join(self.root, "clean"), "--base", "worktree",
                                            "--gpus", "0"), "--output", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env=self.c.env({"PMPP_COMPUTE_SANITIZER": "/no/such/compute-sanitizer"}), timeout=120)
        self.assertEqual(p.returncode, 3, p.stdout)
        self.assertIn("not graded by the course's side (not run)", p.stdout)
        doc = load(os.path.join(out, "grade.json"))
        self.assertEqual(statuses(doc)["01_alpha/sanitize"], ("not run", 0.0))
        self.assertEqual(statuses(doc)["01_alpha/correctness"], ("passed", 6.0))
        with open(os.path.join(out, "report.txt")) as f:
            self.assertIn("01_alpha/sanitize and 1 more part(s): compute-sanitizer not found (looked for "
                          "/no/such/compute-sanitizer", f.read())

    def test_check_rubric_lists_the_sanitize_parts(self):
        p = self.c.run("--check-rubric")
        self.assertIn("sanitize: sanitize, 1 points, memcheck then racecheck over the check cases up to n = 1024, "
                      "300 s a tool, after correctness", p.stdout)
        self.assertIn("sanitize: sanitize, 1 points, memcheck over the check cases up to n = 4096, 5 s a tool, "
                      "whatever the checks score", p.stdout)
        self.assertIn("total 22 points", p.stdout)

GPU = os.path.join(os.path.dirname(HERE), "gpu")


@unittest.skipUnless(os.path.isdir(GPU), "grading/gpu/ is not in the students' copy")
class TheGpuSelfTest(unittest.TestCase):
    """grading/gpu/: every bad submission expected.json names exists, and verify.py holds a
    sanitize part to the first error its message must quote."""

    def test_every_case_has_its_submission(self):
        with open(os.path.join(GPU, "expected.json")) as f:
            cases = [k for k in json.load(f) if not k.startswith("_") and k != "reference"]
        self.assertIn("reads_past_the_end", cases)
        for case in cases:
            self.assertTrue(os.path.isdir(os.path.join(GPU, "bad", case)), case)

    def verify(self, message):
        with tempfile.TemporaryDirectory() as out:
            doc = sanitized_doc(PartResult("01_saxpy", "sanitize", "sanitize", scoring.SANITIZER, 0.0, 1.0,
                                           message=message))
            doc["exercises"][0]["parts"].insert(1, PartResult("01_saxpy", "performance", "performance", scoring.PASSED,
                                                              3.2, 4.0).to_json())
            write(os.path.join(out, "students", "reads_past_the_end", "grade.json"), json.dumps(doc))
            p = subprocess.run([sys.executable, os.path.join(GPU, "verify.py"), out], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=60)
        return p.stdout.split("\nreads_past_the_end: ", 1)[1].split("\n\n", 1)[0]

    def test_verify_wants_the_kernel_and_the_line_quoted(self):
        quoted = self.verify("memcheck: Invalid __global__ read of size 4 bytes at saxpy::saxpy_kernel in "
                             "01_saxpy/saxpy_student.cu:24\n    at saxpy::saxpy_kernel(...)+0x90 in 01_saxpy/saxpy_student.cu:24")
        self.assertRegex(quoted, r"ok +01_saxpy/sanitize +sanitizer error")
        self.assertRegex(quoted, r"ok +01_saxpy/performance +passed")
        unquoted = self.verify("memcheck: 1 error in all")
        self.assertRegex(unquoted, r"FAIL 01_saxpy/sanitize +sanitizer error")
        self.assertIn("the message does not quote: memcheck: Invalid __global__ read of size 4 bytes at saxpy::saxpy_kernel in "
                      "01_saxpy/saxpy_student.cu:", unquoted)


if __name__ == "__main__":
    unittest.main()
