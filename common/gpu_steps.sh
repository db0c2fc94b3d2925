# common/gpu_steps.sh: sourced by every exercise's tune/gpu_run.sh, the script that builds,
# tests, benchmarks and sweeps an exercise on a GPU machine in one go (the numbers in NOTES.md
# come from it). Run those scripts from the repository root:
#   bash 02_scan/tune/gpu_run.sh            # logs in $OUT, or build/gpu-logs if OUT is unset
#
#   step NAME LIMIT CMD...   runs CMD under `timeout LIMIT` seconds, logs to $LOGS/NAME.log,
#                            prints "[NAME rc=R in Ts]" and the log's last $TAILN lines (15)
#   gpu_summary              the GPU's name, driver and clocks, into $LOGS/gpu.txt
set -u
export PATH=${CUDA_PATH:-/usr/local/cuda}/bin:$PATH
LOGS=${OUT:-build/gpu-logs}
mkdir -p "$LOGS"
GPU_STEPS_START=$(date +%s)

step() {
    local name=$1 limit=$2
    shift 2
    echo
    echo "######## $name"
    local t0
    t0=$(date +%s)
    timeout "$limit" "$@" > "$LOGS/$name.log" 2>&1
    local rc=$?
    echo "[$name rc=$rc in $(( $(date +%s) - t0 ))s, $(( $(date +%s) - GPU_STEPS_START ))s since start]" | tee -a "$LOGS/$name.log"
    tail -n "${TAILN:-15}" "$LOGS/$name.log" | cut -c1-200
    return $rc
}

gpu_summary() {
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader \
        | tee "$LOGS/gpu.txt"
}
