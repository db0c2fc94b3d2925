"""The scoring logic: the performance curve, the classification of every way a run can end,
and the points of check and performance parts, from hand-made results files."""
import signal
import unittest
from dataclasses import replace

from pmpp_grading import scoring
from pmpp_grading.rubric import CHECK, PERFORMANCE, Part
from pmpp_grading.scoring import RunOutcome

SEED = 424242


def results(status="ok", exit_code=0, seed=SEED, passed=10, total=10, bench=None, **extra):
    r = {"schema": "pmpp.results.v1", "exercise": "02_scan", "seed": seed, "status": status, "exit_code": exit_code,
         "device": {"name": "NVIDIA H200", "driver": "13.0", "runtime": "13.0"}}
    if total is not None:
        r["check_summary"] = {"student": {"passed": passed, "failed": total - passed, "total": total}}
        r["checks"] = [{"impl": "student", "case": f"case {k}", "passed": k < passed,
                        **({} if k < passed else {"message": f"element {k} differs"})} for k in range(total)]
    if bench is not None:
        r["bench"] = bench
    r.update(extra)
    return r


def row(impl="student", ms=1.0, n=1 << 24, section="kernel", label=None, correct=True):
    return {"impl": impl, "section": section, "label": label or impl, "n": n, "median_ms": ms, "correct": correct}


def ran(r, rc=None):
    return RunOutcome(returncode=r["exit_code"] if rc is None else rc, results=r)


CHECK_PART = Part("02_scan", "correctness", CHECK, 6.0)
PERF_PART = Part("02_scan", "performance", PERFORMANCE, 4.0, requires=("correctness",))


class PerformanceCurve(unittest.TestCase):
    def test_full_points_at_and_below_the_threshold(self):
        for ratio in (0.3, 1.0, 1.19, 1.2):
            self.assertEqual(scoring.performance_fraction(ratio, 1.2, "classic"), 1.0)
            self.assertEqual(scoring.performance_fraction(ratio, 1.2, "continuous"), 1.0)

    def test_classic_curve_pays_reference_over_student_time_beyond_it(self):
        self.assertAlmostEqual(scoring.performance_fraction(2.0, 1.2, "classic"), 0.5)
        self.assertAlmostEqual(scoring.performance_fraction(1.2001, 1.2, "classic"), 1 / 1.2001)

    def test_continuous_curve_has_no_step(self):
        self.assertAlmostEqual(scoring.performance_fraction(2.4, 1.2, "continuous"), 0.5)
        self.assertAlmostEqual(scoring.performance_fraction(1.2 + 1e-9, 1.2, "continuous"), 1.0, places=6)

    def test_decreases_as_the_student_gets_slower(self):
        previous = 1.0
        for ratio in (1.3, 1.5, 2, 4, 10, 100):
            f = scoring.performance_fraction(ratio, 1.2, "classic")
            self.assertLess(f, previous)
            previous = f

    def test_a_meaningless_ratio_scores_nothing(self):
        for ratio in (0.0, -1.0, float("nan"), float("inf")):
            self.assertEqual(scoring.performance_fraction(ratio), 0.0)

    def test_other_thresholds(self):
        self.assertEqual(scoring.performance_fraction(1.9, 2.0), 1.0)
        self.assertAlmostEqual(scoring.performance_fraction(4.0, 2.0, "continuous"), 0.5)

    def test_unknown_curve_is_refused(self):
        with self.assertRaises(ValueError):
            scoring.performance_fraction(3.0, 1.2, "linear")


class ClassifyRun(unittest.TestCase):
    def status(self, outcome, seed=SEED):
        return scoring.classify_run(outcome, seed).status

    def test_finished_and_correct_is_passed(self):
        self.assertEqual(self.status(ran(results())), scoring.PASSED)

    def test_harness_status_wrong_is_wrong_result(self):
        self.assertEqual(self.status(ran(results("wrong", 1, passed=3))), scoring.WRONG)

    def test_cuda_error_exit_3_is_crashed_with_the_harness_message(self):
        v = scoring.classify_run(ran(results("cuda_error", 3, error="an illegal memory access (kernel at x.cu:3)")), SEED)
        self.assertEqual(v.status, scoring.CRASHED)
        self.assertIn("illegal memory access", v.message)

    def test_no_gpu_is_its_own_status(self):
        v = scoring.classify_run(ran(results("no_gpu", 3, error="no usable GPU: 0 devices", total=None)), SEED)
        self.assertEqual(v.status, scoring.NO_GPU)
        self.assertIn("no usable GPU", v.message)

    def test_out_of_memory_exit_4_is_crashed(self):
        v = scoring.classify_run(ran(results("out_of_memory", 4, error="cudaMalloc failed")), SEED)
        self.assertEqual(v.status, scoring.CRASHED)
        self.assertIn("out of memory", v.message)

    def test_killed_by_a_signal_is_crashed_naming_it(self):
        v = scoring.classify_run(RunOutcome(returncode=-signal.SIGSEGV), SEED)
        self.assertEqual(v.status, scoring.CRASHED)
        self.assertIn("SIGSEGV", v.message)

    def test_timeout_is_timed_out(self):
        v = scoring.classify_run(RunOutcome(returncode=None, timed_out=True, timeout_s=30), SEED)
        self.assertEqual(v.status, scoring.TIMED_OUT)
        self.assertIn("30", v.message)

    def test_exit_0_without_a_results_file_is_crashed_not_passed(self):
        v = scoring.classify_run(RunOutcome(returncode=0, results=None, results_problem="no results file"), SEED)
        self.assertEqual(v.status, scoring.CRASHED)

    def test_unfinished_results_file_is_crashed(self):
        partial = results()
        del partial["status"], partial["exit_code"]
        self.assertEqual(self.status(ran(partial, rc=0)), scoring.CRASHED)

    def test_exit_status_that_disagrees_with_the_results_file_is_crashed(self):
        # The student's code called exit(0) after the harness wrote "wrong" in a partial file.
        self.assertEqual(self.status(ran(results("wrong", 1), rc=0)), scoring.CRASHED)

    def test_results_file_of_another_seed_is_not_trusted(self):
        self.assertEqual(self.status(ran(results(seed=1))), scoring.CRASHED)

    def test_a_file_that_is_not_a_results_file_is_crashed(self):
        self.assertEqual(self.status(RunOutcome(returncode=0, results={"score": 100})), scoring.CRASHED)

    def test_usage_error_is_the_graders_problem(self):
        self.assertEqual(self.status(ran(results("usage_error", 2, total=None))), scoring.GRADER_ERROR)
        self.assertEqual(self.status(RunOutcome(returncode=2, results=None)), scoring.GRADER_ERROR)

    def test_unknown_exit_status_is_crashed(self):
        self.assertEqual(self.status(RunOutcome(returncode=7, results=None)), scoring.CRASHED)


class CheckParts(unittest.TestCase):
    def test_every_case_passing_earns_the_points(self):
        r = scoring.judge_check(CHECK_PART, ran(results()), SEED)
        self.assertEqual((r.status, r.points, r.max_points), (scoring.PASSED, 6.0, 6.0))
        self.assertIn("10/10", r.message)

    def test_per_case_credit_for_a_wrong_result(self):
        r = scoring.judge_check(CHECK_PART, ran(results("wrong", 1, passed=5)), SEED)
        self.assertEqual(r.status, scoring.WRONG)
        self.assertAlmostEqual(r.points, 3.0)
        self.assertIn("case 5: element 5 differs", r.message)

    def test_all_or_nothing_credit(self):
        r = scoring.judge_check(replace(CHECK_PART, credit="all"), ran(results("wrong", 1, passed=9)), SEED)
        self.assertEqual((r.status, r.points), (scoring.WRONG, 0.0))

    def test_a_crash_scores_nothing(self):
        r = scoring.judge_check(CHECK_PART, RunOutcome(returncode=-signal.SIGABRT), SEED)
        self.assertEqual((r.status, r.points), (scoring.CRASHED, 0.0))

    def test_no_case_run_is_a_grader_error(self):
        r = scoring.judge_check(CHECK_PART, ran(results(passed=0, total=0)), SEED)
        self.assertEqual(r.status, scoring.GRADER_ERROR)

    def test_a_summary_that_contradicts_ok_is_wrong(self):
        r = scoring.judge_check(CHECK_PART, ran(results("ok", 0, passed=9)), SEED)
        self.assertEqual(r.status, scoring.WRONG)


class PerformanceParts(unittest.TestCase):
    def judge(self, student_rows, reference_rows=None, part=PERF_PART, student_status=("ok", 0)):
        student = ran(results(*student_status, total=None, bench=student_rows))
        reference = None if reference_rows is None else ran(results(total=None, bench=reference_rows))
        return scoring.judge_performance(part, student, reference, SEED)

    def test_as_fast_as_the_reference_earns_full_points(self):
        r = self.judge([row(ms=1.1)], [row(ms=1.0)])
        self.assertEqual((r.status, r.points), (scoring.PASSED, 4.0))
        self.assertAlmostEqual(r.ratio, 1.1)
        self.assertEqual((r.student_ms, r.reference_ms, r.n), (1.1, 1.0, 1 << 24))

    def test_twice_as_slow_earns_half_on_the_classic_curve(self):
        r = self.judge([row(ms=2.0)], [row(ms=1.0)])
        self.assertEqual(r.points, 2.0)
        self.assertIn("2.00x", r.message)

    def test_reads_the_largest_size_of_the_selected_section(self):
        student = [row(ms=0.1, n=1 << 20), row(ms=4.0, n=1 << 24), row(ms=9.0, section="end to end")]
        reference = [row(ms=0.1, n=1 << 20), row(ms=2.0, n=1 << 24), row(ms=1.0, section="end to end")]
        r = self.judge(student, reference)
        self.assertEqual((r.n, r.ratio), (1 << 24, 2.0))

    def test_against_a_reference_variant_of_the_same_run_every_view_worst(self):
        part = replace(PERF_PART, reference="seed", section="*", aggregate="worst")
        rows = [row(ms=1.0, section="view full"), row("seed", ms=1.0, section="view full"),
                row(ms=3.0, section="view deep"), row("seed", ms=1.5, section="view deep")]
        r = self.judge(rows, None, part)
        self.assertEqual(r.ratio, 2.0)
        self.assertEqual(r.points, 2.0)

    def test_total_aggregate_sums_the_rows(self):
        part = replace(PERF_PART, section="*")
        rows = [row(ms=1.0, section="a"), row(ms=3.0, section="b")]
        r = self.judge(rows, [row(ms=2.0, section="a"), row(ms=2.0, section="b")], part)
        self.assertEqual((r.student_ms, r.reference_ms, r.ratio), (4.0, 4.0, 1.0))

    def test_labelled_rows_match_across_implementations(self):
        part = replace(PERF_PART, reference="vectorized", section="e2e", label="student pinned")
        rows = [row(ms=2.0, section="e2e", label="student pinned"), row(ms=9.0, section="e2e", label="student pageable"),
                row("vectorized", ms=2.0, section="e2e", label="vectorized pinned")]
        r = self.judge(rows, None, part)
        self.assertEqual((r.student_ms, r.ratio), (2.0, 1.0))

    def test_wrong_output_on_a_timed_run_is_wrong_result(self):
        r = self.judge([row(ms=0.5, correct=False)], [row()], student_status=("wrong", 1))
        self.assertEqual((r.status, r.points), (scoring.WRONG, 0.0))

    def test_student_crash_is_crashed(self):
        student = ran(results("cuda_error", 3, total=None, error="illegal address"))
        r = scoring.judge_performance(PERF_PART, student, ran(results(total=None, bench=[row()])), SEED)
        self.assertEqual(r.status, scoring.CRASHED)

    def test_failed_reference_run_is_a_grader_error_not_the_students(self):
        bad_reference = RunOutcome(returncode=-signal.SIGSEGV)
        r = scoring.judge_performance(PERF_PART, ran(results(total=None, bench=[row()])), bad_reference, SEED)
        self.assertEqual(r.status, scoring.GRADER_ERROR)

    def test_reference_without_the_row_is_a_grader_error(self):
        r = self.judge([row()], [row(section="other")])
        self.assertEqual(r.status, scoring.GRADER_ERROR)

    def test_section_without_a_student_row_is_a_grader_error(self):
        r = self.judge([row()], [row()], replace(PERF_PART, section="no such section"))
        self.assertEqual(r.status, scoring.GRADER_ERROR)

    def test_no_gpu_on_the_reference_run_is_no_gpu(self):
        no_gpu = ran(results("no_gpu", 3, total=None))
        r = scoring.judge_performance(PERF_PART, no_gpu, no_gpu, SEED)
        self.assertEqual(r.status, scoring.NO_GPU)


def memory_row(ms, gbs_copy=4000.0, moved=4e9, impl="student", **kw):
    """A memory-bound row as the harness writes it: bytes, GB/s and the fraction of the copy
    bandwidth (`gbs_copy`) measured in the same run."""
    r = row(impl, ms=ms, **kw)
    r.update(bytes=moved, gbs=moved / (ms * 1e6), fraction_of_copy=moved / (ms * 1e6) / gbs_copy)
    return r


def copy(gbs):
    return {"copy_bandwidth": {"bytes": 1 << 30, "median_ms": 2 * (1 << 30) / (gbs * 1e6), "gbs": gbs}}


class ImplausibleTiming(unittest.TestCase):
    """A row faster than the copy bandwidth of its run allows, or a student run whose copy
    bandwidth is not the reference run's: no points, both numbers in the message. The reference
    answer's fastest row on an H200 moved 1.02x the copy (01_saxpy vectorized at 2^28)."""

    def judge(self, student_rows, reference_rows=None, student_copy=4000.0, reference_copy=4000.0, part=PERF_PART):
        student = ran(results(total=None, bench=student_rows, **(copy(student_copy) if student_copy else {})))
        reference = None if reference_rows is None else ran(
            results(total=None, bench=reference_rows, **(copy(reference_copy) if reference_copy else {})))
        return scoring.judge_performance(part, student, reference, SEED)

    def test_the_fastest_reference_row_measured_is_plausible(self):
        # 4e9 bytes in 0.98 ms = 4082 GB/s = 1.02x a 4000 GB/s copy
        r = self.judge([memory_row(0.98)], [memory_row(1.0)])
        self.assertEqual((r.status, r.points), (scoring.PASSED, 4.0))

    def test_a_row_above_the_margin_is_implausible_with_both_numbers(self):
        r = self.judge([memory_row(0.5)], [memory_row(1.0)])  # 8000 GB/s, 2x the copy
        self.assertEqual((r.status, r.points), (scoring.IMPLAUSIBLE, 0.0))
        self.assertIn("8000 GB/s, 2.00x the copy bandwidth measured in the same run (4000 GB/s)", r.message)
        self.assertIn("1.15x", r.message)
        self.assertEqual((r.student_ms, r.reference_ms), (0.5, 1.0))  # shown, not paid

    def test_just_above_the_margin_is_implausible_just_below_is_not(self):
        self.assertEqual(self.judge([memory_row(4e9 / (1.16 * 4000 * 1e6))], [memory_row(1.0)]).status,
                         scoring.IMPLAUSIBLE)
        self.assertEqual(self.judge([memory_row(4e9 / (1.14 * 4000 * 1e6))], [memory_row(1.0)]).status,
                         scoring.PASSED)

    def test_the_margin_can_be_made_stricter_per_part(self):
        part = replace(PERF_PART, plausible_fraction_of_copy=1.05)
        r = self.judge([memory_row(4e9 / (1.1 * 4000 * 1e6))], [memory_row(1.0)], part=part)
        self.assertEqual(r.status, scoring.IMPLAUSIBLE)
        self.assertIn("1.05x", r.message)

    def test_rows_that_move_no_bytes_are_exempt(self):
        r = self.judge([row(ms=0.01)], [row(ms=1.0)])  # compute-bound: bytes 0, gbs 0
        self.assertEqual((r.status, r.points), (scoring.PASSED, 4.0))

    def test_gbs_is_recomputed_from_the_time_not_taken_from_the_file(self):
        fast = memory_row(0.5)
        fast.update(gbs=100.0, fraction_of_copy=0.025)  # a file that understates the row's speed
        r = self.judge([fast], [memory_row(1.0)])
        self.assertEqual(r.status, scoring.IMPLAUSIBLE)
        self.assertIn("8000 GB/s", r.message)

    def test_bytes_come_from_the_reference_run_when_the_student_s_row_says_none(self):
        fast = memory_row(0.5)
        fast.update(bytes=0, gbs=0, fraction_of_copy=0)  # the student's row claims to move nothing
        self.assertEqual(self.judge([fast], [memory_row(1.0)]).status, scoring.IMPLAUSIBLE)

    def test_a_run_with_rows_of_bytes_but_no_copy_bandwidth_is_implausible(self):
        rows = [memory_row(1.0), memory_row(1.0, impl="naive")]
        r = self.judge(rows, None, student_copy=None, part=replace(PERF_PART, reference="naive"))
        self.assertEqual(r.status, scoring.IMPLAUSIBLE)
        self.assertIn("no copy bandwidth", r.message)

    def test_a_copy_bandwidth_15_percent_off_the_reference_run_s_is_implausible(self):
        for student_copy in (3400.0, 4600.0):
            r = self.judge([memory_row(1.0, gbs_copy=student_copy)], [memory_row(1.0)], student_copy=student_copy)
            self.assertEqual((r.status, r.points), (scoring.IMPLAUSIBLE, 0.0), student_copy)
            self.assertIn(f"{student_copy:.0f} GB/s", r.message)
            self.assertIn("reference run's, 4000 GB/s, by 15% (more than 10%)", r.message)

    def test_a_copy_bandwidth_5_percent_off_passes(self):
        for student_copy in (3800.0, 4200.0):
            r = self.judge([memory_row(1.0, gbs_copy=student_copy)], [memory_row(1.0)], student_copy=student_copy)
            self.assertEqual((r.status, r.points), (scoring.PASSED, 4.0), student_copy)

    def test_a_compute_bound_run_is_still_held_to_the_reference_s_copy_bandwidth(self):
        r = self.judge([row(ms=1.0)], [row(ms=1.0)], student_copy=400.0)  # a clock 10x slow, say
        self.assertEqual(r.status, scoring.IMPLAUSIBLE)

    def test_a_student_run_without_a_copy_bandwidth_is_implausible_when_the_reference_has_one(self):
        r = self.judge([row(ms=1.0)], [row(ms=1.0)], student_copy=None)
        self.assertEqual(r.status, scoring.IMPLAUSIBLE)
        self.assertIn("reports no copy bandwidth", r.message)

    def test_against_a_variant_of_the_same_run_only_the_rows_are_judged(self):
        part = replace(PERF_PART, reference="naive")
        # 2.4e9 bytes in 1 ms: 0.8x a 3000 GB/s copy; no reference run to compare that copy with
        rows = [memory_row(1.0, 3000.0, 2.4e9), memory_row(1.0, 3000.0, 2.4e9, impl="naive")]
        r = self.judge(rows, None, student_copy=3000.0, part=part)
        self.assertEqual(r.status, scoring.PASSED)
        rows = [memory_row(0.5, 3000.0, 2.4e9), memory_row(1.0, 3000.0, 2.4e9, impl="naive")]
        self.assertEqual(self.judge(rows, None, student_copy=3000.0, part=part).status, scoring.IMPLAUSIBLE)

    def test_results_files_without_copy_or_bytes_are_judged_as_before(self):
        r = self.judge([row(ms=1.0)], [row(ms=1.0)], student_copy=None, reference_copy=None)
        self.assertEqual(r.status, scoring.PASSED)

    def test_a_wrong_timed_output_stays_wrong(self):
        student = ran(results("wrong", 1, total=None, bench=[memory_row(0.1, correct=False)], **copy(4000.0)))
        r = scoring.judge_performance(PERF_PART, student, ran(results(total=None, bench=[memory_row(1.0)],
                                                                      **copy(4000.0))), SEED)
        self.assertEqual(r.status, scoring.WRONG)

    def test_is_a_status_of_its_own(self):
        self.assertIn(scoring.IMPLAUSIBLE, scoring.STATUSES)
        parts = [scoring.blocked(CHECK_PART, scoring.PASSED, ""), scoring.blocked(PERF_PART, scoring.IMPLAUSIBLE, "")]
        self.assertEqual(scoring.worst_status(parts), scoring.IMPLAUSIBLE)
        self.assertEqual(scoring.gradescope_status(parts[1]), "failed")


class Prerequisites(unittest.TestCase):
    def done(self, status):
        return {"correctness": scoring.blocked(CHECK_PART, status, "why")}

    def test_performance_runs_after_a_passed_check(self):
        self.assertIsNone(scoring.prerequisite(PERF_PART, self.done(scoring.PASSED)))

    def test_performance_is_skipped_after_a_failed_check(self):
        for status in (scoring.WRONG, scoring.CRASHED, scoring.TIMED_OUT):
            r = scoring.prerequisite(PERF_PART, self.done(status))
            self.assertEqual((r.status, r.points), (scoring.SKIPPED, 0.0))
            self.assertIn(status, r.message)

    def test_no_gpu_stays_no_gpu(self):
        self.assertEqual(scoring.prerequisite(PERF_PART, self.done(scoring.NO_GPU)).status, scoring.NO_GPU)


class Summaries(unittest.TestCase):
    def test_worst_status_names_the_first_problem(self):
        parts = [scoring.blocked(CHECK_PART, scoring.PASSED, ""), scoring.blocked(PERF_PART, scoring.TIMED_OUT, "")]
        self.assertEqual(scoring.worst_status(parts), scoring.TIMED_OUT)

    def test_gradescope_passes_only_full_points(self):
        r = scoring.blocked(PERF_PART, scoring.PASSED, "")
        r.points = 3.0
        self.assertEqual(scoring.gradescope_status(r), "failed")
        r.points = 4.0
        self.assertEqual(scoring.gradescope_status(r), "passed")


if __name__ == "__main__":
    unittest.main()
