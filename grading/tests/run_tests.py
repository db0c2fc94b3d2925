#!/usr/bin/env python3
"""The grader's tests (Python unittest), run by the top-level `make test` through
common/run_tests.sh: the last line is the PMPP_TEST_COUNTS line that script adds up, as every
GoogleTest binary of the course prints it. Arguments for GoogleTest (--gtest_*) are ignored;
other arguments name tests to run (e.g. test_scoring.PerformanceCurve)."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
sys.path.insert(0, here)
names = [a for a in sys.argv[1:] if not a.startswith("--gtest")]
loader = unittest.defaultTestLoader
suite = loader.loadTestsFromNames(names) if names else loader.discover(here, pattern="test_*.py", top_level_dir=here)
result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
skipped = len(result.skipped)
print(f"PMPP_TEST_COUNTS passed={result.testsRun - failed - skipped} failed={failed} skipped={skipped}", flush=True)
sys.exit(0 if failed == 0 else 1)
