"""The READMEs of the copy rewritten (the top one and each exercise's): a table row that names
only what the copy lacks is left out, any other name the copy lacks is marked "(withheld)" or
"(compiled in prebuilt/)", and each exercise's README says what its folder lacks (readme_note)."""
from __future__ import annotations

import re
import textwrap
from typing import List, Optional, Tuple

from .contents import CopyContents, path_words
from .markdown import (BETWEEN_NAMES, CODE_SPAN, LINK, OTHER_ENDING, SAYS_WITHHELD, TABLE_RULE,
                       text_units)


def _first_cell_end(line: str) -> int:
    """Where a table row's first cell ends (its second '|' outside code spans)."""
    start, in_code = line.index("|") + 1, False
    for i in range(start, len(line)):
        if line[i] == "`":
            in_code = not in_code
        elif line[i] == "|" and not in_code and line[i - 1] != "\\":
            return i
    return len(line)


def _marked_spans(line: str, status) -> List[Tuple[int, int, Optional[str]]]:
    """(start, end, kind) of each code span of a line: kind 'present', 'compiled' or 'withheld' for
    the course paths in it (status(name) as CopyContents.status), 'other ending' for a `.cuh` after
    a name, else None."""
    spans = []
    for m in CODE_SPAN.finditer(line):
        kinds = {k for k in (status(w) for w in path_words(m.group(1))) if k}
        if not kinds:
            kind = "other ending" if OTHER_ENDING.match(m.group(1).strip()) else None
        elif "present" in kinds:
            kind = "present"
        else:
            kind = "compiled" if "compiled" in kinds else "withheld"
        spans.append((m.start(), m.end(), kind))
    return spans


def mark_missing(line: str, status, open_before: int = 0) -> str:
    """The line with each run of code spans that name only what the copy lacks (`a.cu`, `b.cu`)
    followed by '(compiled in prebuilt/)' if one of them is compiled, else '(withheld)' (within
    parentheses, open_before of them opened on the paragraph's earlier lines: ', withheld')."""
    spans = _marked_spans(line, status)
    notes = []
    i = 0
    while i < len(spans):
        if spans[i][2] not in ("compiled", "withheld"):
            i += 1
            continue
        j = i
        while (j + 1 < len(spans) and spans[j + 1][2] in ("compiled", "withheld", "other ending")
               and BETWEEN_NAMES.match(line[spans[j][1]:spans[j + 1][0]])):
            j += 1
        compiled = any(k == "compiled" for _, _, k in spans[i:j + 1])
        notes.append((spans[j][1], "compiled in prebuilt/" if compiled else "withheld"))
        i = j + 1
    for at, note in reversed(notes):
        possessive = re.match(r"'s\s+\w+", line[at:])  # `gpu_run.sh`'s logs (withheld)
        if possessive:
            at += possessive.end()
        # Within parentheses: (`x.cu`, withheld, says ...).
        if open_before + line[:at].count("(") > line[:at].count(")"):
            note = ", " + note + ("," if re.match(r"\s+\w", line[at:]) else "")
        else:
            note = " (" + note + ")"
        if not line[at:].startswith(note):
            line = line[:at] + note + line[at:]
    return line


def row_is_dropped(line: str, status) -> bool:
    """A table row whose first cell names (in code spans or links) only what the copy lacks, none
    of it compiled: the copy's README leaves the row out."""
    first_end = _first_cell_end(line)
    kinds = [k for s, _, k in _marked_spans(line, status) if s < first_end and k in ("present", "compiled", "withheld")]
    for m in LINK.finditer(line[:first_end]):
        path = m.group(2).split("#", 1)[0]
        if path and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", path):
            kinds.append(status(path))
    kinds = [k for k in kinds if k]
    return bool(kinds) and all(k == "withheld" for k in kinds)


def rewrite_readme(text: str, status) -> Tuple[str, Optional[int]]:
    """A README for the copy (status(name) as CopyContents.status, for its folder): the table rows
    row_is_dropped says go are left out, and in every paragraph, list item or table row that does
    not already say 'withheld' or 'prebuilt', the names the copy lacks are marked (mark_missing).
    Returns the text and the number of its lines up to the end of the first table that changed
    (None if none did)."""
    lines = text.splitlines(keepends=True)
    new: List[Optional[str]] = list(lines)
    changed_rows = []
    for indexes, is_row in text_units([l.rstrip("\n") for l in lines]):
        if is_row and TABLE_RULE.match(lines[indexes[0]]):
            continue
        if is_row and row_is_dropped(lines[indexes[0]], status):
            new[indexes[0]] = None
        elif not SAYS_WITHHELD.search(" ".join(lines[i] for i in indexes)):
            open_before = 0
            for i in indexes:
                new[i] = mark_missing(lines[i], status, max(open_before, 0))
                open_before += lines[i].count("(") - lines[i].count(")")
        if is_row and new[indexes[0]] != lines[indexes[0]]:
            changed_rows.append(indexes[0])
    end = None
    if changed_rows:
        end = changed_rows[0]
        while end < len(lines) and lines[end].lstrip().startswith("|"):
            end += 1
    kept_before_end = sum(1 for l in new[:end] if l is not None) if end is not None else None
    return "".join(l for l in new if l is not None), kept_before_end


# What the note of an exercise's README calls the folders left out of it (LEFT_OUT_IN_EXERCISES).
LEFT_OUT_WHAT = {"tests": "tests", "tune": "GPU scripts"}


def readme_note(compiled: bool, left_out: List[str]) -> str:
    """What an exercise's README in the copy says it lacks, after its table of files."""
    sentences = []
    if compiled:
        sentences.append("In this copy the reference answer and the numbered variants come compiled, in `prebuilt/`: "
                         "`make` links them and `make run` checks and times them beside your code, but their sources "
                         "are withheld.")
    if left_out:
        names = " and ".join(f"`{d}/`" for d in left_out)
        sentences.append(f"The course's own {' and '.join(LEFT_OUT_WHAT[d] for d in left_out)} ({names}) "
                         + ("are withheld too" if compiled else "are withheld")
                         + (": `make test` builds an empty suite here." if "tests" in left_out else "."))
    if not sentences:
        return ""
    return textwrap.fill(" ".join(sentences), width=95, break_long_words=False, break_on_hyphens=False) + "\n"


def readme_for_copy(text: str, folder: str, contents: CopyContents, note: str = "") -> str:
    """A README of the copy (markers applied before) rewritten by rewrite_readme, with `note` after
    the first table that changed (else at the end, under its own heading)."""
    text, end = rewrite_readme(text, lambda name: contents.status(folder, name))
    if not note:
        return text
    lines = text.splitlines(keepends=True)
    if end is None:
        return text.rstrip("\n") + "\n\n## In this copy\n\n" + note
    return "".join(lines[:end]) + "\n" + note + "".join(lines[end:])
