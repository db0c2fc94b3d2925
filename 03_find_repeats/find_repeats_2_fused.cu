// find_repeats_2_fused.cu: flags, scan and compaction in one pass (the single-pass scan of
// 02_scan/scan_3_single_pass.cu with the flags computed on the fly).
//
// Idea over find_repeats_1_scan: the flags and the places never touch memory. Each block
// loads its tile of a (in rounds of 16-byte words, 512 contiguous bytes per warp instruction),
// computes its flags in registers, scans them across the block, gets the count of repeats
// before its tile by decoupled look-back (02_scan/scan_3_lookback.cuh), stages the tile's
// repeat indices in shared memory and writes them out as one contiguous, coalesced run.
// Traffic: read a once (4 bytes per element), write the indices: a quarter of variant 1's.
// The last tile publishes the total count.
#include "find_repeats.h"

#include "../02_scan/scan_3_lookback.cuh"

#include "common/cuda_check.h"

#include <cstdint>

namespace find_repeats {

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 4;  // uint4 per thread: 16 elements per thread, 4096 per tile
constexpr std::size_t kTile = 4 * static_cast<std::size_t>(kThreads) * kRounds;

std::size_t tiles_of(std::size_t n) { return (n + kTile - 1) / kTile; }

template <bool VECTOR>
__global__ void __launch_bounds__(kThreads)
    find_repeats_single_pass(const unsigned* a, std::size_t n, int* indices, unsigned* tile_counter,
                             unsigned* total_count, unsigned long long* statuses) {
    using namespace scan_primitives;
    __shared__ TileScanStorage<kThreads, kRounds> storage;
    __shared__ unsigned tile_id, tile_prefix;
    __shared__ int staged[kTile];  // the tile's repeat indices, in order
    if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = tile_id;
    const std::size_t tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;
    const unsigned lane = threadIdx.x & 31u;

    uint4 v[kRounds];
    load_tile<kThreads, kRounds, VECTOR>(a, tile_first, n, full, v);
    unsigned flags[kRounds], counts[kRounds], places[kRounds];
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * kThreads + threadIdx.x);
        // The element after this word: the next lane's first, or (last lane) read from memory.
        unsigned next = __shfl_down_sync(0xFFFFFFFFu, v[r].x, 1);
        if (lane == 31) next = first + 4 < n ? a[first + 4] : 0u;
        const unsigned e[5] = {v[r].x, v[r].y, v[r].z, v[r].w, next};
        flags[r] = 0;  // bit c: element first + c starts a repeat
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (first + c + 1 < n && e[c] == e[c + 1]) flags[r] |= 1u << c;
        counts[r] = __popc(flags[r]);
    }
    unsigned tile_count;
    tile_exclusive_scan<kThreads, kRounds>(counts, places, tile_count, storage);

    if (threadIdx.x < 32) {
        unsigned before = 0;
        if (tile == 0) {
            if (threadIdx.x == 0) publish(&statuses[0], kStatusPrefix, tile_count);
        } else {
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusAggregate, tile_count);
            before = look_back(statuses, tile);
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + tile_count);
        }
        if (threadIdx.x == 0) {
            tile_prefix = before;
            if (tile + 1 == gridDim.x) *total_count = before + tile_count;
        }
    }
    // Stage, then write the tile's run of indices with consecutive threads on consecutive words.
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * kThreads + threadIdx.x);
        unsigned slot = places[r];
        for (unsigned f = flags[r]; f != 0; f &= f - 1) staged[slot++] = static_cast<int>(first + __ffs(f) - 1);
    }
    __syncthreads();
    int* out = indices + tile_prefix;
    for (unsigned j = threadIdx.x; j < tile_count; j += kThreads) out[j] = staged[j];
}

}  // namespace

// The total count, the tile counter, then one status word per tile.
std::size_t find_repeats_fused_workspace_bytes(std::size_t n) { return (2 + tiles_of(n)) * sizeof(unsigned long long); }

std::size_t find_repeats_fused(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n < 2) return 0;
    const std::size_t tiles = tiles_of(n);
    auto* words = static_cast<unsigned long long*>(workspace);
    PMPP_CUDA_CHECK(cudaMemsetAsync(words, 0, (2 + tiles) * sizeof(unsigned long long)));
    auto* total = reinterpret_cast<unsigned*>(words);
    auto* counter = reinterpret_cast<unsigned*>(words + 1);
    const auto* src = reinterpret_cast<const unsigned*>(a);
    if (reinterpret_cast<std::uintptr_t>(a) % 16 == 0)
        find_repeats_single_pass<true>
            <<<static_cast<unsigned>(tiles), kThreads>>>(src, n, indices, counter, total, words + 2);
    else
        find_repeats_single_pass<false>
            <<<static_cast<unsigned>(tiles), kThreads>>>(src, n, indices, counter, total, words + 2);
    PMPP_CHECK_LAUNCH();
    unsigned count = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&count, total, sizeof(unsigned), cudaMemcpyDeviceToHost));
    return count;
}

}  // namespace find_repeats
