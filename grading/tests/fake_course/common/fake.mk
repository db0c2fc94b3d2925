# The stand-in for common/common.mk: the same variables, the same targets the grader uses.
BUILD := build
.DEFAULT_GOAL := all
.PHONY: all grading-info
all: $(BUILD)/$(PROGRAM) $(BUILD)/$(PROGRAM)_solution

grading-info:
	@echo "EXERCISE=$(EXERCISE)"
	@echo "PROGRAM=$(PROGRAM)"
	@echo "STUDENT_SRCS=$(strip $(STUDENT_SRCS))"
	@echo "SOLUTION_SRCS=$(strip $(SOLUTION_SRCS))"
	@echo "FORBIDDEN_APIS=$(FORBIDDEN_APIS)"
	@echo "NVCC=nvcc"

$(BUILD)/$(PROGRAM): $(HARNESS_SRCS) $(STUDENT_SRCS) ../common/fake_harness.py ../common/fake_build.py
	@mkdir -p $(BUILD)
	python3 ../common/fake_build.py $@ $(HARNESS_SRCS) -- $(STUDENT_SRCS)

$(BUILD)/$(PROGRAM)_solution: $(HARNESS_SRCS) $(SOLUTION_SRCS) ../common/fake_harness.py ../common/fake_build.py
	@mkdir -p $(BUILD)
	python3 ../common/fake_build.py $@ $(HARNESS_SRCS) -- $(SOLUTION_SRCS)
