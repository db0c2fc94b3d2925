"""The pictures a harness writes with `--images DIR` (04's renderer, 08's Mandelbrot), for the
HTML report: whether a harness takes the option, turning PPM files into PNG (a browser shows no
PPM; the harness writes PPM when it was built without libpng), and grouping them.

The grader passes each part its own folder inside the report folder, so the report links them
with relative paths and the folder can be zipped and opened anywhere. The harness names them
(04_circle_renderer/harness/render_bench.cu, 08_mandelbrot/harness/mandelbrot_bench.cu); the report shows:
  <stem>_expected, <stem>_actual, <stem>_diff    side by side (a failing check: the reference's
                                                 image, the student's, their difference)
  <stem> and student_<stem>                       side by side (the reference's and the student's)
  anything else                                   alone, under its name
The student's code runs inside the harness and can write anything there: only regular files
with a picture's extension are shown, links never, and at most MAX_SHOWN of them.
"""
from __future__ import annotations

import os
import re
import struct
import zlib
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

# `--images DIR` in the harness's --help (common/cli.cpp prints every option at a line's start).
IMAGES_OPTION = re.compile(r"^\s*--images\s", re.M)
SHOWN_SUFFIXES = (".png",)
MAX_SHOWN = 48
MAX_PPM_PIXELS = 64 << 20          # larger "pictures" are not converted (a 8192^2 image is 64M)
ROLES = ("expected", "actual", "diff")
ROLE_WORDS = {"expected": "reference", "actual": "student", "diff": "difference", "picture": ""}


def takes_images(help_text: str) -> bool:
    return bool(IMAGES_OPTION.search(help_text))


# ---- PPM to PNG -------------------------------------------------------------------------------

def _ppm_header(data: bytes) -> Optional[Tuple[int, int, int]]:
    """(width, height, offset of the pixels) of a binary PPM (P6, maxval 255), else None."""
    tokens: List[bytes] = []
    pos = 2 if data[:2] == b"P6" else -1
    if pos < 0:
        return None
    while len(tokens) < 3 and pos < len(data):
        c = data[pos:pos + 1]
        if c == b"#":
            end = data.find(b"\n", pos)
            pos = len(data) if end < 0 else end + 1
        elif c.isspace():
            pos += 1
        else:
            start = pos
            while pos < len(data) and not data[pos:pos + 1].isspace():
                pos += 1
            tokens.append(data[start:pos])
    if len(tokens) < 3 or not all(t.isdigit() for t in tokens) or pos >= len(data):
        return None
    width, height, maxval = (int(t) for t in tokens)
    if maxval != 255 or width <= 0 or height <= 0 or width * height > MAX_PPM_PIXELS:
        return None
    return width, height, pos + 1  # one whitespace byte ends the header


def png_bytes(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG of `rgb` (rows top to bottom, 3 bytes a pixel), filter 0 on every row."""
    stride = 3 * width
    raw = b"".join(b"\x00" + rgb[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def ppm_to_png(path: str) -> Optional[str]:
    """Writes PATH.png beside a P6 PPM file (its name ending .ppm replaced); returns it, or None
    when the file is not a PPM this can read."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PPM_PIXELS * 3 + 4096)
    except OSError:
        return None
    header = _ppm_header(data)
    if header is None:
        return None
    width, height, offset = header
    pixels = data[offset:offset + 3 * width * height]
    if len(pixels) != 3 * width * height:
        return None
    target = path[: -len(".ppm")] + ".png"
    tmp = target + ".tmp"
    with open(tmp, "wb") as f:
        f.write(png_bytes(width, height, pixels))
    os.replace(tmp, target)
    return target


def tidy(directory: str) -> None:
    """Makes a part's pictures viewable: each PPM gets a PNG beside it (unless there is one)."""
    names = set(_regular_files(directory))
    for name in sorted(names):
        if name.endswith(".ppm") and name[:-4] + ".png" not in names:
            ppm_to_png(os.path.join(directory, name))


def _regular_files(directory: str) -> List[str]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [n for n in names if not os.path.islink(os.path.join(directory, n))
            and os.path.isfile(os.path.join(directory, n))]


# ---- Grouping ---------------------------------------------------------------------------------

@dataclass
class Group:
    title: str
    images: List[Tuple[str, str]] = field(default_factory=list)  # (role, file name), in display order


@dataclass
class Gallery:
    groups: List[Group]
    left_out: int = 0      # pictures beyond MAX_SHOWN


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _is_png(path: str) -> bool:
    """A file that begins as a PNG does: a browser shows any other as a broken picture."""
    try:
        with open(path, "rb") as f:
            return f.read(len(PNG_SIGNATURE)) == PNG_SIGNATURE
    except OSError:
        return False


def gallery(directory: str) -> Gallery:
    """The pictures of one folder, grouped as the module's docstring says (PNG files only, by
    their bytes, not their names)."""
    names = [n for n in _regular_files(directory)
             if n.lower().endswith(SHOWN_SUFFIXES) and _is_png(os.path.join(directory, n))]
    stems = {}
    for n in names:
        stem, _ = os.path.splitext(n)
        stems[stem] = n
    compared: dict = {}
    rest = []
    for stem, name in stems.items():
        base, _, role = stem.rpartition("_")
        if base and role in ROLES:
            compared.setdefault(base, {})[role] = name
        else:
            rest.append(stem)
    groups = [Group(base, [(r, roles[r]) for r in ROLES if r in roles]) for base, roles in compared.items()]
    singles = []
    taken = set()
    for stem in rest:
        if stem.startswith("student_") and stem[len("student_"):] in stems and stem[len("student_"):] in rest:
            other = stem[len("student_"):]
            groups.append(Group(other, [("expected", stems[other]), ("actual", stems[stem])]))
            taken.update((stem, other))
    for stem in rest:
        if stem not in taken:
            singles.append(Group(stem, [("picture", stems[stem])]))
    groups += singles
    shown, count = [], 0
    for g in groups:
        if count + len(g.images) > MAX_SHOWN:
            break
        shown.append(g)
        count += len(g.images)
    return Gallery(shown, left_out=sum(len(g.images) for g in groups) - count)
