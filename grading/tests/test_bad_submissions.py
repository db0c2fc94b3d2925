"""grading/gpu/make_submissions.py: the bad submissions the GPU check grades.

- Every bad case written as a diff (grading/gpu/bad/CASE/PATH.diff) applies to today's own
  answer (grading/gpu/own_answers/PATH), which fills a student's slot of the course: a change
  there that breaks a bad submission fails here, not on the GPU day.
- A diff that does not apply, has no own answer or names another base is refused, the message
  naming the case, the diff and the line that does not match.
- The strict applier on diffs as difflib writes them (`diff -u`'s format): hunks that insert,
  remove, change, at the start and at the end of a file.
- The script itself: every case's diffs applied in its folder, no diff copied; an own answer
  changed under a diff stops it, naming the case, with no groups.txt for gpu_run.sh to grade.
"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from files import load, read, write
from pmpp_grading import course

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GPU = os.path.join(os.path.dirname(HERE), "gpu")
OFF_BY_ONE = "01_saxpy/saxpy_student.cu"  # off_by_one's diff: its kernel's bound `i <= n`

if os.path.isdir(GPU):
    sys.path.insert(0, GPU)
    import make_submissions  # noqa: E402


def bad_cases():
    return [k for k in load(os.path.join(GPU, "expected.json")) if not k.startswith("_") and k != "reference"]


def unified_diff(old, new, path):
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"own_answers/{path}", f"bad/case/{path}", n=1))


@unittest.skipUnless(os.path.isdir(GPU), "grading/gpu/ is not in the students' copy")
class TheBadSubmissionsDiffs(unittest.TestCase):
    def test_every_diff_applies_to_todays_own_answer(self):
        patched = {case: make_submissions.patched_files(case) for case in bad_cases()}
        self.assertIn(OFF_BY_ONE, patched["off_by_one"])
        self.assertIn("if (i <= n) z[i]", patched["off_by_one"][OFF_BY_ONE])
        for case, files in patched.items():
            for path, text in files.items():
                self.assertNotEqual(text, read(os.path.join(make_submissions.OWN_ANSWERS, path)), f"{case}: {path}")

    def test_every_own_answer_fills_a_students_slot(self):
        slots = {p for name in course.exercise_folders(REPO) for p in course.read_info(REPO, name).student_paths()}
        answers = [os.path.relpath(os.path.join(root, name), make_submissions.OWN_ANSWERS)
                   for root, _, names in os.walk(make_submissions.OWN_ANSWERS) for name in names]
        self.assertIn(OFF_BY_ONE, answers)
        for path in answers:
            self.assertIn(path, slots)

    def refused(self, diff, path=OFF_BY_ONE):
        """The message of a case, stale_case, whose only file is the diff `diff` of `path`."""
        with tempfile.TemporaryDirectory() as bad:
            write(os.path.join(bad, "stale_case", path + ".diff"), diff)
            with self.assertRaises(make_submissions.BadCaseError) as raised:
                make_submissions.patched_files("stale_case", bad=bad)
        return str(raised.exception)

    def test_a_diff_that_does_not_apply_names_the_case_and_the_line(self):
        diff = read(os.path.join(make_submissions.BAD, "off_by_one", OFF_BY_ONE + ".diff"))
        stale = diff.replace("-    if (i < n) z[i] = a * x[i] + y[i];", "-    if (i < n) z[i] = a * x[i];")
        self.assertNotEqual(stale, diff)
        message = self.refused(stale)
        self.assertIn(f"bad submission stale_case: {OFF_BY_ONE}.diff does not apply to own_answers/{OFF_BY_ONE}: "
                      "line ", message)
        self.assertIn("of the base to be '    if (i < n) z[i] = a * x[i];\\n', "
                      "it is '    if (i < n) z[i] = a * x[i] + y[i];\\n'", message)

    def test_a_diff_naming_another_base_or_without_its_own_answer_is_refused(self):
        self.assertIn(f"bad submission stale_case: {OFF_BY_ONE}.diff: its first line must name what it changes: "
                      f"--- own_answers/{OFF_BY_ONE}", self.refused("--- 01_saxpy/harness/saxpy_solution.cu\n"))
        self.assertIn("bad submission stale_case: 09_gone/gone_student.cu.diff: there is no own answer "
                      "own_answers/09_gone/gone_student.cu", self.refused("", "09_gone/gone_student.cu"))


@unittest.skipUnless(os.path.isdir(GPU), "grading/gpu/ is not in the students' copy")
class TheStrictApplier(unittest.TestCase):
    BASE = "".join(f"line {k}\n" for k in range(1, 21))

    def round_trip(self, new):
        self.assertEqual(make_submissions.apply_diff(unified_diff(self.BASE, new, "f"), self.BASE), new)

    def test_changes_anywhere_in_the_file(self):
        lines = self.BASE.splitlines(keepends=True)
        self.round_trip("first\n" + self.BASE)  # an insertion at the start
        self.round_trip(self.BASE + "last\n")  # at the end
        self.round_trip("".join(lines[1:]))  # the first line removed
        self.round_trip("".join(lines[:-1]))  # the last
        self.round_trip("".join(lines[:4] + ["four and a half\n"] + lines[5:12] + lines[14:] + ["x\n"]))  # 3 hunks
        self.round_trip("")  # everything removed
        self.assertEqual(make_submissions.apply_diff(unified_diff("", "a\nb\n", "f"), ""), "a\nb\n")  # from nothing

    def test_refuses_what_patch_would_guess(self):
        diff = unified_diff(self.BASE, self.BASE.replace("line 10\n", "ten\n"), "f")
        shifted = "line 0\n" + self.BASE  # the hunk's lines one further down: patch applies at an offset
        with self.assertRaisesRegex(ValueError, r"line 4 wants line 9 of the base to be 'line 9\\n', it is 'line 8"):
            make_submissions.apply_diff(diff, shifted)
        with self.assertRaisesRegex(ValueError, "it has no hunk"):
            make_submissions.apply_diff("--- own_answers/f\n+++ bad/case/f\n", self.BASE)
        with self.assertRaisesRegex(ValueError, "the diff ends inside the hunk of line 3, short of its counts"):
            make_submissions.apply_diff(diff[: diff.index(" line 11")], self.BASE)
        with self.assertRaisesRegex(ValueError, r"line 8: a hunk header .* expected, not ' line 11\\n'"):
            make_submissions.apply_diff(diff + " line 11\n", self.BASE)  # a line past the hunk's counts
        with self.assertRaisesRegex(ValueError, r"line 7: '\\\\ No newline at end of file\\n' where"):
            make_submissions.apply_diff(diff.replace("+ten\n", "+ten\n\\ No newline at end of file\n"), self.BASE)


@unittest.skipUnless(os.path.isdir(GPU), "grading/gpu/ is not in the students' copy")
class TheScript(unittest.TestCase):
    def make_submissions(self, gpu, dest):
        return subprocess.run([sys.executable, os.path.join(gpu, "make_submissions.py"), dest, "--repo", REPO],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)

    def test_writes_each_case_with_its_diffs_applied_and_no_diff(self):
        with tempfile.TemporaryDirectory() as dest:
            p = self.make_submissions(GPU, dest)
            self.assertEqual(p.returncode, 0, p.stdout)
            written = {os.path.relpath(os.path.join(root, name), dest)
                       for root, _, names in os.walk(dest) for name in names}
            self.assertFalse([w for w in written if w.endswith(".diff")])
            off_by_one = [w for w in written if w.endswith(os.path.join("off_by_one", OFF_BY_ONE))]
            self.assertEqual(len(off_by_one), 1, sorted(written))
            patched = make_submissions.patched_files("off_by_one")[OFF_BY_ONE]
            self.assertEqual(read(os.path.join(dest, off_by_one[0])), patched)

    def test_an_own_answer_changed_under_a_diff_stops_it_naming_the_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            gpu = os.path.join(tmp, "grading", "gpu")  # a copy of grading/gpu beside the real pmpp_grading
            shutil.copytree(GPU, gpu)
            grader = os.path.join(os.path.dirname(HERE), "pmpp_grading")
            os.symlink(grader, os.path.join(tmp, "grading", "pmpp_grading"))
            answer = os.path.join(gpu, "own_answers", OFF_BY_ONE)
            write(answer, read(answer).replace("(n + 255) / 256), 256>>>", "(n + 127) / 128), 128>>>"))
            p = self.make_submissions(gpu, os.path.join(tmp, "submissions"))
            self.assertEqual(p.returncode, 1, p.stdout)
            self.assertIn(f"make_submissions: bad submission hangs_in_kernel: {OFF_BY_ONE}.diff does not apply to "
                          f"own_answers/{OFF_BY_ONE}: line ", p.stdout)
            self.assertFalse(os.path.exists(os.path.join(tmp, "submissions", "groups.txt")))


if __name__ == "__main__":
    unittest.main()
