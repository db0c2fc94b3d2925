"""The HTML reports and the pictures they show: report.html is well formed, says what the other
reports say (score table, GPU, seed, date), escapes whatever a student could write, links only
files of its own folder by relative paths, and shows a harness's pictures grouped (reference,
student, difference); PPM pictures become PNG; index.html links every student's report."""
import os
import shutil
import struct
import tempfile
import unittest
import zlib
from html.parser import HTMLParser
from urllib.parse import unquote

from pmpp_grading import html_report, pictures, reports, runner, scoring
from pmpp_grading.rubric import CHECK, Part
from files import write
from test_reports import part, sample_doc

VOID = {"meta", "img", "br", "hr", "link", "input", "wbr", "source"}
HTML_04_HELP = """options of this exercise:
  --images DIR            pictures: every benchmarked scene, and the difference when a check fails (default build/images)
  --image-format FORMAT   format of the pictures: png|ppm (default png)
  --no-images             write no pictures
"""


class Page(HTMLParser):
    """Checks that every element is closed in order, and collects ids, links and pictures."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.links, self.images, self.text = [], [], set(), [], [], []
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"never closed: {self.stack}")

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a.get("src"))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def ppm(width, height, pixel=b"\x10\x20\x30"):
    return f"P6\n# a comment\n{width} {height}\n255\n".encode() + pixel * (width * height)


def read_png(path):
    """(width, height, raw rows) of a PNG written by pictures.png_bytes, every CRC checked."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, f"bad CRC in {kind}"
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    return width, height, zlib.decompress(chunks[b"IDAT"])


def pictured_doc(directory):
    """The sample record with pictures and logs for 04's check part, as the grader leaves them."""
    doc = sample_doc()
    doc["exercises"].append({
        "exercise": "04_circle_renderer", "build": {"status": "passed", "wall_s": 3.0, "logs": ["logs/04_circle_renderer/build.log"]},
        "files": [], "parts": [part("04_circle_renderer", "correctness", "check", scoring.WRONG, 5.5, 6.0,
                                    message="190/204 cases pass\n- rgb 16x16: <b>3 pixels</b> differ",
                                    details={"logs": ["logs/04_circle_renderer/correctness.log"],
                                             "images": ["images/04_circle_renderer/correctness"]})]})
    folder = os.path.join(directory, "images", "04_circle_renderer", "correctness")
    for role in ("expected", "actual", "diff"):
        write(os.path.join(folder, f"student_rgb_16x16_{role}.ppm"), ppm(16, 16))
    write(os.path.join(folder, "rand10k_1024x1024.ppm"), ppm(2, 2))
    write(os.path.join(folder, "student_rand10k_1024x1024.ppm"), ppm(2, 2))
    write(os.path.join(directory, "logs", "04_circle_renderer", "build.log"), "nvcc ...\n")
    write(os.path.join(directory, "logs", "04_circle_renderer", "correctness.log"),
          "\x1b[31mFAIL\x1b[0m rgb 16x16 <script>alert(1)</script>\n")
    pictures.tidy(folder)
    return doc


class StudentReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def page(self, doc):
        reports.write_student_reports(doc, self.dir)
        with open(os.path.join(self.dir, "report.html"), encoding="utf-8") as f:
            text = f.read()
        return Page(text), text

    def test_is_well_formed_and_has_the_score_table(self):
        p, text = self.page(pictured_doc(self.dir))
        self.assertEqual(p.errors, [])
        self.assertTrue(text.startswith("<!DOCTYPE html>"))
        words = " ".join(p.text)
        for w in ("exercise", "part", "status", "points", "student ms", "reference ms", "ratio", "01_saxpy",
                  "performance", "1.33x", "build failed", "no GPU", "14.5/32", "wrong result"):
            self.assertIn(w, words)

    def test_names_the_gpu_driver_cuda_seed_and_date(self):
        p, _ = self.page(sample_doc())
        words = " ".join(p.text)
        for w in ("NVIDIA H200", "580.65", "13.0", "123456789", "2025-01-02 03:04:05 UTC"):
            self.assertIn(w, words)

    def test_every_link_and_picture_is_a_file_of_the_report_folder(self):
        p, _ = self.page(pictured_doc(self.dir))
        self.assertGreaterEqual(len(p.images), 5)
        for target in p.links + p.images:
            if target.startswith("#"):
                self.assertIn(target[1:], p.ids)
                continue
            self.assertNotIn(":", target)
            self.assertFalse(target.startswith("/"), target)
            self.assertTrue(os.path.isfile(os.path.join(self.dir, unquote(target))), target)

    def test_pictures_of_a_failing_case_side_by_side_reference_student_difference(self):
        p, _ = self.page(pictured_doc(self.dir))
        names = [os.path.basename(unquote(s)) for s in p.images]
        triplet = [n for n in names if n.startswith("student_rgb_16x16_")]
        self.assertEqual(triplet, ["student_rgb_16x16_expected.png", "student_rgb_16x16_actual.png",
                                   "student_rgb_16x16_diff.png"])
        pair = [n for n in names if "rand10k" in n]
        self.assertEqual(pair, ["rand10k_1024x1024.png", "student_rand10k_1024x1024.png"])

    def test_student_text_is_escaped(self):
        doc = pictured_doc(self.dir)
        doc["student"] = "<img src=x onerror=alert(1)>"
        p, text = self.page(doc)
        self.assertEqual(p.errors, [])
        self.assertNotIn("<img src=x", text)
        self.assertNotIn("<script>", text)
        self.assertNotIn("<b>3 pixels</b>", text)
        self.assertIn("&lt;b&gt;3 pixels&lt;/b&gt;", text)

    def test_output_excerpt_without_terminal_escapes(self):
        _, text = self.page(pictured_doc(self.dir))
        self.assertIn("FAIL rgb 16x16 &lt;script&gt;", text)
        self.assertNotIn("\x1b", text)

    def test_a_huge_log_gives_its_head_and_tail_only(self):
        path = os.path.join(self.dir, "big.log")
        write(path, "first line\n" + "".join(f"line {i}\n" for i in range(300000)) + "last line\n")
        text = html_report.excerpt(path)
        self.assertIn("first line", text)
        self.assertIn("last line", text)
        self.assertLess(len(text.splitlines()), html_report.EXCERPT_HEAD_LINES + html_report.EXCERPT_TAIL_LINES + 3)
        self.assertIsNone(html_report.excerpt(os.path.join(self.dir, "missing.log")))

    def test_incomplete_run_says_so(self):
        p, _ = self.page(sample_doc(complete=False))
        self.assertEqual(p.errors, [])
        self.assertIn("Grading incomplete", " ".join(p.text))

    def test_a_record_without_logs_or_pictures_still_gives_a_page(self):
        doc = {"student": "x", "exercises": [{"exercise": "01_saxpy", "parts": [
            part("01_saxpy", "correctness", "check", scoring.NOT_RUN, 0.0, 6.0)]}]}
        p, _ = self.page(doc)
        self.assertEqual(p.errors, [])
        self.assertIn("0 of 6 points", " ".join(p.text))


class BatchIndex(unittest.TestCase):
    def test_links_every_graded_student(self):
        with tempfile.TemporaryDirectory() as d:
            docs = []
            for name in ("ada", "bob"):
                doc = sample_doc()
                doc["student"] = name
                reports.write_student_reports(doc, os.path.join(d, "students", name))
                docs.append(doc)
            unlisted = sample_doc()
            unlisted["student"] = "no_report_yet"
            reports.write_batch_reports(docs + [unlisted], d)
            with open(os.path.join(d, "index.html"), encoding="utf-8") as f:
                p = Page(f.read())
            self.assertEqual(p.errors, [])
            self.assertEqual(p.links, ["students/ada/report.html", "students/bob/report.html"])
            self.assertIn("no_report_yet", " ".join(p.text))
            self.assertIn("9/26", " ".join(p.text))


class Pictures(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def test_ppm_becomes_a_valid_png_with_the_same_pixels(self):
        path = os.path.join(self.dir, "x.ppm")
        write(path, ppm(3, 2, b"\x01\x02\x03"))
        png = pictures.ppm_to_png(path)
        self.assertEqual(png, os.path.join(self.dir, "x.png"))
        width, height, raw = read_png(png)
        self.assertEqual((width, height), (3, 2))
        self.assertEqual(raw, (b"\x00" + b"\x01\x02\x03" * 3) * 2)

    def test_files_that_are_not_binary_ppm_are_left_alone(self):
        for name, data in (("ascii.ppm", b"P3\n1 1\n255\n1 2 3\n"), ("deep.ppm", b"P6\n1 1\n65535\n" + b"\0" * 6),
                           ("short.ppm", b"P6\n4 4\n255\n\x01\x02"), ("junk.ppm", b"hello")):
            write(os.path.join(self.dir, name), data)
            self.assertIsNone(pictures.ppm_to_png(os.path.join(self.dir, name)), name)
        pictures.tidy(self.dir)
        self.assertEqual(sorted(n for n in os.listdir(self.dir) if n.endswith(".png")), [])

    def test_the_harness_option_is_read_from_its_help(self):
        self.assertTrue(pictures.takes_images(HTML_04_HELP))
        self.assertFalse(pictures.takes_images("  --no-images             write no pictures\n"))
        self.assertFalse(pictures.takes_images("  --size N  problem size (see --images in 04)\n"))

    def test_links_and_other_files_are_never_shown(self):
        write(os.path.join(self.dir, "a.png"), pictures.PNG_SIGNATURE)
        write(os.path.join(self.dir, "fake.png"), b"\x89PNG but not one")  # named so, not a PNG
        write(os.path.join(self.dir, "notes.html"), "<script></script>")
        os.symlink("/etc/hostname", os.path.join(self.dir, "stolen.png"))
        g = pictures.gallery(self.dir)
        self.assertEqual([img for group in g.groups for img in group.images], [("picture", "a.png")])

    def test_at_most_max_shown_pictures(self):
        for k in range(pictures.MAX_SHOWN + 12):
            write(os.path.join(self.dir, f"view{k:03d}.png"), pictures.PNG_SIGNATURE)
        g = pictures.gallery(self.dir)
        self.assertEqual(sum(len(x.images) for x in g.groups), pictures.MAX_SHOWN)
        self.assertEqual(g.left_out, 12)

    def test_the_grader_passes_a_folder_unless_the_rubric_says_no_images(self):
        folder = os.path.join(self.dir, "part")
        write(os.path.join(folder, "old.png"), b"\x89PNG")
        self.assertEqual(runner.picture_args(Part("04_x", "c", CHECK, 1.0), folder), ["--images", folder])
        self.assertEqual(os.listdir(folder), [], "an earlier grading's pictures are removed")
        self.assertEqual(runner.picture_args(Part("04_x", "c", CHECK, 1.0, args=("--no-images",)), folder), [])
        self.assertEqual(runner.picture_args(Part("04_x", "c", CHECK, 1.0), None), [])


if __name__ == "__main__":
    unittest.main()
