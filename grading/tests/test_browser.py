"""The grader's HTML reports in a real browser (headless Chromium, through browser.py): a batch
of the stand-in course is graded, then its index.html and students' report.html are opened and
must show no page error, no image that fails to load (the failing check's pictures: reference,
student, difference, as 04's), and no link that leads nowhere or out of the report's folder.
Small pages with a broken picture, a dangling link or a script error show that these checks can
fail. Each page's screenshot goes to a temporary folder, or to $PMPP_SCREENSHOTS when set.

Skipped where no Chromium is found ($PMPP_CHROMIUM, chromium, chromium-browser, google-chrome)."""
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
from urllib.parse import unquote

import browser
from test_grading import PASS, RUN_ALL, Course

CHROMIUM = browser.find_chromium()
NO_CHROMIUM = "no Chromium found: install Debian's chromium package, or set PMPP_CHROMIUM"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A file evil_pictures=1 plants: named .png, but not a PNG.
PLANTED_NOT_A_PNG = "not_a_picture.png"


def screenshot_folder(test_name: str):
    """($PMPP_SCREENSHOTS/<test_name> or a temporary folder, whether to remove it afterwards)."""
    kept = os.environ.get("PMPP_SCREENSHOTS")
    if kept:
        folder = os.path.join(os.path.abspath(kept), test_name)
        os.makedirs(folder, exist_ok=True)
        return folder, False
    return tempfile.mkdtemp(prefix="pmpp-screenshots-"), True


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def sandbox_option():
    """run_all.sh's --no-sandbox where it has one (the fake course's code needs no sandbox)."""
    p = subprocess.run([RUN_ALL, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    return ["--no-sandbox"] if "--no-sandbox" in p.stdout else []


@unittest.skipUnless(CHROMIUM, NO_CHROMIUM)
class TheChecksCanFail(unittest.TestCase):
    """Small pages, each with one fault: browser.py must report it (and nothing on a clean page)."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="pmpp-pages-")
        os.makedirs(os.path.join(cls.folder, "images"))
        from pmpp_grading.pictures import png_bytes
        with open(os.path.join(cls.folder, "images", "real.png"), "wb") as f:
            f.write(png_bytes(2, 2, b"\x10\x20\x30" * 4))
        cls.browser = browser.Browser().start()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        shutil.rmtree(cls.folder)

    def page(self, name, body):
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{name}</title></head>'
                    f'<body><h1 id="top">{name}</h1>{body}</body></html>\n')
        return self.browser.inspect(path)

    def assertReported(self, report, words):
        self.assertTrue(any(words in p for p in report.problems), f"{words!r} not in {report.problems}")

    def test_a_clean_page_with_a_picture_and_links_has_no_problem(self):
        report = self.page("clean.html", '<img src="images/real.png" alt="real"><a href="#top">top</a>'
                                         '<a href="images/real.png">picture</a><a href="images">folder</a>'
                                         '<a href="https://example.org/">outside, on the web</a>')
        self.assertEqual(report.problems, [])
        self.assertEqual(report.loaded_images, 1)

    def test_a_picture_below_the_first_screen_loaded_lazily_is_not_reported_broken(self):
        report = self.page("lazy.html", '<div style="height:5000px"></div><img src="images/real.png" loading="lazy">')
        self.assertEqual(report.problems, [])
        self.assertEqual(report.loaded_images, 1)

    def test_a_picture_that_is_missing_is_reported(self):
        report = self.page("missing_picture.html", '<img src="images/gone.png" alt="gone">')
        self.assertReported(report, "image did not load: 'images/gone.png'")
        self.assertEqual(report.loaded_images, 0)

    def test_a_picture_that_is_not_an_image_is_reported(self):
        with open(os.path.join(self.folder, "images", "fake.png"), "wb") as f:
            f.write(b"\x89PNG not really")
        report = self.page("fake_picture.html", '<img src="images/fake.png">')
        self.assertReported(report, "image did not load: 'images/fake.png'")

    def test_a_missing_background_image_is_reported(self):
        report = self.page("background.html", '<div style="background-image:url(images/none.png)">x</div>')
        self.assertReported(report, "background image did not load")

    def test_a_dangling_link_is_reported(self):
        report = self.page("dangling.html", '<a href="logs/never_written.log">log</a>')
        self.assertReported(report, "link 'logs/never_written.log' names no file")

    def test_a_link_to_an_anchor_that_is_not_there_is_reported(self):
        report = self.page("anchor.html", '<a href="#p-01-nothing">part</a><a href="clean.html#nowhere">other</a>')
        self.assertReported(report, "no anchor 'p-01-nothing' in anchor.html")
        self.assertReported(report, "no anchor 'nowhere' in clean.html")

    def test_a_link_out_of_the_report_folder_is_reported(self):
        report = self.page("outside.html", '<a href="../../../etc/hostname">x</a><a href="javascript:void(0)">y</a>')
        self.assertReported(report, "leads outside the report's folder")
        self.assertReported(report, "a javascript link")

    def test_a_script_error_is_reported(self):
        report = self.page("script_error.html", "<script>window.notAFunction();</script>")
        self.assertReported(report, "page error: TypeError")

    def test_a_console_error_and_a_dialog_are_reported(self):
        report = self.page("console.html", '<script>console.error("the report broke")</script>'
                                           '<img src=x onerror="alert(1)">')
        self.assertReported(report, "console error: the report broke")
        self.assertReported(report, "a script opened a dialog (alert)")


@unittest.skipUnless(CHROMIUM, NO_CHROMIUM)
class GradedBatchInABrowser(unittest.TestCase):
    """A batch of three students (all passing; a failing check with its pictures; a failing check
    whose harness process also planted a link and a file named with markup), opened in Chromium."""

    STUDENTS = {
        "ada": {"01_alpha/alpha_student.txt": PASS, "02_beta/beta_student.txt": PASS},
        "failing": {"01_alpha/alpha_student.txt": "behaviour=wrong\n", "02_beta/beta_student.txt": PASS},
        "planted_pictures": {"01_alpha/alpha_student.txt": "behaviour=wrong\nevil_pictures=1\n",
                             "02_beta/beta_student.txt": PASS},
    }

    @classmethod
    def setUpClass(cls):
        cls.course = Course()
        root = cls.course.submissions(cls.STUDENTS)
        cls.graded = cls.course.run("--submissions", root, "--gpus", "0", "--base", "worktree", *sandbox_option())
        cls.shots, cls.remove_shots = screenshot_folder(cls.__name__)
        out = cls.course.out
        pages = {"index": os.path.join(out, "index.html")}
        pages.update({name: os.path.join(out, "students", name, "report.html") for name in cls.STUDENTS})
        cls.reports = {}
        with browser.Browser() as chromium:
            for name, path in pages.items():
                if os.path.isfile(path):
                    cls.reports[name] = chromium.inspect(path, screenshot=os.path.join(cls.shots, name + ".png"))

    @classmethod
    def tearDownClass(cls):
        cls.course.close()
        if cls.remove_shots:
            shutil.rmtree(cls.shots)

    def report(self, name):
        self.assertEqual(self.graded.returncode, 0, self.graded.stdout)
        self.assertIn(name, self.reports, f"no page for {name}\n{self.graded.stdout}")
        return self.reports[name]

    def test_the_batch_index_opens_without_a_problem_and_links_every_report(self):
        index = self.report("index")
        self.assertEqual(index.problems, [])
        self.assertEqual(sorted(index.links), sorted(f"students/{n}/report.html" for n in self.STUDENTS))

    def test_a_passing_student_s_report_opens_without_a_problem(self):
        page = self.report("ada")
        self.assertEqual(page.problems, [])
        self.assertEqual(page.loaded_images, 2, "the timed run's scene and student_scene")

    def test_a_failing_check_s_pictures_all_load(self):
        page = self.report("failing")
        self.assertEqual(page.problems, [])
        shown = [os.path.basename(unquote(img["src"])) for img in page.images]
        for role in ("expected", "actual", "diff"):
            self.assertIn(f"student_case3_{role}.png", shown)
        self.assertGreaterEqual(page.loaded_images, 3)
        self.assertEqual(page.loaded_images, 9, "three failing cases, three pictures each")
        self.assertTrue(any(link.startswith("logs/") for link in page.links), page.links)

    def test_what_the_report_refused_shows_no_broken_picture(self):
        page = self.report("planted_pictures")
        self.assertFalse(any("stolen" in target for target in page.links + [i["src"] for i in page.images]))
        self.assertFalse(any("dialog" in p or "page error" in p for p in page.problems), page.problems)
        # The failing check's nine pictures and the planted PNG whose name is markup load; the
        # planted .png that is not a PNG is not shown at all (pictures.gallery reads the bytes).
        self.assertEqual(page.loaded_images, 10)
        self.assertFalse(any(PLANTED_NOT_A_PNG in unquote(i["src"]) for i in page.images))
        self.assertEqual(page.problems, [])

    def test_every_page_has_a_full_width_screenshot(self):
        for name in ("index", *self.STUDENTS):
            self.report(name)
            width, height = png_size(os.path.join(self.shots, name + ".png"))
            self.assertEqual(width, browser.SCREENSHOT_WIDTH, name)
            self.assertGreater(height, 100, name)


if __name__ == "__main__":
    unittest.main()
