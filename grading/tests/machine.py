"""A stand-in machine for the tests: no grader test may read the GPUs of the machine it runs on,
or depend on whether nvidia-smi is installed (on a GPU machine the real one would name the real
GPUs in the reports; without one, the grader must behave as with no GPU).

stand_in_tools(directory, gpus) writes an nvidia-smi that lists the GPUs `gpus` (indices, e.g.
("0", "1"); none: it fails as nvidia-smi does on a machine without a GPU), each named
"Fake GPU <index>" as the fake harness names the GPU of CUDA_VISIBLE_DEVICES, and an nvcc that
names release 13.0. hermetic_env() is an environment whose PATH finds them first, even after
run_all.sh puts $CUDA_PATH/bin in front, and that holds nothing of the machine that the
grader or the fake course reads (CUDA_VISIBLE_DEVICES, the fake harness's switches, a calling
make's flags)."""
import os
import stat
from typing import Dict, Iterable, Optional

NVIDIA_SMI = """#!/bin/sh
# stand-in nvidia-smi (grading/tests/machine.py): --query-gpu=index or name,driver_version, -i N
gpus="{gpus}"
if [ -z "$gpus" ]; then
    echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
    exit 9
fi
query=""
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --query-gpu=*) query=${{1#--query-gpu=}} ;;
        -i) only=$2; shift ;;
    esac
    shift
done
for g in $gpus; do
    [ -n "$only" ] && [ "$only" != "$g" ] && continue
    case "$query" in
        index) echo "$g" ;;
        name,driver_version) echo "Fake GPU $g, 580.00" ;;
        *) echo "stand-in nvidia-smi: unknown query '$query'" >&2; exit 2 ;;
    esac
done
"""

NVCC = """#!/bin/sh
# stand-in nvcc (grading/tests/machine.py): answers --version only
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Cuda compilation tools, release 13.0, V13.0.48"
"""

# What the grader and the fake course read from the environment, besides PATH.
MACHINE_VARIABLES = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_PATH", "FAKE_NO_GPU", "FAKE_PID_DIR",
                     "MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def _executable(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def stand_in_tools(directory: str, gpus: Iterable[str] = ("0", "1")) -> str:
    """Writes nvidia-smi and nvcc into `directory` (made if needed); returns it."""
    os.makedirs(directory, exist_ok=True)
    _executable(os.path.join(directory, "nvidia-smi"), NVIDIA_SMI.format(gpus=" ".join(gpus)))
    _executable(os.path.join(directory, "nvcc"), NVCC)
    return directory


def hermetic_env(tools: str, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """This process's environment without the machine's GPU settings, the stand-in tools first on
    PATH, and CUDA_PATH pointing at them (run_all.sh puts $CUDA_PATH/bin first on PATH)."""
    env = {k: v for k, v in os.environ.items() if k not in MACHINE_VARIABLES}
    env["PATH"] = tools + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    env["CUDA_PATH"] = os.path.dirname(tools) if os.path.basename(tools) == "bin" else tools
    env.update(extra or {})
    return env


class StandInMachine:
    """This process's environment replaced by hermetic_env() while it is entered (for tests that
    call the grader's functions in-process: run_env, visible_gpus, gpu_environment)."""

    def __init__(self, directory: str, gpus: Iterable[str] = ("0", "1")):
        from unittest import mock
        self.tools = stand_in_tools(os.path.join(directory, "bin"), gpus)
        self._patch = mock.patch.dict(os.environ, hermetic_env(self.tools), clear=True)

    def __enter__(self) -> "StandInMachine":
        self._patch.start()
        return self

    def __exit__(self, *exc) -> None:
        self._patch.stop()
