# The stand-in for common/common.mk: the same variables, the same targets the grader uses.
BUILD := build
STUDENT_OBJS := $(addprefix $(BUILD)/obj/,$(addsuffix .o,$(notdir $(STUDENT_SRCS))))
.DEFAULT_GOAL := all
.PHONY: all grading-info forbidden
all: $(BUILD)/$(PROGRAM) $(BUILD)/$(PROGRAM)_solution

grading-info:
	@echo "EXERCISE=$(EXERCISE)"
	@echo "PROGRAM=$(PROGRAM)"
	@echo "STUDENT_SRCS=$(strip $(STUDENT_SRCS))"
	@echo "SOLUTION_SRCS=$(strip $(SOLUTION_SRCS))"
	@echo "FORBIDDEN_APIS=$(FORBIDDEN_APIS)"
	@echo "NVCC=nvcc"

# As common.mk's: the check reads what the student's build made (its objects), in every
# exercise, FORBIDDEN_APIS or not. It builds nothing: run after the build, it reads this
# build's objects; run before, it would read none (or the starter's).
forbidden:
	@bash ../common/forbidden_api.sh --forbid "$(FORBIDDEN_APIS)" $(STUDENT_OBJS)

$(BUILD)/$(PROGRAM): $(HARNESS_SRCS) $(STUDENT_SRCS) ../common/fake_harness.py ../common/fake_build.py
	@mkdir -p $(BUILD)
	python3 ../common/fake_build.py $@ $(HARNESS_SRCS) -- $(STUDENT_SRCS)

$(BUILD)/$(PROGRAM)_solution: $(HARNESS_SRCS) $(SOLUTION_SRCS) ../common/fake_harness.py ../common/fake_build.py
	@mkdir -p $(BUILD)
	python3 ../common/fake_build.py $@ $(HARNESS_SRCS) -- $(SOLUTION_SRCS)
