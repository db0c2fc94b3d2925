"""No answer to a task in the students' copy: the check make_student_release.sh runs once the
copy is written (check_answers; dry_run.py runs it on a course as the copy would hold it).

An answer is a function defined in a withheld file of an exercise (the plan's: its
SOLUTION_SRCS, its numbered reference variants, what release.ini withholds, the headers only
those include) whose name is not one of the exercise's STUDENT_API names (the starter defines
those itself, with TODO bodies). For each answer the copy must hold
  (a) no definition of a function of that name and parameter list (default arguments aside) in
      a shipped source file (.cu .cuh .h .cpp .hpp) of an exercise whose build uses the withheld
      file: its folder, and every file its build compiles or includes. A `run()` or a
      `launch(...)` in common/'s tests or in another exercise's harness, or a harness's own
      `count_at(re, im, max_iter)` beside a variant's `count_at(frame, px, py)`, is another
      function. The starters are left to (b): they define stubs, TODO bodies, of some of the
      variants' kernels, by the same names;
  (b) no file at all whose text holds the answer's body, normalised (comments and preprocessor
      lines removed, whitespace collapsed), if that body has at least MIN_BODY normalised
      characters (a one-line call of another function gives nothing away).
A helper a README tells the students to use is not an answer: a name that a file the release
keeps (a `keep =` of release.ini, or a header that ships) defines with another body is left
alone; one defined there with the answer's body is the answer shipped, and reported.

Definitions are found by a simple scanner (functions): a name followed by its parameter list
and a `{`, braces matched, comments, strings and preprocessor lines skipped. What comes before
the name (a template header, __host__ __device__ __global__, a return type) does not matter;
between the parameter list and the body, const, noexcept, a trailing return type or a
constructor's initialisers may stand. Operators, lambdas and macros are no functions to it.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..course import repo_path
from .config import Build, Config
from .contents import files_below
from .errors import ReleaseError
from .plan import Plan, include_closure

SOURCES = (".cu", ".cuh", ".h", ".cpp", ".hpp")
HEADERS = (".cuh", ".h", ".hpp")
MIN_BODY = 80                  # normalised characters: shorter bodies count by name only
MAX_TEXT_BYTES = 4 << 20       # a larger file of the copy is no text a body is pasted into

# ---- The scanner ------------------------------------------------------------------------------

DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
TOKEN = re.compile(r"""
      (?P<skip> \s+ | //[^\n]* | /\*.*?\*/ )
    | R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)"           # a raw string
    | (?:u8|[uUL])?"(?:\\.|[^"\\\n])*"                          # a string
    | (?:u8|[uUL])?'(?:\\.|[^'\\\n]){1,8}'                      # a character
    | [A-Za-z_]\w*                                              # a name or a keyword
    | \.?[0-9](?:[eEpP][+-]|[\w.'])*                            # a number
    | :: | -> | .
""", re.S | re.X)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# Words followed by a parenthesis that do not name the function defined there.
NOT_NAMES = frozenset("""
    if for while switch catch return sizeof alignof alignas decltype noexcept static_assert defined typeid
    throw new delete requires operator __attribute__ __declspec __launch_bounds__ __device__ __host__
    __global__ __forceinline__ __noinline__ constexpr consteval inline static const volatile mutable
""".split())
# Words that may stand between a parameter list and its body (with their own parentheses).
AFTER_PARAMETERS = frozenset("const volatile noexcept override final mutable throw __attribute__ requires".split())
WITH_PARENTHESES = frozenset("noexcept throw __attribute__ requires".split())


def tokens(text: str) -> List[str]:
    """The C++ tokens of `text`: no comment, no preprocessor line, a string or a character one token."""
    return [m.group() for m in TOKEN.finditer(DIRECTIVE.sub("", text)) if m.group("skip") is None]


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def joined(toks: Sequence[str]) -> str:
    """Tokens as one text, a space only between two that would run together: the normal form
    in which bodies are compared (line breaks, indentation and spacing do not matter)."""
    out: List[str] = []
    for t in toks:
        if out and _is_word(out[-1][-1]) and _is_word(t[0]):
            out.append(" ")
        out.append(t)
    return "".join(out)


def _matching(toks: Sequence[str], i: int) -> Optional[int]:
    """The index of the bracket that closes toks[i] ('(' or '{'), or None."""
    opening = toks[i]
    closing = ")" if opening == "(" else "}"
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == opening:
            depth += 1
        elif toks[j] == closing:
            depth -= 1
            if depth == 0:
                return j
    return None


def _initialisers(toks: Sequence[str], j: int) -> Optional[int]:
    """After a constructor's ':' at j: the index of its body's '{' behind `a(x), Base<T, U>{y}`, or None."""
    while j < len(toks):
        j += 1
        angle = 0  # the member or base named, template arguments included
        while j < len(toks) and (_is_word(toks[j][0]) or toks[j] in ("::", "<", ">") or (toks[j] == "," and angle)):
            angle += (toks[j] == "<") - (toks[j] == ">")
            j += 1
        if j >= len(toks) or toks[j] not in ("(", "{"):
            return None
        end = _matching(toks, j)
        if end is None or end + 1 >= len(toks):
            return None
        j = end + 1
        if toks[j] == "{":
            return j
        if toks[j] != ",":
            return None
    return None


def _without_defaults(params: Sequence[str]) -> List[str]:
    """A parameter list's tokens, its parentheses included, less each `= default` (a declaration
    may give it where the definition does not)."""
    out: List[str] = []
    depth, skipping = 0, False
    for t in params:
        if t in ("(", "[", "{", "<"):
            depth += 1
        elif t in (")", "]", "}", ">"):
            depth -= 1
        if depth == 1 and t == "=":
            skipping = True
        elif (depth == 1 and t == ",") or depth == 0:
            skipping = False
        if not skipping:
            out.append(t)
    return out


def _body_start(toks: Sequence[str], j: int) -> Optional[int]:
    """The index of the '{' that opens a function's body, the parameter list closed before j, or None."""
    while j < len(toks):
        t = toks[j]
        if t == "{":
            return j
        if t in AFTER_PARAMETERS or t == "&":
            j += 1
            if t in WITH_PARENTHESES and j < len(toks) and toks[j] == "(":
                end = _matching(toks, j)
                if end is None:
                    return None
                j = end + 1
            continue
        if t == "->":  # a trailing return type: names, ::, <>, *, &, and decltype(...)
            j += 1
            while j < len(toks) and toks[j] != "{":
                if toks[j] == "(":
                    end = _matching(toks, j)
                    if end is None:
                        return None
                    j = end + 1
                elif _is_word(toks[j][0]) or toks[j] in ("::", "<", ">", ",", "*", "&"):
                    j += 1
                else:
                    return None
            continue
        if t == ":":
            return _initialisers(toks, j)
        return None
    return None


@dataclass(frozen=True)
class Function:
    name: str     # unqualified, as defined: co_rank (merge_sort::co_rank), ~Tile
    params: str   # its parameter list, normalised, without default arguments: (Index k,KeysA a)
    body: str     # normalised (joined), its braces included


def functions(text: str) -> List[Function]:
    """The functions `text` (C++ or CUDA) defines, in order: a function's own body is not searched
    further; a class's body is (its member functions)."""
    return functions_of(tokens(text))


def functions_of(toks: Sequence[str]) -> List[Function]:
    """functions() of a text's tokens."""
    found: List[Function] = []
    i = 0
    while i < len(toks) - 1:
        name = toks[i]
        if toks[i + 1] == "(" and IDENTIFIER.fullmatch(name) and name not in NOT_NAMES \
                and (i == 0 or toks[i - 1] not in (".", "->")):
            close = _matching(toks, i + 1)
            start = _body_start(toks, close + 1) if close is not None else None
            end = _matching(toks, start) if start is not None else None
            if end is not None:
                found.append(Function(("~" if i and toks[i - 1] == "~" else "") + name,
                                      joined(_without_defaults(toks[i + 1:close + 1])), joined(toks[start:end + 1])))
                i = end + 1
                continue
        i += 1
    return found


# ---- The check --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    exercise: str
    shipped: str                 # the copy's file (from its exercise's folder, or from the top)
    name: str                    # the answer
    withheld: str                # the file it is the answer in (the same way)
    by_body: bool = False        # found by its body, not its name
    as_name: Optional[str] = None  # the shipped function with that body, if a function holds it

    def __str__(self) -> str:
        what = self.name
        if self.by_body:
            what = f"{self.name}'s body" + (f" as {self.as_name}" if self.as_name else "")
        return f"release: {self.exercise}: {self.shipped} ships {what}, the answer in {self.withheld}"


def _shown(path: str, exercise: str) -> str:
    return path[len(exercise) + 1:] if path.startswith(exercise + "/") else path


def _read(path: str) -> Optional[str]:
    """A file's text, or None for a binary file (a NUL byte), a large one or one that cannot be read."""
    try:
        if os.path.getsize(path) > MAX_TEXT_BYTES:
            return None
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return None if b"\0" in data else data.decode("utf-8", errors="replace")


def answers_of(course: str, plan: Plan, builds: Dict[str, Build]) -> List[Tuple[str, str, Function]]:
    """(exercise, withheld file, function) of every answer: the functions of the withheld sources
    whose names are not their exercise's STUDENT_API."""
    found = []
    for path in plan.withheld:
        exercise = path.split("/", 1)[0]
        if not path.endswith(SOURCES) or exercise not in builds:
            continue
        api = {name.rsplit("::", 1)[-1] for name in builds[exercise].api}
        text = _read(os.path.join(course, path)) or ""
        found += [(exercise, path, f) for f in functions(text) if f.name not in api]
    return found


def files_read(course: str, build: Build) -> Set[str]:
    """Every file an exercise's build reads: the sources it compiles and every header they include."""
    compiled = [(path, build.name) for path, _ in build.compiled()]
    return {path for path, _ in compiled} | set(include_closure(course, compiled))


def find_answers(course: str, copy_files: Dict[str, str], plan: Plan, builds: Dict[str, Build],
                 config: Config) -> List[Finding]:
    """What of the answers (read in `course`, the tree the copy is made from) the copy holds:
    copy_files maps each repository path of the copy to its file."""
    defined: Dict[str, List[Function]] = {}  # the copy's sources -> their functions
    bodies: Dict[str, str] = {}  # the copy's text files -> their normal form
    for rel, path in copy_files.items():
        text = _read(path)
        if text is not None:
            toks = tokens(text)
            bodies[rel] = joined(toks)
            if rel.endswith(SOURCES):
                defined[rel] = functions_of(toks)
    kept = {rel for rel in defined if rel.endswith(HEADERS)}
    kept |= {repo_path(e, f) for e, files in config.keep.items() for f in files}
    reads = {e: files_read(course, b) for e, b in builds.items()}
    starters = {path for b in builds.values() for path in b.paths(b.student)}
    scopes: Dict[str, List[str]] = {}

    def scope(withheld: str) -> List[str]:
        """The copy's sources a definition of one of its answers' names must not be in: those of
        each exercise whose build reads `withheld` (its folder's, and every file the build reads),
        but the starters (which define stubs of the same names: the tasks)."""
        if withheld not in scopes:
            users = [e for e in builds if e == withheld.split("/", 1)[0] or withheld in reads[e]]
            scopes[withheld] = [rel for rel in defined if rel not in starters
                                and any(rel.startswith(e + "/") or rel in reads[e] for e in users)]
        return scopes[withheld]

    findings: List[Finding] = []
    seen: Set[Tuple[str, str, str, bool]] = set()

    def report(exercise: str, shipped: str, f: Function, withheld: str, by_body: bool = False,
               as_name: Optional[str] = None) -> None:
        if (exercise, shipped, f.name, by_body) not in seen:
            seen.add((exercise, shipped, f.name, by_body))
            findings.append(Finding(exercise, _shown(shipped, exercise), f.name, _shown(withheld, exercise), by_body,
                                    as_name))

    for exercise, withheld, f in answers_of(course, plan, builds):
        by_name = [(rel, g) for rel in scope(withheld) for g in defined[rel] if g.name == f.name]
        helper = any(rel in kept and g.body != f.body for rel, g in by_name)
        for rel, g in by_name:  # the answer itself, or (a helper aside) its definition with another body
            if g.body == f.body or (not helper and g.params == f.params):
                report(exercise, rel, f, withheld)
        if helper or len(f.body) < MIN_BODY:
            continue
        for rel, text in bodies.items():
            if f.body in text and (exercise, rel, f.name, False) not in seen:
                holder = next((g.name for g in defined.get(rel, []) if g.body == f.body), None)
                report(exercise, rel, f, withheld, by_body=holder != f.name, as_name=holder)  # the same name: itself
    return sorted(findings, key=lambda x: (x.exercise, x.shipped, x.name, x.by_body))


def check_answers(course: str, target: str, plan: Plan, builds: Dict[str, Build], config: Config) -> None:
    """The copy written at `target` from `course` holds no answer (find_answers); else ReleaseError
    naming each: the exercise, the copy's file and the function."""
    findings = find_answers(course, files_below(target), plan, builds, config)
    if findings:
        raise ReleaseError(f"the copy holds the answer to a task ({len(findings)} finding(s): a function of a "
                           "withheld file, by its name or its body; withhold the file that ships it, or keep the "
                           "answer out of it; grading/README.md, \"The student release\"):\n"
                           + "\n".join(str(f) for f in findings))
