"""Every way a harness process can end, with stand-in programs (tests/fake_course): each exit
code, a crash by signal, a hang past the timeout (its children killed too), a results file that
is missing, stale or unfinished, and printed text that lies."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from pmpp_grading import runner, scoring
from pmpp_grading.rubric import CHECK, Part
from processes import alive

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
PART = Part("01_alpha", "correctness", CHECK, 6.0)
SEED = 777


class StandInPrograms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.stop = runner.StopSignal()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def program(self, behaviour):
        """A 'binary' of exercise 01_alpha whose student file asks for `behaviour`."""
        src = os.path.join(self.tmp, behaviour + ".txt")
        with open(src, "w") as f:
            f.write(f"behaviour={behaviour}\nms=1.0\n")
        out = os.path.join(self.tmp, "bin", behaviour)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(FAKE, "common", "fake_build.py"), out,
                        os.path.join(FAKE, "01_alpha", "alpha_harness.txt"), "--", src], check=True)
        return out

    def run_check(self, behaviour, timeout=20.0, extra=(), env=None):
        binary = self.program(behaviour)
        json_path = os.path.join(self.tmp, behaviour + ".json")
        argv = [binary, "--impl", "student", "--check", "--seed", str(SEED), "--json", json_path, *extra]
        outcome = runner.run_harness(argv, json_path, os.path.join(self.tmp, behaviour + ".log"), self.tmp,
                                     env or runner.run_env(None), timeout, self.stop)
        return scoring.judge_check(PART, outcome, SEED), outcome

    def test_correct_program_passes(self):
        r, _ = self.run_check("pass")
        self.assertEqual((r.status, r.points), (scoring.PASSED, 6.0))

    def test_wrong_result_gets_credit_per_case(self):
        r, outcome = self.run_check("wrong")
        self.assertEqual(outcome.returncode, 1)
        self.assertEqual((r.status, r.points), (scoring.WRONG, 1.8))

    def test_printed_claims_of_success_change_nothing(self):
        r, _ = self.run_check("lie")
        self.assertIn("ALL CHECKS PASSED", open(os.path.join(self.tmp, "lie.log")).read())
        self.assertEqual(r.status, scoring.WRONG)

    def test_cuda_error_exit_3_is_crashed(self):
        r, outcome = self.run_check("cuda_error")
        self.assertEqual((outcome.returncode, r.status), (3, scoring.CRASHED))
        self.assertIn("illegal memory access", r.message)

    def test_no_gpu_exit_3_is_no_gpu(self):
        r, _ = self.run_check("no_gpu")
        self.assertEqual(r.status, scoring.NO_GPU)

    def test_out_of_memory_exit_4_is_crashed(self):
        r, outcome = self.run_check("oom")
        self.assertEqual((outcome.returncode, r.status), (4, scoring.CRASHED))

    def test_segmentation_fault_is_crashed(self):
        r, _ = self.run_check("segfault")
        self.assertEqual(r.status, scoring.CRASHED)
        self.assertIn("SIGSEGV", r.message)

    def test_abort_is_crashed(self):
        r, _ = self.run_check("abort")
        self.assertIn("SIGABRT", r.message)

    def test_exit_0_without_results_is_crashed(self):
        r, _ = self.run_check("exit0_nojson")
        self.assertEqual(r.status, scoring.CRASHED)

    def test_exit_0_with_an_unfinished_results_file_is_crashed(self):
        r, _ = self.run_check("exit0_partial")
        self.assertEqual(r.status, scoring.CRASHED)

    def test_an_earlier_runs_results_file_is_never_read(self):
        json_path = os.path.join(self.tmp, "exit0_nojson.json")
        with open(json_path, "w") as f:
            json.dump({"schema": "pmpp.results.v1", "seed": SEED, "status": "ok", "exit_code": 0,
                       "check_summary": {"student": {"passed": 10, "failed": 0, "total": 10}}}, f)
        r, _ = self.run_check("exit0_nojson")
        self.assertEqual(r.status, scoring.CRASHED)

    def test_option_the_harness_refuses_is_a_grader_error(self):
        r, outcome = self.run_check("pass", extra=["--bad-option"])
        self.assertEqual((outcome.returncode, r.status), (2, scoring.GRADER_ERROR))

    def test_hang_is_killed_at_the_timeout_with_its_children(self):
        pids = os.path.join(self.tmp, "pids")
        os.makedirs(pids, exist_ok=True)
        env = dict(runner.run_env(None), FAKE_PID_DIR=pids)
        t0 = time.monotonic()
        r, outcome = self.run_check("hang", timeout=1.5, env=env)
        self.assertLess(time.monotonic() - t0, 15)
        self.assertEqual(r.status, scoring.TIMED_OUT)
        self.assertTrue(outcome.timed_out)
        started = [int(open(os.path.join(pids, f)).read()) for f in os.listdir(pids)]
        self.assertEqual(len(started), 2)  # the harness and the child it started
        deadline = time.monotonic() + 5
        while any(alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual([p for p in started if alive(p)], [])

    def test_the_gpu_is_chosen_through_cuda_visible_devices(self):
        binary = self.program("pass")
        json_path = os.path.join(self.tmp, "gpu.json")
        runner.run_harness([binary, "--check", "--seed", "1", "--json", json_path], json_path,
                           os.path.join(self.tmp, "gpu.log"), self.tmp, runner.run_env("3"), 20, self.stop)
        self.assertEqual(json.load(open(json_path))["device"]["name"], "Fake GPU 3")


class Stopping(unittest.TestCase):
    def test_a_stopped_run_raises_and_kills_the_running_process(self):
        stop = runner.StopSignal()
        with tempfile.TemporaryDirectory() as tmp:
            threading.Timer(0.5, stop.stop).start()
            t0 = time.monotonic()
            with self.assertRaises(runner.Interrupted):
                runner.run_process(["sleep", "30"], tmp, dict(os.environ), 60, os.path.join(tmp, "log"), stop)
            self.assertLess(time.monotonic() - t0, 10)
            with self.assertRaises(runner.Interrupted):  # nothing new starts
                runner.run_process(["true"], tmp, dict(os.environ), 60, os.path.join(tmp, "log2"), stop)


class BuildLogs(unittest.TestCase):
    def test_compiler_errors_come_first(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "build.log")
            with open(log, "w") as f:
                f.write("nvcc -O3 ...\n" * 50 + "x.cu(3): error: expected a ';'\nmake: *** [x.o] Error 2\n")
            self.assertTrue(runner.log_excerpt(log).startswith("x.cu(3): error"))


if __name__ == "__main__":
    unittest.main()
