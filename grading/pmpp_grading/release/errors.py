"""The release's exceptions and its exit statuses (grading/README.md, "The student release")."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class ReleaseError(RuntimeError):
    """A release that cannot be made as asked (a bad command line, release.ini or course)."""


class BuildFailed(ReleaseError):
    """The reference objects, or the copy itself, do not build."""

