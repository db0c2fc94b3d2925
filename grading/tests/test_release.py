"""The student release (grading/make_student_release.sh): its rules on this course, the Makefile
it writes, the Markdown it writes (release markers, the READMEs' tables and names) and how it
checks it, and a release of the whole course made with a stand-in compiler: no reference answer
left, every Makefile parses and takes the answers from prebuilt/, the student's and the course's
files intact, and the grader takes a student's copy as a submission. A release of 01 and 02 is
read as a student would: its READMEs name only what it holds, every link leads somewhere, `make
help` lists what they use. Where nvcc is found, that release is compiled for sm_90 and built (a
few minutes on two cores); elsewhere the stand-in compiler makes it."""
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

from pmpp_grading import course, release, tree
from pmpp_grading.release import Build, Config, Plan, ReleaseError, answers

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
        # The references as the course's Makefile found them (a wildcard there finds none here).
        pinned = release.release_makefile("REFERENCE_SRCS := $(wildcard x_[0-9]_*.cu)\n" + text, True, ["x_1_a.cu", "x_cpu.cpp"])
        self.assertIn("REFERENCE_SRCS := x_1_a.cu x_cpu.cpp\ninclude ../common/common.mk\n", pinned)
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
        if "08_mandelbrot" in self.builds:
            self.assertEqual(self.plan.withheld.get("08_mandelbrot/mandelbrot_device.cuh"), "included only by withheld files")
        if "02_scan" in self.builds:
            # The look-back goes with variant 3 (its number); the block scan 04 and 06 offer is common's.
            self.assertIn("02_scan/scan_3_lookback.cuh", self.plan.withheld)
            self.assertNotIn("common/primitives/scan.cuh", self.plan.withheld)

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
        cfg = Config(withhold={"01_saxpy": ["harness/saxpy_harness.h"]})
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
                text = f.read()
            self.assertIn("In this copy the reference answer and the numbered variants come compiled", text, b.name)
            self.assertIn(f"`{b.solution[0]}` (compiled in prebuilt/)", text, b.name)
            self.assertNotRegex(text, r"(?m)^\| `(tests|tune)/` \|", b.name)
            self.assertNotIn("<!-- release", text, b.name)
        with open(os.path.join(self.dest, "RELEASE.md")) as f:
            text = f.read()
        self.assertIn("01_saxpy/saxpy_3_from_host.cu", text)

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


# ---- The Markdown of the copy: markers, the READMEs' rewriting and the check ---------------------

def write_tree(root, files):
    """files: path -> text (a path ending in / is an empty folder)."""
    for path, text in files.items():
        full = os.path.join(root, path)
        if path.endswith("/"):
            os.makedirs(full, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


# A small course: 01_ex released (its variant and answer compiled, a header of theirs withheld, its
# tests/ and tune/ left out), 02_other not released.
SMALL_COURSE = {
    "README.md": "", "docs/CONTRACT.md": "", "01_ex/README.md": "", "01_ex/NOTES.md": "",
    "01_ex/ex_student.cu": "", "01_ex/ex_1_naive.cu": "", "01_ex/ex_1_naive.cuh": "", "01_ex/ex_solution.cu": "",
    "01_ex/ex_helper.cuh": "", "01_ex/tests/test_ex.cu": "", "01_ex/tune/gpu_run.sh": "", "02_other/README.md": "",
}
SMALL_PLAN = Plan(exercises=["01_ex"],
                  withheld={"01_ex/ex_1_naive.cu": "a numbered reference variant",
                            "01_ex/ex_1_naive.cuh": "a numbered reference variant",
                            "01_ex/ex_helper.cuh": "included only by withheld files",
                            "01_ex/ex_solution.cu": "the reference answer (SOLUTION_SRCS)"},
                  prebuilt={"01_ex": ["ex_1_naive.cu", "ex_solution.cu"]},
                  left_out=["01_ex/tests", "01_ex/tune", "02_other"])


class SmallCourse(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.course = os.path.join(cls.tmp, "course")
        write_tree(cls.course, SMALL_COURSE)
        cls.contents = release.CopyContents(release.PathIndex(cls.course), SMALL_PLAN)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def status(self, folder="01_ex"):
        return lambda name: self.contents.status(folder, name)


class ReleaseMarkers(unittest.TestCase):
    def test_course_only_text_is_left_out_and_student_only_text_uncommented(self):
        text = ("intro\n<!-- release: course-only -->\nread `x_1.cu`\n<!-- /release -->\n"
                "<!-- release: student-only\nits row in the benchmark\n-->\nend\n")
        self.assertEqual(release.apply_markers(text, "R.md"), "intro\nits row in the benchmark\nend\n")

    def test_text_without_markers_is_unchanged(self):
        text = "a\n<!-- an ordinary comment -->\n| `x` | y |\n"
        self.assertEqual(release.apply_markers(text, "R.md"), text)

    def test_marker_text_inside_a_code_span_is_not_a_marker(self):
        text = "write `<!-- release: course-only -->` around it\n"
        self.assertEqual(release.apply_markers(text, "R.md"), text)

    def test_a_marker_out_of_place_fails_with_its_file_and_line(self):
        cases = {
            "a\n<!-- release: course-ony -->\n": "line 2",                                        # a typo
            "<!-- release: course-only -->\na\n": "never closed",
            "<!-- release: student-only\na\n": "never closed",
            "<!-- release: course-only -->\n<!-- release: student-only\n-->\n<!-- /release -->\n": "line 2",  # nested
            "a\n<!-- /release -->\n": "line 2",                                                      # no opener
            "<!-- release: student-only\na --> b\n-->\n": "'-->' inside",
            "text <!-- release: course-only --> on a line of text\n": "alone on its line",
        }
        for text, words in cases.items():
            with self.assertRaises(ReleaseError, msg=text) as e:
                release.apply_markers(text, "01_ex/README.md")
            self.assertIn("01_ex/README.md", str(e.exception))
            self.assertIn(words, str(e.exception), text)


class ReadmeRewriting(SmallCourse):
    def test_a_row_of_only_withheld_files_goes_and_a_compiled_one_is_marked(self):
        text = ("| file | what it is |\n|---|---|\n"
                "| `ex_student.cu` | your file |\n"
                "| `ex_1_naive.cu` | reference 1 |\n"
                "| `ex_helper.cuh` | what the references share |\n"
                "| `tests/` | the course's tests |\n"
                "| `tune/` | `gpu_run.sh` and the sweep |\n"
                "| `NOTES.md` | how |\n")
        out, end = release.rewrite_readme(text, self.status())
        self.assertEqual(out, "| file | what it is |\n|---|---|\n"
                              "| `ex_student.cu` | your file |\n"
                              "| `ex_1_naive.cu` (compiled in prebuilt/) | reference 1 |\n"
                              "| `NOTES.md` | how |\n")
        self.assertEqual(end, 5)  # the lines up to the end of that table

    def test_a_name_and_its_other_ending_are_marked_once(self):
        out, _ = release.rewrite_readme("| `ex_1_naive.cu`, `.cuh` | reference 1 |\n", self.status())
        self.assertEqual(out, "| `ex_1_naive.cu`, `.cuh` (compiled in prebuilt/) | reference 1 |\n")

    def test_the_top_readme_lists_only_the_released_exercises(self):
        text = ("| folder | topic |\n|---|---|\n| [01_ex](01_ex/README.md) | one |\n"
                "| [02_other](02_other/README.md) | two |\n")
        out, _ = release.rewrite_readme(text, self.status(""))
        self.assertEqual(out, "| folder | topic |\n|---|---|\n| [01_ex](01_ex/README.md) | one |\n")

    def test_a_row_that_stays_marks_the_withheld_names_of_its_other_cells(self):
        out, _ = release.rewrite_readme("| 12.5 basic kernel | `ex_1_naive.cu`; task 2 |\n", self.status())
        self.assertEqual(out, "| 12.5 basic kernel | `ex_1_naive.cu` (compiled in prebuilt/); task 2 |\n")

    def test_prose_names_what_the_copy_lacks_with_a_note(self):
        text = ("Read `ex_helper.cuh` and `NOTES.md`.\n\nThe answer (the same\nscan, `ex_solution.cu`) is "
                "timed;\n`tune/gpu_run.sh`'s logs say so.\n")
        out, end = release.rewrite_readme(text, self.status())
        self.assertEqual(out, "Read `ex_helper.cuh` (withheld) and `NOTES.md`.\n\nThe answer (the same\nscan, "
                              "`ex_solution.cu`, compiled in prebuilt/) is timed;\n`tune/gpu_run.sh`'s logs (withheld) "
                              "say so.\n")
        self.assertIsNone(end)  # no table changed

    def test_a_paragraph_that_says_withheld_or_prebuilt_is_left_as_written(self):
        text = "The fast variant is compiled in prebuilt/:\nits source `ex_1_naive.cu` is not here.\n"
        self.assertEqual(release.rewrite_readme(text, self.status())[0], text)

    def test_code_blocks_are_left_as_written(self):
        text = "```\n| `ex_helper.cuh` | x |\nread `ex_helper.cuh`\n```\n"
        self.assertEqual(release.rewrite_readme(text, self.status())[0], text)

    def test_the_note_follows_the_first_table_that_changed(self):
        text = "# 01\n\n| file | what |\n|---|---|\n| `tests/` | tests |\n| `NOTES.md` | how |\n\n## Tasks\n"
        out = release.readme_for_copy(text, "01_ex", self.contents, "NOTE\n")
        self.assertEqual(out, "# 01\n\n| file | what |\n|---|---|\n| `NOTES.md` | how |\n\nNOTE\n\n## Tasks\n")
        out = release.readme_for_copy("# 01\n\nNo table.\n", "01_ex", self.contents, "NOTE\n")
        self.assertEqual(out, "# 01\n\nNo table.\n\n## In this copy\n\nNOTE\n")

    def test_the_note_says_what_the_folder_lacks(self):
        note = release.readme_note(True, ["tests", "tune"])
        self.assertIn("`prebuilt/`", note)
        self.assertIn("(`tests/` and `tune/`) are withheld too: `make test` builds an empty suite",
                      note.replace("\n", " "))
        self.assertEqual(release.readme_note(False, []), "")


class MarkdownCheck(SmallCourse):
    """check_markdown on a copy of the small course made by hand."""

    def setUp(self):
        self.copy = tempfile.mkdtemp(dir=self.tmp)
        write_tree(self.copy, {p: t for p, t in SMALL_COURSE.items()
                               if p not in SMALL_PLAN.withheld and not p.startswith(("01_ex/tests", "01_ex/tune",
                                                                                     "02_other"))})
        write_tree(self.copy, {"01_ex/prebuilt/prebuilt.mk": ""})

    def problems(self, md, text):
        write_tree(self.copy, {md: text})
        try:
            release.check_markdown(self.copy, self.course, SMALL_PLAN)
        except ReleaseError as e:
            return str(e)
        return ""

    def test_a_readme_that_names_only_what_the_copy_holds_passes(self):
        text = ("See [the contract](../docs/CONTRACT.md#options), [NOTES](NOTES.md), [up](../), "
                "[PMPP](https://example.org/x.md), [below](#tasks).\n\n| `ex_student.cu` | yours |\n\n"
                "Build with `make run`; `1.2x` and `std::size_t` are no paths; `results.json` is written.\n\n"
                "The references are compiled in prebuilt/: `ex_1_naive.cu`, `tests/` are withheld.\n\n"
                "```\nread ex_helper.cuh and [x](nowhere.md)\n```\n")
        self.assertEqual(self.problems("01_ex/README.md", text), "")

    def test_a_dead_link_fails_with_file_line_and_target(self):
        for md in ("01_ex/README.md", "01_ex/NOTES.md", "docs/CONTRACT.md"):
            found = self.problems(md, "x\n\n[the bad ones](../02_other/README.md)\n")
            self.assertIn(f"{md} line 3: the link to ../02_other/README.md leads to nothing", found, md)
            write_tree(self.copy, {md: ""})
        self.assertIn("the link to gone.md", self.problems("README.md", "[a]: gone.md\n"))

    def test_a_withheld_name_fails_with_readme_line_and_name(self):
        found = self.problems("01_ex/README.md", "intro\n\nthen read `ex_helper.cuh`\nand `NOTES.md`.\n")
        self.assertIn("01_ex/README.md line 3: 'ex_helper.cuh' is not in the copy (withheld: included only by "
                      "withheld files)", found)

    def test_a_left_out_folder_or_exercise_fails_too(self):
        found = self.problems("README.md", "| `01_ex/tests/` | tests |\n| 02_other/README.md | the next one |\n")
        self.assertIn("README.md line 1: '01_ex/tests/' is not in the copy (left out of the copy)", found)
        self.assertIn("README.md line 2: '02_other/README.md' is not in the copy (left out with 02_other)", found)

    def test_names_are_checked_in_the_readmes_only(self):
        self.assertEqual(self.problems("01_ex/NOTES.md", "read `ex_helper.cuh`\n"), "")

    def test_the_release_rewrites_what_the_check_would_reject(self):
        text = ("| `ex_1_naive.cu` | ref |\n| `ex_helper.cuh` | shared |\n| `tune/` | scripts |\n\n"
                "Read `ex_helper.cuh`, then `tune/gpu_run.sh`.\n")
        self.assertNotEqual(self.problems("01_ex/README.md", text), "")
        rewritten = release.readme_for_copy(text, "01_ex", self.contents, release.readme_note(True, ["tune"]))
        self.assertEqual(self.problems("01_ex/README.md", rewritten), "")


# ---- The answer check: no function of a withheld file in the copy, by its name or its body -------

# The variant's kernel: its body is the answer to the task (well over MIN_BODY characters).
NAIVE_KERNEL = """template <class T>
__global__ void naive_kernel(int n, T a, const T* x, T* y) {
    const int stride = blockDim.x * gridDim.x;  // a grid-stride loop: any grid covers n
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = a * x[i] + y[i];
    }
}
"""
# The same body pasted elsewhere: other comments, other line breaks and spacing.
NAIVE_BODY_PASTED = """{
    const int stride = blockDim.x*gridDim.x;
    /* every thread */ for (int i = blockIdx.x * blockDim.x + threadIdx.x;
                            i < n; i += stride) { y[i] = a * x[i] + y[i]; }
}
"""
ANSWER_COURSE = {
    "01_ex/ex.h": ("#pragma once\nnamespace ex {\nvoid ex_student(int n, float a, const float* x, float* y);\n"
                   "// The README tells the student to use it.\n"
                   "inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }\n}\n"),
    "01_ex/main.cu": '#include "ex.h"\nint main() { return 0; }\n',
    "01_ex/ex_student.cu": ('#include "ex.h"\nnamespace ex {\n'
                            "template <class T>\n__global__ void naive_kernel(int n, T a, const T* x, T* y) {\n"
                            "    // TODO(task 1)\n}\n"
                            "void ex_student(int n, float a, const float* x, float* y) {\n    // TODO(task 2)\n}\n}\n"),
    "01_ex/ex_1_naive.cu": ('#include "ex.h"\nnamespace ex {\n' + NAIVE_KERNEL
                            + "int tiny(int a, int b) { return a + b; }\n"
                            + "inline int clamp_index(int i, int n) { return i < 0 ? 0 : i; }  // not the helper's\n"
                            + "void ex_naive(int n, float a, const float* x, float* y) {\n"
                            + "    naive_kernel<<<(n + 255) / 256, 256>>>(n, a, x, y);\n}\n}\n"),
    "01_ex/ex_solution.cu": ('#include "ex.h"\nnamespace ex {\n'
                             "void ex_naive(int n, float a, const float* x, float* y);\n"
                             "void ex_student(int n, float a, const float* x, float* y) {\n"
                             "    if (n <= 0) return;  // the reference answer: variant 1, on each half\n"
                             "    const int half = n / 2;\n    ex_naive(half, a, x, y);\n"
                             "    ex_naive(n - half, a, x + half, y + half);\n}\n}\n"),
    "01_ex/NOTES.md": "# Notes\n\nThe kernel is in `ex_1_naive.cu`.\n",
    "common/util.h": "#pragma once\ninline int ceil_div(int a, int b) { return (a + b - 1) / b; }\n",
}
ANSWER_BUILDS = {"01_ex": Build("01_ex", "ex", ("main.cu",), ("ex_1_naive.cu",), ("ex_student.cu",),
                                ("ex_solution.cu",), ("ex::ex_student",))}
ANSWER_PLAN = Plan(exercises=["01_ex"], withheld={"01_ex/ex_1_naive.cu": "a numbered reference variant",
                                                  "01_ex/ex_solution.cu": "the reference answer (SOLUTION_SRCS)"},
                   prebuilt={"01_ex": ["ex_1_naive.cu", "ex_solution.cu"]}, left_out=[])


class AnswerCheck(unittest.TestCase):
    """find_answers on a small course and a copy of it made by hand, with leaks planted."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.course = os.path.join(self.tmp, "course")
        self.copy = os.path.join(self.tmp, "copy")
        write_tree(self.course, ANSWER_COURSE)
        write_tree(self.copy, {p: t for p, t in ANSWER_COURSE.items() if p not in ANSWER_PLAN.withheld})

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def findings(self, **changes):
        """The findings, as printed, once `changes` (path with '/' as '__' -> text) are in the copy."""
        write_tree(self.copy, {p.replace("__", "/"): t for p, t in changes.items()})
        return [str(f) for f in release.find_answers(self.course, release.files_below(self.copy), ANSWER_PLAN,
                                                     ANSWER_BUILDS, Config())]

    def test_the_answers_are_the_withheld_functions_but_the_student_api(self):
        found = {(e, w, f.name) for e, w, f in answers.answers_of(self.course, ANSWER_PLAN, ANSWER_BUILDS)}
        self.assertEqual(found, {("01_ex", "01_ex/ex_1_naive.cu", name)
                                 for name in ("naive_kernel", "tiny", "clamp_index", "ex_naive")})

    def test_a_clean_copy_passes(self):
        # The starter's stubs of the same names, the header's own clamp_index (a helper) and the
        # student's API are no answers shipped.
        self.assertEqual(self.findings(), [])

    def test_a_leaked_definition_is_found_by_its_name(self):
        # Another body (an answer edited), the same name and parameters: the answer's definition.
        found = self.findings(**{"01_ex__main.cu": ANSWER_COURSE["01_ex/main.cu"] + "template <class T>\n"
                                 "__global__ void naive_kernel(int n, T a, const T *x, T *y) { y[0] = a * x[0]; }\n"})
        self.assertEqual(found, ["release: 01_ex: main.cu ships naive_kernel, the answer in ex_1_naive.cu"])

    def test_a_function_of_the_same_name_and_other_parameters_is_another_function(self):
        found = self.findings(**{"01_ex__main.cu": ANSWER_COURSE["01_ex/main.cu"]
                                 + "static int naive_kernel(const char* name) { return name[0]; }\n",
                                 "common__util.h": ANSWER_COURSE["common/util.h"]
                                 + "inline int tiny(int a, int b) { return a - b; }\n"})
        self.assertEqual(found, [])  # and common/ is not 01_ex's: its build does not read util.h

    def test_a_leaked_body_is_found_under_another_name_and_in_any_text(self):
        found = self.findings(**{
            "01_ex__ex.h": ANSWER_COURSE["01_ex/ex.h"] + "template <class T>\n__device__ void axpy_loop(int n, T a, "
                           "const T* x, T* y) " + NAIVE_BODY_PASTED,
            "01_ex__NOTES.md": "# Notes\n\n```cuda\n" + NAIVE_KERNEL.replace("naive_kernel", "kernel") + "```\n",
            "common__util.h": ANSWER_COURSE["common/util.h"] + "struct Axpy {\n    __device__ void operator()(int n, "
                              "float a, const float* x, float* y) const " + NAIVE_BODY_PASTED + "};\n",
            "02_other__other.cu": NAIVE_KERNEL})  # another exercise's: by its body, itself
        self.assertEqual(found, [
            "release: 01_ex: 02_other/other.cu ships naive_kernel, the answer in ex_1_naive.cu",
            "release: 01_ex: NOTES.md ships naive_kernel's body, the answer in ex_1_naive.cu",
            "release: 01_ex: common/util.h ships naive_kernel's body, the answer in ex_1_naive.cu",
            "release: 01_ex: ex.h ships naive_kernel's body as axpy_loop, the answer in ex_1_naive.cu"])

    def test_the_student_api_and_short_bodies_are_ignored(self):
        solution_body = ANSWER_COURSE["01_ex/ex_solution.cu"].split("y) {", 1)[1].split("\n}\n", 1)[0]
        self.assertGreater(len(answers.joined(answers.tokens("{" + solution_body + "}"))), answers.MIN_BODY)
        found = self.findings(**{
            "01_ex__main.cu": ANSWER_COURSE["01_ex/main.cu"] + "int add(int p, int q) { return a + b; }\n"
                              "int sum(int a, int b) { return a + b; }\n"
                              "void run(int n, float a, const float* x, float* y) {" + solution_body + "}\n"})
        self.assertEqual(found, [])  # tiny's body is short; ex_student's is the student's API

    def test_a_helper_that_ships_is_an_answer_only_with_the_answer_s_body(self):
        helper = "inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }"
        self.assertIn(helper, ANSWER_COURSE["01_ex/ex.h"])
        found = self.findings(**{"01_ex__ex.h": ANSWER_COURSE["01_ex/ex.h"].replace(
            helper, "inline int clamp_index(int i, int n) { return i < 0 ? 0 : i; }")})
        self.assertEqual(found, ["release: 01_ex: ex.h ships clamp_index, the answer in ex_1_naive.cu"])

    def test_the_check_fails_the_release_naming_exercise_file_and_function(self):
        write_tree(self.copy, {"01_ex/main.cu": "int tiny(int a, int b) { return b + a; }\n"})
        with self.assertRaises(ReleaseError) as e:
            release.check_answers(self.course, self.copy, ANSWER_PLAN, ANSWER_BUILDS, Config())
        self.assertIn("\nrelease: 01_ex: main.cu ships tiny, the answer in ex_1_naive.cu", str(e.exception))


class FunctionScanner(unittest.TestCase):
    def names(self, text):
        return [f.name for f in release.functions(text)]

    def test_definitions_with_qualifiers_templates_and_members(self):
        text = """
            #define BODY(x) { return x; }
            // void commented_out() { }
            namespace ns {
            template <typename T, int N = 4>
            __host__ __device__ __forceinline__ T twice(T x) noexcept { return x + x; }
            __global__ void __launch_bounds__(256, 2) kernel(const char* s = "f() {") {
                if (s) { helper(s); } for (;;) { break; } while (true) { }
                auto lambda = [&](int i) { return i; };
            }
            struct Tile : Base<int, 2> {
                Tile(int n) : Base<int, 2>(n), count_{n}, name("{") { }
                ~Tile() { }
                int size() const & { return count_; }
                auto end() const -> decltype(count_ + 1) { return count_ + 1; }
                int count_;
            };
            int declared(int x);
            int Tile::outside(int x) { return x; }
            }
            """
        self.assertEqual(self.names(text), ["twice", "kernel", "Tile", "~Tile", "size", "end", "outside"])

    def test_bodies_and_parameters_compare_without_comments_spacing_or_defaults(self):
        a = release.functions("int f(int x, const float *y = nullptr) {\n  return x * 2;  // twice\n}\n")[0]
        b = release.functions("int g(int x, const float* y){ /* the same */ return x*2; }")[0]
        self.assertEqual((a.params, a.body), ("(int x,const float*y)", "{return x*2;}"))
        self.assertEqual((a.params, a.body), (b.params, b.body))


# A stand-in for common/common.mk: each "object" written by a rule of the exercise's Makefile.
FAKE_COMMON_MK = """BUILD := build
obj = $(addprefix obj/,$(addsuffix .o,$(subst ../,__/,$(1))))
all: $(addprefix $(BUILD)/,$(call obj,$(HARNESS_SRCS) $(REFERENCE_SRCS) $(STUDENT_SRCS) $(SOLUTION_SRCS)))
test-build:
$(BUILD)/obj/%.o: %
\t@mkdir -p $(dir $@)
\techo object > $@
"""
FAKE_EXERCISE_MK = """EXERCISE := 01_ex
PROGRAM := ex
HARNESS_SRCS := main.cu
REFERENCE_SRCS := ex_1_naive.cu
STUDENT_SRCS := ex_student.cu
SOLUTION_SRCS := ex_solution.cu
STUDENT_API := ex::ex_student

include ../common/common.mk
"""


class ReleaseRunsTheAnswerCheck(unittest.TestCase):
    """make_student_release.sh on the small course (its Makefiles stand-ins): the copy is made, and
    refused once the harness holds a function of the variant."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.course = os.path.join(self.tmp, "course")
        write_tree(self.course, dict(ANSWER_COURSE, **{"01_ex/Makefile": FAKE_EXERCISE_MK,
                                                       "common/common.mk": FAKE_COMMON_MK}))
        self.config = os.path.join(self.tmp, "release.ini")
        write_tree(self.tmp, {"release.ini": "[release]\ndrop =\n"})

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def release(self, dest):
        return run([SCRIPT, os.path.join(self.tmp, dest), "--repo", self.course, "--config", self.config,
                    "--base", "worktree", "--nvcc", "true", "--jobs", "1"], timeout=120)

    def test_a_clean_course_is_released_and_one_with_a_leak_refused(self):
        p = self.release("clean")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "clean", "01_ex", "prebuilt", "obj", "ex_1_naive.cu.o")))
        write_tree(self.course, {"01_ex/main.cu": ANSWER_COURSE["01_ex/main.cu"] + NAIVE_KERNEL})
        p = self.release("leaked")
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("\nrelease: 01_ex: main.cu ships naive_kernel, the answer in ex_1_naive.cu\n", p.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "leaked")))


# ---- `make help` and the targets the READMEs use -------------------------------------------------

def make_targets_used(text):
    """The target of every `make ...` in a code span or a fenced block (its comments left out) of
    Markdown ('all' for none)."""
    chunks, fence = [], None
    for line in text.splitlines():
        if re.match(r"\s*(```|~~~)", line):
            fence = None if fence else line.strip()[:3]
            continue
        chunks += [re.split(r"\s#", line, 1)[0]] if fence else re.findall(r"`([^`\n]+)`", line)
    targets = set()
    for chunk in chunks:
        for after in re.split(r"(?<![\w./$(-])make(?=\s|$)", chunk)[1:]:
            words, target, skip = after.split(), "all", False
            for word in words:
                if skip or word.startswith("-") or "=" in word:
                    skip = word in ("-C", "-f")
                    continue
                word = word.rstrip(",;:.)")
                target = word if re.fullmatch(r"[a-z][a-z0-9-]*", word) else None
                break
            if target:
                targets.add(target)
    return targets


def help_targets(text):
    """The targets a `make help` lists: 'make X  ...' lines ('make  ...' is all) and the exercise line."""
    listed = set()
    for line in text.splitlines():
        m = re.match(r"\s*make(?: ([a-z][a-z0-9-]*))?(?:\s|$)", line)
        if m:
            listed.add(m.group(1) or "all")
        m = re.match(r"In an exercise folder:\s*make (.*)", line)
        if m:
            listed.update(w.strip() for w in m.group(1).split("|"))
    return listed


def readme_texts(root):
    paths = [os.path.join(root, "README.md")] + [os.path.join(root, e, "README.md") for e in
                                                  course.exercise_folders(root)]
    texts = {}
    for path in paths:
        if os.path.isfile(path):
            with open(path) as f:
                texts[os.path.relpath(path, root)] = f.read()
    return texts


class MakeHelp(unittest.TestCase):
    def test_the_target_parsers(self):
        text = ("Run `make run RUN_ARGS=\"--seed 4\"`, `make -j8 run`, `make ARCH=sm_90`, `make -C x forbidden`.\n"
                "```sh\nmake sanitize      # make profile is in the text\nMakefile  make, run\n"
                "make test, make test-build\n```\n")
        self.assertEqual(make_targets_used(text), {"run", "all", "forbidden", "sanitize", "test", "test-build"})
        self.assertEqual(help_targets("  make          build\n  make run      check\n  make test-build  x\n"
                                      "In an exercise folder: make run | forbidden | help\n"),
                         {"all", "run", "test-build", "forbidden", "help"})

    def test_make_help_lists_every_target_the_readmes_use(self):
        listed = help_targets(run(["make", "-s", "--no-print-directory", "-C", REPO, "help"]).stdout)
        for readme, text in readme_texts(REPO).items():
            self.assertEqual(make_targets_used(text) - listed, set(), readme)

    def test_its_exercise_line_lists_every_target_of_an_exercise_s_make_help(self):
        top = run(["make", "-s", "--no-print-directory", "-C", REPO, "help"]).stdout
        line = next(l for l in top.splitlines() if l.startswith("In an exercise folder:"))
        exercise_line = {w.strip() for w in line.split("make", 1)[1].split("|")}
        for name in course.exercise_folders(REPO)[:1]:
            p = run(["make", "-s", "--no-print-directory", "-C", os.path.join(REPO, name), "help"])
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertEqual(help_targets(p.stdout) - {"all"} - exercise_line, set(), p.stdout)

    def test_the_course_offers_the_student_release(self):
        self.assertIn("make student-release", run(["make", "-s", "-C", REPO, "help"]).stdout)


# ---- A release of 01 and 02, read as a student would ---------------------------------------------

def _nvcc_found():
    cuda_bin = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
    return shutil.which("nvcc") is not None or os.access(cuda_bin, os.X_OK)


class ReleaseOfTwoExercises(unittest.TestCase):
    """`make student-release RELEASE_ARGS="--exercises 01,02"`: with nvcc, compiled for sm_90 and
    built (--verify-build); without, made by the stand-in compiler (everything but the build)."""
    EXERCISES = ["01_saxpy", "02_scan"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.dest = os.path.join(cls.tmp, "students")
        cls.compiled = _nvcc_found()
        args = ["--arch", "sm_90", "--verify-build", "sm_90"]
        if not cls.compiled:
            nvcc = os.path.join(cls.tmp, "nvcc")
            with open(nvcc, "w") as f:
                f.write(FAKE_NVCC)
            os.chmod(nvcc, os.stat(nvcc).st_mode | stat.S_IXUSR)
            args = ["--nvcc", nvcc]
        cls.made = run(["make", "-s", "--no-print-directory", "-C", REPO, "student-release", f"DEST={cls.dest}",
                        "RELEASE_ARGS=--base worktree --exercises 01,02 --jobs 2 " + " ".join(args)], timeout=1800)
        cls.plan = release.make_plan(REPO, course_builds(cls.EXERCISES), release.load_config(CONFIG))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def setUp(self):
        self.assertEqual(self.made.returncode, 0, self.made.stdout)

    def readmes(self):
        return readme_texts(self.dest)

    def test_it_holds_the_two_exercises(self):
        self.assertEqual(course.exercise_folders(self.dest), self.EXERCISES)
        self.assertEqual(sorted(self.readmes()), ["01_saxpy/README.md", "02_scan/README.md", "README.md"])

    def test_every_link_of_every_markdown_file_leads_to_a_file_or_folder_of_the_copy(self):
        checked = 0
        for directory, dirs, files in os.walk(self.dest):
            for name in (n for n in files if n.endswith(".md")):
                path = os.path.join(directory, name)
                with open(path) as f:
                    text = re.sub(r"(?ms)^```.*?^```", "", f.read())
                for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`\n]*`", "", text)):
                    if target.startswith("#") or re.match(r"[a-z]+:", target):
                        continue
                    checked += 1
                    self.assertTrue(os.path.exists(os.path.join(directory, target.split("#")[0])),
                                    f"{os.path.relpath(path, self.dest)}: {target}")
        self.assertGreater(checked, 3)

    def test_every_file_a_readme_names_is_in_the_copy_or_said_to_be_withheld(self):
        release.check_markdown(self.dest, REPO, self.plan)  # raises, naming README, line and name
        for readme, text in self.readmes().items():
            for line in text.splitlines():
                if re.search("withheld|prebuilt", line):
                    continue
                for name in ("saxpy_2_vectorized.cu", "saxpy_3_from_host.cu", "scan_3_single_pass.cu", "tests/",
                             "tune/", "grading/gpu", "03_find_repeats", "make_student_release.sh"):
                    self.assertNotIn(name, line, readme)

    def test_the_top_readme_lists_only_the_released_exercises(self):
        text = self.readmes()["README.md"]
        self.assertEqual(re.findall(r"(?m)^\| \[([0-9]{2}_\w+)\]", text), self.EXERCISES)
        self.assertIn("This is the students' copy of the course", text)
        self.assertNotIn("<!--", text)

    def test_the_exercise_readmes_say_what_comes_compiled_and_drop_what_is_left_out(self):
        text = self.readmes()["01_saxpy/README.md"]
        folder = text.split("## What is in this folder", 1)[1].split("## Your tasks", 1)[0]
        self.assertIn("| `saxpy_2_vectorized.cu` (compiled in prebuilt/) |", folder)
        self.assertNotIn("| `tests/`", folder)
        self.assertIn("In this copy the reference answer", folder)
        self.assertIn("the `vectorized` row (compiled in `prebuilt/`), read `NOTES.md`", text)

    def test_make_help_lists_what_the_readmes_use_and_not_the_instructor_s_command(self):
        p = run(["make", "-s", "--no-print-directory", "-C", self.dest, "help"])
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertNotIn("student-release", p.stdout)
        for readme, text in self.readmes().items():
            self.assertEqual(make_targets_used(text) - help_targets(p.stdout), set(), readme)
            self.assertNotIn("student-release", text, readme)
        p = run(["make", "-s", "--no-print-directory", "-C", self.dest, "student-release", "DEST=x"])
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("the instructor's copy makes it", p.stdout)

    def test_with_nvcc_it_builds_and_links_its_references(self):
        if not self.compiled:
            self.skipTest("no nvcc (on PATH or in $CUDA_PATH/bin): made with the stand-in compiler, not built")
        self.assertIn("01_saxpy: the copy builds", self.made.stdout)
        self.assertIn("implementations: student, naive, vectorized, cublas, cpu", self.made.stdout)
        self.assertIn("02_scan: the copy builds", self.made.stdout)
        objects = os.path.join(self.dest, "01_saxpy", "prebuilt", "obj")
        self.assertEqual(sorted(os.listdir(objects)),
                         ["harness", "saxpy_1_naive.cu.o", "saxpy_2_vectorized.cu.o", "saxpy_3_from_host.cu.o"])
        self.assertEqual(os.listdir(os.path.join(objects, "harness")), ["saxpy_solution.cu.o"])


if __name__ == "__main__":
    unittest.main()
