"""Process helpers shared by the tests."""
import os


def alive(pid: int) -> bool:
    """Is process `pid` running? A zombie (killed, waiting to be reaped) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True
