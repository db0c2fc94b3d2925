"""grading/make_student_release.sh DEST: the students' copy of the course.

The copy holds everything but the reference answers. Withheld, for every exercise released
(grading/release.ini lists the exceptions; grading/README.md "The student release" says why):
its reference answer (SOLUTION_SRCS), its numbered reference variants, the headers only those
include, and its tests/ and tune/ folders. The withheld sources the build compiles ship as
objects instead, in NN_name/prebuilt/, compiled here for every GPU architecture (--arch); the
exercise's Makefile takes them from there. So in the copy `make` builds both programs, `make run`
times the student's code beside every reference and the library baseline as before, and the
grader, run from the instructor's copy, grades a student's copy like any submission (it takes
only the STUDENT_SRCS files from it).

Steps: a clean tree (git HEAD or the working tree, as the grader makes it), the plan (what goes,
what stays; refused if a file that stays includes one that goes), the objects built in the
clean tree, the copy written beside DEST (its Markdown made to describe the copy), then checked:
no answer to a task in it (no function of a withheld file, by its name or its body), no
withheld file in it, its Markdown's links lead somewhere and its READMEs name only what it
holds, and every exercise's Makefile parses (make -n all test-build) with the objects in place;
then renamed to DEST.

The modules, in that order: config (the Makefiles and release.ini), plan, objects (the prebuilt
objects), markdown (the markers and the text units of the course's Markdown), contents (what
the copy holds, for the names Markdown uses), readmes (the READMEs rewritten), write_copy,
answers (the answer check; dry_run, python3 -m pmpp_grading.release.dry_run, runs it alone),
markdown_check and verify_copy (the checks of the copy), command (the command line, main);
errors (ReleaseError, BuildFailed, the exit statuses).
"""
from .answers import Finding, check_answers, find_answers, functions
from .command import main, parse_args
from .config import Build, Config, load_config, read_build, read_builds
from .contents import CopyContents, PathIndex, files_below
from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, BuildFailed, ReleaseError
from .markdown import apply_markers
from .markdown_check import check_markdown
from .objects import arch_variables, object_path
from .plan import NUMBERED, Plan, include_closure, make_plan
from .readmes import readme_for_copy, readme_note, rewrite_readme
from .write_copy import release_makefile

# What grading/make_student_release.sh (main) and grading/tests/test_release.py use.
__all__ = ["Build", "BuildFailed", "Config", "CopyContents", "EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "Finding",
           "NUMBERED", "PathIndex", "Plan", "ReleaseError", "apply_markers", "arch_variables", "check_answers",
           "check_markdown", "files_below", "find_answers", "functions", "include_closure", "load_config", "main",
           "make_plan", "object_path", "parse_args", "read_build", "read_builds", "readme_for_copy", "readme_note",
           "release_makefile", "rewrite_readme"]
