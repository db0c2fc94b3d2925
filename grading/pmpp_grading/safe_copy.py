"""The safe copy of what a student's process wrote: the grader reads back only regular files,
owned by the sandbox's user, with one link, of at most MAX_COPIED_BYTES, opened without
following a symbolic link anywhere below the sandbox's root folder (open_beneath, then
copy_regular_file). Everything below that root may be the student's: a link planted there
must never lead the grader (root) to a file the student could not read."""
from __future__ import annotations

import errno
import os
import stat
from typing import Optional

MAX_COPIED_BYTES = 64 << 20       # a results file, a picture, a sanitizer report
MAX_COPIED_FILES = 256            # files of one pictures folder
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def open_beneath(trusted: str, relative: str, flags: int = DIR_FLAGS) -> int:
    """Opens trusted/relative without following a symbolic link in any part of `relative` (the
    trusted folder is root's; everything below it may be the student's). Raises OSError."""
    names = [n for n in relative.split("/") if n]
    if not names or any(n in (".", "..") for n in names):
        raise OSError(errno.EINVAL, f"not a path below {trusted}", relative)
    fd = os.open(trusted, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in names[:-1]:
            below = os.open(name, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = below
        return os.open(names[-1], flags | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
    finally:
        os.close(fd)


def copy_regular_file(dir_fd: int, name: str, dest: str, owner: Optional[int] = None,
                      limit: int = MAX_COPIED_BYTES) -> Optional[str]:
    """Copies the file `name` of the open folder `dir_fd` to `dest` (the grader's, written anew).
    Returns None when copied, else why not: a symbolic link (never followed), anything but a
    regular file (a FIFO is never read: it is opened without blocking and refused), a file
    owned by another user than `owner` or with more than one link (a hard link to a file the
    student could not read), or one larger than `limit`."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as e:
        return "a symbolic link" if e.errno == errno.ELOOP else f"cannot open it ({os.strerror(e.errno)})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file"
        if owner is not None and st.st_uid != owner:
            return f"owned by uid {st.st_uid}, not the sandbox's user"
        if st.st_nlink != 1:
            return f"a file with {st.st_nlink} links"
        if st.st_size > limit:
            return f"{st.st_size} bytes, more than {limit}"
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
        if len(data) > limit:
            return f"more than {limit} bytes"
    finally:
        os.close(fd)
    tmp = dest + ".copying"
    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(out, view):]
    finally:
        os.close(out)
    os.replace(tmp, dest)
    return None


def exists_at(dir_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False
