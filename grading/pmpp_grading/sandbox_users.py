"""The sandbox's users and their locks: one unprivileged user per worker slot, pmpp-grade-0,
pmpp-grade-1, ... (created with useradd when missing, and printed then), each taken under a
lock in a root-only folder, so two grading runs on one machine never share one (claim_user);
and the groups that open the GPU's device files where those are not world read-write."""
from __future__ import annotations

import fcntl
import glob
import os
import pwd
import shutil
import stat
import subprocess
from typing import Callable, Collection, List, Optional, Tuple

from .errors import SandboxError

USER_PREFIX = "pmpp-grade-"
MAX_USERS = 64                    # slots a machine may have (a batch takes one per GPU)
LOCK_DIRS = ("/run/lock", "/var/lock")


def lock_dir() -> str:
    """A root-only folder for the slots' locks (a student cannot open them, so cannot hold one)."""
    parent = next((d for d in LOCK_DIRS if os.path.isdir(d)), "/var/tmp")
    folder = os.path.join(parent, "pmpp-grading")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o077:
        raise SandboxError(f"{folder} must be a folder of root's, mode 0700 (it holds the sandbox's locks)")
    return folder


def nologin() -> str:
    return next((s for s in ("/usr/sbin/nologin", "/sbin/nologin") if os.path.exists(s)), "/bin/false")


def ensure_user(name: str, say: Callable[[str], None]) -> pwd.struct_passwd:
    """The user `name`, created with useradd (a system user: no home, no login shell, a group of
    its own) when missing, and printed then. Refuses an account that is not safe to run as."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        useradd = shutil.which("useradd") or ("/usr/sbin/useradd" if os.path.exists("/usr/sbin/useradd") else None)
        if useradd is None:
            raise SandboxError(f"no user {name}, and no useradd to create it: create it (a system user with a "
                               "group of its own), or pass --no-sandbox") from None
        p = subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                            nologin(), "--user-group", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if p.returncode != 0:
            raise SandboxError(f"useradd {name} failed: {p.stdout.strip()}")
        entry = pwd.getpwnam(name)
        say(f"sandbox: created user {name} (uid {entry.pw_uid}, group {entry.pw_gid})")
    if entry.pw_uid == 0 or entry.pw_gid == 0:
        raise SandboxError(f"user {name} has uid {entry.pw_uid} and gid {entry.pw_gid}: the sandbox's users must not "
                           "be root's (remove the account, the grader creates it again)")
    sharing = [p.pw_name for p in pwd.getpwall() if p.pw_uid == entry.pw_uid and p.pw_name != name]
    if sharing:
        raise SandboxError(f"user {name}'s uid {entry.pw_uid} is also {', '.join(sharing)}'s: the sandbox's users "
                           "must have uids of their own")
    return entry


def gpu_groups(say: Callable[[str], None]) -> List[int]:
    """The groups that open the GPU's device files (/dev/nvidia0, /dev/nvidiactl, ...) where
    they are not world read-write (they usually are)."""
    groups = set()
    for path in sorted(glob.glob("/dev/nvidia*")):
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISCHR(st.st_mode) or st.st_mode & 0o006 == 0o006:
            continue
        if st.st_gid == 0:
            say(f"warning: {path} is not read-write for every user and its group is root: the sandbox's users "
                "cannot use it (give it a group, or make it world read-write)")
        else:
            groups.add(st.st_gid)
    return sorted(groups)


def claim_user(taken: Collection[str], say: Callable[[str], None]) -> Optional[Tuple[int, pwd.struct_passwd]]:
    """The first pmpp-grade-N that is not in `taken` (this run's) and whose lock no other grading
    run holds: its lock's open descriptor (held until closed) and its account (ensure_user).
    None when every one of the MAX_USERS is taken."""
    locks = lock_dir()
    for n in range(MAX_USERS):
        name = f"{USER_PREFIX}{n}"
        if name in taken:
            continue
        fd = os.open(os.path.join(locks, name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # another grading run's
        try:
            return fd, ensure_user(name, say)
        except BaseException:
            os.close(fd)
            raise
    return None
