// Bad submission for the grader's GPU check: besides a correct saxpy_student.cu (the reference
// answer, added by make_submissions.py), it "edits the harness", the Makefile and a common
// header. None of them may be used: had the grader taken any, the build would fail.
// Expected: full marks on 01_saxpy and 02_scan.
#error "a submission's harness must never be compiled: the grader takes only STUDENT_SRCS"
