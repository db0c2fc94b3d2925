"""What a sandbox's user leaves behind, removed: every process of the user (kill_user's
processes: those that left their process group or session too), file systems mounted below its
folder, what it owns in the shared temporary folders and spools (a crontab or an at job would
run as this user during the next student's turn) and its SysV IPC objects (remove_leftovers)."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import time
from typing import Iterable, List

from .errors import SandboxError

KILL_DEADLINE_S = 30.0
# Where a user may leave files that outlive its processes (world-writable, or the user's own
# spool entries: a crontab or an at job would run as this user during the next student's turn).
CLEANED_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/var/spool/cron/crontabs",
                "/var/spool/cron/atjobs", "/var/spool/cron/atspool")
# Run as the sandbox's user: kill(-1) signals every process that user may signal, but itself,
# at once (a loop over /proc could lose to a process that forks). The shell's own kill: every
# user can run /bin/sh (the grader's python may live where the user cannot reach it).
KILLER = ["/bin/sh", "-c", "kill -9 -1"]


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


def kill_user(user: str, uid: int, gid: int) -> None:
    """Kills every process of the user, those that left their process group or session too:
    a tiny program run as the user sends kill(-1, SIGKILL), again until /proc shows none."""
    deadline = time.monotonic() + KILL_DEADLINE_S
    pause = 0.005
    while True:
        left = processes_of({uid})
        if not left:
            return
        if time.monotonic() > deadline:
            raise SandboxError(f"processes of {user} survive SIGKILL for {KILL_DEADLINE_S:g} s: "
                               f"{', '.join(map(str, left[:10]))}")
        subprocess.run(KILLER, cwd="/", env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, user=uid, group=gid,
                       extra_groups=[], timeout=60)
        time.sleep(pause)
        pause = min(0.1, pause * 2)


def unmount_below(folder: str) -> None:
    """Detaches file systems mounted below `folder` (a FUSE mount of a killed process)."""
    try:
        with open("/proc/self/mountinfo") as f:
            points = [line.split()[4] for line in f if len(line.split()) > 4]
    except OSError:
        return
    for point in sorted((p for p in points if p.startswith(folder + "/")), key=len, reverse=True):
        subprocess.run(["umount", "-l", point], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def remove_owned(directory: str, uid: int, depth: int) -> None:
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
                remove_owned(entry.path, uid, depth - 1)
        except OSError:
            pass


def remove_ipc(uid: int) -> None:
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


def remove_leftovers(uid: int) -> None:
    """Removes what `uid` owns in the shared temporary folders and spools, and its SysV IPC objects."""
    for directory in CLEANED_DIRS:
        remove_owned(directory, uid, depth=4)
    remove_ipc(uid)
