"""The Markdown of the course as the release reads it: the release markers (apply_markers), its
paragraphs, list items and table rows (text_units), the lines outside fenced code, and which
files the release rewrites and checks (markdown_files, readmes_of)."""
from __future__ import annotations

import re
from typing import Iterable, List, Tuple

from ..tree import SKIPPED_DIRS
from .contents import files_below
from .errors import ReleaseError
from .plan import Plan

# One text serves both copies. In every Markdown file of the course, the lines between
#     <!-- release: course-only -->   and   <!-- /release -->
# are left out of the students' copy, and the lines between
#     <!-- release: student-only      and   -->
# (a comment in the course) appear only in it; each marker stands alone on its line. In the READMEs
# (the top one and each exercise's), a table row whose first cell names only files the copy lacks
# is dropped, unless one of them comes compiled; elsewhere a name the copy lacks (in a code span) is
# marked "(compiled in prebuilt/)" or "(withheld)", unless its paragraph says so already. Markers
# are for text that such a note would not make true ("read saxpy_2_vectorized.cu"). check_markdown
# then reads the copy as written: links, and the names of the READMEs.


COURSE_ONLY, END_COURSE_ONLY = "<!-- release: course-only -->", "<!-- /release -->"
STUDENT_ONLY, END_STUDENT_ONLY = "<!-- release: student-only", "-->"
LOOKS_LIKE_MARKER = re.compile(r"<!--\s*/?\s*release\b")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)")
FENCE = re.compile(r"^\s*(```|~~~)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|[0-9]+[.)])\s")
TABLE_RULE = re.compile(r"^\s*\|[\s:|-]*-[\s:|-]*$")
# `bitonic_4_fused.cuh`, `.cu`: the name before it with another ending.
OTHER_ENDING = re.compile(r"^\.[A-Za-z0-9]+$")
BETWEEN_NAMES = re.compile(r"^(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)$")
# A paragraph, list item or table row holding one of these words may name what the copy lacks.
SAYS_WITHHELD = re.compile(r"withheld|prebuilt", re.I)


def apply_markers(text: str, where: str) -> str:
    """The text of a Markdown file for the students' copy: course-only blocks out, student-only
    blocks uncommented. A marker out of place (unknown, nested, unclosed) fails the release."""
    out: List[str] = []
    block, opened = None, 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        stripped = line.strip()
        if block == "student-only" and stripped == END_STUDENT_ONLY:
            block = None
            continue
        if LOOKS_LIKE_MARKER.search(CODE_SPAN.sub("", line)):  # `<!-- release: ... -->` in a code span is text
            if block is None and stripped in (COURSE_ONLY, STUDENT_ONLY):
                block, opened = ("course-only" if stripped == COURSE_ONLY else "student-only"), number
                continue
            if block == "course-only" and stripped == END_COURSE_ONLY:
                block = None
                continue
            raise ReleaseError(f"{where} line {number}: a release marker out of place: {stripped} (expected "
                               + (f"'{END_COURSE_ONLY}'" if block == "course-only" else
                                  f"'{END_STUDENT_ONLY}'" if block else f"'{COURSE_ONLY}' or '{STUDENT_ONLY}'")
                               + ", alone on its line)")
        if block == "student-only" and "-->" in line:
            raise ReleaseError(f"{where} line {number}: '-->' inside the student-only block opened at line {opened} "
                               "would end its comment in the course")
        if block != "course-only":
            out.append(line)
    if block:
        raise ReleaseError(f"{where} line {opened}: the {block} block opened here is never closed")
    return "".join(out)


def text_units(lines: List[str]) -> List[Tuple[List[int], bool]]:
    """The paragraphs, list items, headings and table rows of Markdown lines, outside fenced code:
    (the indexes of their lines, whether it is a table row)."""
    units: List[Tuple[List[int], bool]] = []
    current: List[int] = []
    fence = None

    def close() -> None:
        if current:
            units.append((list(current), False))
            current.clear()
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence or m:
            close()
            fence = None if (fence and m and m.group(1) == fence) else (fence or m.group(1))
            continue
        stripped = line.strip()
        if not stripped:
            close()
        elif stripped.startswith("|"):
            close()
            units.append(([i], True))
        elif stripped.startswith("#"):
            close()
            units.append(([i], False))
        else:
            if LIST_ITEM.match(line):
                close()
            current.append(i)
    close()
    return units


def outside_fences(lines: List[str]) -> Iterable[Tuple[int, str]]:
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence or m:
            fence = None if (fence and m and m.group(1) == fence) else (fence or m.group(1))
            continue
        yield i, line


def readmes_of(plan: Plan) -> List[str]:
    """The READMEs the release rewrites and checks by name: the top one and each exercise's."""
    return ["README.md"] + [f"{e}/README.md" for e in plan.exercises]


def markdown_files(root: str) -> List[str]:
    """The Markdown files below `root` (repository paths; build/, .git left out)."""
    return [p for p in files_below(root, lambda directory, names: [n for n in names if n in SKIPPED_DIRS])
            if p.endswith(".md")]
