"""The sandbox: when the grader runs as root, every process that runs a student's code (the build
of the student's files included) runs as an unprivileged user of its own, in a working copy that
user owns, and can reach neither the other students' trees, nor the submissions, nor the reports.

  ROOT/                      a fresh folder (--sandbox-dir, default /var/tmp), root's, mode 0711
    pmpp-grade-0/            one per worker slot (one student at a time), the user's, mode 0700
      tree/                  the student's working copy (a copy of the clean tree, adopted)
      out/run-N/             what one process writes for the grader: its results file, its
                             pictures, the sanitizer's report (read back by the grader)
      home/, tmp/            HOME, TMPDIR, CUDA_CACHE_PATH, XDG_CACHE_HOME

Each slot's user (pmpp-grade-0, pmpp-grade-1, ...: created with useradd when missing) is taken
under a lock, so two grading runs on one machine never share one. Sandbox.clean() runs before and
after each student: it kills every process of the user (setsid'd ones too: kill(-1, SIGKILL) sent
as that user, until /proc shows none), empties its folder and removes what the user owns in
/tmp, /var/tmp, /dev/shm, /dev/mqueue, the cron and at spools, and its SysV IPC objects.

The grader reads back only what a student's process left in out/, once every process of the user
is gone: regular files, owned by the user, with one link, of at most MAX_COPIED_BYTES, opened
without following a symbolic link anywhere below ROOT (copy_regular_file). lock_down() takes
every permission of "other" from the report and submission folders; the grader writes its
reports with umask 0o077. What is not fenced (the GPU itself, the network, CPU and memory) is
said in grading/README.md, "The sandbox".

The parts: the users and their locks (sandbox_users.py), the safe copy of what a process wrote
(safe_copy.py), the removal of what a user leaves behind (sandbox_cleanup.py).
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
from typing import Callable, Dict, Iterable, List, Optional

from .errors import SandboxError
from .safe_copy import DIR_FLAGS, MAX_COPIED_BYTES, MAX_COPIED_FILES, copy_regular_file, exists_at, open_beneath
from .sandbox_cleanup import kill_user, processes_of, remove_leftovers, unmount_below
from .sandbox_users import MAX_USERS, USER_PREFIX, claim_user, gpu_groups

# What the grader and the tests use of the sandbox and its parts.
__all__ = ["Fence", "Sandbox", "SandboxError", "check_sandbox_parent", "copy_regular_file", "processes_of",
           "unsupported", "MAX_COPIED_BYTES", "USER_PREFIX"]

CHILD_UMASK = 0o077
GRADER_UMASK = 0o077
# The grader's environment, less what points at root's private resources.
PRIVATE_VARIABLES = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
                     "KRB5CCNAME", "XAUTHORITY", "MAIL", "PWD", "OLDPWD", "SUDO_COMMAND")
# Variables that may hold a secret of the machine's (a CI job's token): a student's code could
# print them into its own log, which the student reads.
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|CREDENTIAL|API_?KEY|ACCESS_KEY|PRIVATE", re.I)


def unsupported() -> Optional[str]:
    """Why this Python cannot sandbox (subprocess's user=, group=, extra_groups=, umask= are 3.9's)."""
    if sys.version_info < (3, 9):
        return (f"the sandbox needs Python 3.9 or newer (subprocess's user= and group=); this is "
                f"{sys.version.split()[0]}: run the grader with a newer python3 (PYTHON=...), or pass --no-sandbox")
    return None


# ---- One slot's user and folder -----------------------------------------------------------------

class Sandbox:
    """One unprivileged user and its folder ROOT/<user>/ (tree/, out/, home/, tmp/)."""

    def __init__(self, user: str, uid: int, gid: int, groups: Iterable[int], root: str):
        self.user, self.uid, self.gid, self.groups = user, uid, gid, sorted(set(groups) - {gid})
        self.root = root
        self.folder = os.path.join(root, user)
        self.tree = os.path.join(self.folder, "tree")
        self.out = os.path.join(self.folder, "out")
        self.home = os.path.join(self.folder, "home")
        self.tmp = os.path.join(self.folder, "tmp")
        self._runs = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Sandbox({self.user}, uid {self.uid})"

    # -- running as the user --

    def popen_arguments(self) -> Dict[str, object]:
        """subprocess.Popen's arguments that run a process as the user: its uid and gid (real,
        effective and saved), only its own groups (never the grader's: extra_groups is always
        given, else the child would keep root's), umask 0o077."""
        return {"user": self.uid, "group": self.gid, "extra_groups": list(self.groups), "umask": CHILD_UMASK}

    def env(self, env: Dict[str, str]) -> Dict[str, str]:
        """The grader's environment for the user: its own HOME, TMPDIR and caches, in its folder."""
        out = {k: v for k, v in env.items() if k not in PRIVATE_VARIABLES and not SECRET_NAME.search(k)}
        out.update(HOME=self.home, TMPDIR=self.tmp, TMP=self.tmp, TEMP=self.tmp, USER=self.user, LOGNAME=self.user,
                   CUDA_CACHE_PATH=os.path.join(self.home, ".nv", "ComputeCache"),
                   XDG_CACHE_HOME=os.path.join(self.home, ".cache"))
        return out

    # -- its folder --

    def prepare(self) -> None:
        """ROOT/<user>/ and its home/, tmp/, out/, empty and the user's (tree/ is made by the grader)."""
        os.mkdir(self.folder, 0o700)
        os.chown(self.folder, self.uid, self.gid)
        for sub in (self.home, self.tmp, self.out):
            os.mkdir(sub, 0o700)
            os.chown(sub, self.uid, self.gid)

    def adopt(self, path: str) -> None:
        """Gives `path` and everything below it to the user (lchown: a link is never followed).
        Called on a tree the grader made, before any of the user's processes runs in it."""
        os.lchown(path, self.uid, self.gid)
        for directory, dirs, files in os.walk(path, followlinks=False):
            for name in dirs + files:
                os.lchown(os.path.join(directory, name), self.uid, self.gid)

    def new_run_folder(self, images: bool = False) -> str:
        """A fresh, empty folder of out/ for one process's results (and an images/ folder in it),
        the user's: nothing a process left in an earlier one can be taken for this one's."""
        out_fd = self._out_fd()
        try:
            while True:
                with self._lock:
                    self._runs += 1
                    name = f"run-{self._runs}"
                try:
                    os.mkdir(name, 0o700, dir_fd=out_fd)
                    break
                except FileExistsError:
                    continue  # planted by an earlier process: take the next name
            fd = os.open(name, DIR_FLAGS, dir_fd=out_fd)
            try:
                os.fchown(fd, self.uid, self.gid)
                if images:
                    os.mkdir("images", 0o700, dir_fd=fd)
                    sub = os.open("images", DIR_FLAGS, dir_fd=fd)
                    os.fchown(sub, self.uid, self.gid)
                    os.close(sub)
            finally:
                os.close(fd)
        finally:
            os.close(out_fd)
        return os.path.join(self.out, name)

    def _out_fd(self) -> int:
        """out/ of the folder, opened; remade if a process replaced it (a link, a file)."""
        folder = os.open(self.folder, DIR_FLAGS)
        try:
            try:
                return os.open("out", DIR_FLAGS, dir_fd=folder)
            except OSError:
                try:
                    os.unlink("out", dir_fd=folder)
                except FileNotFoundError:
                    pass
                os.mkdir("out", 0o700, dir_fd=folder)
                fd = os.open("out", DIR_FLAGS, dir_fd=folder)
                os.fchown(fd, self.uid, self.gid)
                return fd
        finally:
            os.close(folder)

    def _relative(self, path: str) -> str:
        rel = os.path.relpath(path, self.root)
        if rel.startswith("..") or not rel.startswith(self.user + "/"):
            raise ValueError(f"{path} is not in {self.folder}")
        return rel

    def collect_file(self, staged: str, dest: str) -> Optional[str]:
        """Copies the file a process wrote at `staged` (in out/) to `dest`; None, or why not. Call
        it once the user's processes are gone (kill_all)."""
        rel = self._relative(staged)
        folder, name = os.path.split(rel)
        try:
            fd = open_beneath(self.root, folder)
        except OSError as e:
            return f"its folder cannot be opened ({os.strerror(e.errno)}: a link?)"
        try:
            if not exists_at(fd, name):
                return "missing"
            return copy_regular_file(fd, name, dest, self.uid, MAX_COPIED_BYTES)
        finally:
            os.close(fd)

    def collect_folder(self, staged: str, dest: str) -> List[str]:
        """Copies the regular files of the folder `staged` (not below it) into the folder `dest`;
        returns what was left out and why."""
        try:
            fd = open_beneath(self.root, self._relative(staged))
        except OSError as e:
            return [f"{os.path.basename(staged)}/: cannot be opened ({os.strerror(e.errno)})"]
        left_out = []
        try:
            names = sorted(os.listdir(fd))
            for name in names[:MAX_COPIED_FILES]:
                why = copy_regular_file(fd, name, os.path.join(dest, name), self.uid, MAX_COPIED_BYTES)
                if why is not None:
                    left_out.append(f"{name}: {why}")
            left_out += [f"{name}: more than {MAX_COPIED_FILES} files" for name in names[MAX_COPIED_FILES:]]
        finally:
            os.close(fd)
        return left_out

    def keep_tree(self, dest: str) -> None:
        """A copy of the user's tree at `dest` (--keep-trees): links copied as links, never
        followed; only regular files. Call it once the user's processes are gone."""
        def regular_only(src: str, dst: str) -> None:
            if stat.S_ISREG(os.lstat(src).st_mode):
                shutil.copy2(src, dst, follow_symlinks=False)

        if os.path.isdir(self.tree) and not os.path.islink(self.tree):
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(self.tree, dest, symlinks=True, copy_function=regular_only)

    # -- its processes --

    def processes(self) -> List[int]:
        """The live processes whose real, effective, saved or file-system uid is the user's."""
        return processes_of({self.uid})

    def kill_all(self) -> None:
        """Kills every process of the user, those that left their process group or session too:
        a tiny program run as the user sends kill(-1, SIGKILL), again until /proc shows none."""
        kill_user(self.user, self.uid, self.gid)

    def clean(self) -> None:
        """Before and after each student: no process of the user, an empty folder, nothing the
        user owns left in the shared temporary folders and spools, no SysV IPC object of its."""
        self.kill_all()
        unmount_below(self.folder)
        if os.path.lexists(self.folder):
            shutil.rmtree(self.folder)  # ROOT is root's: the folder itself cannot be a link
        self.prepare()
        remove_leftovers(self.uid)


# ---- The grading run's decision and its slots -----------------------------------------------------

def check_sandbox_parent(folder: str) -> None:
    """The sandbox's folder lives in `folder`: every folder from / down to it must let other
    users pass (x), and none may let others replace what is below it (writable without the
    sticky bit, as /tmp has it)."""
    path = os.path.abspath(folder)
    if not os.path.isdir(path):
        raise SandboxError(f"--sandbox-dir: no folder {path}")
    current = path
    while True:
        st = os.stat(current)
        if not st.st_mode & stat.S_IXOTH:
            raise SandboxError(f"the sandbox folder must be reachable by its users: {current} is mode "
                               f"{stat.S_IMODE(st.st_mode):04o}, not traversable by others (chmod o+x {current}, "
                               "or choose another folder with --sandbox-dir DIR)")
        if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
            raise SandboxError(f"the sandbox folder must not be replaceable: {current} is writable by every user "
                               "without the sticky bit (choose another folder with --sandbox-dir DIR)")
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


class Fence:
    """Whether this grading run sandboxes the students' code (as root, unless --no-sandbox), its
    folder, and one Sandbox per worker slot."""

    def __init__(self, enabled: bool, off_reason: str = "", parent: Optional[str] = None,
                 say: Callable[[str], None] = print):
        self.enabled, self.off_reason = enabled, off_reason
        self.parent = parent or "/var/tmp"
        self.say = say
        self.root: Optional[str] = None
        self.sandboxes: List[Sandbox] = []
        self._locks: List[int] = []
        self._locked_paths: set = set()
        self._lock = threading.Lock()

    @classmethod
    def decide(cls, no_sandbox: bool, sandbox_dir: Optional[str], say: Callable[[str], None]) -> "Fence":
        if os.geteuid() != 0:
            return cls(False, "off: the grader is not root", say=say)
        if no_sandbox:
            say("warning: --no-sandbox: the students' code runs as root: it can read and change every file "
                "(other students' submissions and reports included) and stop the grader")
            return cls(False, "off: --no-sandbox", say=say)
        problem = unsupported()
        if problem:
            raise SandboxError(problem)
        parent = os.path.abspath(sandbox_dir or "/var/tmp")
        check_sandbox_parent(parent)
        return cls(True, parent=parent, say=say)

    def description(self, sandbox: Optional[Sandbox]) -> str:
        """What the reports say: "user pmpp-grade-0", or why there was no sandbox."""
        if sandbox is not None:
            return f"user {sandbox.user}"
        return self.off_reason or "off: this grading ran without a sandbox"

    def new_slot(self) -> Sandbox:
        """A sandbox for one worker slot: the first pmpp-grade-N no other grading run holds."""
        with self._lock:
            if self.root is None:
                self.root = tempfile.mkdtemp(prefix="pmpp-sandbox-", dir=self.parent)
                os.chmod(self.root, 0o711)
                atexit.register(self.close)
            claimed = claim_user({s.user for s in self.sandboxes}, self.say)
            if claimed is None:
                raise SandboxError(f"every one of {USER_PREFIX}0..{MAX_USERS - 1} is taken by other grading runs")
            fd, entry = claimed
            try:
                groups = gpu_groups(self.say)
            except BaseException:
                os.close(fd)
                raise
            sandbox = Sandbox(entry.pw_name, entry.pw_uid, entry.pw_gid, groups, self.root)
            self._locks.append(fd)
            self.sandboxes.append(sandbox)
            sandbox.clean()
            return sandbox

    def lock_down(self, paths: Iterable[str]) -> None:
        """Takes every permission of "other" from each folder (and of its group, where that is a
        group of the sandbox's users), once, saying so: the report folder (OUT/base, the clean
        tree, is in it) and the submissions."""
        groups = {g for s in self.sandboxes for g in [s.gid] + s.groups}
        with self._lock:
            for path in paths:
                path = os.path.abspath(path)
                if path in self._locked_paths or not os.path.isdir(path):
                    continue
                st = os.stat(path)
                mode = stat.S_IMODE(st.st_mode) & ~0o007
                if st.st_gid in groups:
                    mode &= ~0o070
                if mode != stat.S_IMODE(st.st_mode):
                    os.chmod(path, mode)
                    self.say(f"sandbox: {path} closed to other users (mode {mode:04o})")
                self._locked_paths.add(path)

    def close(self) -> None:
        """Every slot cleaned (no process left), the sandbox's folder removed, the locks freed."""
        with self._lock:
            for sandbox in self.sandboxes:
                try:
                    sandbox.kill_all()
                except SandboxError as e:
                    self.say(f"warning: {e}")
            if self.root is not None:
                for sandbox in self.sandboxes:
                    remove_leftovers(sandbox.uid)
                unmount_below(self.root)
                shutil.rmtree(self.root, ignore_errors=True)
                self.root = None
            self.sandboxes = []
            for fd in self._locks:
                os.close(fd)
            self._locks = []

