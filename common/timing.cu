#include "common/timing.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/report.h"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

namespace pmpp {

namespace {

// Reads every 16-byte word; the conditional store keeps the compiler from dropping the loads.
__global__ void read_everything(const int4* __restrict__ data, std::size_t count, unsigned* sink) {
    unsigned acc = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const int4 v = data[i];
        acc ^= static_cast<unsigned>(v.x ^ v.y ^ v.z ^ v.w);
    }
    if (acc == 0x9E3779B9u) *sink = acc;
}

class Events {
public:
    Events() {
        PMPP_CUDA_CHECK(cudaEventCreate(&start));
        PMPP_CUDA_CHECK(cudaEventCreate(&stop));
        PMPP_CUDA_CHECK(cudaEventCreate(&idle));
        PMPP_CUDA_CHECK(cudaEventCreate(&awake));
    }
    ~Events() {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        cudaEventDestroy(idle);
        cudaEventDestroy(awake);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    cudaEvent_t start = nullptr, stop = nullptr, idle = nullptr, awake = nullptr;
};

float elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
    float ms = 0;
    PMPP_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
    return ms;
}

// After the stop event: the host waits for it, stamps an `awake` event (at once: the stream is
// empty), waits until the whole device is idle, then stamps an `idle` event. On an idle device the
// gap awake -> idle is the host's round trip (a few microseconds); a longer gap means work of the
// call was still running on a stream the events do not see. Measured from `awake`, not from
// `stop`: after a long run the host thread may have slept in the wait, and waking it up (tens of
// microseconds, more on a busy machine) is not the call's work (an honest 10 ms kernel was taken
// for a late one in 2 of 5 runs when measured from stop).
float tail_after_stop(Events& ev, cudaStream_t stream) {
    PMPP_CUDA_CHECK(cudaEventSynchronize(ev.stop));
    PMPP_CUDA_CHECK(cudaEventRecord(ev.awake, stream));
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    PMPP_CUDA_CHECK(cudaEventRecord(ev.idle, stream));
    PMPP_CUDA_CHECK(cudaEventSynchronize(ev.idle));
    return elapsed_ms(ev.awake, ev.idle);
}

// The longest awake -> idle gap an idle device shows on this machine, measured once per
// process: the median of 41 round trips plus a margin for the host's jitter.
double idle_tail_bound_ms(cudaStream_t stream) {
    static double bound = -1;
    if (bound >= 0) return bound;
    Events ev;
    std::vector<double> tails;
    for (int i = 0; i < 41; ++i) {
        PMPP_CUDA_CHECK(cudaEventRecord(ev.stop, stream));
        tails.push_back(tail_after_stop(ev, stream));
    }
    const Stats s = summarize(tails);
    bound = s.median + std::max(0.02, 3 * (s.p90 - s.median));
    return bound;
}

// One timed run: start event, the call, stop event, then the device drained. Returns the run's
// time: start -> stop, or start -> idle when the call's work outlived the stop event.
double timed_run(Events& ev, const std::function<void()>& run, cudaStream_t stream, double tail_bound, bool& late) {
    PMPP_CUDA_CHECK(cudaEventRecord(ev.start, stream));
    run();
    PMPP_CUDA_CHECK(cudaEventRecord(ev.stop, stream));
    const float tail = tail_after_stop(ev, stream);
    const float ms = elapsed_ms(ev.start, ev.stop);
    // Late: a tail beyond the idle round trip and beyond 1% of the run. The host's own jitter
    // (a thread descheduled between two calls: tens of microseconds on a busy machine) then never
    // makes an honest run of a millisecond or more late; work hidden on another stream gains at
    // most 1% of the run, or the round trip.
    late = tail > std::max(tail_bound, 0.01 * ms);
    return late ? elapsed_ms(ev.start, ev.idle) : ms;
}

std::string late_note(int late, int repeats) {
    return format(
        "in %d of %d timed runs work of the call was still running after it returned (another "
        "stream): those runs are timed until the device was idle",
        late, repeats);
}

}  // namespace

L2Flusher::L2Flusher() {
    int device = 0, l2 = 0, sms = 0;
    PMPP_CUDA_CHECK(cudaGetDevice(&device));
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    blocks_ = 4 * sms;
    bytes_ = std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 8u << 20);
    bytes_ = (bytes_ + 15) / 16 * 16;
    PMPP_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
    PMPP_CUDA_CHECK(cudaMalloc(&sink_, sizeof(unsigned)));
    PMPP_CUDA_CHECK(cudaMemset(buffer_, 0x5A, bytes_));
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}

L2Flusher::~L2Flusher() {
    cudaFree(buffer_);
    cudaFree(sink_);
}

void L2Flusher::flush(cudaStream_t stream) {
    read_everything<<<blocks_, 512, 0, stream>>>(buffer_, bytes_ / sizeof(int4), sink_);
    PMPP_CHECK_LAUNCH();
}

TimedResult time_checked(const TimingOptions& opts, L2Flusher* flusher, const TimedCall& call, cudaStream_t stream) {
    if (!call.run) throw std::logic_error("time_checked: no call to time");
    const double tail_bound = idle_tail_bound_ms(stream);
    Events ev;
    TimedResult result;
    const int repeats = std::max(opts.repeats, 1);
    auto verify = [&](const std::string& which) {
        ++result.runs_checked;
        if (!call.verify) return true;
        CheckResult r = call.verify();
        if (r.ok) return true;
        r.message = which + ": " + r.message;
        result.check = r;
        return false;
    };
    for (int i = 0; i < opts.warmup; ++i) {
        if (call.prepare) call.prepare();
        call.run();
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        if (!verify(format("warm-up run %d of %d", i + 1, opts.warmup))) return result;
    }
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(repeats));
    for (int i = 0; i < repeats; ++i) {
        if (call.prepare) call.prepare();
        if (opts.flush_l2 && flusher != nullptr) flusher->flush(stream);
        bool late = false;
        samples.push_back(timed_run(ev, call.run, stream, tail_bound, late));
        result.late_runs += late;
        if (!verify(format("timed run %d of %d", i + 1, repeats))) break;
    }
    result.ms = summarize(std::move(samples));
    // One slow round trip of the host is noise; most runs late is work on another stream.
    if (result.late_runs * 4 > repeats) result.note = late_note(result.late_runs, repeats);
    return result;
}

Stats time_device(const TimingOptions& opts, L2Flusher* flusher, const std::function<void()>& run,
                  const std::function<void()>& prepare, cudaStream_t stream) {
    return time_checked(opts, flusher, TimedCall{prepare, run, {}}, stream).ms;
}

Stats time_host(const TimingOptions& opts, const std::function<void()>& run, const std::function<void()>& prepare) {
    using clock = std::chrono::steady_clock;
    for (int i = 0; i < opts.warmup; ++i) {
        if (prepare) prepare();
        run();
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<double> samples;
    for (int i = 0; i < std::max(opts.repeats, 1); ++i) {
        if (prepare) prepare();
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const auto t0 = clock::now();
        run();
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());  // GPU work the function left running counts
        const auto t1 = clock::now();
        samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return summarize(std::move(samples));
}

CopyBandwidth measure_copy_bandwidth(std::size_t bytes, const TimingOptions& opts, L2Flusher* flusher) {
    DeviceBuffer<unsigned char> src(bytes), dst(bytes);
    PMPP_CUDA_CHECK(cudaMemset(src.data(), 0x3C, bytes));
    CopyBandwidth result;
    result.bytes = bytes;
    result.ms = time_device(opts, flusher, [&] {
        PMPP_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, 0));
    });
    result.gbs = gigabytes_per_second(2.0 * static_cast<double>(bytes), result.ms.median);
    return result;
}

NvtxRange::NvtxRange(const char* name) { nvtxRangePushA(name); }
NvtxRange::~NvtxRange() { nvtxRangePop(); }

}  // namespace pmpp
