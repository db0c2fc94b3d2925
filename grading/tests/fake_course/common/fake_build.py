"""The stand-in compiler: fake_build.py OUTPUT HARNESS... -- SOURCES...
Fails like a compiler on a source containing does_not_compile; otherwise writes OUTPUT, a
program that runs fake_harness.py on a snapshot of the harness and source files."""
import os
import stat
import sys

out = sys.argv[1]
split = sys.argv.index("--")
harness, sources = sys.argv[2:split], sys.argv[split + 1:]
for src in sources:
    with open(src) as f:
        if "does_not_compile" in f.read():
            print(f"{src}:3:5: error: expected ';' before '}}' token", file=sys.stderr)
            sys.exit(1)
with open(out + ".harness", "w") as f:
    for h in harness:
        f.write(open(h).read() + "\n")
with open(out + ".sources", "w") as f:
    for s in sources:
        f.write(open(s).read() + "\n")
here = os.path.dirname(os.path.abspath(__file__))
with open(out, "w") as f:
    f.write(f'#!/bin/sh\nexec python3 "{here}/fake_harness.py" "{os.path.abspath(out)}" "$@"\n')
os.chmod(out, os.stat(out).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
