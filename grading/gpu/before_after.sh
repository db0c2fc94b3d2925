#!/usr/bin/env bash
# Times the reference answers and the fast references beside their library baselines in two
# trees of the course, on one GPU, one after the other: the tree before a change (BEFORE, a
# folder holding `git archive` of the earlier commit) and this one. It shows what a change to
# the harness or the timing costs: the same binaries' medians side by side, and each tree's
# t / baseline. From the repository root:
#   bash grading/gpu/before_after.sh BEFORE_DIR [SIZE...]   (SIZE: --size of the 1-D exercises,
#                                                           default 2^20 2^24; about 3 minutes
#                                                           on one H200 once both trees are built)
# Results files in $OUT/before_after (or build/gpu-logs/before_after), a table at the end.
source "$(dirname "$0")/../../common/gpu_steps.sh"
before=${1:?usage: before_after.sh BEFORE_DIR [SIZE...]}
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2^20 2^24)
out=$LOGS/before_after
mkdir -p "$out"
jobs=$(nproc)
# exercise  program  implementations (the reference answer in the student's slot, the fast
# reference, the library baseline)  harness options
runs=(
  "01_saxpy saxpy student,vectorized,cublas"
  "02_scan scan student,single_pass,cub"
  "03_find_repeats find_repeats student,fused,cub"
  "04_circle_renderer render student,binned --size 1024 --no-images"
  "05_bitonic bitonic student,fused,cub --type u32"
  "06_radix_sort radix_sort student,onesweep,cub --type u32"
  "07_merge_sort merge_sort student,fast,cub --op sort --type u32"
  "08_mandelbrot mandelbrot student,shortcuts,seed --size 3840 --no-images"
)
for tree in "$before" .; do
    name=$([ "$tree" = . ] && echo after || echo before)
    targets=()
    for r in "${runs[@]}"; do
        read -r ex prog _ <<<"$r"
        targets+=("$ex")
    done
    TAILN=3 step "build_$name" 900 make -C "$tree" -j"$jobs" "${targets[@]}" ARCH=sm_90
done
for r in "${runs[@]}"; do
    read -r ex prog impls args <<<"$r"
    # 04 and 08 time their own image sizes; the others each size asked for.
    case "$args" in *--size*) ex_sizes=(own) ;; *) ex_sizes=("${sizes[@]}") ;; esac
    for size in "${ex_sizes[@]}"; do
        size_args=()
        [ "$size" = own ] || size_args=(--size "$size")
        tag=$([ "$size" = own ] && echo "" || echo "_${size/^/p}")
        for tree in "$before" .; do
            name=$([ "$tree" = . ] && echo after || echo before)
            # shellcheck disable=SC2086
            TAILN=0 step "${ex}${tag}_$name" 300 "$tree/$ex/build/${prog}_solution" --impl "$impls" --bench --seed 5 \
                --json "$out/${ex}${tag}_$name.json" $args ${size_args[@]+"${size_args[@]}"}
        done
    done
done
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print(f"\n{'exercise':18s} {'impl':12s} {'n':>10s} {'before ms':>10s} {'after ms':>10s} {'after/before':>12s} "
      f"{'spread b/a':>11s} {'t/base b':>8s} {'t/base a':>8s}")
for name in sorted({f.rsplit('_', 1)[0] for f in os.listdir(out) if f.endswith('.json')}):
    try:
        b = json.load(open(os.path.join(out, name + "_before.json")))
        a = json.load(open(os.path.join(out, name + "_after.json")))
    except (OSError, ValueError) as e:
        print(f"{name}: {e}")
        continue
    rows = {(r["label"], r["section"], r["n"]): r for r in b.get("bench", [])}
    for r in a.get("bench", []):
        o = rows.get((r["label"], r["section"], r["n"]))
        if o is None:
            continue
        n = int(r["n"])
        size = f"2^{n.bit_length() - 1}" if n and n & (int(n) - 1) == 0 else f"{n:.0f}"
        print(f"{name:18s} {r['label'][:12]:12s} {size:>10s} {o['median_ms']:10.4f} {r['median_ms']:10.4f} "
              f"{r['median_ms'] / o['median_ms'] if o['median_ms'] else 0:12.3f} "
              f"{(o['p90_ms'] - o['p10_ms']) / o['median_ms'] * 100 if o['median_ms'] else 0:5.1f}/"
              f"{(r['p90_ms'] - r['p10_ms']) / r['median_ms'] * 100 if r['median_ms'] else 0:<5.1f} "
              f"{o['ratio_to_baseline']:8.3f} {r['ratio_to_baseline']:8.3f}{'' if r['correct'] else '  WRONG'}")
PY
