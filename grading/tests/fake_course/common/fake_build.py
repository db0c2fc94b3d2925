"""The stand-in compiler and linker: fake_build.py OUTPUT HARNESS... -- SOURCES...

Compiles each source into an "object", build/obj/<source name>.o: the source as the build's
preprocessor leaves it (`##` pastes tokens, as a macro of the real build can: `uses_##thrust`
is `uses_thrust` only in the object, never in the source). Fails like a compiler on a source
containing does_not_compile, and like the course's link rule on one containing
defines_course_code (after a page of ordinary build output, as a real link's log has). Then
"links" OUTPUT: a program that runs fake_harness.py on a snapshot of the harness and the objects.
`make forbidden` (fake.mk) reads those objects, never the sources.

A source's `attack_...=` lines are what a hostile student's code would try, here at build time
and again in the harness (which imports attack() from here): each attempt prints what happened
("attack read PATH: denied (PermissionError)"). The grader's sandbox must deny every one:
  attack_read=PATH     read a file (its first bytes are printed if it can be read)
  attack_write=PATH    write a file ("planted")
  attack_kill=grader   SIGKILL every process whose command line holds pmpp_grading, and the parent
  attack_daemon=1      leave a process behind in a session of its own (setsid), sleeping
  attack_link=PATH     (harness, --images) a picture that is a symbolic link to PATH
In PATH, {peer} stands for each other sandbox folder (ROOT/pmpp-grade-K beside the one holding
$HOME). Nothing is attempted as root (no sandbox): "not attempted as root" is printed instead."""
import os
import signal
import stat
import subprocess
import sys

SANDBOX_USERS = 8  # pmpp-grade-0 .. 7: the peers {peer} stands for


def attack_lines(text):
    """The attack_...=VALUE lines of a source, in order."""
    out = []
    for line in text.splitlines():
        key, eq, value = line.strip().partition("=")
        if eq and key.startswith("attack_"):
            out.append((key[len("attack_"):], value))
    return out


def _peers(path):
    if "{peer}" not in path:
        return [path]
    home = os.environ.get("HOME", "")
    mine = os.path.dirname(home)
    if not os.path.basename(mine).startswith("pmpp-grade-"):
        return []
    root = os.path.dirname(mine)
    return [path.replace("{peer}", os.path.join(root, f"pmpp-grade-{k}")) for k in range(SANDBOX_USERS)
            if os.path.join(root, f"pmpp-grade-{k}") != mine]


def _grader_processes():
    """Processes of other users whose command line holds pmpp_grading, and this one's parent."""
    found = {os.getppid()}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if b"pmpp_grading" in f.read():
                        found.add(int(entry))
            except OSError:
                pass
    theirs = []
    for pid in sorted(found):
        try:
            if os.stat(f"/proc/{pid}").st_uid != os.getuid():
                theirs.append(pid)
        except OSError:
            pass
    return theirs


def attack(lines, images=None):
    """Tries each attack line; prints one line per attempt."""
    for kind, value in lines:
        if os.getuid() == 0:
            print(f"attack {kind} {value}: not attempted as root", flush=True)
            continue
        if kind in ("read", "write"):
            targets = _peers(value)
            if not targets:
                print(f"attack {kind} {value}: no sandbox peers", flush=True)
            for path in targets:
                try:
                    if kind == "read":
                        with open(path, "rb") as f:
                            data = f.read(200)
                        print(f"attack read {path}: read {data!r}", flush=True)
                    else:
                        with open(path, "w") as f:
                            f.write("planted\n")
                        print(f"attack write {path}: written", flush=True)
                except OSError as e:
                    print(f"attack {kind} {path}: denied ({type(e).__name__})", flush=True)
        elif kind == "kill":
            targets = _grader_processes()
            if not targets:
                print("attack kill grader: no process found", flush=True)
            for pid in targets:
                try:
                    os.kill(pid, signal.SIGKILL)
                    print(f"attack kill {pid}: killed", flush=True)
                except OSError as e:
                    print(f"attack kill {pid}: denied ({type(e).__name__})", flush=True)
        elif kind == "daemon":
            p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(f"attack daemon {p.pid}: started", flush=True)
        elif kind == "link" and images:
            os.makedirs(images, exist_ok=True)
            for k, path in enumerate(_peers(value)):
                name = os.path.join(images, f"stolen_{abs(hash(path)) % 10000}_{k}.png")
                try:
                    os.symlink(path, name)
                    print(f"attack link {path}: planted as {os.path.basename(name)}", flush=True)
                except OSError as e:
                    print(f"attack link {path}: denied ({type(e).__name__})", flush=True)


def main():
    out = sys.argv[1]
    split = sys.argv.index("--")
    harness, sources = sys.argv[2:split], sys.argv[split + 1:]
    build(out, harness, sources)


def preprocessed(path):
    with open(path) as f:
        return f.read().replace("##", "")


def build(out, harness, sources):
    objects = []
    for src in sources:
        text = preprocessed(src)
        attack(attack_lines(text))  # what a compiler run on hostile input might do
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


if __name__ == "__main__":
    main()
