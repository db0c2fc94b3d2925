"""The one exception every module of the grader may raise for a bad command line or a folder
that cannot be graded as asked: run_all.sh prints it and exits 2."""


class UsageError(Exception):
    pass
