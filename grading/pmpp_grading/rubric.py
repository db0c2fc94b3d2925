"""grading/rubric.ini: points per exercise and part, performance thresholds, the sanitizer's tools
and sizes, timeouts.

The format is INI (configparser, in every Python 3): [defaults], then one [EXERCISE/PART]
section per graded part; [*/PART] sections apply to exercise folders without sections of their
own. Every key is checked: a typo is an error that names the file, the section and the key,
before anything is built or run.
"""
from __future__ import annotations

import configparser
import hashlib
import re
import shlex
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Tuple

CHECK = "check"
PERFORMANCE = "performance"
SANITIZE = "sanitize"
KINDS = (CHECK, PERFORMANCE, SANITIZE)
# The compute-sanitizer tools a sanitize part may run (`--tool`), each in its own process.
SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
DEFAULT_SANITIZE_MAX_SIZE = 1 << 12
# `requires = none` on a sanitize part: it runs whatever the check parts scored.
REQUIRES_NOTHING = "none"
CURVES = ("classic", "continuous")
CREDITS = ("per_case", "all")
AGGREGATES = ("total", "worst")
ANY_EXERCISE = "*"

# What makes a timing implausible (scoring.judge_performance): a row faster than this fraction of
# the copy bandwidth measured in the same run, or a student run whose copy bandwidth differs from
# the reference run's by more than this tolerance. Issue 15 bounds them: a rubric may make them
# stricter, never looser.
MAX_PLAUSIBLE_FRACTION_OF_COPY = 1.15
MAX_COPY_BANDWIDTH_TOLERANCE = 0.10
PLAUSIBILITY_KEYS = {"plausible_fraction_of_copy", "copy_bandwidth_tolerance"}

DEFAULT_KEYS = {"full_within", "curve", "credit", "check_timeout", "bench_timeout", "build_timeout",
                "sanitize_timeout", "performance_tries"} | PLAUSIBILITY_KEYS
COMMON_PART_KEYS = {"type", "points", "args", "timeout"}
CHECK_KEYS = COMMON_PART_KEYS | {"credit"}
PERFORMANCE_KEYS = COMMON_PART_KEYS | {"reference", "section", "label", "aggregate", "full_within", "curve",
                                       "requires"} | PLAUSIBILITY_KEYS
SANITIZE_KEYS = COMMON_PART_KEYS | {"tools", "max_size", "requires", "shards"}
# `shards`: a tool's check cases split over at most this many processes (`--shard I/N`).
MAX_SHARDS = 16
PART_KEYS = {CHECK: CHECK_KEYS, PERFORMANCE: PERFORMANCE_KEYS, SANITIZE: SANITIZE_KEYS}
# Options the grader sets on every part's command line; a sanitize part's --max-size is its max_size
# (and --shard its shards).
GRADER_OPTIONS = ("--impl", "--json", "--seed", "--check", "--bench", "--images", "--shard")


class RubricError(ValueError):
    """A rubric that cannot be used; the message names the file, section and key."""


@dataclass(frozen=True)
class Defaults:
    full_within: float = 1.2
    curve: str = "classic"
    credit: str = "per_case"
    check_timeout: float = 180.0
    bench_timeout: float = 180.0
    build_timeout: float = 900.0
    sanitize_timeout: float = 300.0  # one tool's process of a sanitize part
    performance_tries: int = 3  # measurements at most of a performance part short of full points
    plausible_fraction_of_copy: float = MAX_PLAUSIBLE_FRACTION_OF_COPY
    copy_bandwidth_tolerance: float = MAX_COPY_BANDWIDTH_TOLERANCE


@dataclass(frozen=True)
class Part:
    """One graded part of one exercise."""
    exercise: str
    name: str
    kind: str                      # CHECK, PERFORMANCE or SANITIZE
    points: float
    args: Tuple[str, ...] = ()
    timeout: float = 180.0
    credit: str = "per_case"       # check parts
    reference: str = "solution"    # performance parts: "solution" or a reference variant's name
    section: str = "kernel"        # "*": every section
    label: Optional[str] = None
    aggregate: str = "total"
    full_within: float = 1.2
    curve: str = "classic"
    requires: Tuple[str, ...] = ()  # names of check parts; filled in by Rubric.parts_for
    requires_nothing: bool = False  # sanitize parts: `requires = none`
    tools: Tuple[str, ...] = ("memcheck",)          # sanitize parts, in the order they run
    max_size: int = DEFAULT_SANITIZE_MAX_SIZE       # sanitize parts: --max-size of the check
    shards: Tuple[Tuple[str, int], ...] = ()        # sanitize parts: (tool, N) for a tool run as N processes
    plausible_fraction_of_copy: float = MAX_PLAUSIBLE_FRACTION_OF_COPY  # performance parts
    copy_bandwidth_tolerance: float = MAX_COPY_BANDWIDTH_TOLERANCE       # performance parts

    @property
    def key(self) -> str:
        return self.exercise + "/" + self.name

    @property
    def runs(self) -> Tuple[str, ...]:
        """A sanitize part's processes in the order they run: each tool by its name, or a tool
        with shards as "TOOL 1/N" ... "TOOL N/N" (each runs every N-th check case: `--shard`)."""
        counts = dict(self.shards)
        out: List[str] = []
        for tool in self.tools:
            n = counts.get(tool, 1)
            out += [tool] if n == 1 else [f"{tool} {i}/{n}" for i in range(1, n + 1)]
        return tuple(out)


def run_tool(run: str) -> Tuple[str, List[str]]:
    """A sanitize run's tool and the harness options of its shard: "racecheck 2/3" ->
    ("racecheck", ["--shard", "2/3"]); "memcheck" -> ("memcheck", [])."""
    tool, _, shard = run.partition(" ")
    return tool, (["--shard", shard] if shard else [])


@dataclass
class Rubric:
    path: str
    defaults: Defaults
    parts: Dict[str, List[Part]] = field(default_factory=dict)  # exercise (or "*") -> parts, file order
    digest: str = ""

    def has_parts_for(self, exercise: str) -> bool:
        return exercise in self.parts or ANY_EXERCISE in self.parts

    def parts_for(self, exercise: str) -> List[Part]:
        """The exercise's own parts, or the [*/...] parts instantiated for it; each performance
        and sanitize part's `requires` resolved (default: every check part of the exercise;
        `requires = none` on a sanitize part: nothing)."""
        own = self.parts.get(exercise)
        parts = own if own is not None else [replace(p, exercise=exercise) for p in self.parts.get(ANY_EXERCISE, [])]
        checks = tuple(p.name for p in parts if p.kind == CHECK)
        return [replace(p, requires=checks) if p.kind in (PERFORMANCE, SANITIZE) and not p.requires
                and not p.requires_nothing else p for p in parts]

    def max_points(self, exercises: List[str]) -> float:
        return sum(p.points for e in exercises for p in self.parts_for(e))


def _number(text: str, where: str, minimum: float, strictly: bool = True) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RubricError(f"{where}: '{text}' is not a number") from None
    if value != value or (value <= minimum if strictly else value < minimum):
        raise RubricError(f"{where}: {text} must be {'greater than' if strictly else 'at least'} {minimum:g}")
    return value


def _bounded(text: str, where: str, maximum: float) -> float:
    """A number in (0, maximum]: the plausibility keys, which may only be made stricter."""
    value = _number(text, where, 0.0)
    if value > maximum:
        raise RubricError(f"{where}: {text} must be at most {maximum:g} (issue 15's bound; a rubric may only "
                          "make it stricter)")
    return value


def _plausibility(sec, where: str, defaults: "Defaults") -> Dict[str, float]:
    """plausible_fraction_of_copy and copy_bandwidth_tolerance of a section, else the defaults'."""
    return {
        "plausible_fraction_of_copy": _bounded(sec["plausible_fraction_of_copy"], where + " plausible_fraction_of_copy",
                                               MAX_PLAUSIBLE_FRACTION_OF_COPY)
        if "plausible_fraction_of_copy" in sec else defaults.plausible_fraction_of_copy,
        "copy_bandwidth_tolerance": _bounded(sec["copy_bandwidth_tolerance"], where + " copy_bandwidth_tolerance",
                                             MAX_COPY_BANDWIDTH_TOLERANCE)
        if "copy_bandwidth_tolerance" in sec else defaults.copy_bandwidth_tolerance}


SIZE = re.compile(r"^(?:(\d+)|(\d+)\s*\^\s*(\d+)|(\d+)\s*<<\s*(\d+))(?:\s*([+-])\s*(\d+))?$")


def parse_size(text: str, where: str) -> int:
    """A problem size as the harness writes it: 4096, 2^12, 1<<12, 2^12+1, 2^16-1 (at least 1)."""
    m = SIZE.match(text.strip())
    if not m:
        raise RubricError(f"{where}: '{text}' is not a size (4096, 2^12, 2^12+1, 1<<12)")
    plain, base, power, shifted, shift, sign, offset = m.groups()
    if plain is not None:
        value = int(plain)
    elif base is not None:
        value = int(base) ** int(power) if int(power) <= 64 else 1 << 64
    else:
        value = int(shifted) << min(int(shift), 64)
    if sign:
        value = value + int(offset) if sign == "+" else value - int(offset)
    if not 1 <= value < 1 << 40:
        raise RubricError(f"{where}: {text} must lie in [1, 2^40)")
    return value


def _tools(text: str, where: str) -> Tuple[str, ...]:
    tools = tuple(t for t in re.split(r"[\s,]+", text.strip()) if t)
    if not tools:
        raise RubricError(f"{where}: name at least one of {', '.join(SANITIZER_TOOLS)}")
    for t in tools:
        _choice(t, SANITIZER_TOOLS, where)
    if len(set(tools)) != len(tools):
        raise RubricError(f"{where}: a tool is named twice")
    return tools


def _shards(text: Optional[str], tools: Tuple[str, ...], where: str) -> Tuple[Tuple[str, int], ...]:
    """`shards = N` (every tool) or `shards = TOOL:N TOOL:N` (the tools named; the others 1)."""
    if text is None or not text.strip():
        return ()
    items = [t for t in re.split(r"[\s,]+", text.strip()) if t]

    def count(value: str) -> int:
        if not re.fullmatch(r"[0-9]+", value) or not 1 <= int(value) <= MAX_SHARDS:
            raise RubricError(f"{where}: '{value}' is not a count of processes in [1, {MAX_SHARDS}]")
        return int(value)

    if len(items) == 1 and ":" not in items[0]:
        if not re.fullmatch(r"[0-9]+", items[0]):
            raise RubricError(f"{where}: '{items[0]}' is neither a count of processes in [1, {MAX_SHARDS}] nor TOOL:N "
                              "(e.g. racecheck:3)")
        n = count(items[0])
        return tuple((t, n) for t in tools if n > 1)
    out: Dict[str, int] = {}
    for item in items:
        tool, colon, value = item.partition(":")
        if not colon:
            raise RubricError(f"{where}: '{item}' is not TOOL:N (e.g. racecheck:3), nor is the value one count")
        if tool not in tools:
            raise RubricError(f"{where}: '{tool}' is not one of the part's tools ({', '.join(tools)})")
        if tool in out:
            raise RubricError(f"{where}: {tool} is named twice")
        out[tool] = count(value)
    return tuple((t, out[t]) for t in tools if out.get(t, 1) > 1)


def _choice(text: str, choices, where: str) -> str:
    if text not in choices:
        raise RubricError(f"{where}: '{text}' is not one of {', '.join(choices)}")
    return text


def parse_rubric(text: str, path: str = "rubric.ini") -> Rubric:
    parser = configparser.ConfigParser(interpolation=None, comment_prefixes=("#", ";"),
                                       inline_comment_prefixes=("#", ";"), default_section="__none__")
    parser.optionxform = str  # keys are case-sensitive: a typo in case is a typo
    try:
        parser.read_string(text, source=path)
    except configparser.Error as e:
        raise RubricError(f"{path}: {e}") from None

    defaults = Defaults()
    if parser.has_section("defaults"):
        sec = parser["defaults"]
        where = f"{path}: [defaults]"
        for key in sec:
            if key not in DEFAULT_KEYS:
                raise RubricError(f"{where}: unknown key '{key}' (known: {', '.join(sorted(DEFAULT_KEYS))})")
        values = {}
        if "full_within" in sec:
            values["full_within"] = _number(sec["full_within"], where + " full_within", 1.0, strictly=False)
        if "curve" in sec:
            values["curve"] = _choice(sec["curve"], CURVES, where + " curve")
        if "credit" in sec:
            values["credit"] = _choice(sec["credit"], CREDITS, where + " credit")
        for key in ("check_timeout", "bench_timeout", "build_timeout", "sanitize_timeout"):
            if key in sec:
                values[key] = _number(sec[key], f"{where} {key}", 0.0)
        if "performance_tries" in sec:
            tries = _number(sec["performance_tries"], where + " performance_tries", 1.0, strictly=False)
            if tries != int(tries):
                raise RubricError(f"{where} performance_tries: {sec['performance_tries']} is not a whole number")
            values["performance_tries"] = int(tries)
        values.update(_plausibility(sec, where, defaults))
        defaults = replace(defaults, **values)

    rubric = Rubric(path=path, defaults=defaults, digest=hashlib.sha256(text.encode()).hexdigest()[:16])
    for name in parser.sections():
        if name == "defaults":
            continue
        where = f"{path}: [{name}]"
        exercise, slash, part_name = name.partition("/")
        exercise, part_name = exercise.strip(), part_name.strip()
        if not slash or not exercise or not part_name:
            raise RubricError(f"{where}: a part section is named [EXERCISE/PART], e.g. [02_scan/correctness]")
        sec = parser[name]
        kind = sec.get("type")
        if kind is None:
            raise RubricError(f"{where}: missing 'type' ({', '.join(KINDS)})")
        kind = _choice(kind, KINDS, where + " type")
        known = PART_KEYS[kind]
        for key in sec:
            if key not in known:
                raise RubricError(f"{where}: unknown key '{key}' for a {kind} part (known: {', '.join(sorted(known))})")
        if "points" not in sec:
            raise RubricError(f"{where}: missing 'points'")
        try:
            args = tuple(shlex.split(sec.get("args", "")))
        except ValueError as e:
            raise RubricError(f"{where} args: {e}") from None
        own = {SANITIZE: ("--max-size",), PERFORMANCE: ("--section",)}.get(kind, ())
        for forbidden in GRADER_OPTIONS + own:
            if any(a == forbidden or a.startswith(forbidden + "=") for a in args):
                raise RubricError(f"{where} args: {forbidden} is set by the grader"
                                  + {"--max-size": " (the part's max_size)",
                                     "--section": " (the part's section)"}.get(forbidden, ""))
        default_timeout = {CHECK: defaults.check_timeout, PERFORMANCE: defaults.bench_timeout,
                           SANITIZE: defaults.sanitize_timeout}[kind]
        part = Part(
            exercise=exercise, name=part_name, kind=kind,
            points=_number(sec["points"], where + " points", 0.0),
            args=args,
            timeout=_number(sec["timeout"], where + " timeout", 0.0) if "timeout" in sec else default_timeout,
            credit=_choice(sec.get("credit", defaults.credit), CREDITS, where + " credit"),
            full_within=_number(sec["full_within"], where + " full_within", 1.0, strictly=False)
            if "full_within" in sec else defaults.full_within,
            curve=_choice(sec.get("curve", defaults.curve), CURVES, where + " curve"),
        )
        if kind == PERFORMANCE:
            reference = sec.get("reference", "solution").strip()
            if not reference or reference in ("student", "all") or "," in reference:
                raise RubricError(f"{where} reference: 'solution' or the name of one reference variant")
            label = sec.get("label")
            part = replace(
                part, reference=reference, section=sec.get("section", "kernel").strip() or "kernel",
                label=label.strip() if label is not None and label.strip() else None,
                aggregate=_choice(sec.get("aggregate", "total"), AGGREGATES, where + " aggregate"),
                requires=_requires(sec, where, kind),
                **_plausibility(sec, where, defaults))
        if kind == SANITIZE:
            requires = _requires(sec, where, kind)
            tools = _tools(sec.get("tools", "memcheck"), where + " tools")
            part = replace(
                part, tools=tools, shards=_shards(sec.get("shards"), tools, where + " shards"),
                max_size=parse_size(sec["max_size"], where + " max_size") if "max_size" in sec
                else DEFAULT_SANITIZE_MAX_SIZE,
                requires=() if requires == (REQUIRES_NOTHING,) else requires,
                requires_nothing=requires == (REQUIRES_NOTHING,))
        parts = rubric.parts.setdefault(exercise, [])
        if any(p.name == part_name for p in parts):
            raise RubricError(f"{where}: the part '{part_name}' appears twice")
        parts.append(part)

    for exercise, parts in rubric.parts.items():
        checks = {p.name for p in parts if p.kind == CHECK}
        for p in parts:
            for r in p.requires:
                if r not in checks:
                    raise RubricError(f"{path}: [{p.key}] requires '{r}', which is not a check part of {exercise} "
                                      f"(its check parts: {', '.join(sorted(checks)) or 'none'})")
    return rubric


def _requires(sec, where: str, kind: str) -> Tuple[str, ...]:
    """The check parts named by `requires` (a comma list); `none` alone, on a sanitize part only."""
    names = tuple(r.strip() for r in sec.get("requires", "").split(",") if r.strip())
    if REQUIRES_NOTHING in names and (kind != SANITIZE or len(names) > 1):
        raise RubricError(f"{where} requires: '{REQUIRES_NOTHING}' stands alone, on a sanitize part only "
                          "(a performance part counts only for a correct implementation)")
    return names


def load_rubric(path: str) -> Rubric:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RubricError(f"cannot read the rubric: {e}") from None
    return parse_rubric(text, path)
