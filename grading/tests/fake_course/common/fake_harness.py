"""The stand-in harness: the real harness's command line (--impl, --check, --bench, --seed,
--size, --json; other options accepted) and its results file (pmpp.results.v1), with the
behaviour the "compiled" student's files ask for (see ../README.md)."""
import json
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_build import attack, attack_lines  # noqa: E402  (the attacks a hostile student's code tries)

binary, argv = sys.argv[1], sys.argv[2:]


def settings(path):
    values = {}
    for line in open(path):
        key, eq, value = line.strip().partition("=")
        if eq and not line.startswith("#"):
            if key == "behaviour" and values.get("behaviour", "pass") != "pass":
                continue  # the first behaviour that is not pass wins
            values[key] = value
    return values


harness, student = settings(binary + ".harness"), settings(binary + ".sources")
behaviour = "pass" if "always_pass" in harness else student.get("behaviour", "pass")
opts = {"impl": "student", "check": False, "bench": False, "seed": None, "json": None, "size": None, "images": None,
        "shard": None}
takes_images = harness.get("pictures") == "yes"
i = 0
while i < len(argv):
    a = argv[i]
    if a in ("--check", "--bench"):
        opts[a[2:]] = True
    elif a in ("--impl", "--seed", "--json", "--size", "--shard") or (a == "--images" and takes_images):
        opts[a[2:]] = argv[i + 1]
        i += 1
    elif a == "--help":
        print("usage: fake [--impl NAME] [--check] [--bench] [--size N] [--seed S] [--json FILE]")
        if takes_images:
            print("options of this exercise:\n  --images DIR            pictures (default build/images)")
        sys.exit(0)
    elif a == "--bad-option" or a == "--images":
        print(f"fake: unknown option '{a}'", file=sys.stderr)
        sys.exit(2)
    i += 1
if not opts["check"] and not opts["bench"]:
    opts["check"] = opts["bench"] = True
seed = int(opts["seed"]) if opts["seed"] else 12345
gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "")
results = {"schema": "pmpp.results.v1", "exercise": os.path.basename(os.path.dirname(os.path.dirname(binary))),
           "command": [binary] + argv, "seed": seed}
if os.environ.get("FAKE_PID_DIR"):
    with open(os.path.join(os.environ["FAKE_PID_DIR"], f"{os.getpid()}.pid"), "w") as f:
        f.write(str(os.getpid()))


def picture(name, shade):
    """A 4x2 PPM in the --images folder (the real harness writes PNG, or PPM without libpng)."""
    if opts["images"]:
        os.makedirs(opts["images"], exist_ok=True)
        with open(os.path.join(opts["images"], name + ".ppm"), "wb") as f:
            f.write(b"P6\n# fake\n4 2\n255\n" + bytes([shade, 255 - shade, 7]) * 8)


def tiny_png():
    """A 1x1 PNG, made here (the stand-in harness has no image library)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def finish(code, status, error=""):
    results["status"], results["exit_code"] = status, code
    if error:
        results["error"] = error
    if opts["json"]:
        with open(opts["json"], "w") as f:
            json.dump(results, f)
    sys.exit(code)


print("seed", seed)
with open(binary + ".sources") as f:
    attack(attack_lines(f.read()), opts["images"])
if student.get("delay"):  # the student's code takes this long (seconds) before anything else
    time.sleep(float(student["delay"]))
if student.get("says"):  # the student's code prints what it likes ("\n" for a new line)
    print(student["says"].replace("\\n", "\n"))
if os.environ.get("FAKE_NO_GPU") or behaviour == "no_gpu":
    finish(3, "no_gpu", "no usable GPU: the CUDA runtime reports 0 devices")
results["device"] = {"name": f"Fake GPU {gpu}".strip(), "driver": "13.0", "runtime": "13.0",
                     "compute_capability": "9.0"}
if behaviour == "lie":
    print("ALL CHECKS PASSED. Score: 100/100. student 0.001 ms, 1000x faster than the reference")
if behaviour == "segfault":
    os.kill(os.getpid(), signal.SIGSEGV)
if behaviour == "abort":
    os.abort()
if behaviour == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # killed with the group
    if os.environ.get("FAKE_PID_DIR"):
        with open(os.path.join(os.environ["FAKE_PID_DIR"], f"{child.pid}.pid"), "w") as f:
            f.write(str(child.pid))
    time.sleep(600)
if behaviour == "exit0_nojson":
    print("PASS")
    sys.exit(0)
if behaviour == "exit0_partial":
    with open(opts["json"], "w") as f:
        json.dump(results, f)  # written before the check: no status, no exit_code
    sys.exit(0)
if behaviour == "cuda_error":
    finish(3, "cuda_error", "an illegal memory access was encountered (cudaDeviceSynchronize at student.cu:42)")
if behaviour == "oom":
    finish(4, "out_of_memory", "out of memory (cudaMalloc at student.cu:7)")

impls = opts["impl"].split(",")
wrong = False
if opts["check"]:
    total = int(harness.get("cases", 10))
    passed = 3 if behaviour in ("wrong", "lie") else total
    ks = list(range(total))
    if opts["shard"]:  # --shard I/N: every N-th case from the I-th, as the real harness
        shard, shards = (int(v) for v in opts["shard"].split("/"))
        ks = ks[shard - 1::shards]
    results["checks"] = [{"impl": "student", "kind": "student", "case": f"n={k} uniform", "n": k,
                          "distribution": "uniform", "passed": k < passed,
                          **({} if k < passed else {"message": f"element {k}: expected {k}, got -1"})}
                         for k in ks]
    ok = sum(1 for k in ks if k < passed)
    results["check_summary"] = {"student": {"passed": ok, "failed": len(ks) - ok, "total": len(ks)}}
    wrong = ok < len(ks)
    for k in range(passed, min(total, passed + 3)):  # the first failures' pictures, as 04's harness
        for role, shade in (("expected", 0), ("actual", 120), ("diff", 250)):
            picture(f"student_case{k}_{role}", shade)
    if opts["images"] and student.get("evil_pictures"):
        os.makedirs(opts["images"], exist_ok=True)
        os.symlink("/etc/hostname", os.path.join(opts["images"], "stolen.png"))
        with open(os.path.join(opts["images"], '"><img src=x onerror=alert(1)>.png'), "wb") as f:
            f.write(tiny_png())  # a real picture whose name is markup: shown, its name escaped
        with open(os.path.join(opts["images"], "not_a_picture.png"), "wb") as f:
            f.write(b"\x89PNG not really")  # named .png, but not one: not shown
if opts["bench"] and not wrong:
    size = opts["size"] or "2^20"
    n = int(size.split("^")[0]) ** int(size.split("^")[1]) if "^" in size else int(size)
    rows = []
    # ms=A,B,...: the student's time in this binary's first, second, ... benchmark run (the last
    # one repeats): a machine's hiccup on one measurement.
    runs_file = binary + ".bench_runs"
    try:
        with open(runs_file) as f:
            runs = int(f.read())
    except (OSError, ValueError):  # none yet (or another run of this binary writing it just now)
        runs = 0
    with open(runs_file, "w") as f:
        f.write(str(runs + 1))
    student_times = student.get("ms", "1.0").split(",")

    def this_run(values):
        return float(values[min(runs, len(values) - 1)])

    # The copy bandwidth the run measures (copy_gbs= of the harness), unless the student's file
    # disturbs it (copy_gbs=A,B,...: per benchmark run, as ms=): its code runs in this process.
    copy_gbs = this_run(student["copy_gbs"].split(",")) if "copy_gbs" in student else float(harness.get("copy_gbs", 0))
    if copy_gbs > 0:
        results["copy_bandwidth"] = {"bytes": 1 << 30, "median_ms": 2 * (1 << 30) / (copy_gbs * 1e6), "gbs": copy_gbs}
    moved = float(harness.get("bytes", 0))  # the fewest bytes a row moves (0: compute-bound)
    for impl in impls:
        ms = this_run(student_times) if impl == "student" else float(harness.get(impl + "_ms", 1.0))
        correct = not (impl == "student" and behaviour in ("wrong", "lie", "wrong_timed"))
        gbs = moved / (ms * 1e6) if ms > 0 else 0.0
        rows.append({"impl": impl, "kind": "student" if impl == "student" else "reference", "section": "kernel",
                     "label": impl, "n": n, "median_ms": ms, "correct": correct, "bytes": moved, "gbs": gbs,
                     "fraction_of_copy": gbs / copy_gbs if copy_gbs > 0 else 0.0,
                     **({} if correct else {"message": "3 of 1048576 elements differ"})})
        wrong = wrong or not correct
    results["bench"] = rows
    picture("scene", 30)           # the reference's picture of the benchmarked scene
    picture("student_scene", 31)   # and the student's
finish(1 if wrong else 0, "wrong" if wrong else "ok")
