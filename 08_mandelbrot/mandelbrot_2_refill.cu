// mandelbrot_2_refill.cu: divergence reduced. Idea over the seed kernel: a lane whose pixel has
// escaped does not wait for the slowest lane of its warp; it takes the next pixel from a work
// queue. Persistent threads (one grid that fills the GPU once) loop until the queue is empty;
// the loop is render_from_queue in mandelbrot_device.cuh (variants 3 and 4 can use it too: the
// sweep found it slower for them, NOTES.md).
// PMPP 4.5 (control divergence) and 4.7 (occupancy: the persistent grid is sized by it).
//
// The iteration itself is the seed's (default contraction), a few steps per visit of the
// warp; between visits, when at least 8 lanes are idle, the warp refills them with one
// atomicAdd. The cost: a vote per visit, an atomic per refill, and pixels written out of
// order. It pays where neighbouring pixels have very different counts (the boundary views);
// where a warp's pixels agree anyway (inside the set), it is pure overhead.
// Measured (H200, 2026-11-30, 3840 wide): warp efficiency seahorse 50.1% -> 85.1%, elephant 90.9%
// -> 95.5%, deep 79.3% -> 91.7%; as fast as the seed on seahorse (0.858 ms against 0.866), slower
// everywhere else (full view 0.46 ms against 0.23).
#include "mandelbrot.h"
#include "mandelbrot_device.cuh"

namespace mandelbrot {

namespace {

constexpr int kStepsPerVisit = 4;  // iteration steps between two refill checks

template <typename T, bool kProfile>
struct StepEngine {
    using Orbit = mandelbrot::Orbit<T>;
    WarpActivity* activity;
    unsigned long long slots, lanes;  // profiling: this lane's share of its warp's count

    __device__ bool start(Orbit& o, T cr, T ci, int, std::uint32_t&) {
        o = orbit_start(cr, ci);
        return false;
    }
    __device__ bool advance(Orbit& o, int max_iter, std::uint32_t& count) {
        for (int j = 0; j < kStepsPerVisit; ++j) {
            if (o.k >= max_iter || o.zr * o.zr + o.zi * o.zi > static_cast<T>(4)) {
                count = static_cast<std::uint32_t>(o.k);
                return true;
            }
            const T t = o.zr * o.zr - o.zi * o.zi + o.cr;
            o.zi = static_cast<T>(2) * o.zr * o.zi + o.ci;
            o.zr = t;
            ++o.k;
            if constexpr (kProfile) count_step(threadIdx.x % 32, slots, lanes);
        }
        return false;
    }
    __device__ void finish(unsigned lane) {
        if constexpr (kProfile) {
            const unsigned long long warp_slots = warp_sum(slots), warp_lanes = warp_sum(lanes);
            if (lane == 0) {
                atomicAdd(&activity->lane_iterations, warp_lanes);
                atomicAdd(&activity->lane_slots, warp_slots);
            }
        }
    }
};

template <bool kProfile>
void run(const View& view, Precision precision, std::uint32_t* counts, WarpActivity* activity) {
    if (precision == Precision::Float)
        launch_from_queue<float>(view, counts, StepEngine<float, kProfile>{activity, 0, 0});
    else
        launch_from_queue<double>(view, counts, StepEngine<double, kProfile>{activity, 0, 0});
}

}  // namespace

void mandelbrot_refill(const View& view, Precision precision, std::uint32_t* counts) {
    run<false>(view, precision, counts, nullptr);
}

void mandelbrot_refill_profiled(const View& view, Precision precision, std::uint32_t* counts, WarpActivity* activity) {
    run<true>(view, precision, counts, activity);
}

}  // namespace mandelbrot
