"""The tools the grader and the student release both call: make, without a calling make's flags,
and nvcc, asked for its release."""
from __future__ import annotations

import os
import re
import subprocess
from typing import Dict, Optional

# A calling make's flags (make grade, make test, make student-release) must not reach the builds:
# its jobserver and its -j are not ours.
MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")


def make_env() -> Dict[str, str]:
    """This process's environment without a calling make's flags."""
    return {k: v for k, v in os.environ.items() if k not in MAKE_VARIABLES}


def nvcc_release(nvcc: str, timeout: float) -> Optional[str]:
    """The release `nvcc --version` names ("13.0"), or None (no such nvcc, or no answer)."""
    try:
        p = subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"release ([0-9.]+)", p.stdout)
    return m.group(1) if m else None
