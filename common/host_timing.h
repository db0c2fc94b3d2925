// host_timing.h: two ways a harness times host code, on top of timing.h's time_host.
//   time_host_checked   a synchronous host call (a from-host function: copies in, kernel, copies
//                       out) with every run checked, as time_checked checks device calls
//   time_cpu_for_scale  the CPU reference's benchmark row: one thread, a few runs, for scale
#pragma once

#include "common/exercise.h"
#include "common/report.h"
#include "common/timing.h"

#include <algorithm>
#include <functional>
#include <string>

namespace pmpp {

// time_host with call.verify after every run (time_host has none): the untimed prepare before
// each run first verifies the run before it, then calls call.prepare; the last run is verified
// after the timing. The first wrong run is kept, named as time_checked names it ("warm-up run 1
// of 1: ...", "timed run 3 of 5: ..."); later runs are still timed, not verified.
inline TimedResult time_host_checked(const TimingOptions& t, const TimedCall& call) {
    TimedResult result;
    int runs_done = 0;
    auto verify_last_run = [&] {
        if (runs_done == 0 || !result.check.ok) return;  // nothing ran yet, or a wrong run is already kept
        ++result.runs_checked;
        CheckResult r = call.verify();
        if (r.ok) return;
        const int index = runs_done - 1;
        r.message = (index < t.warmup ? format("warm-up run %d of %d", index + 1, t.warmup)
                                      : format("timed run %d of %d", index - t.warmup + 1, std::max(t.repeats, 1))) +
                    ": " + r.message;
        result.check = r;
    };
    result.ms = time_host(
        t,
        [&] {
            call.run();
            ++runs_done;
        },
        [&] {
            verify_last_run();
            if (call.prepare) call.prepare();
        });
    verify_last_run();
    return result;
}

// The CPU reference's row: `run` on one host thread, at most 5 runs after one warm-up
// (BenchContext::slow_timing), beside the GPU's rows for scale.
inline Measurement time_cpu_for_scale(const BenchContext& ctx, double bytes, double items,
                                      const std::function<void()>& run) {
    Measurement m;
    m.ms = time_host(ctx.slow_timing(), run);
    m.bytes = bytes;
    m.items = items;
    m.note = "one CPU thread, for scale";
    return m;
}

}  // namespace pmpp
