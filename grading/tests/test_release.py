"""The student release (grading/make_student_release.sh): its rules on this course, the Makefile
it writes, and a release of the whole course made with a stand-in compiler: no reference answer
left, every Makefile parses and takes the answers from prebuilt/, the student's and the course's
files intact, and the grader takes a student's copy as a submission. Where nvcc is found, a
release of 01_saxpy is also compiled for sm_90 and built (about a minute on two cores)."""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

from pmpp_grading import course, release, tree
from pmpp_grading.release import Config, ReleaseError

HERE = os.path.dirname(os.path.abspath(__file__))
GRADING = os.path.dirname(HERE)
REPO = os.path.dirname(GRADING)
SCRIPT = os.path.join(GRADING, "make_student_release.sh")
CONFIG = os.path.join(GRADING, "release.ini")
# A stand-in for nvcc: writes the -o file, or fails when FAKE_NVCC_FAILS is set.
FAKE_NVCC = """#!/bin/sh
[ -n "${FAKE_NVCC_FAILS:-}" ] && { echo "fake nvcc: error" >&2; exit 1; }
out=""
while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out=$2; shift; done
[ -n "$out" ] && echo "object" > "$out"
"""


def course_builds(names=None):
    builds = {}
    for name in course.exercise_folders(REPO):
        if names is None or name in names:
            try:
                builds[name] = release.read_build(REPO, name)
            except ReleaseError:
                pass  # an exercise folder still being written: the release leaves it out too
    return builds


def run(cmd, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(kw.pop("env", {}))
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, **kw)


class Rules(unittest.TestCase):
    def test_numbered_variants_are_recognised_by_name(self):
        for name in ("scan_3_single_pass.cu", "bitonic_4_fused.cuh", "render_3_binned.h", "mandelbrot_1_seed.cu"):
            self.assertTrue(release.NUMBERED.match(name), name)
        for name in ("scan_student.cu", "saxpy_cpu.cpp", "mandelbrot_pinned.cu", "scan_cub.cu", "sm_90.cu",
                     "radix_sort_tiled.cuh", "README.md"):
            self.assertFalse(release.NUMBERED.match(name), name)

    def test_object_paths_are_common_mk_s(self):
        srcs = ["saxpy_1_naive.cu", "../02_scan/scan_3_single_pass.cu", "render_cpu.cpp"]
        rule = "pmpp-obj:\n\t@:$(foreach s," + " ".join(srcs) + ",$(info $(call obj,$(s))))"
        p = run(["make", "-s", "--no-print-directory", "-C", os.path.join(REPO, "01_saxpy"), "ARCH=sm_90",
                 "--eval", rule, "pmpp-obj"])
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(p.stdout.split(), ["build/" + release.object_path(s) for s in srcs])

    def test_the_copy_s_makefile_drops_the_tests_and_links_the_objects(self):
        text = "EXERCISE := 04_x\nTEST_SRCS := tests/a.cu\n\ninclude ../common/common.mk\n\n$(BUILD)/obj/a.o: X += 1\n"
        out = release.release_makefile(text, True)
        self.assertIn("TEST_SRCS :=\ninclude ../common/common.mk\ninclude prebuilt/prebuilt.mk\n", out)
        self.assertTrue(out.endswith("$(BUILD)/obj/a.o: X += 1\n"))
        self.assertNotIn("prebuilt", release.release_makefile(text, False))  # an exercise with nothing withheld
        with self.assertRaises(ReleaseError):
            release.release_makefile("EXERCISE := x\n", True)

    def test_architectures(self):
        self.assertEqual(release.arch_variables("all"), ["ARCH=all"])
        self.assertEqual(release.arch_variables("sm_90"), ["ARCH=sm_90"])
        self.assertEqual(release.arch_variables("sm_80,sm_90a"),
                         ["ARCH=sm_80", "NVCCFLAGS_EXTRA=-gencode arch=compute_90a,code=sm_90a"])
        for bad in ("", "native", "sm_80,all", "90"):
            with self.assertRaises(ReleaseError, msg=bad):
                release.arch_variables(bad)

    def test_release_ini_is_checked(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.ini")
            for text, words in (("[01_saxpy]\nwithold = x.cu\n", "withold"), ("[saxpy]\nkeep = x\n", "[saxpy]"),
                                ("[release]\nkeep = x\n", "keep")):
                with open(path, "w") as f:
                    f.write(text)
                with self.assertRaises(ReleaseError) as e:
                    release.load_config(path)
                self.assertIn(words, str(e.exception))
            cfg = release.load_config(CONFIG)
            self.assertIn("grading/gpu", cfg.drop)


class PlanOfThisCourse(unittest.TestCase):
    """The rules applied to the course as it is (its Makefiles read, nothing written)."""

    @classmethod
    def setUpClass(cls):
        cls.builds = course_builds()
        cls.plan = release.make_plan(REPO, cls.builds, release.load_config(CONFIG))

    def test_every_reference_answer_and_numbered_variant_is_withheld(self):
        for b in self.builds.values():
            for path in b.paths(b.solution):
                self.assertIn(path, self.plan.withheld)
            for name in os.listdir(os.path.join(REPO, b.name)):
                if release.NUMBERED.match(name):
                    self.assertIn(f"{b.name}/{name}", self.plan.withheld)

    def test_the_harness_the_student_files_and_the_library_baselines_stay(self):
        for b in self.builds.values():
            for path in b.paths(b.harness + b.student):
                self.assertNotIn(path, self.plan.withheld)
        for path in ("01_saxpy/saxpy_cublas.cu", "02_scan/scan_cub.cu", "02_scan/scan_cpu.cpp"):
            if path.split("/")[0] in self.builds:
                self.assertNotIn(path, self.plan.withheld)

    def test_nothing_that_stays_includes_what_goes(self):
        kept = [(p, b.name) for b in self.builds.values() for p, _ in b.compiled() if p not in self.plan.withheld]
        self.assertEqual(sorted(set(release.include_closure(REPO, kept)) & set(self.plan.withheld)), [])

    def test_headers_only_the_references_include_go_with_them_unless_kept(self):
        if "04_circle_renderer" in self.builds:
            self.assertEqual(self.plan.withheld.get("04_circle_renderer/tile_blend.cuh"), "included only by withheld files")
        if "02_scan" in self.builds:
            self.assertNotIn("02_scan/scan_primitives.cuh", self.plan.withheld)  # release.ini keep: 04 and 06 use it
            self.assertIn("02_scan/scan_primitives.cuh", self.plan.kept_by_config)

    def test_the_withheld_sources_the_build_compiles_ship_as_objects(self):
        for b in self.builds.values():
            for src in b.reference + b.solution:
                if course.repo_path(b.name, src) in self.plan.withheld:
                    self.assertIn(src, self.plan.prebuilt[b.name])
        if "03_find_repeats" in self.builds:
            self.assertIn("../02_scan/scan_1_blelloch.cu", self.plan.prebuilt["03_find_repeats"])

    def test_tests_and_tune_folders_are_left_out(self):
        for b in self.builds.values():
            for d in ("tests", "tune"):
                if os.path.isdir(os.path.join(REPO, b.name, d)):
                    self.assertIn(f"{b.name}/{d}", self.plan.left_out)

    def test_withholding_a_file_the_harness_includes_is_refused(self):
        cfg = Config(withhold={"01_saxpy": ["saxpy_harness.h"]})
        with self.assertRaises(ReleaseError) as e:
            release.make_plan(REPO, {"01_saxpy": self.builds["01_saxpy"]}, cfg)
        self.assertIn("saxpy_harness.h", str(e.exception))

    def test_an_exercise_comes_with_the_folders_it_builds_from(self):
        if "03_find_repeats" not in self.builds:
            self.skipTest("no 03_find_repeats")
        with self.assertRaises(ReleaseError) as e:
            release.make_plan(REPO, {"03_find_repeats": self.builds["03_find_repeats"]}, Config())
        self.assertIn("release 02_scan with it", str(e.exception))


class ReleaseOfThisCourse(unittest.TestCase):
    """A release of every exercise, compiled by a stand-in nvcc (the Makefiles are real)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.nvcc = os.path.join(cls.tmp, "nvcc")
        with open(cls.nvcc, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(cls.nvcc, os.stat(cls.nvcc).st_mode | stat.S_IXUSR)
        cls.dest = os.path.join(cls.tmp, "students")
        cls.made = run([SCRIPT, cls.dest, "--base", "worktree", "--nvcc", cls.nvcc, "--jobs", "2"], timeout=600)
        cls.builds = course_builds()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def files(self):
        for directory, dirs, files in os.walk(self.dest):
            for name in dirs + files:
                yield os.path.relpath(os.path.join(directory, name), self.dest).replace(os.sep, "/")

    def test_made(self):
        self.assertEqual(self.made.returncode, 0, self.made.stdout)
        self.assertTrue(os.path.isfile(os.path.join(self.dest, "RELEASE.md")))

    def test_no_reference_answer_remains(self):
        left = [f for f in self.files() if f.endswith("_solution.cu") or release.NUMBERED.match(os.path.basename(f))]
        self.assertEqual(left, [])
        for b in self.builds.values():
            self.assertFalse(os.path.exists(os.path.join(self.dest, b.name, "tests")), b.name)
            self.assertFalse(os.path.exists(os.path.join(self.dest, b.name, "tune")), b.name)

    def test_no_git_history_build_output_or_instructor_material(self):
        for f in self.files():
            parts = f.split("/")
            self.assertFalse({".git", "build", ".tune", "__pycache__"} & set(parts), f)
        for gone in ("grading/gpu", "grading/release.ini", "grading/make_student_release.sh"):
            self.assertFalse(os.path.exists(os.path.join(self.dest, gone)), gone)

    def test_every_makefile_parses_and_takes_the_answers_from_prebuilt(self):
        for b in self.builds.values():
            p = run(["make", "-n", "-C", os.path.join(self.dest, b.name), "ARCH=sm_90", "all"])
            self.assertEqual(p.returncode, 0, f"{b.name}:\n{p.stdout[-2000:]}")
            self.assertIn(f"cp prebuilt/{release.object_path(b.solution[0])} ", p.stdout, b.name)
            p = run(["make", "-s", "--no-print-directory", "-C", os.path.join(self.dest, b.name), "ARCH=sm_90",
                     "grading-info"])
            self.assertEqual(p.returncode, 0, p.stdout)

    def test_the_student_s_and_the_course_s_files_are_the_course_s(self):
        for b in self.builds.values():
            for path in b.paths(b.harness + b.student):
                with open(os.path.join(REPO, path), "rb") as a, open(os.path.join(self.dest, path), "rb") as c:
                    self.assertEqual(a.read(), c.read(), path)

    def test_the_grader_takes_a_student_s_copy_as_a_submission(self):
        index = tree._index(self.dest)
        for b in self.builds.values():
            for path in b.paths(b.student):
                self.assertEqual(tree.find_submitted(path, index), (path, ""))

    def test_readmes_say_what_the_copy_lacks(self):
        for b in self.builds.values():
            with open(os.path.join(self.dest, b.name, "README.md")) as f:
                self.assertIn("## In this copy", f.read())
        with open(os.path.join(self.dest, "RELEASE.md")) as f:
            text = f.read()
        self.assertIn("01_saxpy/saxpy_from_host.cu", text)

    def test_a_failed_release_leaves_nothing_behind(self):
        dest = os.path.join(self.tmp, "failed")
        p = run([SCRIPT, dest, "--base", "worktree", "--nvcc", self.nvcc, "--exercises", "01"],
                env={"FAKE_NVCC_FAILS": "1"})
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("do not build", p.stdout)
        self.assertFalse(os.path.exists(dest))
        self.assertEqual([n for n in os.listdir(self.tmp) if n.startswith(".pmpp-release-")], [])

    def test_refuses_a_folder_that_is_not_empty_or_lies_in_the_course(self):
        p = run([SCRIPT, self.dest, "--nvcc", self.nvcc])
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("not an empty folder", p.stdout)
        p = run([SCRIPT, os.path.join(REPO, "build", "students"), "--nvcc", self.nvcc])
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("inside the course", p.stdout)


def _nvcc_found():
    cuda_bin = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
    return shutil.which("nvcc") is not None or os.access(cuda_bin, os.X_OK)


@unittest.skipUnless(_nvcc_found(), "no nvcc (on PATH or in $CUDA_PATH/bin): a release of 01_saxpy cannot be compiled")
class RealBuild(unittest.TestCase):
    def test_a_release_of_01_builds_and_links_its_references(self):
        with tempfile.TemporaryDirectory() as d:
            dest = os.path.join(d, "students")
            p = run([SCRIPT, dest, "--base", "worktree", "--exercises", "01", "--arch", "sm_90", "--jobs", "2",
                     "--verify-build", "sm_90"], timeout=1200)
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertIn("01_saxpy: the copy builds", p.stdout)
            self.assertIn("implementations: student, naive, vectorized, cublas, cpu", p.stdout)
            self.assertEqual(sorted(os.listdir(os.path.join(dest, "01_saxpy", "prebuilt", "obj"))),
                             ["saxpy_1_naive.cu.o", "saxpy_2_vectorized.cu.o", "saxpy_from_host.cu.o",
                              "saxpy_solution.cu.o"])


if __name__ == "__main__":
    unittest.main()
