#!/usr/bin/env bash
# 04_circle_renderer on a GPU machine, from the repository root; about 5 minutes on an H200:
#  1. build (make's all, test-build and tune: the sweep too); 2. the test suite (nothing may be skipped);
#  3. the starter rejected (exit 1), with the pictures of its first failures;
#  4. the reference answer: --impl all --check --bench, every case and every scene at 1024x1024,
#     the pictures of every scene (rand10k and snowsingle for the README) into $LOGS/images;
#  5. the two performance targets read from its results file: the fastest reference >= 10x faster
#     than CS149's T4 times, and >= 3x faster than variant 2 on rand1M and micro2M;
#  6. the sweep of variant 3 (tile 8/16/32, warp culling, interior skip, binning forced on
#     every scene, the time of each phase): NOTES.md's open questions;
#  7. compute-sanitizer on the tiled and binned kernels, small images.
source "$(dirname "$0")/../../common/gpu_steps.sh"
EX=04_circle_renderer
gpu_summary
nproc | sed 's/^/host cores: /' | tee -a "$LOGS/gpu.txt"

# The programs, the tests and tune/'s two (build/tune/sweep_binned, build/tune/scene_stats).
TAILN=5 step build 300 make -j16 -C $EX ARCH=sm_90 all test-build tune

# The work each scene asks of each variant (NOTES.md's first table), on the host while the GPU works.
$EX/build/tune/scene_stats 1024 > "$LOGS/scene_stats.log" 2>&1 &

TAILN=4 step test 240 make -C $EX test ARCH=sm_90
grep -E "^\[  (FAILED|SKIPPED) |Failure" -A6 "$LOGS/test.log" | head -60
grep -E "^\[       OK \].*\([0-9]{4,} ms\)" "$LOGS/test.log" | head -20   # the slow tests

TAILN=16 step starter 120 $EX/build/render --impl student --check --max-size 257 --seed 1 --images "$LOGS/starter_pictures"
ls "$LOGS/starter_pictures" 2>/dev/null | head -9

TAILN=200 step run_solution 280 $EX/build/render_solution --impl all --check --bench --seed 2 \
    --json "$LOGS/solution.json" --images "$LOGS/images"
ls -la "$LOGS/images" | tail -n +2 | awk '{print $5, $9}' | tr '\n' ' '; echo

# The targets, from the results file: binned's time per scene beside CS149's T4 time (target
# >= 10x), and tiled / binned on rand1M and micro2M (target >= 3x).
python3 - "$LOGS/solution.json" <<'PY' | tee "$LOGS/targets.txt"
import json, sys
t4 = {"rgb": 0.262, "rand10k": 3.07, "rand100k": 29.6, "pattern": 0.404, "snowsingle": 19.7,
      "biglittle": 15.2, "rand1M": 230.5, "micro2M": 439.9}
rows = json.load(open(sys.argv[1]))["bench"]
ms = {}
for r in rows:
    if r["section"].startswith("scene "):
        ms.setdefault(r["section"].split()[1].rstrip(":"), {})[r["impl"]] = r["median_ms"]
ok = True
print("%-14s %10s %10s %10s %10s %8s %10s" % ("scene", "per_pixel", "tiled", "binned", "student", "T4 ms", "T4/binned"))
for scene, m in ms.items():
    ref = t4.get(scene)
    ratio = ref / m["binned"] if ref and m.get("binned") else None
    if ratio is not None and ratio < 10: ok = False
    print("%-14s %10.4f %10.4f %10.4f %10.4f %8s %10s" % (scene, m.get("per_pixel", 0), m.get("tiled", 0), m.get("binned", 0),
          m.get("student", 0), ref or "-", "%.1fx" % ratio if ratio else "-"))
for scene in ("rand1M", "micro2M"):
    if scene in ms and ms[scene].get("binned"):
        r = ms[scene]["tiled"] / ms[scene]["binned"]
        ok = ok and r >= 3
        print("%s: tiled / binned = %.1fx (target >= 3x)" % (scene, r))
print("targets:", "MET" if ok else "MISSED")
PY

[ -x $EX/build/tune/sweep_binned ] && TAILN=20 step sweep 150 $EX/build/tune/sweep_binned 1024

wait; echo "== scene_stats (1024x1024)"; cat "$LOGS/scene_stats.log"

TAILN=6 step sanitize 150 make -C $EX sanitize ARCH=sm_90 IMPL=tiled,binned CHECK_MAX_SIZE=33 \
    RUN_ARGS="--scene rgb,rand10k,stacks,pileup --no-images"
