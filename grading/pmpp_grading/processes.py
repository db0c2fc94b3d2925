"""One process under a timeout, in its own process group (run_process), and the stop request
every worker shares (StopSignal): on a timeout, or when the grading run is stopped (Ctrl-C,
SIGTERM), the whole group is killed, a hung kernel's process and everything it started; one
run's CancelScope also kills that run alone. The log of such a process starts with its command
line; log_lines and log_tail read it without."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Set

from .sandbox import Sandbox


class Interrupted(Exception):
    """The grading run was asked to stop (Ctrl-C, SIGTERM): what is not graded stays 'not run'."""


class StopSignal:
    """Shared by every worker: the stop request and the process groups running now."""

    def __init__(self):
        self.event = threading.Event()
        self._procs: Set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def add(self, p: subprocess.Popen) -> None:
        with self._lock:
            self._procs.add(p)
        if self.event.is_set():
            kill_group(p)

    def remove(self, p: subprocess.Popen) -> None:
        with self._lock:
            self._procs.discard(p)

    def stop(self) -> None:
        self.event.set()
        with self._lock:
            procs = list(self._procs)
        for p in procs:
            kill_group(p)

    def check(self) -> None:
        if self.event.is_set():
            raise Interrupted()


class CancelScope:
    """The grading's StopSignal as one run sees it, which can also be cancelled on its own (a
    sanitizer run started before the check it depends on ended, which then failed): run_process
    takes it for a StopSignal. The grading's stop still stops the run and raises Interrupted;
    cancel() only kills the run's process group (now, or as soon as it starts), raising nothing:
    the run ends as a killed process, whose outcome the caller discards."""

    def __init__(self, stop: StopSignal):
        self.stop = stop
        self.event = stop.event  # the grading's stop request, as a StopSignal's
        self.cancelled = False
        self._procs: Set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def add(self, p: subprocess.Popen) -> None:
        self.stop.add(p)
        with self._lock:
            self._procs.add(p)
            cancelled = self.cancelled
        if cancelled:
            kill_group(p)

    def remove(self, p: subprocess.Popen) -> None:
        with self._lock:
            self._procs.discard(p)
        self.stop.remove(p)

    def check(self) -> None:
        self.stop.check()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            procs = list(self._procs)
        for p in procs:
            kill_group(p)


def kill_group(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class ProcessResult:
    returncode: Optional[int]
    timed_out: bool
    wall_s: float


def run_process(argv: List[str], cwd: str, env: Dict[str, str], timeout: float, log_path: str,
                stop: StopSignal, sandbox: Optional[Sandbox] = None) -> ProcessResult:
    """Runs argv in its own process group, output to log_path. On timeout the whole group is
    killed (a hung kernel's process and anything it started); so is anything left behind after
    the program ends. Raises Interrupted when the grading run is being stopped.
    With a sandbox it runs as the sandbox's user, in its environment; the log is opened here, by
    the grader, and the child only inherits the descriptor. What left the process group (setsid)
    is the caller's to kill (Sandbox.kill_all), once no other process of the user must run."""
    stop.check()
    extra: Dict[str, object] = {}
    if sandbox is not None:
        env = sandbox.env(env)
        extra = sandbox.popen_arguments()
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    t0 = time.monotonic()
    with open(log_path, "wb") as log:
        log.write(("$ " + " ".join(argv) + "\n").encode())
        log.flush()
        try:
            p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True, **extra)
        except OSError as e:
            log.write(f"cannot start: {e}\n".encode())
            return ProcessResult(None, False, 0.0)
        stop.add(p)
        timed_out = False
        try:
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_group(p)
                rc = p.wait()
        finally:
            kill_group(p)
            stop.remove(p)
    stop.check()
    return ProcessResult(None if timed_out else rc, timed_out, time.monotonic() - t0)


def log_lines(path: str) -> List[str]:
    """A log's lines without the command line run_process writes first ("$ make ...")."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return []
    return text[1:] if text and text[0].startswith("$ ") else text


def log_tail(path: str, lines: int = 25) -> str:
    """The end of a short log (a check's own words need not say "error")."""
    return "\n".join(log_lines(path)[-lines:])

