// mandelbrot_device.cuh: the device building blocks the reference kernels share.
//
//   counting divergence     count_step / warp_sum            (variants 1 and 2, profiled)
//   one step, exactly       step / escaped                    (variants 3, 4, 5)
//   unrolled with rollback  advance_unrolled                  (variant 3's idea)
//   shortcuts               inside_cardioid_or_bulb, returned (variant 4's idea)
//   every trick, per pixel  ShortcutEngine, escape_time_fast  (variant 4's engine; variant 5)
//   the work queue          render_from_queue                 (variant 2's idea)
//   one pixel per thread    render_per_pixel                  (variants 3 and 4)
//
// The fast kernels do their arithmetic with explicit intrinsics (__fmaf_rn, __fmul_rn, ...):
// the compiler may not fuse or split them, so an unrolled run and its replay compute the same
// orbit bit for bit, which is what makes the restored escape count exact.
#pragma once

#include "mandelbrot.h"

#include "common/cuda_check.h"
#include "common/device_limits.h"

#include <cuda_runtime.h>

namespace mandelbrot {

constexpr unsigned kFullMask = 0xffffffffu;

// ---- Counting divergence ---------------------------------------------------------------------

// Called by every lane that executes one iteration step: the lowest active lane adds the step
// to its warp's count (32 lane slots, and the number of lanes that did the step).
__device__ __forceinline__ void count_step(unsigned lane, unsigned long long& slots, unsigned long long& lanes) {
    const unsigned active = __activemask();
    if (lane == static_cast<unsigned>(__ffs(active) - 1)) {
        slots += 32;
        lanes += static_cast<unsigned>(__popc(active));
    }
}

// Sum over the 32 lanes of a converged warp; every lane gets the total.
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullMask, v, offset);
    return v;
}

// ---- One step, with the rounding spelled out ------------------------------------------------

__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }

// z <- z^2 + c: 7 flops in 4 instructions (one multiply, three fused multiply-adds).
template <typename T>
__device__ __forceinline__ void step(T& zr, T& zi, T cr, T ci) {
    const T zrzi = mul_rn(zr, zi);
    zr = fma_rn(zr, zr, fma_rn(-zi, zi, cr));  // zr^2 - zi^2 + cr
    zi = fma_rn(zrzi, static_cast<T>(2), ci);  // 2 zr zi + ci
}

// |z|^2 > 4, written so that inf and NaN count as escaped: an orbit that escaped a few steps
// ago has overflowed, and a comparison with NaN is false.
template <typename T>
__device__ __forceinline__ bool escaped(T zr, T zi) {
    return !(fma_rn(zr, zr, mul_rn(zi, zi)) <= static_cast<T>(4));
}

// ---- Unrolled iteration with the exact count restored ---------------------------------------

#ifndef MANDELBROT_UNROLL
#define MANDELBROT_UNROLL 16  // steps between escape tests: 16 beat 4 and 8 on every view (NOTES.md)
#endif
constexpr int kUnroll = MANDELBROT_UNROLL;
static_assert(kUnroll >= 1 && kUnroll <= 64, "MANDELBROT_UNROLL out of range");

// An orbit after k steps; z_k has not escaped.
template <typename T>
struct Orbit {
    T cr, ci, zr, zi;
    int k;
};

template <typename T>
__device__ __forceinline__ Orbit<T> orbit_start(T cr, T ci) {
    return Orbit<T>{cr, ci, static_cast<T>(0), static_cast<T>(0), 0};
}

// kUnroll steps without a test, then one test. Once |z| > 2 (with |z| >= |c|, which holds at
// the first escape) |z| only grows, so an orbit that escaped inside the block is still outside
// at its end. Then, or when the block reaches max_iter, step again one at a time from the
// block's start to find the exact count. Returns true when the orbit is finished.
template <typename T>
__device__ __forceinline__ bool advance_unrolled(Orbit<T>& o, int max_iter, std::uint32_t& count) {
    const T zr0 = o.zr, zi0 = o.zi;
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) step(o.zr, o.zi, o.cr, o.ci);
    const bool out = escaped(o.zr, o.zi);
    if (!out && o.k + kUnroll < max_iter) {
        o.k += kUnroll;
        return false;
    }
    const int limit = max_iter - o.k < kUnroll ? max_iter - o.k : kUnroll;
    T zr = zr0, zi = zi0;
    for (int j = 1; j <= limit; ++j) {
        step(zr, zi, o.cr, o.ci);
        if (escaped(zr, zi)) {
            count = static_cast<std::uint32_t>(o.k + j);
            return true;
        }
    }
    count = static_cast<std::uint32_t>(o.k + limit);  // no escape before max_iter
    return true;
}

// ---- Shortcuts --------------------------------------------------------------------------------

// The main cardioid and the period-2 bulb hold about 90% of the set's area; their points never
// escape, so their count is max_iter without a single step.
template <typename T>
__device__ __forceinline__ bool inside_cardioid_or_bulb(T cr, T ci) {
    const T x = cr - static_cast<T>(0.25), y2 = ci * ci;
    const T q = x * x + y2;
    if (q * (q + x) <= static_cast<T>(0.25) * y2) return true;  // main cardioid
    const T xb = cr + static_cast<T>(1);
    return xb * xb + y2 <= static_cast<T>(0.0625);  // disc of radius 1/4 around -1
}

// Periodicity (Brent): remember z at k = 2U, 4U, 8U, ...; an orbit that comes back to a
// remembered z exactly repeats itself forever in this arithmetic, so it never escapes.
template <typename T>
struct Remembered {
    T zr, zi;
    int next_k;
};

template <typename T>
__device__ __forceinline__ Remembered<T> remember_start() {
    return Remembered<T>{static_cast<T>(0), static_cast<T>(0), 2 * kUnroll};
}

// Call after an advance_unrolled that did not finish.
template <typename T>
__device__ __forceinline__ bool returned(const Orbit<T>& o, Remembered<T>& r) {
    if (o.zr == r.zr && o.zi == r.zi) return true;
    if (o.k >= r.next_k) {
        r.zr = o.zr;
        r.zi = o.zi;
        r.next_k *= 2;
    }
    return false;
}

// Variant 4's engine: the closed-form tests before the first step, the unrolled blocks with
// the cycle test after each. Here rather than in mandelbrot_4_shortcuts.cu because variant 5
// uses it too, one pixel at a time (escape_time_fast).
template <typename T>
struct ShortcutEngine {
    struct Orbit {
        mandelbrot::Orbit<T> z;
        Remembered<T> remembered;
    };

    __device__ bool start(Orbit& o, T cr, T ci, int max_iter, std::uint32_t& count) const {
        if (max_iter <= 0) {
            count = 0;
            return true;
        }
        if (inside_cardioid_or_bulb(cr, ci)) {
            count = static_cast<std::uint32_t>(max_iter);
            return true;
        }
        o.z = orbit_start(cr, ci);
        o.remembered = remember_start<T>();
        return false;
    }
    __device__ bool advance(Orbit& o, int max_iter, std::uint32_t& count) const {
        if (advance_unrolled(o.z, max_iter, count)) return true;
        if (!returned(o.z, o.remembered)) return false;
        count = static_cast<std::uint32_t>(max_iter);
        return true;
    }
    __device__ void finish(unsigned) const {}
};

template <typename T>
__device__ std::uint32_t escape_time_fast(T cr, T ci, int max_iter) {
    const ShortcutEngine<T> engine{};
    typename ShortcutEngine<T>::Orbit o;
    std::uint32_t count = 0;
    if (engine.start(o, cr, ci, max_iter, count)) return count;
    while (!engine.advance(o, max_iter, count)) {}
    return count;
}

// ---- The work queue: persistent threads that refill idle lanes --------------------------------

#ifndef MANDELBROT_REFILL_THRESHOLD
#define MANDELBROT_REFILL_THRESHOLD 8  // idle lanes a warp waits for before it refills them
#endif
constexpr int kRefillThreshold = MANDELBROT_REFILL_THRESHOLD;
static_assert(kRefillThreshold >= 1 && kRefillThreshold <= 32, "MANDELBROT_REFILL_THRESHOLD must be in [1, 32]");
constexpr int kQueueThreads = 256;

// The next pixel to hand out, and the blocks that have finished. Every launch leaves both at
// zero for the next one (the last block out resets them), so no memset is needed per launch.
struct WorkQueue {
    unsigned next;
    unsigned blocks_done;
};

// The process's queue in device memory, zeroed once. Launches are ordered on the default
// stream, so they never share it at the same time.
inline WorkQueue* work_queue() {
    static WorkQueue* queue = [] {
        WorkQueue* q = nullptr;
        PMPP_CUDA_CHECK(cudaMalloc(&q, sizeof(WorkQueue)));
        PMPP_CUDA_CHECK(cudaMemset(q, 0, sizeof(WorkQueue)));
        return q;
    }();
    return queue;
}

// Each lane holds one pixel's orbit. The warp advances all of them together (Engine::advance:
// a few steps) and writes the finished ones; when at least kRefillThreshold lanes are idle,
// one atomic on the queue gives them the next pixels. Lanes of a warp thus stay busy however
// different the counts of neighbouring pixels are, instead of waiting for the slowest one.
//
// Engine: a struct with `Orbit`, `start(orbit, cr, ci, max_iter, count)` and
// `advance(orbit, max_iter, count)` (both return true when the pixel is finished, with its
// count) and `finish(lane)` (profiling). The engine is the variant's idea; this loop is shared.
template <typename T, typename Engine>
__global__ void __launch_bounds__(kQueueThreads)
    render_from_queue(Frame<T> f, std::uint32_t* counts, WorkQueue* queue, Engine engine) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned total = static_cast<unsigned>(f.pixels());
    typename Engine::Orbit orbit{};
    unsigned pixel = total;  // `total`: this lane has no pixel
    bool queue_open = true;  // the same in every lane of a warp
    for (;;) {
        const unsigned idle = __ballot_sync(kFullMask, pixel >= total);
        if (queue_open && __popc(idle) >= kRefillThreshold) {
            unsigned first = 0;
            if (lane == 0) first = atomicAdd(&queue->next, static_cast<unsigned>(__popc(idle)));
            first = __shfl_sync(kFullMask, first, 0);
            queue_open = first + static_cast<unsigned>(__popc(idle)) < total;
            if (pixel >= total) {
                pixel = first + static_cast<unsigned>(__popc(idle & ((1u << lane) - 1u)));  // in lane order
                if (pixel < total) {
                    std::uint32_t count = 0;
                    if (engine.start(orbit, f.re(static_cast<int>(pixel % f.width)),
                                     f.im(static_cast<int>(pixel / f.width)), f.max_iter, count)) {
                        counts[pixel] = count;  // finished without iterating (a shortcut)
                        pixel = total;
                    }
                }
            }
            continue;
        }
        if (idle == kFullMask) break;  // the queue is empty and every lane is done
        if (pixel < total) {
            std::uint32_t count = 0;
            if (engine.advance(orbit, f.max_iter, count)) {
                counts[pixel] = count;
                pixel = total;
            }
        }
    }
    engine.finish(lane);

    // The last block out resets the queue for the next launch: every block has taken its last
    // pixel before it counts itself done.
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&queue->blocks_done, 1u) == gridDim.x - 1) {
            queue->next = 0;
            queue->blocks_done = 0;
        }
    }
}

// Enough blocks to fill every SM once (persistent threads), fewer for a small image.
template <typename T, typename Engine>
void launch_from_queue(const View& view, std::uint32_t* counts, const Engine& engine) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    static const int resident_blocks = [] {
        return pmpp::device_limits().sm_count *
               pmpp::resident_blocks_per_sm(render_from_queue<T, Engine>, kQueueThreads, 0);
    }();
    const std::size_t pixels = static_cast<std::size_t>(view.image_width) * view.image_height;
    const std::size_t needed = (pixels + kQueueThreads - 1) / kQueueThreads;
    const int blocks = static_cast<int>(needed < static_cast<std::size_t>(resident_blocks) ? needed : resident_blocks);
    render_from_queue<T, Engine><<<blocks, kQueueThreads>>>(make_frame<T>(view), counts, work_queue(), engine);
    PMPP_CHECK_LAUNCH();
}

// One pixel per thread, no queue: each lane runs the engine on its own pixel to the end. A warp
// is as slow as its slowest pixel, but where its pixels take the same time (inside the set) it
// saves the queue's bookkeeping on every trip (the vote, the count of idle lanes, the branch).
template <typename T, typename Engine>
__global__ void __launch_bounds__(256) render_per_pixel(Frame<T> f, std::uint32_t* counts, Engine engine) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < f.width && y < f.height) {
        typename Engine::Orbit orbit{};
        std::uint32_t count = 0;
        if (!engine.start(orbit, f.re(x), f.im(y), f.max_iter, count))
            while (!engine.advance(orbit, f.max_iter, count)) {}
        counts[static_cast<std::size_t>(y) * f.width + x] = count;
    }
}

template <typename T, typename Engine>
void launch_per_pixel(const View& view, std::uint32_t* counts, const Engine& engine) {
    if (view.image_width <= 0 || view.image_height <= 0) return;
    const dim3 block(32, 8);  // a warp: 32 neighbouring pixels of one row
    const dim3 grid((view.image_width + 31) / 32, (view.image_height + 7) / 8);
    render_per_pixel<T, Engine><<<grid, block>>>(make_frame<T>(view), counts, engine);
    PMPP_CHECK_LAUNCH();
}

}  // namespace mandelbrot
