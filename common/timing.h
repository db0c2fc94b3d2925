// timing.h: how every benchmark in the course is timed.
//  - CUDA events around the measured call (device time, not host time);
//  - warm-up runs first (module load, lazy allocation, cuBLAS handles stay out of the numbers);
//  - the L2 cache flushed before each repeat, by reading a buffer twice the L2 size, so a
//    small input is not served from cache (reading, not writing: written lines would be
//    evicted, and paid for, inside the next timed region);
//  - inputs that the call consumes restored, untimed, before each repeat;
//  - every run, warm-up or timed, ends only when the whole device is idle: work the call left
//    running on any stream finishes before the next run starts, and counts in the run's time
//    (a call that returns while its kernels still run on a stream of its own is timed until
//    they end, not until it returned);
//  - with time_checked(), the outputs poisoned before every run and checked after every run,
//    outside the timed region: one wrong run makes the measurement wrong;
//  - the median and spread over the repeats.
#pragma once

#include "common/check.h"
#include "common/stats.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>

namespace pmpp {

struct TimingOptions {
    int warmup = 2;
    int repeats = 20;
    bool flush_l2 = true;
};

class L2Flusher {
public:
    // Sizes itself from the current device's own L2 (at least 2x, at least 8 MiB), not a
    // profile's (PMPP_DEVICE_PROFILE): the cache to empty is the real one.
    L2Flusher();
    ~L2Flusher();
    L2Flusher(const L2Flusher&) = delete;
    L2Flusher& operator=(const L2Flusher&) = delete;
    void flush(cudaStream_t stream = 0);
    std::size_t bytes() const { return bytes_; }

private:
    std::size_t bytes_ = 0;
    int blocks_ = 0;  // of the read kernel: 4 per SM
    int4* buffer_ = nullptr;
    unsigned* sink_ = nullptr;
};

// Times `run` with events on `stream`. `prepare` (optional) runs before each repeat, untimed.
// Each run is followed by cudaDeviceSynchronize(); when the device was still busy after the
// stop event (work on another stream), the sample runs until the device was idle.
// Any CUDA error inside throws CudaError.
Stats time_device(const TimingOptions& opts, L2Flusher* flusher, const std::function<void()>& run,
                  const std::function<void()>& prepare = {}, cudaStream_t stream = 0);

// One call to time, as the harness hands it to code it does not trust (the student's slot):
//   prepare  untimed, before every warm-up and every timed run: poison the outputs (and their
//            guard zones), restore the inputs the call consumes;
//   run      the call;
//   verify   untimed, after every run, once the device is idle: is the output right (compare
//            on the device with the expected output), are the guard zones intact?
struct TimedCall {
    std::function<void()> prepare;
    std::function<void()> run;
    std::function<CheckResult()> verify;
};

struct TimedResult {
    Stats ms;
    CheckResult check = CheckResult::pass(0);  // the first wrong run's result, else a pass
    int runs_checked = 0;  // warm-ups and timed runs verified
    int late_runs = 0;  // timed runs whose work outlived the stop event
    std::string note;  // why, when late_runs > 0
};

// time_device with a verify after every run. Timing stops at the first wrong run, whose
// message names it ("timed run 3 of 20: ..."). A call without verify is a programming error.
TimedResult time_checked(const TimingOptions& opts, L2Flusher* flusher, const TimedCall& call, cudaStream_t stream = 0);

// Times a host function with a steady clock; the device is synchronized inside the timed
// region, so GPU work the function leaves running counts.
Stats time_host(const TimingOptions& opts, const std::function<void()>& run, const std::function<void()>& prepare = {});

// Device-to-device cudaMemcpy of `bytes`: the practical ceiling for a memory-bound kernel.
// Bandwidth counts bytes read plus bytes written (2 * bytes per copy).
struct CopyBandwidth {
    std::size_t bytes = 0;
    Stats ms;
    double gbs = 0;  // 2 * bytes / median time
};
CopyBandwidth measure_copy_bandwidth(std::size_t bytes, const TimingOptions& opts, L2Flusher* flusher);

// GB/s for `bytes` moved in `ms` milliseconds.
inline double gigabytes_per_second(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }

// RAII NVTX range, so Nsight Compute can profile one implementation: "impl:<name>".
class NvtxRange {
public:
    explicit NvtxRange(const char* name);
    ~NvtxRange();
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace pmpp
