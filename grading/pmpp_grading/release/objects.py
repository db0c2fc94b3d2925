"""The withheld sources the build compiles, compiled in the clean tree by each exercise's own
Makefile rules for the architectures asked (--arch): they ship in NN_name/prebuilt/."""
from __future__ import annotations

import os
import re
import subprocess
import time
from typing import List

from ..toolchain import make_env
from .errors import BuildFailed, ReleaseError
from .plan import Plan


def object_path(src: str) -> str:
    """Where common.mk puts a source's object, relative to build/ (its `obj` function)."""
    return "obj/" + src.replace("../", "__/") + ".o"


def arch_variables(arch: str) -> List[str]:
    """make variables for --arch: all, all-major, sm_NN, or a list sm_80,sm_90 (the first as ARCH,
    the others as -gencode in NVCCFLAGS_EXTRA: nvcc's -arch takes one value)."""
    archs = [a.strip() for a in arch.split(",") if a.strip()]
    if len(archs) == 1 and re.fullmatch(r"all|all-major|sm_[0-9]+[a-z]?", archs[0]):
        return [f"ARCH={archs[0]}"]
    if len(archs) < 2 or not all(re.fullmatch(r"sm_[0-9]+[a-z]?", a) for a in archs):
        raise ReleaseError(f"--arch '{arch}': all, all-major, sm_NN, or a list such as sm_80,sm_90")
    extra = " ".join(f"-gencode arch=compute_{a[3:]},code=sm_{a[3:]}" for a in archs[1:])
    return [f"ARCH={archs[0]}", f"NVCCFLAGS_EXTRA={extra}"]


def build_objects(stage: str, plan: Plan, variables: List[str], jobs: int, log_path: str,
                  progress=print) -> None:
    """Compiles the withheld sources in the clean tree, with each exercise's own flags."""
    with open(log_path, "w") as log:
        for exercise in plan.exercises:
            targets = ["build/" + object_path(s) for s in plan.prebuilt.get(exercise, [])]
            if not targets:
                continue
            t0 = time.monotonic()
            cmd = ["make", "--no-print-directory", "-C", os.path.join(stage, exercise), f"-j{jobs}", *variables, *targets]
            log.write("$ " + " ".join(cmd) + "\n")
            log.flush()
            p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=make_env())
            if p.returncode != 0:
                log.flush()
                with open(log_path, errors="replace") as f:
                    tail = "".join(f.readlines()[-30:])
                raise BuildFailed(f"{exercise}: the reference objects do not build (exit {p.returncode}):\n{tail}")
            progress(f"{exercise}: {len(targets)} reference object(s) built ({time.monotonic() - t0:.0f} s)")

