"""The stand-in compiler and linker: fake_build.py OUTPUT HARNESS... -- SOURCES...

Compiles each source into an "object", build/obj/<source name>.o: the source as the build's
preprocessor leaves it (`##` pastes tokens, as a macro of the real build can: `uses_##thrust`
is `uses_thrust` only in the object, never in the source). Fails like a compiler on a source
containing does_not_compile, and like the course's link rule on one containing
defines_course_code (after a page of ordinary build output, as a real link's log has). Then
"links" OUTPUT: a program that runs fake_harness.py on a snapshot of the harness and the objects.
`make forbidden` (fake.mk) reads those objects, never the sources."""
import os
import stat
import sys

out = sys.argv[1]
split = sys.argv.index("--")
harness, sources = sys.argv[2:split], sys.argv[split + 1:]


def preprocessed(path):
    with open(path) as f:
        return f.read().replace("##", "")


objects = []
for src in sources:
    text = preprocessed(src)
    if "does_not_compile" in text:
        print(f"{src}:3:5: error: expected ';' before '}}' token", file=sys.stderr)
        sys.exit(1)
    obj = os.path.join(os.path.dirname(out), "obj", os.path.basename(src) + ".o")
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    with open(obj, "w") as f:
        f.write(text)
    objects.append((src, obj, text))
for src, obj, text in objects:
    if "defines_course_code" in text:
        for k in range(40):
            print(f"nvcc -O3 -std=c++17 -c course_file_{k}.cu -o build/obj/course_file_{k}.cu.o")
        print(f"{src}: warning: variable 'unused' set but not used")
        print(f"error: {obj} defines pmpp::summarize(std::vector<double> const&), which course code defines "
              "(common/stats.cpp): a student file may not replace course code", file=sys.stderr)
        sys.exit(1)
with open(out + ".harness", "w") as f:
    for h in harness:
        f.write(open(h).read() + "\n")
with open(out + ".sources", "w") as f:
    for _, _, text in objects:
        f.write(text + "\n")
here = os.path.dirname(os.path.abspath(__file__))
with open(out, "w") as f:
    f.write(f'#!/bin/sh\nexec python3 "{here}/fake_harness.py" "{os.path.abspath(out)}" "$@"\n')
os.chmod(out, os.stat(out).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
