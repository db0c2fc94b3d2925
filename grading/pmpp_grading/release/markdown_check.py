"""The check of the copy's Markdown, once written: every relative link of every Markdown file
leads to a file or folder of the copy (dead_links), and the READMEs name only what the copy
holds, or say beside the name that it is withheld (missing_names)."""
from __future__ import annotations

import os
import posixpath
import re
from typing import List

from .contents import CopyContents, PathIndex, path_words
from .errors import ReleaseError
from .markdown import (CODE_SPAN, COURSE_ONLY, LINK, LINK_DEFINITION, SAYS_WITHHELD, markdown_files,
                       outside_fences, readmes_of, text_units)
from .plan import Plan


def dead_links(text: str, md: str, copy: PathIndex) -> List[str]:
    """The relative links of a Markdown file of the copy (md, its path there) that lead nowhere."""
    folder = posixpath.dirname(md)
    problems = []
    for i, line in outside_fences(text.splitlines()):
        line = CODE_SPAN.sub("", line)
        targets = [m.group(2) for m in LINK.finditer(line)] + [m.group(1) for m in LINK_DEFINITION.finditer(line)]
        for target in targets:
            if target.startswith("#") or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
                continue  # an anchor of the same page, a URL, mailto:
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = posixpath.normpath(posixpath.join(folder, path))
            resolved = "" if resolved == "." else resolved
            if path.startswith("/") or resolved.startswith("../") or not copy.exists(resolved, path.endswith("/")):
                problems.append(f"{md} line {i + 1}: the link to {target} leads to nothing in the copy")
    return problems


def missing_names(text: str, readme: str, copy: PathIndex, contents: CopyContents,
                  course_text: str = "") -> List[str]:
    """The names a README of the copy uses (in code spans, or anywhere in a table row) that name a
    file or folder of the course the copy lacks, where the paragraph, list item or table row around
    them does not say 'withheld' or 'prebuilt'."""
    folder = posixpath.dirname(readme)
    lines = text.splitlines()
    course_lines = [l.strip() for l in course_text.splitlines()]
    problems = []
    for indexes, is_row in text_units(lines):
        if SAYS_WITHHELD.search(" ".join(lines[i] for i in indexes)):
            continue
        for i in indexes:
            line = lines[i]
            words = [w for m in CODE_SPAN.finditer(line) for w in path_words(m.group(1))]
            if is_row:
                words += path_words(LINK.sub(r" \1 ", CODE_SPAN.sub(" ", line)).replace("|", " "))
            for word in dict.fromkeys(words):
                paths = contents.course.resolve(folder, word)
                if not paths or copy.resolve(folder, word):
                    continue
                why = contents.why_not_copied(paths[0]) or "not in the copy"
                where = f" (line {course_lines.index(line.strip()) + 1} in the course)" \
                    if line.strip() in course_lines else ""
                problems.append(f"{readme} line {i + 1}{where}: '{word}' is not in the copy ({why})")
    return problems


def check_markdown(target: str, course_root: str, plan: Plan) -> None:
    """Every relative link of every Markdown file of the copy leads to a file or folder of it, and
    every course path a README names is in it or said to be withheld (missing_names)."""
    copy, contents = PathIndex(target), CopyContents(PathIndex(course_root), plan)
    problems = []
    for md in markdown_files(target):
        with open(os.path.join(target, md), encoding="utf-8", errors="replace") as f:
            text = f.read()
        problems += dead_links(text, md, copy)
        if md in readmes_of(plan):
            course_text = ""
            if os.path.isfile(os.path.join(course_root, md)):
                with open(os.path.join(course_root, md), encoding="utf-8", errors="replace") as f:
                    course_text = f.read()
            problems += missing_names(text, md, copy, contents, course_text)
    if problems:
        shown = problems[:40] + ([f"... and {len(problems) - 40} more"] if len(problems) > 40 else [])
        raise ReleaseError("the copy's Markdown names what the copy does not hold (mark that text "
                           f"'{COURSE_ONLY}', or say 'withheld' or 'prebuilt' beside the name; grading/README.md, "
                           "\"The student release\"):\n  " + "\n  ".join(shown))
