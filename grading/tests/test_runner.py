"""Every way a harness process can end, with stand-in programs (tests/fake_course): each exit
code, a crash by signal, a hang past the timeout (its children killed too), a results file that
is missing, stale or unfinished, and printed text that lies. Then the builds: the student's
build, then `make forbidden` on it (the fake course's), and how each outcome is classified; and
the GPUs and nvcc of the machine, read through stand-ins (machine.py), never the real ones."""
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from pmpp_grading import builds, course, runner, scoring, session, settings
from pmpp_grading.processes import Interrupted, StopSignal, run_process
from pmpp_grading.rubric import CHECK, Part, parse_rubric
from machine import MACHINE_VARIABLES, StandInMachine
from processes import alive

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
PART = Part("01_alpha", "correctness", CHECK, 6.0)
SEED = 777


class StandInPrograms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.stop = StopSignal()
        cls.machine = StandInMachine(os.path.join(cls.tmp, "machine")).__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.machine.__exit__(None, None, None)
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
                                     env or settings.run_env(None), timeout, self.stop)
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
        env = dict(settings.run_env(None), FAKE_PID_DIR=pids)
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
                           os.path.join(self.tmp, "gpu.log"), self.tmp, settings.run_env("3"), 20, self.stop)
        self.assertEqual(json.load(open(json_path))["device"]["name"], "Fake GPU 3")


class Stopping(unittest.TestCase):
    def test_a_stopped_run_raises_and_kills_the_running_process(self):
        stop = StopSignal()
        with tempfile.TemporaryDirectory() as tmp:
            threading.Timer(0.5, stop.stop).start()
            t0 = time.monotonic()
            with self.assertRaises(Interrupted):
                run_process(["sleep", "30"], tmp, dict(os.environ), 60, os.path.join(tmp, "log"), stop)
            self.assertLess(time.monotonic() - t0, 10)
            with self.assertRaises(Interrupted):  # nothing new starts
                run_process(["true"], tmp, dict(os.environ), 60, os.path.join(tmp, "log2"), stop)


class BuildLogs(unittest.TestCase):
    def excerpt(self, text):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "build.log")
            with open(log, "w") as f:
                f.write(text)
            return builds.log_excerpt(log)

    def test_compiler_errors_come_first(self):
        text = self.excerpt("nvcc -O3 ...\n" * 50 + "x.cu(3): error: expected a ';'\nmake: *** [x.o] Error 2\n")
        self.assertTrue(text.startswith("x.cu(3): error"))

    def test_the_link_rule_s_error_is_shown_before_make_s_own_lines(self):
        # A parallel make's log: many "*** ... Error" lines of make, the link rule's line last.
        text = self.excerpt("$ make --no-print-directory -C 03_find_repeats -j8 build/find_repeats\n"
                            + "nvcc -O3 -c x.cu -o build/obj/x.cu.o\n" * 30
                            + "make[1]: *** [common.mk:110: build/obj/y.cu.o] Error 1\n" * 30
                            + "error: build/obj/find_repeats_student.cu.o defines pmpp::CheckResult::fail(std::string), "
                              "which course code defines (common/check.cpp)\n"
                            + "make: *** [common.mk:111: build/find_repeats] Error 2\n")
        self.assertTrue(text.startswith("error: build/obj/find_repeats_student.cu.o defines pmpp::CheckResult::fail"),
                        text)
        self.assertNotIn("$ make", text)

    def test_a_log_without_errors_gives_its_end(self):
        text = self.excerpt("".join(f"line {k}\n" for k in range(100)))
        self.assertTrue(text.startswith("line 75") and text.endswith("line 99"), text)


class BuildAndForbiddenCheck(unittest.TestCase):
    """build_exercise on a copy of the fake course: both builds, then its `make forbidden`."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = os.path.join(self.tmp, "course")
        shutil.copytree(FAKE, self.tree)
        self.settings = settings.Settings(rubric=parse_rubric(""), seed=1, stop=StopSignal(),
                                        progress=lambda who, text: None, make_jobs=1)
        with StandInMachine(os.path.join(self.tmp, "machine")):
            self.env = settings.run_env(None)

    def build(self, exercise, student_text, check_forbidden=True):
        ex = course.read_info(self.tree, exercise)
        with open(os.path.join(self.tree, ex.student_paths()[0]), "w") as f:
            f.write(student_text)
        logs = os.path.join(self.tmp, "logs", exercise)
        return builds.build_exercise(self.tree, ex, logs, self.settings, self.env, check_forbidden), logs

    def test_clean_files_build_and_pass_the_check(self):
        r, logs = self.build("01_alpha", "behaviour=pass\n")
        self.assertEqual(r.status, scoring.PASSED, r.message)
        self.assertEqual(sorted(os.listdir(logs)), ["build.log", "build_solution.log", "forbidden.log", "solution_help.log"])
        with open(os.path.join(logs, "forbidden.log")) as f:
            self.assertIn("-j1 forbidden", f.readline())  # the interface: make -C <folder> -jN forbidden

    def test_findings_are_forbidden_api_used_with_their_lines(self):
        r, _ = self.build("01_alpha", "behaviour=pass\n# uses_thrust\n")
        self.assertEqual((r.status, r.message),
                         (scoring.FORBIDDEN, "FORBIDDEN: alpha_student.txt uses thrust, which this exercise forbids"))

    def test_what_only_the_build_shows_is_found(self):
        r, _ = self.build("01_alpha", "behaviour=pass\n# uses_##thrust\n")
        self.assertEqual(r.status, scoring.FORBIDDEN)

    def test_an_exercise_without_forbidden_libraries_is_checked_too(self):
        r, _ = self.build("02_beta", "behaviour=pass\n# calls_reference\n")
        self.assertEqual(r.status, scoring.FORBIDDEN)
        self.assertIn("beta_reference_variant, a reference variant", r.message)
        r, _ = self.build("02_beta", "behaviour=pass\n# uses_thrust\n")  # thrust is allowed there
        self.assertEqual(r.status, scoring.PASSED, r.message)

    def test_a_check_that_fails_without_a_finding_could_not_run_and_fails_like_a_build(self):
        r, _ = self.build("01_alpha", "behaviour=pass\n# hides_from_checker\n")
        self.assertEqual(r.status, scoring.BUILD_FAILED)
        self.assertEqual(r.message, "the forbidden-API check could not run:\n"
                                    "forbidden_api: cannot read the symbols of build/obj/alpha_student.txt.o\n"
                                    "make: *** [../common/fake.mk:20: forbidden] Error 2")

    def test_a_build_that_fails_is_build_failed_and_the_check_does_not_run(self):
        r, logs = self.build("01_alpha", "does_not_compile\n# uses_thrust\n")
        self.assertEqual(r.status, scoring.BUILD_FAILED)
        self.assertIn("alpha_student.txt:3:5: error", r.message)
        self.assertFalse(os.path.exists(os.path.join(logs, "forbidden.log")))

    def test_the_link_rule_s_refusal_names_the_symbol(self):
        r, _ = self.build("02_beta", "behaviour=pass\n# defines_course_code\n")
        self.assertEqual(r.status, scoring.BUILD_FAILED)
        self.assertIn("error: build/obj/beta_student.txt.o defines pmpp::summarize", r.message.splitlines()[1])

    def test_the_clean_tree_s_build_leaves_the_check_out(self):
        r, logs = self.build("01_alpha", "behaviour=pass\n# uses_thrust\n", check_forbidden=False)
        self.assertEqual(r.status, scoring.PASSED)
        self.assertFalse(os.path.exists(os.path.join(logs, "forbidden.log")))

    def test_the_check_reads_this_build_s_objects(self):
        # Without a build, the fake check has no object to read: the grader must build first.
        ex = course.read_info(self.tree, "01_alpha")
        refused = builds.forbidden_check(os.path.join(self.tree, ex.name), self.tree, os.path.join(self.tmp, "l"),
                                         self.settings, self.env)
        self.assertEqual(refused[0], scoring.BUILD_FAILED)
        self.assertIn("no such object (build the program first)", refused[1])


class TheMachinesGpus(unittest.TestCase):
    """The GPU list and the GPU's name come from nvidia-smi: here a stand-in on PATH, so the
    answer is the same on a machine with eight GPUs, none, or no nvidia-smi at all."""

    def machine(self, gpus):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        machine = StandInMachine(tmp, gpus).__enter__()
        self.addCleanup(machine.__exit__, None, None, None)
        return machine.tools

    def test_every_gpu_nvidia_smi_lists(self):
        self.machine(("0", "3"))
        self.assertEqual(session.visible_gpus(None), ["0", "3"])

    def test_named_gpus_and_cuda_visible_devices_come_first(self):
        self.machine(("0", "3"))
        self.assertEqual(session.visible_gpus("2, 5"), ["2", "5"])
        os.environ["CUDA_VISIBLE_DEVICES"] = "1"
        self.assertEqual(session.visible_gpus(None), ["1"])

    def test_no_gpu_when_nvidia_smi_fails(self):
        self.machine(())
        self.assertEqual(session.visible_gpus(None), [None])

    def test_no_gpu_when_there_is_no_nvidia_smi(self):
        tools = self.machine(("0",))
        os.remove(os.path.join(tools, "nvidia-smi"))
        os.environ["PATH"] = tools  # nothing else: no nvidia-smi anywhere
        self.assertEqual(session.visible_gpus(None), [None])
        env = settings.gpu_environment("0", os.path.join(tools, "nvcc"))
        self.assertEqual((env["gpu"], env["driver"], env["nvcc"]), (None, None, "13.0"))

    def test_the_environment_names_the_gpu_it_was_given(self):
        tools = self.machine(("0", "3"))
        env = settings.gpu_environment("3", os.path.join(tools, "nvcc"))
        self.assertEqual((env["gpu"], env["driver"], env["gpu_index"], env["nvcc"]), ("Fake GPU 3", "580.00", "3", "13.0"))

    def test_the_machine_s_gpu_settings_do_not_reach_the_tests(self):
        self.machine(("0",))
        self.assertEqual((set(MACHINE_VARIABLES) - {"CUDA_PATH"}) & set(os.environ), set())
        self.assertEqual(settings.run_env(None).get("CUDA_VISIBLE_DEVICES"), None)


class ModuleLayout(unittest.TestCase):
    """The grader's own modules (pmpp_grading and its packages, each named for its job in
    pmpp_grading/__init__.py): none longer than 500 lines, and no import cycle among them, the
    imports inside functions included."""
    PACKAGE = os.path.join(os.path.dirname(HERE), "pmpp_grading")

    def modules(self):
        """Dotted name -> file, for every module of the package."""
        found = {}
        for directory, dirs, files in os.walk(self.PACKAGE):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(directory, name)
                dotted = os.path.relpath(path, os.path.dirname(self.PACKAGE))[:-3].replace(os.sep, ".")
                found[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
        return found

    def imports(self, name, path, modules):
        """The modules of the package that `name` imports (from X import Y: Y if it is a module)."""
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        with open(path) as f:
            tree = ast.parse(f.read())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = package
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    base += "." + node.module if node.module else ""
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
        return found & set(modules) - {name}

    def test_no_module_is_longer_than_500_lines(self):
        for name, path in self.modules().items():
            with open(path) as f:
                self.assertLessEqual(len(f.readlines()), 500, name)

    def test_no_import_cycle(self):
        modules = self.modules()
        graph = {name: self.imports(name, path, modules) for name, path in modules.items()}
        self.assertIn("pmpp_grading.runner", graph["pmpp_grading.session"])  # the walk sees imports
        done, cycles = set(), []

        def visit(name, path):
            for other in sorted(graph[name]):
                if other in path:
                    cycles.append(" -> ".join(path[path.index(other):] + [other]))
                elif other not in done:
                    visit(other, path + [other])
            done.add(name)
        for name in sorted(graph):
            visit(name, [name])
        self.assertEqual(cycles, [])


if __name__ == "__main__":
    unittest.main()
