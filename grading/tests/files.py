"""The file helpers the grader's tests share: write a file (its folder made first), read it
back, load a JSON file. Text is UTF-8 and newlines are kept as written, so a test sees exactly
the bytes it wrote."""
import json
import os
from typing import Union


def write(path: str, data: Union[str, bytes]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def load(path: str):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
