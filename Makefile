# Top-level Makefile: delegates to common/ and to every exercise folder (NN_name).
#   make          build everything            make run    run every exercise, then a summary
#   make test     build and run every suite   make clean  remove every build/
#   make grade    grade the exercises (grading/README.md)
# Variables given here (ARCH=sm_90, CUDA_PATH=..., NVCC=...) reach every folder.

EXERCISES := $(sort $(wildcard [0-9][0-9]_*))
# The grader's Python tests print the same counts line as the GoogleTest binaries.
TEST_BINS := common/build/tests $(addsuffix /build/tests,$(EXERCISES)) grading/tests/run_tests.py

.DEFAULT_GOAL := all
.PHONY: all run plot test test-build grade student-release format format-check clean help common $(EXERCISES) $(addprefix test-build-,$(EXERCISES))

all: $(EXERCISES)

common:
	@$(MAKE) --no-print-directory -C common all || { echo "make: building common/ failed" >&2; exit 1; }

$(EXERCISES): common
	@$(MAKE) --no-print-directory -C $@ all || { echo "make: building $@ failed" >&2; exit 1; }

test-build-common: common
	@$(MAKE) --no-print-directory -C common build/tests build/gpu_probe build/plot_results || { echo "make: building the tests of common/ failed" >&2; exit 1; }

# After the folder's own `all` (its test-build builds that too): `make -j all test-build` would
# otherwise run two makes in one folder at once, writing the same objects (a link then failed).
$(addprefix test-build-,$(EXERCISES)): test-build-%: common %
	@$(MAKE) --no-print-directory -C $* test-build || { echo "make: building the tests of $* failed" >&2; exit 1; }

test-build: test-build-common $(addprefix test-build-,$(EXERCISES))

# Every suite runs, even after a failure; the last line is the total. With a GPU, the device
# tests run once more as on a T4 (PMPP_DEVICE_PROFILE=t4: its shared memory, SMs and memory;
# common/device_limits.h), where the shapes and sizes of small GPUs are chosen; the suites'
# host-only parts run again too, except common's student-rules tests (they use no GPU).
# TEST_PROFILE=l4 picks another profile; TEST_PROFILE= (empty) runs the suites once.
PROFILE_TEST_BINS := common/build/tests $(addsuffix /build/tests,$(EXERCISES))
TEST_PROFILE ?= t4
test: test-build
	@tally=$$(mktemp); rc=0; \
	for bin in $(TEST_BINS); do \
	  echo "== $$bin"; \
	  PMPP_TEST_TALLY=$$tally bash common/run_tests.sh $$bin || rc=1; \
	done; \
	if [ -z "$(TEST_PROFILE)" ]; then \
	  echo "== the device tests under a profile: not run (TEST_PROFILE is empty)"; \
	elif why=$$(common/build/gpu_probe); then \
	  profile_tally=$$(mktemp); \
	  for bin in $(PROFILE_TEST_BINS); do \
	    echo "== $$bin, PMPP_DEVICE_PROFILE=$(TEST_PROFILE)"; \
	    PMPP_DEVICE_PROFILE=$(TEST_PROFILE) GTEST_FILTER='-StudentRules*:*/EveryExercise.*' \
	      PMPP_TEST_TALLY=$$profile_tally bash common/run_tests.sh $$bin || rc=1; \
	  done; \
	  awk '{p += $$1; f += $$2; s += $$3} END {printf "under the $(TEST_PROFILE) profile: %d passed, %d failed, %d skipped\n", p, f, s}' $$profile_tally; \
	  cat $$profile_tally >>$$tally; rm -f $$profile_tally; \
	else \
	  echo "== the device tests under the $(TEST_PROFILE) profile: not run ($$why)"; \
	fi; \
	awk '{p += $$1; f += $$2; s += $$3} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' $$tally; \
	rm -f $$tally; exit $$rc

# Every exercise's `make run` (your code checked, then benchmarked beside the references),
# one after the other on the GPU, then one summary table. Exit status: the worst of them.
run: all
	@results=""; \
	for ex in $(EXERCISES); do \
	  echo; echo "######## $$ex"; \
	  $(MAKE) --no-print-directory -C $$ex run; \
	  results="$$results $$ex=$$ex/build/results.json"; \
	done; \
	common/build/results_summary $$results

# Every exercise's benchmark drawn as a chart (its `make plot`: build/bench.png from the results
# file of its last `make run`). An exercise with no results file is named, the others still drawn.
plot: common
	@rc=0; for ex in $(EXERCISES); do $(MAKE) --no-print-directory -C $$ex plot || rc=1; done; exit $$rc

# The grader: every exercise part in its own process, scored with grading/rubric.ini. Its
# options go in GRADE_ARGS, e.g. make grade GRADE_ARGS="--submissions ~/submissions".
# It runs make itself (one build per student), so this make's own flags stay here.
GRADE_ARGS ?=
grade:
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(if $(filter command line,$(origin CUDA_PATH)),CUDA_PATH=$(CUDA_PATH)) \
	  grading/run_all.sh $(if $(filter command line,$(origin ARCH)),--arch $(ARCH)) $(GRADE_ARGS)

# The students' copy of the course, without the reference answers (grading/README.md, "The
# student release"), e.g. make student-release DEST=~/pmpp-students RELEASE_ARGS="--exercises 01,02"
# The instructor's command: the students' copy has no make_student_release.sh, so there `make help`
# leaves it out and the target says why.
RELEASE_ARGS ?=
RELEASE_SCRIPT := $(wildcard grading/make_student_release.sh)
student-release:
ifneq ($(RELEASE_SCRIPT),)
	@test -n "$(DEST)" || { echo "make student-release: say where, e.g. DEST=~/pmpp-students" >&2; exit 2; }
	@env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(RELEASE_SCRIPT) "$(DEST)" $(RELEASE_ARGS)
else
	@echo "make student-release: this is the students' copy of the course; the instructor's copy makes it" >&2; exit 2
endif

clean:
	@for d in common $(EXERCISES); do $(MAKE) --no-print-directory -C $$d clean; done

# The course's one style, .clang-format (clang-format 14, Debian 12's; another version may
# format a few lines differently): format-check names every C++/CUDA file it would change and
# fails; format applies it.
CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(shell git ls-files '*.cu' '*.cuh' '*.h' '*.cpp' 2>/dev/null || \
                 find . -path '*/build' -prune -o \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.cpp' \) -print)
format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "format-check: $(CLANG_FORMAT) not found (apt-get install clang-format)" >&2; exit 2; }
	@bad=$$(for f in $(FORMAT_FILES); do $(CLANG_FORMAT) --dry-run --Werror "$$f" >/dev/null 2>&1 || echo "$$f"; done); \
	  if [ -n "$$bad" ]; then echo "format-check: not in the course's style (make format applies it):"; echo "$$bad" | sed 's/^/  /'; exit 1; fi; \
	  echo "format-check: $(words $(FORMAT_FILES)) files, all in the course's style ($$($(CLANG_FORMAT) --version))"
format:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "format: $(CLANG_FORMAT) not found (apt-get install clang-format)" >&2; exit 2; }
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

help:
	@echo "PMPP CUDA exercises. Targets:"
	@echo "  make          build every exercise (your code and the reference answer)"
	@echo "  make run      check and benchmark every exercise on the GPU, then a summary table"
	@echo "  make plot     draw every exercise's benchmark (from its last make run) as NN_name/build/bench.png"
	@echo "  make test     build and run every test suite; the last line counts passed, failed, skipped"
	@echo "                (with a GPU, the device tests again as on a T4: TEST_PROFILE=t4|rtx3060|l4|a100, empty for none)"
	@echo "  make test-build  build every test suite, run none"
	@echo "  make grade    grade every exercise (GRADE_ARGS='--submissions DIR' grades a folder of submissions)"
ifneq ($(RELEASE_SCRIPT),)
	@echo "  make student-release DEST=DIR  the students' copy: reference answers compiled, not as sources"
endif
	@echo "  make format-check  is every C++/CUDA file in the style of .clang-format?"
	@echo "  make format   apply .clang-format to every C++/CUDA file"
	@echo "  make clean    remove every build/ folder"
	@echo "In an exercise folder: make run | plot | test | sanitize | profile | forbidden | tune | clean | help"
	@echo "Variables: ARCH=sm_90 (default: the GPU found, else sm_75)  CUDA_PATH=/usr/local/cuda  NVCC=..."
	@echo "Exercises: $(EXERCISES)"
