"""run_all.sh --slurm on a real Slurm: a single-node cluster (slurm_cluster.py: Debian's slurm-wlm
and munge, two fake GPUs) brought up for these tests and stopped after them, whatever happens.
The stand-in course is graded through the job array with four students (one correct, one that
crashes, one that hangs, one that does not compile) and the merged reports are checked against a
local batch of the same students with the same seed; then a task is cancelled mid-run and the
same command run again grades that student alone. Without Slurm the cluster tests skip, saying
why; the dry run, the packing and the status logic are tested without it."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

import slurm_cluster
from pmpp_grading import slurm
from test_grading import PASS, Course

SEED = 4242
STUDENTS = {
    "correct": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS},
    "crashes": {"01_alpha/alpha_student.txt": "behaviour=segfault\n", "02_beta/beta_student.txt": PASS},
    "hangs": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": "behaviour=hang\n"},
    "no_compile": {"01_alpha/alpha_student.txt": "does_not_compile\n", "02_beta/beta_student.txt": PASS},
}
# What neither the local batch nor the cluster may change: a row's student, exercise, status and
# points (times, GPUs, nodes and dates differ by nature).
COMPARED = ("student", "exercise", "status", "points", "max_points", "parts", "seed", "complete")


def rows(path, columns):
    with open(path, newline="") as f:
        return sorted(tuple(r[c] for c in columns) for r in csv.DictReader(f))


def load(path):
    with open(path) as f:
        return json.load(f)


class OnACluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = slurm_cluster.missing()
        if why:
            raise unittest.SkipTest(why)
        cls.course = Course()
        cls.root = cls.course.submissions(STUDENTS)
        cls.cluster = slurm_cluster.SingleNodeSlurm(os.path.join(cls.course.tmp, "cluster"), gpus=2)
        try:
            cls.cluster.start()
            cls.local = os.path.join(cls.course.tmp, "local")
            p = cls.course.run("--submissions", cls.root, "--seed", str(SEED), "--timeout", "3", "--no-sandbox",
                               "--output", cls.local)
            assert p.returncode == 0, p.stdout
            cls.out = os.path.join(cls.course.tmp, "on-slurm")
            cls.submitted = cls.submit(cls.out, "--timeout", "3")
            cls.wait_for_collect(cls.out, 1)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "cluster", None):
            cls.cluster.stop()
        if getattr(cls, "course", None):
            cls.course.close()

    @classmethod
    def run_all(cls, *args, timeout=120):
        return subprocess.run(cls.course.command(*args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=cls.cluster.env(cls.course.env()), timeout=timeout)

    @classmethod
    def submit(cls, out, *args):
        p = cls.run_all("--submissions", cls.root, "--seed", str(SEED), "--no-sandbox", "--slurm", "--output", out,
                        *args)
        assert p.returncode == 0, p.stdout
        return p.stdout

    @classmethod
    def plan(cls, out, number):
        return load(os.path.join(out, "slurm", f"round-{number}", "plan.json"))

    @classmethod
    def queue(cls):
        p = subprocess.run(["squeue", "-h", "-o", "%i %T"], stdout=subprocess.PIPE, text=True,
                           env=cls.cluster.env(), timeout=30)
        return p.stdout

    @classmethod
    def wait_for_collect(cls, out, number, timeout=240):
        """Until round `number`'s collect job has left the queue."""
        job = cls.plan(out, number)["collect_job"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not any(line.split()[0] == job for line in cls.queue().splitlines() if line.strip()):
                return
            time.sleep(1)
        raise AssertionError(f"round {number}'s collect job {job} still queued after {timeout} s:\n{cls.queue()}\n"
                             + cls.cluster.logs())

    def status(self, out):
        p = self.run_all("--status", out)
        self.assertEqual(p.returncode, 0, p.stdout)
        return p.stdout

    # -- the array grades as a local batch does --

    def test_the_merged_reports_give_every_student_what_a_local_batch_gives(self):
        for name in ("scores.csv", "totals.csv", "summary.txt", "index.html"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, name)), name)
        self.assertEqual(rows(os.path.join(self.out, "scores.csv"), COMPARED),
                         rows(os.path.join(self.local, "scores.csv"), COMPARED))
        self.assertEqual(rows(os.path.join(self.out, "totals.csv"), ("student", "score", "01_alpha", "02_beta")),
                         rows(os.path.join(self.local, "totals.csv"), ("student", "score", "01_alpha", "02_beta")))

    def test_the_four_outcomes_are_told_apart(self):
        status = {r[0] + "/" + r[1]: r[2] for r in rows(os.path.join(self.out, "scores.csv"), COMPARED)}
        self.assertEqual(status["correct/01_alpha"], "passed")
        self.assertEqual(status["crashes/01_alpha"], "crashed")
        self.assertEqual(status["hangs/02_beta"], "timed out")
        self.assertEqual(status["no_compile/01_alpha"], "build failed")

    def test_each_student_was_a_task_of_its_own_on_one_gpu_with_the_batch_seed(self):
        plan = self.plan(self.out, 1)
        self.assertEqual(sorted(sum(plan["tasks"], [])), sorted(STUDENTS))
        self.assertEqual(len(plan["tasks"]), 4)
        jobs = set()
        for name in STUDENTS:
            doc = load(os.path.join(self.out, "students", name, "grade.json"))
            env = doc["environment"]
            self.assertEqual(doc["seed"], SEED)
            self.assertTrue(doc["complete"])
            self.assertIn(env["gpu"], ("Fake GPU 0", "Fake GPU 1"))  # the GPU Slurm gave the task
            self.assertEqual(env["node"], self.cluster.node)
            self.assertTrue(env["slurm_job"].startswith(plan["array_job"] + "_"), env)
            jobs.add(env["slurm_job"])
            with open(os.path.join(self.out, "students", name, "report.txt")) as f:
                first = f.readline()
            self.assertIn(f"on {self.cluster.node} (Slurm job {env['slurm_job']})", first)
        self.assertEqual(len(jobs), 4)

    def test_the_status_counts_every_student_done(self):
        self.assertIn("4 students: 4 done, 0 running, 0 waiting, 0 failed", self.status(self.out))

    def test_running_it_again_submits_nothing_when_every_report_is_finished(self):
        text = self.submit(self.out)
        self.assertIn("nothing to submit", text)
        self.assertEqual(len(slurm.rounds(self.out)), 1)

    def test_a_task_cancelled_mid_run_is_graded_again_alone(self):
        out = os.path.join(self.course.tmp, "cancelled")
        self.submit(out, "--timeout", "120")  # the hanging student's check hangs for two minutes
        plan = self.plan(out, 1)
        task = next(i for i, pack in enumerate(plan["tasks"]) if pack == ["hangs"])
        deadline = time.monotonic() + 120
        while "running: hangs" not in self.status(out):
            self.assertLess(time.monotonic(), deadline, self.status(out) + self.queue())
            time.sleep(1)
        time.sleep(2)  # well inside the hanging check
        subprocess.run(["scancel", f"{plan['array_job']}_{task}"], env=self.cluster.env(), check=True, timeout=30)
        self.wait_for_collect(out, 1)
        status = self.status(out)
        self.assertIn("3 done, 0 running, 0 waiting, 1 failed", status)
        self.assertIn("failed: hangs", status)
        before = {n: os.stat(os.path.join(out, "students", n, "grade.json")).st_mtime_ns
                  for n in STUDENTS if n != "hangs"}

        self.submit(out, "--timeout", "3")
        again = self.plan(out, 2)
        self.assertEqual(again["tasks"], [["hangs"]])
        self.wait_for_collect(out, 2)
        self.assertIn("4 done, 0 running, 0 waiting, 0 failed", self.status(out))
        after = {n: os.stat(os.path.join(out, "students", n, "grade.json")).st_mtime_ns for n in before}
        self.assertEqual(before, after)  # the others were not graded again
        doc = load(os.path.join(out, "students", "hangs", "grade.json"))
        self.assertTrue(doc["complete"])
        self.assertTrue(doc["environment"]["slurm_job"].startswith(again["array_job"] + "_"))
        self.assertEqual(rows(os.path.join(out, "scores.csv"), COMPARED),
                         rows(os.path.join(self.local, "scores.csv"), COMPARED))


class WithoutACluster(unittest.TestCase):
    """What --slurm decides before sbatch runs, and what --status reads."""

    def setUp(self):
        self.course = Course()
        self.root = self.course.submissions({f"s{i}": {"01_alpha/alpha_student.txt": PASS} for i in range(5)})
        self.addCleanup(self.course.close)

    def test_the_dry_run_prints_three_scripts_and_submits_nothing(self):
        p = self.course.run("--submissions", self.root, "--seed", "9", "--no-sandbox", "--slurm-dry-run",
                            "--pack", "2", "--max-parallel", "3", "--slurm-args", "--partition=gpu --time=30")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(p.stdout.count("#!/bin/bash"), 3)
        self.assertIn("#SBATCH --array=0-2%3", p.stdout)
        self.assertIn("#SBATCH --gres=gpu:1", p.stdout)
        self.assertIn("--partition=gpu --time=30 grade.sbatch", p.stdout)
        self.assertIn("tasks: 0: s0, s1; 1: s2, s3; 2: s4", p.stdout)
        self.assertIn("--seed 9", p.stdout)
        self.assertFalse(os.path.exists(self.course.out))

    def test_without_sbatch_it_says_so_and_exits_2(self):
        # A PATH with only what run_all.sh needs (bash, dirname, python3): no Slurm on it.
        bare = os.path.join(self.course.tmp, "bare-bin")
        os.makedirs(bare)
        for tool in ("bash", "dirname", "make", "sh"):
            os.symlink(shutil.which(tool), os.path.join(bare, tool))
        os.symlink(sys.executable, os.path.join(bare, "python3"))
        p = self.course.run("--submissions", self.root, "--no-sandbox", "--slurm",
                            env={"PATH": self.course.tools + os.pathsep + bare})
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("sbatch not found", p.stdout)

    def test_slurm_without_submissions_is_a_usage_error(self):
        p = self.course.run("--slurm")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--slurm grades a batch", p.stdout)

    def test_packs_keep_the_order_and_the_last_one_is_short(self):
        self.assertEqual(slurm.packs(["a", "b", "c"], 2), [["a", "b"], ["c"]])
        self.assertEqual(slurm.packs(["a"], 5), [["a"]])

    def test_the_status_tells_done_running_waiting_and_failed_apart(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        names = {n: n for n in ("done", "running", "stale", "waiting", "stopped")}
        os.makedirs(os.path.join(out, "slurm", "round-1"))
        with open(os.path.join(out, "slurm", "round-1", "plan.json"), "w") as f:
            json.dump({"round": 1, "tasks": [[n] for n in names], "folders": names}, f)
        for name, complete in (("done", True), ("stale", False), ("stopped", False), ("running", False)):
            os.makedirs(os.path.join(out, "students", name))
            with open(os.path.join(out, "students", name, "grade.json"), "w") as f:
                json.dump({"complete": complete}, f)
        now = time.time()
        os.makedirs(os.path.join(out, "slurm", "state"))
        for name, state, age in (("running", "running", 5), ("stale", "running", 10 * slurm.STALE_S),
                                 ("stopped", "stopped", 5), ("done", "finished", 5)):
            with open(os.path.join(out, "slurm", "state", name + ".json"), "w") as f:
                json.dump({"state": state, "updated": now - age}, f)
        # No array job in the plan: squeue cannot be asked, and a student whose task never
        # started is waiting.
        self.assertEqual(slurm.student_states(out, names, now),
                         {"done": "done", "running": "running", "stale": "failed", "waiting": "waiting",
                          "stopped": "failed"})

    def test_the_status_of_a_local_batch_counts_its_students(self):
        p = self.course.run("--submissions", self.root, "--seed", "9", "--no-sandbox", "--gpus", "0")
        self.assertEqual(p.returncode, 0, p.stdout)
        status = self.course.run("--status", self.course.out)
        self.assertIn("5 students: 5 done, 0 running, 0 waiting, 0 failed", status.stdout)
        doc = os.path.join(self.course.out, "students", "s1", "grade.json")
        with open(doc) as f:
            cut = json.load(f)
        cut["complete"] = False  # a grading cut short
        with open(doc, "w") as f:
            json.dump(cut, f)
        shutil.rmtree(os.path.join(self.course.out, "students", "s4"))  # one not graded yet
        os.remove(os.path.join(self.course.out, "slurm", "state", "s4.json"))
        status = self.course.run("--status", self.course.out).stdout
        self.assertIn("5 students: 3 done, 0 running, 1 waiting, 1 failed", status)
        self.assertIn("failed: s1", status)

    def test_a_pending_range_of_an_array_counts_each_task(self):
        class Fake:
            returncode, stderr = 0, ""
            stdout = "3 RUNNING\n[4-6%2] PENDING\n"
        with mock.patch.object(slurm.subprocess, "run", return_value=Fake()), \
                mock.patch.object(slurm.shutil, "which", return_value="/usr/bin/squeue"):
            tasks = slurm.queued_tasks("12")
        self.assertEqual(tasks, {"3": "RUNNING", "4": "PENDING", "5": "PENDING", "6": "PENDING"})

if __name__ == "__main__":
    unittest.main()
