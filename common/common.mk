# common/common.mk: the one make include every exercise Makefile uses.
#
# An exercise Makefile sets these variables, then includes this file:
#   EXERCISE        folder name, e.g. 01_saxpy
#   PROGRAM         harness binary name, e.g. saxpy
#   HARNESS_SRCS    the harness: main, cases, checker, benchmark (owned by the course)
#   REFERENCE_SRCS  reference variants, library baseline, CPU reference
#   STUDENT_SRCS    the starter files the student edits (the grader overlays only these)
#   SOLUTION_SRCS   the reference answer that fills the student's slot in the solution build
#   TEST_SRCS       GoogleTest sources (may include deliberately wrong variants)
#   EXTRA_LIBS      extra link flags (e.g. -lcublas)
#   TUNE_SRCS       course sources the sweeps in tune/ link (`make tune`; optional)
#   CHECK_MAX_SIZE  largest check case used by `make sanitize` (small: the sanitizer is slow)
#   FORBIDDEN_APIS  libraries the student's files may not use (e.g. thrust,cub,cg-scan,cg-reduce);
#                   `make forbidden` checks, and `make run` checks first
#   STUDENT_API     the functions the exercise's header declares for the student and the harness
#                   calls (qualified names: saxpy::saxpy_student, merge_sort::sort_student): the only
#                   symbols of course code a student file may define
#   STUDENT_MAY_INCLUDE  the course headers a student file may include, besides
#                   common/cuda_check.h and what these headers include themselves (saxpy.h)
#   STUDENT_MAY_CALL  functions of other student files a student file may call (03 and 06: the
#                   student's scan of 02); usually empty
#
# The student's files are held to three rules (common/student_rules.sh says how, exactly):
#   the link rule     linking build/$(PROGRAM) fails ("error:", the file, the symbol and where
#                     course code has it) when a student file defines a symbol of course code
#                     (the harness, the references, the CPU reference, libpmpp_common.a) or one
#                     that course code takes from a library (cudaEventElapsedTime), except
#                     STUDENT_API, or when it interposes a shared library's (malloc, clock_gettime);
#   the use rule      `make forbidden`: every symbol the student's objects use must be the CUDA
#                     runtime's, the C/C++ standard libraries', common/cuda_check.h's, their own
#                     or STUDENT_MAY_CALL's, minus a deny list (files, environment, processes,
#                     threads, exit, raw system access, CUDA calls that escape the harness:
#                     common/student_symbols.txt); no FORBIDDEN_APIS library; no "/proc/" or "/dev/";
#   the include rule  `make forbidden`: of the course's files, the student's may include only
#                     STUDENT_MAY_INCLUDE and common/cuda_check.h.
# `make forbidden` reads the real build's objects and dependency files (built first): exit 0
# clean; otherwise one "FORBIDDEN: " line per violation and a failing exit status.
#
# It builds, into build/:
#   build/$(PROGRAM)           harness + student's files   (what `make run` runs)
#   build/$(PROGRAM)_solution  harness + reference answer  (proves the harness accepts a right answer)
#   build/tests                the GoogleTest binary
#
# Overridable from the command line: CUDA_PATH NVCC ARCH CXX NVCCFLAGS_EXTRA CXXFLAGS_EXTRA.

COMMON_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
.DEFAULT_GOAL := all
BUILD      ?= build

CUDA_PATH ?= $(or $(patsubst %/bin/nvcc,%,$(shell command -v nvcc 2>/dev/null)),/usr/local/cuda)
NVCC      ?= $(CUDA_PATH)/bin/nvcc
CXX       ?= g++

# ARCH: the GPU in this machine (nvcc's native detection) or, with no GPU, sm_75,
# the oldest target CUDA 13 supports (its PTX also runs, JIT-compiled, on newer GPUs).
ifeq ($(origin ARCH),undefined)
  ARCH := $(shell $(CUDA_PATH)/bin/__nvcc_device_query >/dev/null 2>&1 && echo native || echo sm_75)
endif
export ARCH

# libpng: optional. Without it, images are written as PPM only.
PNG_CFLAGS := $(shell pkg-config --cflags libpng 2>/dev/null)
PNG_LIBS   := $(shell pkg-config --libs libpng 2>/dev/null)
ifneq ($(PNG_LIBS),)
  PNG_DEFS := -DPMPP_HAVE_PNG=1
endif

# GoogleTest: pkg-config first, then the Debian/Ubuntu location of libgtest-dev.
GTEST_CFLAGS := $(shell pkg-config --cflags gtest 2>/dev/null)
GTEST_LIBS   := $(shell pkg-config --libs gtest 2>/dev/null)
ifeq ($(GTEST_LIBS),)
  ifneq ($(wildcard /usr/include/gtest/gtest.h),)
    ifneq ($(wildcard /usr/lib/*/libgtest.a /usr/lib/libgtest.a /usr/lib/*/libgtest.so /usr/lib/libgtest.so),)
      GTEST_LIBS := -lgtest -lpthread
    endif
  endif
endif

INCLUDES   := -I$(COMMON_DIR)/.. -I. -I$(CUDA_PATH)/include
WARN       := -Wall -Wextra
DEPFLAGS   := -MMD -MP
CXXFLAGS   := -O3 -std=c++17 $(WARN) $(DEPFLAGS) $(INCLUDES) $(PNG_CFLAGS) $(PNG_DEFS) $(CXXFLAGS_EXTRA)
# -lineinfo lets compute-sanitizer and Nsight Compute name source lines; it costs no speed.
NVCCFLAGS  := -O3 -std=c++17 -arch=$(ARCH) -lineinfo --expt-relaxed-constexpr \
              -Xcompiler "$(WARN)" $(DEPFLAGS) $(INCLUDES) $(PNG_DEFS) $(NVCCFLAGS_EXTRA)
LDLIBS     := -L$(CUDA_PATH)/lib64 -lcudart $(PNG_LIBS) -lpthread

# The build follows the toolchain: every object depends on build/toolchain.txt, rewritten only
# when the compilers, ARCH, CUDA_PATH or the flags differ from the last build's, so changing
# any of them rebuilds everything (objects for sm_90 never end up in an sm_75 build).
TOOLCHAIN_STAMP := $(BUILD)/toolchain.txt
TOOLCHAIN_TEXT  := NVCC=$(NVCC) CXX=$(CXX) ARCH=$(ARCH) CUDA_PATH=$(CUDA_PATH) NVCCFLAGS=$(NVCCFLAGS) CXXFLAGS=$(CXXFLAGS) LDLIBS=$(LDLIBS)
TOOLCHAIN_OLD   := $(file <$(TOOLCHAIN_STAMP))
TOOLCHAIN_SAME  := $(and $(findstring x$(TOOLCHAIN_TEXT)x,x$(TOOLCHAIN_OLD)x),$(findstring x$(TOOLCHAIN_OLD)x,x$(TOOLCHAIN_TEXT)x))
$(TOOLCHAIN_STAMP): $(if $(TOOLCHAIN_SAME),,FORCE)
	@mkdir -p $(@D) && printf '%s\n' '$(subst ','\'',$(TOOLCHAIN_TEXT))' >$@
	@echo "$(CURDIR)/$@: $(NVCC), ARCH=$(ARCH): everything in $(BUILD)/ is built with these"

COMMON_LIB := $(COMMON_DIR)/build/libpmpp_common.a
TEST_MAIN  := $(COMMON_DIR)/build/test_main.o

# Object path for a source: build/obj/<path>.o (sources outside the folder keep their relative path).
obj = $(patsubst %,$(BUILD)/obj/%.o,$(subst ../,__/,$(1)))

$(BUILD)/obj/%.cu.o: %.cu $(TOOLCHAIN_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(BUILD)/obj/%.cpp.o: %.cpp $(TOOLCHAIN_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/__/%.cu.o: ../%.cu $(TOOLCHAIN_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(BUILD)/obj/__/%.cpp.o: ../%.cpp $(TOOLCHAIN_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

gtest-present:
	@if [ -z "$(GTEST_LIBS)" ]; then \
	  echo "GoogleTest not found: install it with 'sudo apt-get install libgtest-dev' (Debian/Ubuntu)" >&2; exit 1; fi

.PHONY: gtest-present FORCE
FORCE:

# Everything below is for exercise folders (common/Makefile sets PMPP_COMMON_ONLY).
ifndef PMPP_COMMON_ONLY

HARNESS_OBJS   := $(call obj,$(HARNESS_SRCS))
REFERENCE_OBJS := $(call obj,$(REFERENCE_SRCS))
STUDENT_OBJS   := $(call obj,$(STUDENT_SRCS))
SOLUTION_OBJS  := $(call obj,$(SOLUTION_SRCS))
TEST_OBJS      := $(call obj,$(TEST_SRCS))
ALL_OBJS       := $(sort $(HARNESS_OBJS) $(REFERENCE_OBJS) $(STUDENT_OBJS) $(SOLUTION_OBJS) $(TEST_OBJS))

BIN          := $(BUILD)/$(PROGRAM)
SOLUTION_BIN := $(BUILD)/$(PROGRAM)_solution
TEST_BIN     := $(BUILD)/tests
RESULTS      := $(BUILD)/results.json

# ---- the student's files and the three rules (the top of this file; common/student_rules.sh) ----
STUDENT_RULES  := $(COMMON_DIR)/student_rules.sh
STUDENT_PAIRS  := $(join $(addsuffix =,$(STUDENT_SRCS)),$(STUDENT_OBJS))
COURSE_PAIRS   := $(join $(addsuffix =,$(HARNESS_SRCS) $(REFERENCE_SRCS)),$(HARNESS_OBJS) $(REFERENCE_OBJS))
COURSE_SYMBOLS := $(BUILD)/course_symbols.txt
# Every member of the common library, extracted: the programs link all of them, before the
# student's objects, so that no student file can take a member's place (an archive member is
# only linked when a symbol is still missing) and the course's copy of every weak symbol it
# shares with a student file (inline functions, template instances) is the one the linker keeps.
COMMON_MEMBERS := $(BUILD)/common_lib/members.txt

# The student's objects list every header they include (-MD, system headers too: the include
# rule and the forbidden-library look read them), and are rebuilt when the rules change.
$(STUDENT_OBJS): NVCCFLAGS := $(subst -MMD,-MD,$(NVCCFLAGS))
$(STUDENT_OBJS): CXXFLAGS := $(subst -MMD,-MD,$(CXXFLAGS))
$(STUDENT_OBJS): $(COMMON_DIR)/common.mk

$(COMMON_MEMBERS): $(COMMON_LIB)
	@rm -rf $(dir $@) && mkdir -p $(dir $@)
	@cd $(dir $@) && ar x $(abspath $(COMMON_LIB)) && ar t $(abspath $(COMMON_LIB)) >names.txt
	@shared=$$(sort $(dir $@)names.txt | uniq -d); \
	  if [ -n "$$shared" ]; then echo "error: members of $(COMMON_LIB) share a name: $$shared" >&2; exit 1; fi
	@sed 's|^|$(dir $@)|' $(dir $@)names.txt >$@

$(COURSE_SYMBOLS): $(HARNESS_OBJS) $(REFERENCE_OBJS) $(COMMON_LIB) $(STUDENT_RULES)
	@bash $(STUDENT_RULES) course-symbols $@ $(COURSE_PAIRS) $(COMMON_LIB)

# The student's build links the student's objects, after every course object, checked by the
# link rule before and after; the solution build links the reference answer the same way.
$(BIN): $(HARNESS_OBJS) $(REFERENCE_OBJS) $(COMMON_MEMBERS) $(STUDENT_OBJS) $(COURSE_SYMBOLS)
	@bash $(STUDENT_RULES) link --course-symbols $(COURSE_SYMBOLS) --api '$(STUDENT_API)' $(STUDENT_PAIRS) || { rm -f $@; exit 1; }
	$(NVCC) -arch=$(ARCH) -o $@ $(HARNESS_OBJS) $(REFERENCE_OBJS) $$(cat $(COMMON_MEMBERS)) $(STUDENT_OBJS) $(EXTRA_LIBS) $(LDLIBS)
	@bash $(STUDENT_RULES) interposition --binary $@ --course-symbols $(COURSE_SYMBOLS) $(STUDENT_PAIRS) || { rm -f $@; exit 1; }

$(SOLUTION_BIN): $(HARNESS_OBJS) $(REFERENCE_OBJS) $(COMMON_MEMBERS) $(SOLUTION_OBJS)
	$(NVCC) -arch=$(ARCH) -o $@ $(HARNESS_OBJS) $(REFERENCE_OBJS) $$(cat $(COMMON_MEMBERS)) $(SOLUTION_OBJS) $(EXTRA_LIBS) $(LDLIBS)

# Tests link the harness (minus its main), the references and the reference answer in the
# student's slot; never the student's file, so `make test` proves the course's code whatever
# state the starter is in.
TEST_LINK_OBJS := $(filter-out %/main.cu.o,$(HARNESS_OBJS)) $(REFERENCE_OBJS) $(SOLUTION_OBJS) $(TEST_OBJS)
$(TEST_BIN): $(TEST_LINK_OBJS) $(TEST_MAIN) $(COMMON_LIB) | gtest-present
	$(NVCC) -arch=$(ARCH) -o $@ $^ $(EXTRA_LIBS) $(GTEST_LIBS) $(LDLIBS)

# Tests may need the exercise's own files at run time (e.g. sample inputs): this is where.
$(TEST_OBJS): CXXFLAGS += $(GTEST_CFLAGS) -DPMPP_EXERCISE_DIR='"$(CURDIR)"'
$(TEST_OBJS): NVCCFLAGS += $(GTEST_CFLAGS) -DPMPP_EXERCISE_DIR='"$(CURDIR)"'
$(TEST_OBJS): | gtest-present

# The sweeps behind NOTES.md: tune/NAME.cu is built into build/tune/NAME (`make tune` builds them
# all), linked with the objects of TUNE_SRCS (course sources a sweep calls but does not include)
# and the common library. tune/gpu_run.sh calls these targets, never an object's path.
TUNE_BINS := $(patsubst tune/%.cu,$(BUILD)/tune/%,$(wildcard tune/*.cu))
TUNE_OBJS := $(call obj,$(TUNE_SRCS))
$(BUILD)/tune/%: $(BUILD)/obj/tune/%.cu.o $(TUNE_OBJS) $(COMMON_LIB)
	@mkdir -p $(@D)
	$(NVCC) -arch=$(ARCH) -o $@ $< $(TUNE_OBJS) $(COMMON_LIB) $(EXTRA_LIBS) $(LDLIBS)
tune: $(TUNE_BINS)

# The common library is built by its own Makefile (one copy, shared by every exercise).
$(COMMON_LIB) $(TEST_MAIN): FORCE
	@$(MAKE) --no-print-directory -C $(COMMON_DIR) lib

.PHONY: all run test test-build clean help sanitize profile forbidden grading-info tune plot

all: $(BIN) $(SOLUTION_BIN)

# The use and include rules on the student's real objects and dependency files (built first):
# one "FORBIDDEN: " line per violation and a failing status, or one "forbidden: clean" line.
forbidden: $(STUDENT_OBJS)
	@bash $(STUDENT_RULES) forbidden --course-root $(COMMON_DIR)/.. --cuda-lib $(CUDA_PATH)/lib64 --cxx $(CXX) \
	  --forbid '$(FORBIDDEN_APIS)' --may-include '$(STUDENT_MAY_INCLUDE)' --may-call '$(STUDENT_MAY_CALL)' \
	  --solution '$(SOLUTION_SRCS)' $(STUDENT_PAIRS)

# What the grader (grading/run_all.sh) needs to know about this exercise, one KEY=value a line.
grading-info:
	@echo "EXERCISE=$(EXERCISE)"
	@echo "PROGRAM=$(PROGRAM)"
	@echo "STUDENT_SRCS=$(strip $(STUDENT_SRCS))"
	@echo "SOLUTION_SRCS=$(strip $(SOLUTION_SRCS))"
	@echo "FORBIDDEN_APIS=$(FORBIDDEN_APIS)"
	@echo "STUDENT_API=$(strip $(STUDENT_API))"
	@echo "STUDENT_MAY_INCLUDE=$(strip $(STUDENT_MAY_INCLUDE))"
	@echo "STUDENT_MAY_CALL=$(strip $(STUDENT_MAY_CALL))"
	@echo "NVCC=$(NVCC)"

# RUN_ARGS: extra harness options, e.g. make run RUN_ARGS="--size 2^24 --seed 7"
RUN_ARGS ?=
run: $(BIN) forbidden
	./$(BIN) --impl all --check --bench --json $(RESULTS) $(RUN_ARGS)

# make plot: the benchmark of a results file drawn as an image (tools/plot_results.cpp): one chart
# per section, throughput against size, the library dashed, the ceiling in red. PLOT_RESULTS is
# `make run`'s file unless given (e.g. PLOT_RESULTS=docs/h200_results.json); PLOT_ARGS passes
# --section TEXT, --metric gbs|items, --width PIXELS. A PPM where the build has no libpng.
PLOT_TOOL    := $(COMMON_DIR)/build/plot_results
PLOT_RESULTS ?= $(RESULTS)
PLOT_IMAGE   ?= $(BUILD)/bench.$(if $(PNG_LIBS),png,ppm)
PLOT_ARGS    ?=
$(PLOT_TOOL): FORCE
	@$(MAKE) --no-print-directory -C $(COMMON_DIR) build/plot_results
plot: $(PLOT_TOOL)
	@test -f $(PLOT_RESULTS) || { echo "make plot: there is no $(PLOT_RESULTS): make run writes it (the plot draws its benchmark)" >&2; exit 3; }
	@mkdir -p $(dir $(PLOT_IMAGE))
	$(PLOT_TOOL) $(PLOT_RESULTS) $(PLOT_IMAGE) $(PLOT_ARGS)

test-build: all $(TEST_BIN)

test: test-build
	@bash $(COMMON_DIR)/run_tests.sh $(TEST_BIN)

# compute-sanitizer on small sizes; any error fails the target.  IMPL=all checks the references too.
IMPL ?= student
CHECK_MAX_SIZE ?= 70000
SANITIZER ?= $(CUDA_PATH)/bin/compute-sanitizer
sanitize: $(BIN)
	@set -e; for tool in memcheck racecheck synccheck; do \
	  echo "== compute-sanitizer --tool $$tool"; \
	  $(SANITIZER) --tool $$tool --error-exitcode 99 --print-limit 20 \
	    ./$(BIN) --impl $(IMPL) --check --max-size $(CHECK_MAX_SIZE) --seed 1 $(RUN_ARGS); \
	done; echo "sanitize: memcheck, racecheck and synccheck found no errors"

# Nsight Compute on the kernels launched inside the student's NVTX range only.
NCU ?= $(CUDA_PATH)/bin/ncu
PROFILE_SIZE ?= 2^24
NCU_ARGS ?= --set full
profile: $(BIN)
	$(NCU) --clock-control none --nvtx --nvtx-include "impl:$(IMPL)/" $(NCU_ARGS) \
	  ./$(BIN) --impl $(IMPL) --bench --size $(PROFILE_SIZE) --repeats 1 --warmup 0 $(RUN_ARGS)

clean:
	rm -rf $(BUILD)

help:
	@echo "$(EXERCISE): targets"
	@echo "  make            build build/$(PROGRAM) (your code) and build/$(PROGRAM)_solution (the reference answer)"
	@echo "  make run        check every implementation, then benchmark them side by side"
	@echo "                  (RUN_ARGS='--size 2^24 --seed 7' passes harness options)"
	@echo "  make test       build and run the GoogleTest suite"
	@echo "  make plot       draw make run's benchmark as build/bench.png (PLOT_RESULTS=FILE draws another results file)"
	@echo "  make sanitize   compute-sanitizer memcheck, racecheck, synccheck on small sizes (IMPL=student|all)"
	@echo "  make profile    Nsight Compute on the kernels of IMPL (default student), size PROFILE_SIZE"
	@echo "  make tune       build the sweeps of tune/ (the course's measurements behind NOTES.md) into build/tune/"
	@echo "  make forbidden  does your code call, include or use only what this exercise allows? (forbidden libraries: $(or $(FORBIDDEN_APIS),none))"
	@echo "  make clean      remove build/"
	@echo "  ./$(BIN) --help  every harness option"
	@echo "Variables: ARCH=$(ARCH) CUDA_PATH=$(CUDA_PATH) NVCC=$(NVCC)"

# The headers each object was built from (-MMD), the sweeps' too: a changed variant rebuilds them.
-include $(sort $(ALL_OBJS:.o=.d) $(TUNE_OBJS:.o=.d) $(patsubst $(BUILD)/tune/%,$(BUILD)/obj/tune/%.cu.d,$(TUNE_BINS)))

endif
