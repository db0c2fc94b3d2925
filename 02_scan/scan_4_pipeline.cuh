// scan_4_pipeline.cuh: the parts of variant 4 (scan_4_persistent.cu) that a kernel needs to
// run as a grid of resident blocks, each loading its next tiles into shared memory while it
// works on the current one: the shape of a tile and its stages, the loads, the look-back's
// waits and the cooperative launch. Used by variant 4 and tune/sweep_persistent.cu; 03's fused
// find_repeats on it was slower than without it (03's NOTES.md). Course side, as
// scan_3_lookback.cuh: students do not receive it.
#pragma once

#include "scan_3_lookback.cuh"

#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/primitives/async_copy.cuh"
#include "common/primitives/scan.cuh"

#include <algorithm>
#include <climits>
#include <cstddef>

namespace scan::persistent {

using namespace scan_primitives;

template <int THREADS, int ROUNDS, int STAGES>
struct Shape {
    static constexpr int kThreads = THREADS, kRounds = ROUNDS, kStages = STAGES;
    static constexpr std::size_t kTile = 4 * static_cast<std::size_t>(THREADS) * ROUNDS;  // ints
    static constexpr std::size_t kStageBytes = static_cast<std::size_t>(STAGES) * ROUNDS * THREADS * sizeof(uint4);
    // All its shared memory: the stages and the tile scan's.
    static constexpr std::size_t kSharedBytes = kStageBytes + sizeof(TileScanStorage<THREADS, ROUNDS>) + 16;
};

// The look-back's waits: short ones, as measured (tune/sweep_persistent.cu), from 500 tiles;
// below that the predecessors are ready at once and any wait only adds latency.
inline LookBackWaits waits_for(std::size_t tiles) {
    return tiles >= 500 ? LookBackWaits{300, 100, 0} : LookBackWaits{0, 0, UINT_MAX};
}

// Word (stage, round) of this thread: thread t copies, reads and rewrites only the words
// r * THREADS + t of each stage, so its own wait_for_copies makes them visible to it, and no
// barrier is needed between a copy and its use.
template <class S>
__device__ __forceinline__ uint4& word(uint4* stages, int stage, int round) {
    return stages[(stage * S::kRounds + round) * S::kThreads + threadIdx.x];
}

// Starts loading `tile` into `stage`, as one group of copies (an empty group past the last tile,
// so that every thread counts the same groups). The partial last tile is loaded element by
// element, zeros past n, through registers: complete on return.
template <class S>
__device__ __forceinline__ void start_loading(const unsigned* in, std::size_t n, std::size_t tiles, std::size_t tile,
                                              uint4* stages, int stage) {
    if (tile < tiles) {
        const std::size_t tile_first = tile * S::kTile;
        const bool full = tile_first + S::kTile <= n;
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) {
            const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * S::kThreads + threadIdx.x);
            if (full) {
                copy_16_bytes_async(&word<S>(stages, stage, r), in + first);
            } else {
                uint4 w;
                w.x = first < n ? in[first] : 0u;
                w.y = first + 1 < n ? in[first + 1] : 0u;
                w.z = first + 2 < n ? in[first + 2] : 0u;
                w.w = first + 3 < n ? in[first + 3] : 0u;
                word<S>(stages, stage, r) = w;
            }
        }
    }
    commit_copies();
}

inline std::size_t tiles_of(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile; }

// Whether this GPU can launch cooperative grids (asked once).
inline bool cooperative_launch_supported() {
    static const bool supported = [] {
        int device = 0, value = 0;
        PMPP_CUDA_CHECK(cudaGetDevice(&device));
        PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrCooperativeLaunch, device));
        return value != 0;
    }();
    return supported;
}

// The grid of a persistent kernel: as many blocks as the GPU holds at once (the occupancy, after
// the kernel's opt-in to its stages' shared memory), at most blocks_per_sm an SM, at most one a
// tile, at most max_grid when it is > 0. Every block of that grid is resident at once, which a
// cooperative launch then guarantees.
template <class S, auto KERNEL>
std::size_t resident_grid(const char* what, int blocks_per_sm, std::size_t tiles, std::size_t max_grid = 0) {
    static const int resident = [what] {
        pmpp::allow_dynamic_shared_memory(KERNEL, S::kStageBytes, what);
        return pmpp::resident_blocks_per_sm(KERNEL, S::kThreads, S::kStageBytes);
    }();
    const std::size_t sms = static_cast<std::size_t>(pmpp::device_limits().sm_count);
    std::size_t grid = std::min<std::size_t>(tiles, sms * static_cast<std::size_t>(std::min(blocks_per_sm, resident)));
    return max_grid > 0 ? std::min(grid, max_grid) : grid;
}

}  // namespace scan::persistent
