"""The overlay takes the student's files and nothing else; the clean tree and its copies; what
the exercise Makefiles say (make grading-info)."""
import os
import re
import shutil
import tempfile
import time
import unittest

from pmpp_grading import course, tree
from files import read, write

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_course")
REPO = os.path.dirname(os.path.dirname(HERE))
STUDENT_FILES = ["01_alpha/alpha_student.txt", "02_beta/beta_student.txt"]


class Overlay(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.tree = os.path.join(self.tmp, "tree")
        shutil.copytree(FAKE, self.tree)
        self.sub = os.path.join(self.tmp, "submission")
        os.makedirs(self.sub)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_applies_the_student_files_and_leaves_the_harness_untouched(self):
        harness_before = read(os.path.join(self.tree, "01_alpha/alpha_harness.txt"))
        write(os.path.join(self.sub, "01_alpha/alpha_student.txt"), "behaviour=pass\n")
        write(os.path.join(self.sub, "01_alpha/alpha_harness.txt"), "always_pass\n")
        write(os.path.join(self.sub, "01_alpha/Makefile"), "all:\n\ttrue\n")
        write(os.path.join(self.sub, "common/fake_harness.py"), "print('hacked')\n")
        entries = tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(read(os.path.join(self.tree, "01_alpha/alpha_student.txt")), "behaviour=pass\n")
        self.assertEqual(read(os.path.join(self.tree, "01_alpha/alpha_harness.txt")), harness_before)
        self.assertEqual(read(os.path.join(self.tree, "01_alpha/Makefile")), read(os.path.join(FAKE, "01_alpha/Makefile")))
        self.assertEqual(read(os.path.join(self.tree, "common/fake_harness.py")),
                         read(os.path.join(FAKE, "common/fake_harness.py")))
        self.assertEqual([(e.path, e.status) for e in entries],
                         [("01_alpha/alpha_student.txt", "applied"), ("02_beta/beta_student.txt", "missing")])

    def test_a_missing_file_keeps_the_starter(self):
        tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(read(os.path.join(self.tree, "02_beta/beta_student.txt")),
                         read(os.path.join(FAKE, "02_beta/beta_student.txt")))

    def test_files_uploaded_without_folders(self):
        write(os.path.join(self.sub, "beta_student.txt"), "flat\n")
        entries = tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(read(os.path.join(self.tree, "02_beta/beta_student.txt")), "flat\n")
        self.assertEqual(entries[1].source, "beta_student.txt")

    def test_a_repository_zipped_inside_its_folder(self):
        write(os.path.join(self.sub, "pmpp-main/02_beta/beta_student.txt"), "nested\n")
        write(os.path.join(self.sub, "pmpp-main/02_beta/build/beta_student.txt"), "a build output\n")
        tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(read(os.path.join(self.tree, "02_beta/beta_student.txt")), "nested\n")

    def test_ambiguous_copies_are_not_guessed(self):
        write(os.path.join(self.sub, "a/02_beta/beta_student.txt"), "one\n")
        write(os.path.join(self.sub, "b/02_beta/beta_student.txt"), "two\n")
        entries = tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(entries[1].status, "ignored")
        self.assertIn("several", entries[1].note)

    def test_a_link_is_not_followed(self):
        os.makedirs(os.path.join(self.sub, "01_alpha"))
        os.symlink("/etc/passwd", os.path.join(self.sub, "01_alpha/alpha_student.txt"))
        entries = tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertEqual(entries[0].status, "ignored")
        self.assertEqual(read(os.path.join(self.tree, "01_alpha/alpha_student.txt")),
                         read(os.path.join(FAKE, "01_alpha/alpha_student.txt")))

    def test_a_file_shared_by_two_exercises_is_applied_once(self):
        write(os.path.join(self.sub, "01_alpha/alpha_student.txt"), "x\n")
        entries = tree.overlay(self.tree, self.sub, ["01_alpha/alpha_student.txt", "01_alpha/alpha_student.txt"])
        self.assertEqual(len(entries), 1)

    def test_the_applied_file_is_newer_than_the_build_outputs(self):
        obj = os.path.join(self.tree, "01_alpha/build/alpha")
        write(obj, "built")
        old = time.time() - 100
        os.utime(os.path.join(self.tree, "01_alpha/alpha_student.txt"), (old, old))
        write(os.path.join(self.sub, "alpha_student.txt"), "new\n")
        tree.overlay(self.tree, self.sub, STUDENT_FILES)
        self.assertGreater(os.path.getmtime(os.path.join(self.tree, "01_alpha/alpha_student.txt")),
                           os.path.getmtime(obj) - 1)


class CleanTree(unittest.TestCase):
    def test_worktree_copy_leaves_out_build_folders_and_the_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            shutil.copytree(FAKE, src)
            write(os.path.join(src, "01_alpha/build/alpha"), "old binary")
            write(os.path.join(src, "grades/x"), "earlier reports")
            write(os.path.join(src, ".hidden/x"), "tooling")
            dst = os.path.join(tmp, "dst")
            tree.make_clean_tree(src, dst, "worktree", exclude=[os.path.join(src, "grades")])
            self.assertFalse(os.path.exists(os.path.join(dst, "01_alpha/build")))
            self.assertFalse(os.path.exists(os.path.join(dst, "grades")))
            self.assertFalse(os.path.exists(os.path.join(dst, ".hidden")))
            self.assertTrue(os.path.exists(os.path.join(dst, "01_alpha/alpha_harness.txt")))

    def test_fingerprint_sees_a_changed_file_and_ignores_builds(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = os.path.join(tmp, "a")
            shutil.copytree(FAKE, a)
            before = tree.fingerprint(a)
            write(os.path.join(a, "01_alpha/build/alpha"), "binary")
            self.assertEqual(tree.fingerprint(a), before)
            write(os.path.join(a, "01_alpha/alpha_harness.txt"), "cases=3\n")
            self.assertNotEqual(tree.fingerprint(a), before)

    def test_head_archive_of_this_repository(self):
        if tree.default_base(REPO) != "head":
            self.skipTest("not a git checkout")
        with tempfile.TemporaryDirectory() as tmp:
            dst = os.path.join(tmp, "t")
            what = tree.make_clean_tree(REPO, dst, "head")
            self.assertIn("git HEAD", what)
            self.assertTrue(os.path.isfile(os.path.join(dst, "common", "common.mk")))


class GradingInfo(unittest.TestCase):
    def test_every_exercise_makefile_answers(self):
        names = course.exercise_folders(REPO)
        self.assertTrue(names)
        for name in names:
            ex = course.read_info(REPO, name)
            self.assertTrue(ex.program, name)
            for path in ex.student_paths():
                self.assertTrue(os.path.isfile(os.path.join(REPO, path)), path)
            self.assertEqual(len(ex.solution_paths()), len(ex.student_paths()), name)

    def test_every_reference_answer_finds_its_headers_from_the_students_slot(self):
        # The grader's reference answers are the solution files copied into the student's slots
        # (grading/gpu/make_submissions.py); a quoted include written relative to harness/ would
        # build in place and fail there. nvcc looks beside the file, then in -I.. and -I. (common.mk).
        for name in course.exercise_folders(REPO):
            ex = course.read_info(REPO, name)
            for student, solution in zip(ex.student_paths(), ex.solution_paths()):
                slot = os.path.dirname(os.path.join(REPO, student))
                with open(os.path.join(REPO, solution)) as f:
                    headers = re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)
                self.assertTrue(headers, solution)
                for header in headers:
                    places = [slot, REPO, os.path.join(REPO, name)]
                    found = [p for p in places if os.path.isfile(os.path.join(p, header))]
                    self.assertTrue(found, f"{solution} in the slot {student}: #include \"{header}\" is not found")

    def test_a_student_file_in_another_folder_is_named_from_the_root(self):
        ex = course.read_info(FAKE, "02_beta")
        self.assertEqual(ex.student_paths(), ["02_beta/beta_student.txt", "01_alpha/alpha_student.txt"])
        self.assertEqual(ex.forbidden_apis, "")
        self.assertEqual(course.read_info(FAKE, "01_alpha").forbidden_apis, "thrust")

    def test_paths_outside_the_tree_are_refused(self):
        with self.assertRaises(course.CourseError):
            course.repo_path("01_alpha", "../../etc/passwd")

    def test_exercise_selection(self):
        names = ["01_saxpy", "02_scan", "03_find_repeats"]
        self.assertEqual(course.select(names, "03,01_saxpy"), ["01_saxpy", "03_find_repeats"])
        self.assertEqual(course.select(names, None), names)
        with self.assertRaises(course.CourseError):
            course.select(names, "04")


if __name__ == "__main__":
    unittest.main()
