"""The context of one grading run: its Settings (the rubric, the seed, the stop request, the
limits and make's options), the environment its processes get (run_env: one GPU, make's flags
dropped) and what the grader knows of the machine before any harness ran (gpu_environment, and
gpu_memory_gib for default_untimed_slots: how many untimed parts may run at once)."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, Optional

from .processes import StopSignal
from .rubric import Part, Rubric
from .toolchain import make_env, nvcc_release
from .untimed import TaskTimes


@dataclass
class Settings:
    rubric: Rubric
    seed: int
    stop: StopSignal
    progress: Callable[[str, str], None]
    timeout: Optional[float] = None        # overrides every part's timeout
    build_timeout: Optional[float] = None
    make: str = "make"
    arch: Optional[str] = None
    make_jobs: int = 2                     # make -j of one build
    build_slots: int = 1                   # exercises built at once for one student
    untimed_slots: int = 1                 # check and sanitizer processes run at once
    # the untimed tasks' times, longest first in the next submission's pool (one batch's workers share it)
    untimed_times: TaskTimes = field(default_factory=TaskTimes)

    def part_timeout(self, part: Part) -> float:
        return self.timeout if self.timeout is not None else part.timeout

    def build_time_limit(self) -> float:
        return self.build_timeout if self.build_timeout is not None else self.rubric.defaults.build_timeout


# default_untimed_slots: at most this many untimed parts at once, one per this much GPU memory.
MAX_UNTIMED_SLOTS = 8
GIB_PER_UNTIMED_SLOT = 16


def default_untimed_slots(cores: int, memory_gib: Optional[float]) -> int:
    """The untimed processes (checks, sanitizer runs) that run at once for one
    student when --untimed-parallel does not say: half the student's cores, one per 16 GiB of
    its GPU's memory, at most 8, at least 1; 1 when the memory is unknown. The memory bounds it
    because the harness skips a case that does not fit the free memory: neighbours crowding a
    16 GB card would make a student's score depend on them (a check alone fits in 16 GB, as on
    a T4)."""
    if memory_gib is None or not memory_gib > 0:
        return 1
    return max(1, min(cores // 2, int(memory_gib // GIB_PER_UNTIMED_SLOT), MAX_UNTIMED_SLOTS))


def gpu_memory_gib(gpu: Optional[str]) -> Optional[float]:
    """The memory of GPU `gpu` (an nvidia-smi index or UUID; None: the first GPU, which a process
    without CUDA_VISIBLE_DEVICES uses) in GiB, from nvidia-smi; None when it cannot say."""
    query = ["nvidia-smi", "--query-gpu=memory.total", "--format=csv,noheader,nounits"]
    if gpu is not None:
        query += ["-i", str(gpu)]
    try:
        p = subprocess.run(query, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = p.stdout.split() if p.returncode == 0 else []
    try:
        mib = float(lines[0])
    except (IndexError, ValueError):  # no GPU, "[N/A]"
        return None
    return mib / 1024 if mib > 0 else None


def least_gpu_memory_gib(gpus: Iterable[Optional[str]], memory=gpu_memory_gib) -> Optional[float]:
    """The smallest memory of `gpus` (the GPUs a batch's workers grade on share one Settings);
    None when any cannot be read."""
    sizes = [memory(g) for g in gpus]
    return None if not sizes or any(s is None for s in sizes) else min(sizes)


def run_env(gpu: Optional[str]) -> Dict[str, str]:
    env = make_env()  # a calling make's flags (make grade, make test) must not reach the builds
    env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"  # the numbering nvidia-smi uses
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = str(gpu)
    return env


def gpu_environment(gpu: Optional[str], nvcc: str = "nvcc") -> Dict[str, object]:
    env: Dict[str, object] = {"gpu": None, "gpu_index": gpu, "driver": None, "cuda_runtime": None, "nvcc": None,
                              "compute_capability": None}
    # PMPP_DEVICE_PROFILE=t4 (common/device_limits.h): every run chooses shapes and sizes as on
    # that GPU; the timings stay this GPU's. The report says so.
    if os.environ.get("PMPP_DEVICE_PROFILE"):
        env["device_profile"] = os.environ["PMPP_DEVICE_PROFILE"]
    query = ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]
    if gpu is not None:
        query += ["-i", str(gpu)]
    try:
        p = subprocess.run(query, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
        if p.returncode == 0 and p.stdout.strip():
            name, _, driver = p.stdout.strip().splitlines()[0].rpartition(",")
            env["gpu"], env["driver"] = name.strip(), driver.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    env["nvcc"] = nvcc_release(nvcc, timeout=30)
    return env
