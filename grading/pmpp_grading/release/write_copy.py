"""The copy written: the clean tree without what the plan withholds or leaves out, each
exercise's objects in its prebuilt/ and its Makefile made to link them (release_makefile,
prebuilt_mk), RELEASE.md listing what is withheld and why, and every Markdown file made to
describe the copy (write_markdown: the release markers applied, the READMEs rewritten)."""
from __future__ import annotations

import os
import posixpath
import re
import shutil
import textwrap
import time
from typing import List, Optional

from ..tree import SKIPPED_DIRS
from .contents import CopyContents, PathIndex
from .errors import ReleaseError
from .markdown import apply_markers, markdown_files, readmes_of
from .objects import object_path
from .plan import LEFT_OUT_IN_EXERCISES, Plan
from .readmes import readme_for_copy, readme_note

COMMON_MK = re.compile(r"^[ \t]*-?include[ \t]+\.\./common/common\.mk[ \t]*$", re.M)


def release_makefile(text: str, has_objects: bool, reference: Optional[List[str]] = None) -> str:
    """The exercise's Makefile for the copy: no tests, the prebuilt objects linked, and (given)
    REFERENCE_SRCS as the course's Makefile found them: a wildcard there (scan_[0-9]_*.cu) finds
    none of the withheld sources here."""
    found = list(COMMON_MK.finditer(text))
    if len(found) != 1:
        raise ReleaseError("its Makefile must include ../common/common.mk exactly once")
    m = found[0]
    before = ("# Student release (grading/make_student_release.sh): the course's tests are not part of it"
              + (",\n# and the reference answers come compiled, from prebuilt/ (their sources are not here).\n"
                 if has_objects else ".\n") + "TEST_SRCS :=\n")
    if reference is not None:
        before += "REFERENCE_SRCS := " + " ".join(reference) + "\n"
    after = "\ninclude prebuilt/prebuilt.mk" if has_objects else ""
    return text[:m.start()] + before + m.group(0) + after + text[m.end():]


def prebuilt_mk(exercise: str, sources: List[str], described: str) -> str:
    objects = " \\\n                 ".join("$(BUILD)/" + object_path(s) for s in sources)
    return (f"# {exercise}/prebuilt/prebuilt.mk: written by grading/make_student_release.sh.\n"
            f"# The objects of the reference answers this copy has no sources of ({described}):\n"
            "# make copies them into build/ instead of compiling them.\n"
            f"PREBUILT_OBJS := {objects}\n\n"
            "$(PREBUILT_OBJS): $(BUILD)/%: prebuilt/%\n"
            "\t@mkdir -p $(dir $@)\n"
            "\tcp $< $@\n")


def ignore_for(stage: str, plan: Plan):
    """copytree's `ignore` for the copy of `stage`: what the plan withholds or leaves out, and
    SKIPPED_DIRS (build/, .git, __pycache__)."""
    gone = {os.path.normpath(os.path.join(stage, p)) for p in list(plan.withheld) + plan.left_out}

    def ignore(directory: str, names: List[str]) -> List[str]:
        return [n for n in names if n in SKIPPED_DIRS or os.path.normpath(os.path.join(directory, n)) in gone]
    return ignore


def release_md(plan: Plan, described: str, source: str) -> str:
    intro = (f"Made by `grading/make_student_release.sh` from {source} on {time.strftime('%Y-%m-%d %H:%M:%S %Z')}. "
             "The reference answers of the exercises below are not here as sources: the ones the build compiles "
             f"are objects in each folder's `prebuilt/` ({described}), so `make` and `make run` work as in the full "
             "course. Every exercise's `tests/` and `tune/` are left out too.")
    lines = ["# The students' copy", "", textwrap.fill(intro, width=95, break_long_words=False, break_on_hyphens=False),
             "", "| exercise | withheld | compiled in prebuilt/ |", "|---|---|---|"]
    for e in plan.exercises:
        mine = [p.split("/", 1)[1] for p in plan.withheld if p.startswith(e + "/")]
        lines.append(f"| {e} | {', '.join(f'`{m}`' for m in mine) or '-'} | "
                     f"{', '.join(f'`{s}`' for s in plan.prebuilt.get(e, [])) or '-'} |")
    lines += ["", "Why each file is withheld:", ""]
    lines += [f"- `{p}`: {why}" for p, why in plan.withheld.items()]
    return "\n".join(lines) + "\n"


def write_release(stage: str, target: str, plan: Plan, described: str, source: str) -> None:
    shutil.copytree(stage, target, symlinks=True, ignore=ignore_for(stage, plan))
    for e in plan.exercises:
        sources = plan.prebuilt.get(e, [])
        for s in sources:
            src = os.path.join(stage, e, "build", object_path(s))
            dst = os.path.join(target, e, "prebuilt", object_path(s))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        if sources:
            with open(os.path.join(target, e, "prebuilt", "prebuilt.mk"), "w") as f:
                f.write(prebuilt_mk(e, sources, described))
        makefile = os.path.join(target, e, "Makefile")
        with open(makefile) as f:
            text = f.read()
        try:
            text = release_makefile(text, bool(sources), plan.reference.get(e))
        except ReleaseError as err:
            raise ReleaseError(f"{e}: {err}") from None
        with open(makefile, "w") as f:
            f.write(text)
    with open(os.path.join(target, "RELEASE.md"), "w") as f:
        f.write(release_md(plan, described, source))
    write_markdown(stage, target, plan)


def write_markdown(stage: str, target: str, plan: Plan) -> None:
    """Every Markdown file of the copy with its release markers applied; the READMEs' tables
    rewritten and each exercise's README told what its folder lacks (readme_for_copy)."""
    contents = CopyContents(PathIndex(stage), plan)
    for md in markdown_files(target):
        path = os.path.join(target, md)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = apply_markers(text, md)
        if md in readmes_of(plan):
            exercise = posixpath.dirname(md)
            note = ""
            if exercise:
                left_out = [d for d in LEFT_OUT_IN_EXERCISES if f"{exercise}/{d}" in plan.left_out]
                note = readme_note(bool(plan.prebuilt.get(exercise)), left_out)
            new = readme_for_copy(new, exercise, contents, note)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
