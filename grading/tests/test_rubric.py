"""The rubric file: the course's own rubric is valid and covers every exercise folder; every
mistake an instructor can make in it is refused with a message that names it."""
import os
import unittest

from pmpp_grading import course
from pmpp_grading.rubric import CHECK, PERFORMANCE, SANITIZE, RubricError, load_rubric, parse_rubric, run_tool

GRADING = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(GRADING)

MINIMAL = """
[defaults]
full_within = 1.5
curve = continuous
check_timeout = 50
bench_timeout = 70

[02_scan/correctness]
type = check
points = 6

[02_scan/performance 2^24]
type = performance
points = 4
args = --size 2^24   # a comment
"""


class CourseRubric(unittest.TestCase):
    def test_the_course_rubric_is_valid(self):
        rubric = load_rubric(os.path.join(GRADING, "rubric.ini"))
        self.assertGreater(rubric.max_points(["01_saxpy"]), 0)

    def test_the_course_rubric_sets_issue_15_s_plausibility_bounds(self):
        defaults = load_rubric(os.path.join(GRADING, "rubric.ini")).defaults
        self.assertEqual((defaults.plausible_fraction_of_copy, defaults.copy_bandwidth_tolerance), (1.15, 0.10))

    def test_every_exercise_folder_has_parts(self):
        rubric = load_rubric(os.path.join(GRADING, "rubric.ini"))
        for name in course.exercise_folders(REPO):
            parts = rubric.parts_for(name)
            self.assertTrue(any(p.kind == CHECK for p in parts), name)
            for p in parts:
                if p.kind == PERFORMANCE:
                    self.assertTrue(p.requires, f"{p.key} must require the exercise's check")

    def test_every_exercise_has_a_sanitize_part_after_its_checks_and_racecheck_where_memory_is_shared(self):
        rubric = load_rubric(os.path.join(GRADING, "rubric.ini"))
        for name in course.exercise_folders(REPO):
            sanitize = [p for p in rubric.parts_for(name) if p.kind == SANITIZE]
            self.assertEqual(len(sanitize), 1, name)
            part = sanitize[0]
            self.assertEqual(part.tools[0], "memcheck", name)
            self.assertEqual("racecheck" in part.tools,
                             name in ("02_scan", "04_circle_renderer", "05_bitonic", "06_radix_sort", "07_merge_sort"),
                             name)
            self.assertTrue(part.requires, f"{part.key} must require the exercise's check")
            self.assertLessEqual(part.max_size, 1 << 16, f"{part.key}: the sanitizer's cases must stay small")
            self.assertEqual(part.points, 1.0, name)

    def test_the_sanitize_point_comes_on_top_of_the_ten_of_every_exercise(self):
        rubric = load_rubric(os.path.join(GRADING, "rubric.ini"))
        for name in course.exercise_folders(REPO):
            parts = rubric.parts_for(name)
            self.assertEqual(sum(p.points for p in parts if p.kind != SANITIZE), 10.0, name)

    def test_a_new_exercise_gets_the_default_parts(self):
        rubric = load_rubric(os.path.join(GRADING, "rubric.ini"))
        parts = rubric.parts_for("09_new_exercise")
        self.assertTrue(parts)
        self.assertTrue(all(p.exercise == "09_new_exercise" for p in parts))


class Parsing(unittest.TestCase):
    def test_defaults_reach_the_parts(self):
        r = parse_rubric(MINIMAL)
        check, perf = r.parts_for("02_scan")
        self.assertEqual((check.kind, check.points, check.timeout), (CHECK, 6.0, 50.0))
        self.assertEqual((perf.full_within, perf.curve, perf.timeout), (1.5, "continuous", 70.0))
        self.assertEqual(perf.args, ("--size", "2^24"))

    def test_performance_requires_every_check_part_by_default(self):
        r = parse_rubric(MINIMAL)
        self.assertEqual(r.parts_for("02_scan")[1].requires, ("correctness",))

    def test_part_keys_override_the_defaults(self):
        r = parse_rubric(MINIMAL + "full_within = 2\ncurve = classic\ntimeout = 9\nreference = cub\nsection = *\n")
        perf = r.parts_for("02_scan")[1]
        self.assertEqual((perf.full_within, perf.curve, perf.timeout, perf.reference, perf.section),
                         (2.0, "classic", 9.0, "cub", "*"))

    def test_the_order_of_the_file_is_kept(self):
        r = parse_rubric(MINIMAL)
        self.assertEqual([p.name for p in r.parts_for("02_scan")], ["correctness", "performance 2^24"])

    def test_a_sanitize_part_runs_memcheck_on_cases_up_to_2_12_after_every_check_by_default(self):
        r = parse_rubric(MINIMAL + "[02_scan/sanitize]\ntype = sanitize\npoints = 1\n")
        part = r.parts_for("02_scan")[2]
        self.assertEqual((part.kind, part.tools, part.max_size, part.requires, part.timeout, part.args),
                         (SANITIZE, ("memcheck",), 4096, ("correctness",), 300.0, ()))

    def test_sanitize_keys_reach_the_part(self):
        r = parse_rubric(MINIMAL.replace("[defaults]", "[defaults]\nsanitize_timeout = 120") +
                         "[02_scan/sanitize]\ntype = sanitize\npoints = 1\ntools = memcheck, racecheck synccheck\n"
                         "max_size = 2^12+1\nargs = --size 4097\n")
        part = r.parts_for("02_scan")[-1]
        self.assertEqual((part.tools, part.max_size, part.timeout, part.args),
                         (("memcheck", "racecheck", "synccheck"), 4097, 120.0, ("--size", "4097")))
        part = parse_rubric(MINIMAL + "[02_scan/s]\ntype = sanitize\npoints = 1\ntimeout = 30\nmax_size = 1<<10\n"
                            ).parts_for("02_scan")[-1]
        self.assertEqual((part.timeout, part.max_size), (30.0, 1024))

    def test_shards_split_the_tools_named_and_every_tool_with_one_count(self):
        head = "[01_saxpy/s]\ntype = sanitize\npoints = 1\ntools = memcheck racecheck\n"
        part = parse_rubric(head).parts_for("01_saxpy")[0]
        self.assertEqual((part.shards, part.runs), ((), ("memcheck", "racecheck")))
        part = parse_rubric(head + "shards = racecheck:3\n").parts_for("01_saxpy")[0]
        self.assertEqual(part.shards, (("racecheck", 3),))
        self.assertEqual(part.runs, ("memcheck", "racecheck 1/3", "racecheck 2/3", "racecheck 3/3"))
        part = parse_rubric(head + "shards = 2\n").parts_for("01_saxpy")[0]
        self.assertEqual(part.runs, ("memcheck 1/2", "memcheck 2/2", "racecheck 1/2", "racecheck 2/2"))
        part = parse_rubric(head + "shards = racecheck:2, memcheck:1\n").parts_for("01_saxpy")[0]
        self.assertEqual(part.runs, ("memcheck", "racecheck 1/2", "racecheck 2/2"))
        self.assertEqual(run_tool("racecheck 2/3"), ("racecheck", ["--shard", "2/3"]))
        self.assertEqual(run_tool("memcheck"), ("memcheck", []))

    def test_max_size_takes_the_harness_s_sizes(self):
        for text, value in (("4096", 4096), ("2^16", 65536), ("2^11+1", 2049), ("2^16-1", 65535), ("1<<12", 4096)):
            part = parse_rubric(f"[01_saxpy/s]\ntype = sanitize\npoints = 1\nmax_size = {text}\n").parts_for("01_saxpy")[0]
            self.assertEqual(part.max_size, value, text)

    def test_requires_none_runs_a_sanitize_part_whatever_the_checks_score(self):
        r = parse_rubric(MINIMAL + "[02_scan/sanitize]\ntype = sanitize\npoints = 1\nrequires = none\n")
        part = r.parts_for("02_scan")[2]
        self.assertEqual((part.requires, part.requires_nothing), ((), True))
        r = parse_rubric(MINIMAL + "[02_scan/sanitize]\ntype = sanitize\npoints = 1\nrequires = correctness\n")
        self.assertEqual(r.parts_for("02_scan")[2].requires, ("correctness",))

    def test_the_default_sanitize_part_of_a_new_exercise_requires_its_check(self):
        r = parse_rubric("[*/correctness]\ntype = check\npoints = 6\n[*/sanitize]\ntype = sanitize\npoints = 1\n")
        self.assertEqual(r.parts_for("09_new")[1].requires, ("correctness",))

    def test_digest_changes_with_the_text(self):
        self.assertNotEqual(parse_rubric(MINIMAL).digest, parse_rubric(MINIMAL + "\n# edited\n").digest)


class Mistakes(unittest.TestCase):
    def refused(self, text, *words):
        with self.assertRaises(RubricError) as ctx:
            parse_rubric(text, "r.ini")
        for w in words:
            self.assertIn(w, str(ctx.exception))

    def test_unknown_key(self):
        self.refused(MINIMAL + "pionts = 3\n", "pionts", "[02_scan/performance 2^24]")

    def test_unknown_default(self):
        self.refused("[defaults]\nfull_within = 1.2\ncurv = classic\n", "curv")

    def test_missing_type_or_points(self):
        self.refused("[01_saxpy/correctness]\npoints = 3\n", "type")
        self.refused("[01_saxpy/correctness]\ntype = check\n", "points")

    def test_bad_values(self):
        self.refused("[01_saxpy/c]\ntype = check\npoints = -1\n", "points")
        self.refused("[01_saxpy/c]\ntype = check\npoints = many\n", "not a number")
        self.refused("[01_saxpy/c]\ntype = tests\npoints = 1\n", "type")
        self.refused("[defaults]\nfull_within = 0.5\n", "full_within")
        self.refused("[defaults]\ncurve = linear\n", "curve")
        self.refused("[01_saxpy/p]\ntype = performance\npoints = 1\naggregate = mean\n", "aggregate")
        self.refused("[defaults]\nperformance_tries = 0\n", "performance_tries")
        self.refused("[defaults]\nperformance_tries = 2.5\n", "whole number")

    def test_performance_tries_default_to_three_and_can_be_set(self):
        self.assertEqual(parse_rubric(MINIMAL).defaults.performance_tries, 3)
        self.assertEqual(parse_rubric("[defaults]\nperformance_tries = 1\n").defaults.performance_tries, 1)

    def test_plausibility_bounds_default_to_issue_15_s_and_may_only_be_stricter(self):
        r = parse_rubric(MINIMAL)
        self.assertEqual((r.defaults.plausible_fraction_of_copy, r.defaults.copy_bandwidth_tolerance), (1.15, 0.10))
        perf = r.parts_for("02_scan")[1]
        self.assertEqual((perf.plausible_fraction_of_copy, perf.copy_bandwidth_tolerance), (1.15, 0.10))
        for key, bad in (("plausible_fraction_of_copy", "1.2"), ("plausible_fraction_of_copy", "0"),
                         ("plausible_fraction_of_copy", "fast"), ("copy_bandwidth_tolerance", "0.2"),
                         ("copy_bandwidth_tolerance", "-0.1")):
            self.refused(f"[defaults]\n{key} = {bad}\n", key)
            self.refused(MINIMAL + f"{key} = {bad}\n", key, "[02_scan/performance 2^24]")
        self.refused("[defaults]\nplausible_fraction_of_copy = 1.16\n", "at most 1.15")

    def test_plausibility_keys_reach_the_parts_and_a_part_overrides_them(self):
        text = MINIMAL.replace("[defaults]", "[defaults]\nplausible_fraction_of_copy = 1.1\ncopy_bandwidth_tolerance = 0.05")
        perf = parse_rubric(text).parts_for("02_scan")[1]
        self.assertEqual((perf.plausible_fraction_of_copy, perf.copy_bandwidth_tolerance), (1.1, 0.05))
        perf = parse_rubric(text + "plausible_fraction_of_copy = 1.05\n").parts_for("02_scan")[1]
        self.assertEqual((perf.plausible_fraction_of_copy, perf.copy_bandwidth_tolerance), (1.05, 0.05))
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\nplausible_fraction_of_copy = 1.1\n",
                     "plausible_fraction_of_copy")

    def test_check_keys_are_not_accepted_on_performance_parts_and_back(self):
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\nreference = cub\n", "reference")

    def test_section_names_need_an_exercise_and_a_part(self):
        self.refused("[01_saxpy]\ntype = check\npoints = 1\n", "[EXERCISE/PART]")

    def test_options_the_grader_sets_cannot_be_given(self):
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\nargs = --seed 3\n", "--seed")
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\nargs = --impl=all\n", "--impl")
        self.refused("[04_circle_renderer/c]\ntype = check\npoints = 1\nargs = --images /tmp/x\n", "--images")

    def test_bad_sanitize_keys_are_refused_naming_them(self):
        head = "[01_saxpy/s]\ntype = sanitize\npoints = 1\n"
        self.refused(head + "tools = memcheck helgrind\n", "tools", "helgrind", "racecheck")
        self.refused(head + "tools = memcheck memcheck\n", "tools", "twice")
        self.refused(head + "tools = ,\n", "tools", "at least one")
        for bad in ("many", "0", "2^x", "-5", "2^50"):
            self.refused(head + f"max_size = {bad}\n", "max_size", "[01_saxpy/s]")
        self.refused(head + "args = --max-size 99\n", "--max-size", "max_size")
        self.refused(head + "args = --check\n", "--check")
        self.refused(head + "full_within = 2\n", "full_within", "sanitize part")
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\ntools = memcheck\n", "tools")
        self.refused("[01_saxpy/p]\ntype = performance\npoints = 1\nmax_size = 10\n", "max_size")
        self.refused("[01_saxpy/p]\ntype = performance\npoints = 1\nargs = --section kernel\n", "--section",
                     "the part's section")
        self.refused("[defaults]\nsanitize_timeout = 0\n", "sanitize_timeout")

    def test_bad_shards_are_refused_naming_them(self):
        head = "[01_saxpy/s]\ntype = sanitize\npoints = 1\ntools = memcheck racecheck\n"
        self.refused(head + "shards = synccheck:2\n", "shards", "synccheck", "not one of the part's tools")
        self.refused(head + "shards = racecheck:0\n", "shards", "[1, 16]")
        self.refused(head + "shards = racecheck:17\n", "shards", "[1, 16]")
        self.refused(head + "shards = racecheck\n", "shards", "TOOL:N")
        self.refused(head + "shards = racecheck:2 racecheck:3\n", "shards", "twice")
        self.refused(head + "shards = two\n", "shards", "TOOL:N")
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\nshards = 2\n", "shards")
        self.refused(head + "args = --shard 1/2\n", "--shard", "set by the grader")

    def test_requires_none_stands_alone_on_sanitize_parts_only(self):
        self.refused(MINIMAL + "requires = none\n", "none", "sanitize part only")
        self.refused(MINIMAL + "[02_scan/s]\ntype = sanitize\npoints = 1\nrequires = none, correctness\n", "none")
        self.refused(MINIMAL + "[02_scan/s]\ntype = sanitize\npoints = 1\nrequires = correctnes\n", "correctnes")

    def test_requires_must_name_a_check_part(self):
        self.refused(MINIMAL + "requires = correctnes\n", "correctnes")

    def test_duplicate_part(self):
        self.refused("[01_saxpy/c]\ntype = check\npoints = 1\n[01_saxpy/c]\ntype = check\npoints = 1\n", "r.ini")

    def test_unreadable_file(self):
        with self.assertRaises(RubricError):
            load_rubric("/no/such/rubric.ini")


if __name__ == "__main__":
    unittest.main()
