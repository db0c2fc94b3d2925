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
"""
from __future__ import annotations

import atexit
import errno
import fcntl
import glob
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable, Dict, Iterable, List, Optional

USER_PREFIX = "pmpp-grade-"
MAX_USERS = 64                    # slots a machine may have (a batch takes one per GPU)
MAX_COPIED_BYTES = 64 << 20       # a results file, a picture, a sanitizer report
MAX_COPIED_FILES = 256            # files of one pictures folder
CHILD_UMASK = 0o077
GRADER_UMASK = 0o077
KILL_DEADLINE_S = 30.0
# Where a user may leave files that outlive its processes (world-writable, or the user's own
# spool entries: a crontab or an at job would run as this user during the next student's turn).
CLEANED_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/var/spool/cron/crontabs",
                "/var/spool/cron/atjobs", "/var/spool/cron/atspool")
LOCK_DIRS = ("/run/lock", "/var/lock")
# The grader's environment, less what points at root's private resources.
PRIVATE_VARIABLES = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
                     "KRB5CCNAME", "XAUTHORITY", "MAIL", "PWD", "OLDPWD", "SUDO_COMMAND")
# Variables that may hold a secret of the machine's (a CI job's token): a student's code could
# print them into its own log, which the student reads.
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|CREDENTIAL|API_?KEY|ACCESS_KEY|PRIVATE", re.I)
# Run as the sandbox's user: kill(-1) signals every process that user may signal, but itself,
# at once (a loop over /proc could lose to a process that forks). The shell's own kill: every
# user can run /bin/sh (the grader's python may live where the user cannot reach it).
KILLER = ["/bin/sh", "-c", "kill -9 -1"]


class SandboxError(RuntimeError):
    """The sandbox cannot be set up or kept (its message says what to do)."""


def unsupported() -> Optional[str]:
    """Why this Python cannot sandbox (subprocess's user=, group=, extra_groups=, umask= are 3.9's)."""
    if sys.version_info < (3, 9):
        return (f"the sandbox needs Python 3.9 or newer (subprocess's user= and group=); this is "
                f"{sys.version.split()[0]}: run the grader with a newer python3 (PYTHON=...), or pass --no-sandbox")
    return None


# ---- Reading back what a student's process wrote ------------------------------------------------

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
            if not _exists_at(fd, name):
                return "missing"
            return copy_regular_file(fd, name, dest, self.uid)
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
                why = copy_regular_file(fd, name, os.path.join(dest, name), self.uid)
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
        deadline = time.monotonic() + KILL_DEADLINE_S
        pause = 0.005
        while True:
            left = self.processes()
            if not left:
                return
            if time.monotonic() > deadline:
                raise SandboxError(f"processes of {self.user} survive SIGKILL for {KILL_DEADLINE_S:g} s: "
                                   f"{', '.join(map(str, left[:10]))}")
            subprocess.run(KILLER, cwd="/", env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, user=self.uid, group=self.gid,
                           extra_groups=[], timeout=60)
            time.sleep(pause)
            pause = min(0.1, pause * 2)

    def clean(self) -> None:
        """Before and after each student: no process of the user, an empty folder, nothing the
        user owns left in the shared temporary folders and spools, no SysV IPC object of its."""
        self.kill_all()
        _unmount_below(self.folder)
        if os.path.lexists(self.folder):
            shutil.rmtree(self.folder)  # ROOT is root's: the folder itself cannot be a link
        self.prepare()
        for directory in CLEANED_DIRS:
            _remove_owned(directory, self.uid, depth=4)
        _remove_ipc(self.uid)


def processes_of(uids: Iterable[int]) -> List[int]:
    """The live processes (not zombies: a zombie holds nothing but its pid) any of whose real,
    effective, saved or file-system uids is one of `uids`."""
    wanted = set(uids)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                status = f.read()
        except OSError:
            continue  # gone meanwhile
        ids, state = set(), ""
        for line in status.splitlines():
            if line.startswith("Uid:"):
                ids = {int(x) for x in line.split()[1:]}
            elif line.startswith("State:"):
                state = line.split()[1]
        if ids & wanted and state != "Z":
            found.append(int(entry))
    return found


def _exists_at(dir_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False


def _unmount_below(folder: str) -> None:
    """Detaches file systems mounted below `folder` (a FUSE mount of a killed process)."""
    try:
        with open("/proc/self/mountinfo") as f:
            points = [line.split()[4] for line in f if len(line.split()) > 4]
    except OSError:
        return
    for point in sorted((p for p in points if p.startswith(folder + "/")), key=len, reverse=True):
        subprocess.run(["umount", "-l", point], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _remove_owned(directory: str, uid: int, depth: int) -> None:
    """Removes what `uid` owns in `directory`, and in its folders that others may write to."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        try:
            if st.st_uid == uid:
                if stat.S_ISDIR(st.st_mode):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            elif stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH and depth > 0:
                _remove_owned(entry.path, uid, depth - 1)
        except OSError:
            pass


def _remove_ipc(uid: int) -> None:
    """Removes the SysV shared memory segments, semaphore sets and message queues `uid` owns or made."""
    ipcrm = shutil.which("ipcrm")
    for kind, option in (("shm", "-m"), ("sem", "-s"), ("msg", "-q")):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        if len(lines) < 2 or ipcrm is None:
            continue
        header = lines[0].split()
        try:
            ident, owner, creator = header.index(kind + "id" if kind != "msg" else "msqid"), header.index("uid"), \
                header.index("cuid")
        except ValueError:
            continue
        for line in lines[1:]:
            fields = line.split()
            if len(fields) > max(ident, owner, creator) and uid in (int(fields[owner]), int(fields[creator])):
                subprocess.run([ipcrm, option, fields[ident]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# ---- The users ----------------------------------------------------------------------------------

def _lock_dir() -> str:
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


def _nologin() -> str:
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
                            _nologin(), "--user-group", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
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
            taken = {s.user for s in self.sandboxes}
            locks = _lock_dir()
            groups = None
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
                    entry = ensure_user(name, self.say)
                    if groups is None:
                        groups = gpu_groups(self.say)
                except BaseException:
                    os.close(fd)
                    raise
                sandbox = Sandbox(name, entry.pw_uid, entry.pw_gid, groups, self.root)
                self._locks.append(fd)
                self.sandboxes.append(sandbox)
                sandbox.clean()
                return sandbox
            raise SandboxError(f"every one of {USER_PREFIX}0..{MAX_USERS - 1} is taken by other grading runs")

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
                    _remove_owned_everywhere(sandbox)
                _unmount_below(self.root)
                shutil.rmtree(self.root, ignore_errors=True)
                self.root = None
            self.sandboxes = []
            for fd in self._locks:
                os.close(fd)
            self._locks = []


def _remove_owned_everywhere(sandbox: Sandbox) -> None:
    for directory in CLEANED_DIRS:
        _remove_owned(directory, sandbox.uid, depth=4)
    _remove_ipc(sandbox.uid)
