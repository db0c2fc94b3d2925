"""The reports parse and hold what they must: Gradescope's fields, well-formed JUnit XML with the
right counts, CSV columns, the terminal table; a stopped run's record gives valid reports too."""
import csv
import io
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

from pmpp_grading import reports, scoring
from pmpp_grading.scoring import PartResult


def part(exercise, name, kind, status, points, max_points, **kw):
    return PartResult(exercise, name, kind, status, points, max_points, **kw).to_json()


def sample_doc(complete=True):
    return {
        "schema": reports.GRADE_SCHEMA, "student": "ada", "seed": 123456789, "date": "2025-01-02 03:04:05 UTC",
        "complete": complete, "wall_s": 93.4,
        "environment": {"gpu": "NVIDIA H200", "driver": "580.65", "cuda_runtime": "13.0", "nvcc": "13.0"},
        "exercises": [
            {"exercise": "01_saxpy", "build": {"status": "passed"}, "files": [
                {"path": "01_saxpy/saxpy_student.cu", "source": "saxpy_student.cu", "status": "applied"}],
             "parts": [part("01_saxpy", "correctness", "check", scoring.PASSED, 6.0, 6.0, message="66/66 cases pass"),
                       part("01_saxpy", "performance", "performance", scoring.PASSED, 3.0, 4.0,
                            student_ms=2.0, reference_ms=1.5, ratio=4 / 3, n=1 << 26, message="slow")]},
            {"exercise": "02_scan", "build": {"status": scoring.BUILD_FAILED}, "files": [
                {"path": "02_scan/scan_student.cu", "source": None, "status": "missing", "note": "not in the submission"}],
             "parts": [part("02_scan", "correctness", "check", scoring.BUILD_FAILED, 0.0, 6.0,
                            message="scan_student.cu:3: error: expected ';' & <bad> \"chars\""),
                       part("02_scan", "performance", "performance",
                            scoring.NOT_RUN if not complete else scoring.SKIPPED, 0.0, 4.0)]},
            {"exercise": "08_mandelbrot", "build": {"status": "passed"}, "files": [],
             "parts": [part("08_mandelbrot", "correctness", "check", scoring.NO_GPU, 0.0, 6.0, message="no usable GPU")]},
        ]}


class Gradescope(unittest.TestCase):
    def test_required_fields_and_totals(self):
        g = json.loads(json.dumps(reports.gradescope(sample_doc())))
        self.assertEqual((g["score"], g["max_score"]), (9.0, 26.0))
        self.assertEqual(len(g["tests"]), 5)
        for t in g["tests"]:
            for key in ("name", "score", "max_score", "output", "status"):
                self.assertIn(key, t)
            self.assertIn(t["status"], ("passed", "failed"))
        self.assertEqual(g["tests"][0]["status"], "passed")
        self.assertEqual(g["tests"][1]["status"], "failed")  # correct but slow: not full points

    def test_names_the_gpu_seed_and_date(self):
        g = reports.gradescope(sample_doc())
        for text in ("NVIDIA H200", "580.65", "13.0", "123456789", "2025-01-02"):
            self.assertIn(text, g["output"])
        self.assertEqual(g["extra_data"]["seed"], 123456789)

    def test_says_which_student_files_were_missing(self):
        self.assertIn("02_scan/scan_student.cu: missing", reports.gradescope(sample_doc())["output"])

    def test_incomplete_run_says_so(self):
        g = reports.gradescope(sample_doc(complete=False))
        self.assertIn("incomplete", g["output"])
        self.assertFalse(g["extra_data"]["complete"])


class JUnit(unittest.TestCase):
    def test_well_formed_with_the_right_counts(self):
        root = ET.fromstring(reports.junit(sample_doc()))
        self.assertEqual(root.tag, "testsuites")
        self.assertEqual([s.get("name") for s in root.findall("testsuite")], ["01_saxpy", "02_scan", "08_mandelbrot"])
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")),
                         ("5", "2", "1", "1"))

    def test_each_case_says_why(self):
        root = ET.fromstring(reports.junit(sample_doc()))
        cases = {c.get("classname") + "/" + c.get("name"): c for c in root.iter("testcase")}
        self.assertIsNone(cases["ada.01_saxpy/correctness"].find("failure"))
        self.assertEqual(cases["ada.02_scan/correctness"].find("failure").get("type"), scoring.BUILD_FAILED)
        self.assertIn("<bad>", cases["ada.02_scan/correctness"].find("failure").text)  # escaped, then parsed back
        self.assertIsNotNone(cases["ada.02_scan/performance"].find("skipped"))
        self.assertEqual(cases["ada.08_mandelbrot/correctness"].find("error").get("type"), scoring.NO_GPU)

    def test_properties_name_the_gpu_and_seed(self):
        root = ET.fromstring(reports.junit(sample_doc()))
        props = {p.get("name"): p.get("value") for p in root.find("testsuite").iter("property")}
        self.assertEqual((props["gpu"], props["seed"], props["driver"]), ("NVIDIA H200", "123456789", "580.65"))


class Csv(unittest.TestCase):
    def test_scores_has_a_row_per_student_and_exercise(self):
        other = sample_doc()
        other["student"] = "bob"
        scores, totals = reports.batch_csv([sample_doc(), other])
        rows = list(csv.DictReader(io.StringIO(scores)))
        self.assertEqual(list(rows[0].keys()), reports.SCORE_COLUMNS)
        self.assertEqual(len(rows), 6)
        first = rows[0]
        self.assertEqual((first["student"], first["exercise"], first["points"], first["max_points"]),
                         ("ada", "01_saxpy", "9.0", "10.0"))
        self.assertEqual((first["ratio"], first["gpu"], first["seed"]), ("1.3333", "NVIDIA H200", "123456789"))
        self.assertEqual(rows[1]["status"], scoring.BUILD_FAILED)

    def test_totals_has_a_row_per_student_with_each_exercise(self):
        _, totals = reports.batch_csv([sample_doc()])
        rows = list(csv.DictReader(io.StringIO(totals)))
        self.assertEqual(len(rows), 1)
        self.assertEqual((rows[0]["score"], rows[0]["max_score"], rows[0]["01_saxpy"], rows[0]["02_scan"]),
                         ("9.0", "26.0", "9.0", "0.0"))


class Terminal(unittest.TestCase):
    def test_table_has_every_part_and_the_total(self):
        text = reports.terminal_table(sample_doc())
        for words in ("exercise", "student ms", "reference ms", "ratio", "01_saxpy", "performance", "1.33x",
                      "build failed", "no GPU", "9/26", "NVIDIA H200", "seed 123456789"):
            self.assertIn(words, text)

    def test_incomplete_run_is_marked(self):
        self.assertIn("incomplete", reports.terminal_table(sample_doc(complete=False)))


def implausible_doc(student="eve"):
    message = ("'student' at n=67108864: 9600 GB/s, 2.24x the copy bandwidth measured in the same run (4284 GB/s); "
               "no code moves its bytes faster than 1.15x a copy")
    return {
        "schema": reports.GRADE_SCHEMA, "student": student, "seed": 7, "date": "2025-01-02 03:04:05 UTC",
        "complete": True, "wall_s": 12.0, "environment": {"gpu": "NVIDIA H200"},
        "exercises": [{"exercise": "01_saxpy", "build": {"status": "passed"}, "files": [], "parts": [
            part("01_saxpy", "correctness", "check", scoring.PASSED, 6.0, 6.0, message="66/66 cases pass"),
            part("01_saxpy", "performance", "performance", scoring.IMPLAUSIBLE, 0.0, 4.0, student_ms=0.028,
                 reference_ms=0.74, ratio=0.028 / 0.74, n=1 << 26, message=message)]}]}


class ImplausibleTimingInEveryReport(unittest.TestCase):
    """The status "implausible timing" (no points, both numbers in the message) as each report
    shows it."""

    def test_terminal_table_shows_the_status_and_why(self):
        text = reports.terminal_table(implausible_doc())
        self.assertIn("implausible timing", text)
        self.assertIn("01_saxpy/performance: 'student' at n=67108864: 9600 GB/s, 2.24x the copy bandwidth", text)
        self.assertIn("6/10", text)

    def test_gradescope_fails_the_test_with_the_message(self):
        test = reports.gradescope(implausible_doc())["tests"][1]
        self.assertEqual((test["status"], test["score"], test["max_score"]), ("failed", 0.0, 4.0))
        self.assertTrue(test["output"].startswith("implausible timing: 'student' at n=67108864: 9600 GB/s"))
        self.assertIn("4284 GB/s", test["output"])

    def test_junit_counts_it_as_a_failure_of_its_type(self):
        root = ET.fromstring(reports.junit(implausible_doc()))
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors")), ("2", "1", "0"))
        failure = next(c for c in root.iter("testcase") if c.get("name") == "performance").find("failure")
        self.assertEqual((failure.get("type"), failure.get("message")), (scoring.IMPLAUSIBLE, scoring.IMPLAUSIBLE))
        self.assertIn("9600 GB/s", failure.text)

    def test_csv_and_summary_name_it(self):
        scores, totals = reports.batch_csv([implausible_doc()])
        row = next(csv.DictReader(io.StringIO(scores)))
        self.assertEqual((row["status"], row["points"]), (scoring.IMPLAUSIBLE, "6.0"))
        self.assertIn("performance: implausible timing 0/4", row["parts"])
        self.assertEqual(next(csv.DictReader(io.StringIO(totals)))["01_saxpy"], "6.0")
        self.assertIn("6 implausible timing", reports.batch_table([implausible_doc()]))

    def test_html_reports_give_it_a_class_of_its_own_that_is_styled(self):
        from pmpp_grading import html_report
        with tempfile.TemporaryDirectory() as d:
            page = html_report.student_html(implausible_doc(), d)
            index = html_report.index_html([implausible_doc()], d)
        self.assertIn('<span class="status s-implausible">implausible timing</span>', page)
        self.assertIn("9600 GB/s, 2.24x the copy bandwidth", page)
        self.assertIn('class="status s-implausible"', index)
        self.assertRegex(html_report.STYLE, r"\.s-implausible(,[^{]*)?\{background:")


class Files(unittest.TestCase):
    def test_student_reports_are_written_and_parse(self):
        with tempfile.TemporaryDirectory() as d:
            reports.write_student_reports(sample_doc(complete=False), d)
            self.assertEqual(sorted(os.listdir(d)), ["grade.json", "junit.xml", "report.html", "report.txt", "results.json"])
            json.load(open(os.path.join(d, "results.json")))
            ET.parse(os.path.join(d, "junit.xml"))

    def test_atomic_write_leaves_no_temporary_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.json")
            reports.write_atomically(path, "1")
            reports.write_atomically(path, "2")
            self.assertEqual(os.listdir(d), ["x.json"])
            self.assertEqual(open(path).read(), "2")


if __name__ == "__main__":
    unittest.main()
