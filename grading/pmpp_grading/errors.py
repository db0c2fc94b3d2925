"""The exceptions more than one module of the grader raises: UsageError, for a bad command line
or a folder that cannot be graded as asked (run_all.sh prints it and exits 2), and
SandboxError, for a sandbox that cannot be set up or kept (sandbox.py and its parts)."""


class UsageError(Exception):
    pass


class SandboxError(RuntimeError):
    """The sandbox cannot be set up or kept (its message says what to do)."""
