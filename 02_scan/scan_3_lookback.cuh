// scan_3_lookback.cuh: the single-pass scan's look-back (variant 3; shared from the course side
// with 03's fused find_repeats and 06's Onesweep; students do not receive it).
//
// Decoupled look-back (Merrill & Garland 2016): tile t publishes its aggregate as soon as it
// knows it, then one warp walks back over its predecessors 32 at a time, summing aggregates
// until it meets a tile that published its inclusive prefix. Each status is one 64-bit word
// (flag and value together), so a reader that sees the flag sees the value: no fences.
#pragma once

#include "common/primitives/scan.cuh"

#include <cuda/atomic>

namespace scan_primitives {

// ---- decoupled look-back --------------------------------------------------------------------

// A tile's status: flag in the high 32 bits, value in the low 32.
enum : unsigned { kStatusEmpty = 0, kStatusAggregate = 1, kStatusPrefix = 2 };

__device__ __forceinline__ void publish(unsigned long long* status, unsigned flag, unsigned value) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ref(*status);
    ref.store((static_cast<unsigned long long>(flag) << 32) | value, cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned long long read_status(unsigned long long* status) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ref(*status);
    return ref.load(cuda::memory_order_relaxed);
}

// How long a tile waits before it first reads its predecessors' statuses, and between two
// reads of a status that is not ready yet. Spinning warps flood L2 with status reads while the
// memory system is busy with the real data; waiting first lets the nearest predecessors
// publish. Measured on an H200 at 2^28 (NOTES.md): no wait 0.80 ms, 1000 ns 0.72 ms, 2000 ns
// 0.67 ms (CUB: 0.68 ms; CUB waits too, about 1.2 us). Small grids skip the waits: with few
// tiles the predecessors are ready at once and the wait would only add latency.
struct LookBackWaits {
    unsigned first_ns = 2000;
    unsigned poll_ns = 300;
    unsigned min_grid = 500;  // blocks; below this, no waits
};

// Called by one whole warp of tile `tile` (> 0) after it published its aggregate. Returns the
// sum of every element before the tile. Safe because tile numbers are handed out in the order
// blocks start (an atomic counter, not blockIdx): every predecessor is running or done, and
// publishing an aggregate never waits, so the loop below always ends. Lane k looks at tile
// (nearest - k): 32 predecessors per round.
__device__ __forceinline__ unsigned look_back(unsigned long long* statuses, unsigned tile, LookBackWaits waits = {}) {
    const unsigned lane = threadIdx.x & 31u;
    const bool wait = gridDim.x >= waits.min_grid;
    if (wait) __nanosleep(waits.first_ns);
    unsigned exclusive = 0;
    long long nearest = static_cast<long long>(tile) - 1;
    while (true) {
        const long long pred = nearest - lane;
        unsigned long long s =
            pred >= 0 ? read_status(&statuses[pred]) : (static_cast<unsigned long long>(kStatusPrefix) << 32);
        while (__any_sync(0xFFFFFFFFu, (s >> 32) == kStatusEmpty)) {
            if (wait) __nanosleep(waits.poll_ns);
            if ((s >> 32) == kStatusEmpty) s = read_status(&statuses[pred]);
        }
        const unsigned prefix_lanes = __ballot_sync(0xFFFFFFFFu, (s >> 32) == kStatusPrefix);
        const unsigned value = static_cast<unsigned>(s);
        if (prefix_lanes != 0) {
            // The aggregates nearer than the first inclusive prefix, and that prefix.
            const unsigned first = static_cast<unsigned>(__ffs(prefix_lanes)) - 1;
            return exclusive + warp_sum(lane <= first ? value : 0u);
        }
        exclusive += warp_sum(value);
        nearest -= 32;
    }
}

}  // namespace scan_primitives
