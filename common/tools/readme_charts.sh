#!/usr/bin/env bash
# readme_charts.sh: the charts the READMEs show. On a GPU machine, from the repository root:
# every exercise's reference variants and library baselines benchmarked one after the other,
# nothing else on the GPU (--bench --seed 5, 10 timed runs after 2 warm-ups), each results file
# kept as NN_name/docs/bench_GPU.json and drawn as NN_name/docs/bench_GPU.png (make plot).
# Redraw one without a GPU: make -C NN_name plot PLOT_RESULTS=docs/bench_GPU.json
#   bash common/tools/readme_charts.sh [EXERCISE...]     (default: every exercise)
# GPU: the first GPU's name, lower case, without "nvidia" (h200, tesla_t4, ...). A benchmark that
# fails or runs past LIMIT seconds (default 150) keeps the sizes it finished (the harness writes
# the results file after each size) and is named at the end; the exit status is then 1.
set -u
cd "$(dirname "$0")/../.."
limit=${LIMIT:-150}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr 'A-Z ' 'a-z_' | sed 's/^nvidia_//')
[ -n "$gpu" ] || { echo "readme_charts: no GPU found (nvidia-smi): the charts are measurements" >&2; exit 3; }
exercises=("$@")
[ ${#exercises[@]} -gt 0 ] || exercises=($(ls -d [0-9][0-9]_*/ | tr -d /))
make -s all || { echo "readme_charts: the build failed" >&2; exit 2; }
failed=()
for ex in "${exercises[@]}"; do
    prog=$(make -s -C "$ex" grading-info | sed -n 's/^PROGRAM=//p')
    # Every variant --list names but the student's and the CPU's: the references beside the library.
    impls=$("$ex/build/$prog" --list | awk 'f && NF >= 2 && $1 != "student" && $2 != "cpu" && $1 !~ /^[(]/ {
        printf "%s%s", sep, $1; sep = "," } /^---/ { f = 1 }')
    mkdir -p "$ex/docs"
    json=$ex/docs/bench_$gpu.json
    echo "== $ex: $impls"
    pictures=()  # the exercises that draw (04, 08) draw nothing here
    "$ex/build/$prog" --help 2>&1 | grep -q -- --no-images && pictures=(--no-images)
    timeout "$limit" "$ex/build/$prog" --impl "$impls" --bench --seed 5 --repeats 10 --warmup 2 \
        ${pictures[@]+"${pictures[@]}"} --json "$json" > "$ex/build/readme_charts.log" 2>&1 ||
        failed+=("$ex (see $ex/build/readme_charts.log)")
    make -s -C "$ex" plot PLOT_RESULTS="docs/bench_$gpu.json" PLOT_IMAGE="docs/bench_$gpu.png" || failed+=("$ex: plot")
done
[ ${#failed[@]} -eq 0 ] || { printf 'readme_charts: not complete: %s\n' "${failed[@]}" >&2; exit 1; }
