#!/usr/bin/env python3
"""A single-node Slurm cluster for the grader's tests, made of Debian's slurm-wlm and munge, in a
folder of its own: nothing of the machine's configuration (/etc/slurm, /etc/munge, /run) is read
or changed, and every daemon is a background process of this one that stop() ends.

    cluster = SingleNodeSlurm(folder, gpus=2)   # writes slurm.conf, gres.conf, a munge key
    cluster.start()                             # munged, slurmctld, slurmd; waits for "idle"
    env = cluster.env()                         # SLURM_CONF for sbatch, squeue, scancel, sacct
    ...
    cluster.stop()                              # always (the tests call it in tearDownClass)

The node has `gpus` fake GPUs: gres "gpu" backed by character devices that are /dev/null, so a
job asking --gres=gpu:1 waits for one and gets CUDA_VISIBLE_DEVICES as on a real cluster. The
daemons run as the user who starts them (root in CI; another user works as well when the
ports are free), on ports chosen free at start.

As a program: `python3 slurm_cluster.py FOLDER` starts a cluster, prints the SLURM_CONF line
to export, and keeps it up until Ctrl-C (for trying run_all.sh --slurm by hand).

missing() says what is not installed (the tests skip with that reason)."""
from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from typing import Dict, List, Optional

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scancel", "sinfo")


def _find(name: str) -> Optional[str]:
    return shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/sbin/{name}") if os.access(p, os.X_OK)),
                                      None)


def missing() -> Optional[str]:
    """None when munge and Slurm are installed, else a sentence naming what is not."""
    absent = [n for n in DAEMONS + CLIENTS if _find(n) is None]
    if absent:
        return (f"no single-node Slurm here: {', '.join(absent)} not found (Debian: apt-get install slurm-wlm "
                "munge; .ci/run installs them)")
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SlurmError(RuntimeError):
    pass


class SingleNodeSlurm:
    def __init__(self, folder: str, gpus: int = 2, cpus: Optional[int] = None):
        self.folder = os.path.abspath(folder)
        self.gpus, self.cpus = gpus, cpus or max(2, os.cpu_count() or 2)
        self.node = socket.gethostname().split(".")[0]
        self.user = getpass.getuser()
        self.procs: Dict[str, subprocess.Popen] = {}
        self.conf = os.path.join(self.folder, "slurm.conf")
        self.socket = os.path.join(self.folder, "munge", "munge.socket")

    # -- configuration --

    def _write_configuration(self) -> None:
        for d in ("munge", "state", "spool", "log", "gpus"):
            os.makedirs(os.path.join(self.folder, d), mode=0o700, exist_ok=True)
        key = os.path.join(self.folder, "munge", "munge.key")
        if not os.path.exists(key):
            with open(key, "wb") as f:
                f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        devices = [self._fake_gpu(i) for i in range(self.gpus)]
        f = lambda *parts: os.path.join(self.folder, *parts)  # noqa: E731
        lines = [
            "# written by grading/tests/slurm_cluster.py: a single-node cluster for the grader's tests",
            "ClusterName=pmpp-test",
            f"SlurmctldHost={self.node}(127.0.0.1)",
            f"SlurmUser={self.user}",
            f"SlurmdUser={self.user}",
            f"SlurmctldPort={_free_port()}",
            f"SlurmdPort={_free_port()}",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.socket}",
            f"StateSaveLocation={f('state')}",
            f"SlurmdSpoolDir={f('spool')}",
            f"SlurmctldPidFile={f('slurmctld.pid')}",
            f"SlurmdPidFile={f('slurmd.pid')}",
            f"SlurmctldLogFile={f('log', 'slurmctld.log')}",
            f"SlurmdLogFile={f('log', 'slurmd.log')}",
            "SlurmctldDebug=info",
            "SlurmdDebug=info",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "SwitchType=switch/none",
            "SchedulerType=sched/backfill",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "ReturnToService=2",
            "MaxArraySize=10001",
            "KillWait=5",
            "InactiveLimit=0",
            "MinJobAge=600",
            "SlurmctldTimeout=30",
            "SlurmdTimeout=30",
            "GresTypes=gpu",
            f"NodeName={self.node} NodeAddr=127.0.0.1 CPUs={self.cpus} RealMemory=1000 Gres=gpu:{self.gpus} State=UNKNOWN",
            f"PartitionName=test Nodes={self.node} Default=YES MaxTime=INFINITE State=UP",
        ]
        with open(self.conf, "w") as out:
            out.write("\n".join(lines) + "\n")
        with open(os.path.join(self.folder, "gres.conf"), "w") as out:
            out.write("".join(f"NodeName={self.node} Name=gpu File={d}\n" for d in devices))

    def _fake_gpu(self, index: int) -> str:
        """A character device standing for GPU `index` (slurmd refuses a gres file that is not a
        device): a copy of /dev/null's node named nvidia<index> when this user may make one, else
        one of the harmless devices every Linux has."""
        path = os.path.join(self.folder, "gpus", f"nvidia{index}")
        if not os.path.exists(path):
            try:
                os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            except OSError:
                spare = ("/dev/null", "/dev/zero", "/dev/full", "/dev/urandom")
                if index >= len(spare):
                    raise SlurmError(f"cannot make {index + 1} fake GPUs without mknod (not root)")
                return spare[index]
        return path

    def env(self, base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        env = dict(os.environ if base is None else base)
        env["SLURM_CONF"] = self.conf
        return env

    # -- daemons --

    def _spawn(self, name: str, argv: List[str]) -> None:
        log = open(os.path.join(self.folder, "log", f"{name}.out"), "wb")
        self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            env=self.env(), start_new_session=True)
        log.close()

    def start(self, timeout: float = 90.0) -> None:
        """munged, slurmctld and slurmd in the foreground of their own sessions; returns when the
        node is idle, else stops what it started and raises SlurmError with the logs' ends."""
        self._write_configuration()
        try:
            m = os.path.join(self.folder, "munge")
            self._spawn("munged", [_find("munged"), "--foreground", "--force", f"--socket={self.socket}",
                                   f"--key-file={os.path.join(m, 'munge.key')}",
                                   f"--pid-file={os.path.join(m, 'munged.pid')}",
                                   f"--log-file={os.path.join(m, 'munged.log')}",
                                   f"--seed-file={os.path.join(m, 'munged.seed')}"])
            self._wait(lambda: os.path.exists(self.socket), 20, "munged's socket")
            self._spawn("slurmctld", [_find("slurmctld"), "-D", "-i", "-f", self.conf])
            self._spawn("slurmd", [_find("slurmd"), "-D", "-f", self.conf, "-N", self.node])
            self._wait(self.idle, timeout, f"node {self.node} idle")
        except BaseException:
            text = self.logs()
            self.stop()
            raise SlurmError(f"the single-node Slurm did not come up:\n{text}") from None

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, p in self.procs.items():
                if p.poll() is not None:
                    raise SlurmError(f"{name} ended with status {p.returncode}")
            if ready():
                return
            time.sleep(0.5)
        raise SlurmError(f"timed out after {timeout:g} s waiting for {what}")

    def idle(self) -> bool:
        try:
            p = subprocess.run([_find("sinfo"), "-h", "-N", "-o", "%T"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=self.env(), timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return p.returncode == 0 and p.stdout.strip() == "idle"

    def logs(self, lines: int = 15) -> str:
        out = []
        for name in ("munged.out", "slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"):
            path = os.path.join(self.folder, "log", name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    tail = f.read().splitlines()[-lines:]
                out.append(f"--- {name}\n" + "\n".join(tail))
        return "\n".join(out)

    def stop(self) -> None:
        """Every job cancelled, then slurmd, slurmctld and munged ended (SIGTERM, then SIGKILL to
        their whole sessions): whatever happened before."""
        if "slurmctld" in self.procs and self.procs["slurmctld"].poll() is None:
            try:
                subprocess.run([_find("scancel"), "--full", "--user", self.user], env=self.env(), timeout=20,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired):
                pass
        for name in ("slurmd", "slurmctld", "munged"):
            p = self.procs.pop(name, None)
            if p is None:
                continue
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(p.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                try:
                    p.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
            # What a job step left behind in slurmd's session died with the SIGKILL above.
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    why = missing()
    if why:
        print(why, file=sys.stderr)
        return 3
    cluster = SingleNodeSlurm(argv[0])
    cluster.start()
    print(f"up: export SLURM_CONF={cluster.conf}   (Ctrl-C stops it)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
