#error "a submission's copy of common/ must never be compiled: the grader takes only STUDENT_SRCS"
