"""The context of one grading run: its Settings (the rubric, the seed, the stop request, the
limits and make's options), the environment its processes get (run_env: one GPU, make's flags
dropped) and what the grader knows of the machine before any harness ran (gpu_environment)."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import Callable, Dict, Optional

from .processes import StopSignal
from .rubric import Part, Rubric
from .toolchain import make_env, nvcc_release


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

    def part_timeout(self, part: Part) -> float:
        return self.timeout if self.timeout is not None else part.timeout

    def build_time_limit(self) -> float:
        return self.build_timeout if self.build_timeout is not None else self.rubric.defaults.build_timeout


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
