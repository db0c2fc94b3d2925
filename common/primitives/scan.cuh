// common/primitives/scan.cuh: the warp, block and tile scans every fast scan of the course is
// built from (02's variants 2 and 3, 03's fused find_repeats, 04's tiled and binned renderers,
// 06's radix sorts). A README may tell students to use them; the look-back that variant 3 adds is
// 02_scan/scan_3_lookback.cuh's, which students do not receive.
//
//  - warp_inclusive_scan: Kogge-Stone within a warp through register shuffles (PMPP 11.2):
//    log2(32) = 5 steps, no shared memory, no barrier;
//  - block_exclusive_scan: each warp scans, warp totals are scanned by warp 0, added back
//    (PMPP 11.5's hierarchy, one level down: inside a block);
//  - load_tile / store_tile / tile_exclusive_scan: a tile held as rounds of 16-byte words,
//    so that every access of a warp is 512 contiguous bytes.
//
// Arithmetic is in unsigned: int32 sums wrap around, which is defined for unsigned only.
#pragma once

#include <cstdint>

namespace scan_primitives {

__device__ __forceinline__ unsigned warp_inclusive_scan(unsigned v) {
    const unsigned lane = threadIdx.x & 31u;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const unsigned t = __shfl_up_sync(0xFFFFFFFFu, v, d);
        if (lane >= d) v += t;
    }
    return v;
}

__device__ __forceinline__ unsigned warp_sum(unsigned v) {
#pragma unroll
    for (unsigned d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, d);
    return v;
}

// Shared memory a block_exclusive_scan of THREADS threads needs.
template <int THREADS>
struct BlockScanStorage {
    unsigned warp_prefix[THREADS / 32];
    unsigned total;
};

// Exclusive scan of one value per thread across the block. Returns the thread's prefix and
// sets `total` to the block's sum. Every thread must call it; it ends with a barrier, so the
// storage may be reused at once.
template <int THREADS>
__device__ __forceinline__ unsigned block_exclusive_scan(unsigned v, unsigned& total, BlockScanStorage<THREADS>& s) {
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 32 of them");
    constexpr int kWarps = THREADS / 32;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned inclusive = warp_inclusive_scan(v);
    if (lane == 31) s.warp_prefix[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const unsigned w = lane < kWarps ? s.warp_prefix[lane] : 0u;
        const unsigned w_inclusive = warp_inclusive_scan(w);
        if (lane < kWarps) s.warp_prefix[lane] = w_inclusive - w;
        if (lane == kWarps - 1) s.total = w_inclusive;
    }
    __syncthreads();
    const unsigned result = inclusive - v + s.warp_prefix[warp];
    total = s.total;
    __syncthreads();
    return result;
}

// ---- a tile in rounds of 16-byte words ------------------------------------------------------
//
// A tile of THREADS * ROUNDS uint4 (4 * THREADS * ROUNDS elements): in round r, thread t holds
// the uint4 at position r * THREADS + t. Consecutive threads touch consecutive 16-byte words,
// so each warp instruction reads or writes 512 contiguous bytes (full sectors, full lines).
// The price: a thread's elements are not contiguous, so the block scan runs over all rounds
// at once (tile_exclusive_scan below), in the order round-major, then thread.

template <int THREADS, int ROUNDS>
struct TileScanStorage {
    unsigned warp_prefix[ROUNDS][THREADS / 32];
    unsigned round_offset[ROUNDS];
    unsigned total;
};

// Loads a tile starting at element `tile_first`: 16-byte loads when the tile is whole and
// aligned, guarded element loads (zero beyond n) otherwise.
template <int THREADS, int ROUNDS, bool VECTOR>
__device__ __forceinline__ void load_tile(const unsigned* in, std::size_t tile_first, std::size_t n, bool full,
                                          uint4 (&v)[ROUNDS]) {
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
        if (VECTOR && full) {
            v[r] = *reinterpret_cast<const uint4*>(in + first);
        } else {
            v[r].x = first < n ? in[first] : 0u;
            v[r].y = first + 1 < n ? in[first + 1] : 0u;
            v[r].z = first + 2 < n ? in[first + 2] : 0u;
            v[r].w = first + 3 < n ? in[first + 3] : 0u;
        }
    }
}

template <int THREADS, int ROUNDS, bool VECTOR>
__device__ __forceinline__ void store_tile(unsigned* out, std::size_t tile_first, std::size_t n, bool full,
                                           const uint4 (&v)[ROUNDS]) {
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
        if (VECTOR && full) {
            *reinterpret_cast<uint4*>(out + first) = v[r];
        } else {
            if (first < n) out[first] = v[r].x;
            if (first + 1 < n) out[first + 1] = v[r].y;
            if (first + 2 < n) out[first + 2] = v[r].z;
            if (first + 3 < n) out[first + 3] = v[r].w;
        }
    }
}

// Exclusive scan over the tile, given each thread's sum in each round: prefix[r] is the sum of
// every element before this thread's word of round r; total is the tile's sum. Every thread
// must call it; it ends with a barrier.
template <int THREADS, int ROUNDS>
__device__ __forceinline__ void tile_exclusive_scan(const unsigned (&sums)[ROUNDS], unsigned (&prefix)[ROUNDS],
                                                    unsigned& total, TileScanStorage<THREADS, ROUNDS>& s) {
    constexpr int kWarps = THREADS / 32;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned inclusive[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        inclusive[r] = warp_inclusive_scan(sums[r]);
        if (lane == 31) s.warp_prefix[r][warp] = inclusive[r];
    }
    __syncthreads();
    if (warp == 0) {
        unsigned running = 0;  // sum of the rounds before r
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const unsigned w = lane < kWarps ? s.warp_prefix[r][lane] : 0u;
            const unsigned w_inclusive = warp_inclusive_scan(w);
            if (lane < kWarps) s.warp_prefix[r][lane] = w_inclusive - w;
            if (lane == 0) s.round_offset[r] = running;
            running += __shfl_sync(0xFFFFFFFFu, w_inclusive, 31);
        }
        if (lane == 0) s.total = running;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) prefix[r] = s.round_offset[r] + s.warp_prefix[r][warp] + inclusive[r] - sums[r];
    total = s.total;
    __syncthreads();
}

}  // namespace scan_primitives
