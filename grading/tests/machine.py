"""A stand-in machine for the tests: no grader test may read the GPUs of the machine it runs on,
or depend on whether nvidia-smi is installed (on a GPU machine the real one would name the real
GPUs in the reports; without one, the grader must behave as with no GPU).

stand_in_tools(directory, gpus) writes an nvidia-smi that lists the GPUs `gpus` (indices, e.g.
("0", "1"); none: it fails as nvidia-smi does on a machine without a GPU), each named
"Fake GPU <index>" as the fake harness names the GPU of CUDA_VISIBLE_DEVICES, with `memory_mib`
of memory (an H200's by default), and an nvcc that
names release 13.0, and a compute-sanitizer (below). hermetic_env() is an environment whose PATH
finds them first, even after run_all.sh puts $CUDA_PATH/bin in front, and that holds nothing of
the machine that the grader or the fake course reads (CUDA_VISIBLE_DEVICES, the fake harness's
switches, the sanitizer's variable, a calling make's flags).

The stand-in compute-sanitizer takes the real one's options (--tool, --error-exitcode,
--print-limit, --log-file), runs the program after them and writes a report in the real one's
format to the log file. What it reports is decided by the "compiled" student's file of the
program (build/<program>.sources), as the fake harness's behaviour is:
  sanitizer_error=TOOL FILE:LINE   TOOL finds an error there (FILE relative to the exercise
                                   folder): memcheck an invalid write, racecheck a race,
                                   synccheck a divergent barrier; the error exit code
  sanitizer=hang                   it never finishes (a sanitized kernel far too slow)
  sanitizer=no_summary             its report has no summary line, and it exits as the program
  sanitizer=no_exit_code           it counts the errors but exits as the program did"""
import os
import stat
from typing import Dict, Iterable, Optional

NVIDIA_SMI = """#!/bin/sh
# stand-in nvidia-smi (grading/tests/machine.py): --query-gpu=index, name,driver_version or
# memory.total (MiB, as with --format=csv,noheader,nounits), -i N
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
        memory.total) echo "{memory_mib}" ;;
        *) echo "stand-in nvidia-smi: unknown query '$query'" >&2; exit 2 ;;
    esac
done
"""

NVCC = """#!/bin/sh
# stand-in nvcc (grading/tests/machine.py): answers --version only
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Cuda compilation tools, release 13.0, V13.0.48"
"""

COMPUTE_SANITIZER = r"""#!/usr/bin/env python3
# stand-in compute-sanitizer (grading/tests/machine.py)
import os, subprocess, sys, time

args = sys.argv[1:]
opts = {"--tool": "memcheck", "--error-exitcode": "0", "--print-limit": "100", "--log-file": None}
while args and args[0] in opts:
    opts[args[0]], args = args[1], args[2:]
if not args:
    print("stand-in compute-sanitizer: no program", file=sys.stderr)
    sys.exit(2)
tool, program = opts["--tool"], args[0]
wanted, mode = [], ""
with open(program + ".sources") as f:
    for line in f:
        key, _, value = line.strip().partition("=")
        if key == "sanitizer_error" and value.split()[0] == tool:
            wanted.append(value.split()[1])
        elif key == "sanitizer":
            mode = value
if os.environ.get("FAKE_PID_DIR"):
    with open(os.path.join(os.environ["FAKE_PID_DIR"], f"{os.getpid()}.pid"), "w") as f:
        f.write(str(os.getpid()))
if mode == "hang":
    time.sleep(600)
rc = subprocess.call(args)
lines = ["COMPUTE-SANITIZER"]
for place in wanted:
    file, _, line = place.rpartition(":")
    where = f"{os.path.join(os.getcwd(), file)}:{line}"
    if tool == "racecheck":
        lines += [f"Error: Race reported between Write access at tile_kernel(int *, unsigned long)+0x70 in {where}",
                  f"    and Read access at tile_kernel(int *, unsigned long)+0x90 in {where} [248 hazards]", ""]
    elif tool == "synccheck":
        lines += ["Barrier error detected. Divergent thread(s) in warp",
                  f"    at tile_kernel(int *, unsigned long)+0x120 in {where}",
                  "    by thread (31,0,0) in block (0,0,0)", ""]
    else:
        lines += ["Invalid __global__ write of size 4 bytes",
                  f"    at alpha_kernel(unsigned long, float, const float *, const float *, float *)+0x1b0 in {where}",
                  "    by thread (0,0,0) in block (4,0,0)",
                  "    Address 0x7f3a40001000 is out of bounds",
                  "    and is 1 bytes after the nearest allocation at 0x7f3a40000000 of size 4096 bytes",
                  "    Saved host backtrace up to driver entry point at kernel launch time",
                  "        Host Frame: alpha_student [0x2c1f] in alpha", ""]
if rc != 0:
    lines.append("Target application returned an error")
if mode != "no_summary":
    n = len(wanted)
    lines.append(f"RACECHECK SUMMARY: {n} hazard{'' if n == 1 else 's'} displayed ({n} error{'' if n == 1 else 's'}, "
                 "0 warnings)" if tool == "racecheck" else f"ERROR SUMMARY: {n} error{'' if n == 1 else 's'}")
text = "".join("=========" + (" " + l if l else "") + "\n" for l in lines)
if opts["--log-file"]:
    with open(opts["--log-file"].replace("%%", "%"), "w") as f:
        f.write(text)
else:
    sys.stdout.write(text)
sys.exit(int(opts["--error-exitcode"]) if wanted and mode != "no_exit_code" else rc)
"""

# What the grader and the fake course read from the environment, besides PATH.
MACHINE_VARIABLES = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_PATH", "FAKE_NO_GPU", "FAKE_PID_DIR",
                     "PMPP_COMPUTE_SANITIZER", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def _executable(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def stand_in_tools(directory: str, gpus: Iterable[str] = ("0", "1"), sanitizer: bool = True,
                   memory_mib: str = "143771") -> str:
    """Writes nvidia-smi, nvcc and (unless `sanitizer` is false) compute-sanitizer into
    `directory` (made if needed); returns it."""
    os.makedirs(directory, exist_ok=True)
    _executable(os.path.join(directory, "nvidia-smi"), NVIDIA_SMI.format(gpus=" ".join(gpus), memory_mib=memory_mib))
    _executable(os.path.join(directory, "nvcc"), NVCC)
    if sanitizer:
        _executable(os.path.join(directory, "compute-sanitizer"), COMPUTE_SANITIZER)
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

    def __init__(self, directory: str, gpus: Iterable[str] = ("0", "1"), memory_mib: str = "143771"):
        from unittest import mock
        self.tools = stand_in_tools(os.path.join(directory, "bin"), gpus, memory_mib=memory_mib)
        self._patch = mock.patch.dict(os.environ, hermetic_env(self.tools), clear=True)

    def __enter__(self) -> "StandInMachine":
        self._patch.start()
        return self

    def __exit__(self, *exc) -> None:
        self._patch.stop()
