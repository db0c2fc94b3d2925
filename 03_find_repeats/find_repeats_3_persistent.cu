// find_repeats_3_persistent.cu: the fused pass with blocks that stay, and load ahead (02's
// variant 4, 02_scan/scan_4_persistent.cu, with the flags counted in place of the sums).
//
// Idea over find_repeats_2_fused: there a block loads its tile, counts its repeats, waits for
// its look-back and writes; while it waits, its SM loads nothing. Here the grid is as large as
// the GPU holds at once, block b takes tiles b, b + G, b + 2G, ... (G blocks), and its next
// tiles come into shared memory (cp.async, three stages) while it works:
//   iteration k: start loading tile k + 2; wait for tile k + 1, count its repeats and publish
//   the count; look back for tile k (counted in iteration k - 1); write tile k's indices.
// The count of a tile is published before its block waits for anything, which is what keeps
// the look-backs from chaining (02's NOTES.md, "Persistent blocks"). The indices are written
// straight from registers, not staged: a warp's indices are consecutive in the output (its
// words are consecutive in the input), so its stores fall into one run of at most 512 bytes.
// PMPP 11.7 (single-pass scan), 12 (stream compaction) in one pass.
// Measured on an H200 (NOTES.md, 2026-12-04): see there; variant 2 took 0.58x CUB's time at 2^28.
//
// One shape for every GPU: 256 threads x 16 elements, 3 stages (48 KiB a block: sm_75 holds
// one, an H200 four). Where `a` is off the 16-byte grid or the GPU cannot launch cooperative
// grids, it runs variant 2's kernel.
#include "find_repeats.h"

#include "../02_scan/scan_4_pipeline.cuh"

#include <cstdint>

namespace find_repeats {

namespace {

using namespace scan::persistent;
using PersistentShape = Shape<256, 4, 3>;
static_assert(PersistentShape::kSharedBytes <= pmpp::kSmallestSharedPerBlock,
              "the shape must fit every supported GPU (sm_75: 64 KiB a block and an SM)");

// The repeats of the tile in `stage`: flags[r] bit c is set when element (word r, c) equals the
// element after it (both < n); places[r] is where the word's first repeat goes in the tile's
// run; returns the tile's count. Ends with a barrier.
template <class S>
__device__ __forceinline__ unsigned count_stage(const unsigned* a, std::size_t n, std::size_t tile, uint4* stages,
                                                int stage, unsigned (&flags)[S::kRounds],
                                                unsigned (&places)[S::kRounds],
                                                TileScanStorage<S::kThreads, S::kRounds>& storage) {
    const unsigned lane = threadIdx.x & 31u;
    unsigned counts[S::kRounds];
#pragma unroll
    for (int r = 0; r < S::kRounds; ++r) {
        const uint4 w = word<S>(stages, stage, r);
        const std::size_t first = tile * S::kTile + 4 * (static_cast<std::size_t>(r) * S::kThreads + threadIdx.x);
        // The element after this word: the next lane's first, or (last lane) read from memory.
        unsigned next = __shfl_down_sync(0xFFFFFFFFu, w.x, 1);
        if (lane == 31) next = first + 4 < n ? a[first + 4] : 0u;
        const unsigned e[5] = {w.x, w.y, w.z, w.w, next};
        flags[r] = 0;
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (first + c + 1 < n && e[c] == e[c + 1]) flags[r] |= 1u << c;
        counts[r] = __popc(flags[r]);
    }
    unsigned count;
    tile_exclusive_scan<S::kThreads, S::kRounds>(counts, places, count, storage);
    return count;
}

template <class S>
__global__ void __launch_bounds__(S::kThreads)
    persistent_find_repeats(const unsigned* a, std::size_t n, std::size_t tiles, int* indices, unsigned* total_count,
                            unsigned long long* statuses, LookBackWaits waits) {
    constexpr int kStages = S::kStages;
    static_assert(kStages >= 3, "one stage written out, one counted ahead, one loading");
    extern __shared__ uint4 stages[];
    __shared__ TileScanStorage<S::kThreads, S::kRounds> storage;
    __shared__ unsigned tile_prefix[2];  // double-buffered, as in 02's variant 4
    const auto tile_of = [](unsigned k) { return blockIdx.x + static_cast<std::size_t>(k) * gridDim.x; };

    for (int s = 0; s < kStages - 1; ++s) start_loading<S>(a, n, tiles, tile_of(s), stages, s);
    std::size_t tile = tile_of(0);
    unsigned flags[S::kRounds], places[S::kRounds];
    wait_for_copies<kStages - 2>();
    unsigned count = count_stage<S>(a, n, tile, stages, 0, flags, places, storage);
    if (threadIdx.x == 0) publish(&statuses[tile], tile == 0 ? kStatusPrefix : kStatusAggregate, count);

    for (unsigned k = 0;; ++k) {
        const std::size_t next = tile_of(k + 1);
        start_loading<S>(a, n, tiles, tile_of(k + kStages - 1), stages, static_cast<int>((k + kStages - 1) % kStages));
        unsigned next_flags[S::kRounds], next_places[S::kRounds];
        unsigned next_count = 0;
        if (next < tiles) {
            wait_for_copies<kStages - 2>();
            next_count = count_stage<S>(a, n, next, stages, static_cast<int>((k + 1) % kStages), next_flags,
                                        next_places, storage);
            if (threadIdx.x == 0) publish(&statuses[next], kStatusAggregate, next_count);
        }
        if (threadIdx.x < 32) {
            unsigned before = 0;
            if (tile != 0) {
                before = look_back(statuses, static_cast<unsigned>(tile), waits);
                if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + count);
            }
            if (threadIdx.x == 0) {
                tile_prefix[k & 1] = before;
                if (tile + 1 == tiles) *total_count = before + count;
            }
        }
        __syncthreads();
        int* out = indices + tile_prefix[k & 1];
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) {
            const std::size_t first = tile * S::kTile + 4 * (static_cast<std::size_t>(r) * S::kThreads + threadIdx.x);
            unsigned slot = places[r];
            for (unsigned f = flags[r]; f != 0; f &= f - 1) out[slot++] = static_cast<int>(first + __ffs(f) - 1);
        }
        if (next >= tiles) break;
        tile = next;
        count = next_count;
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) {
            flags[r] = next_flags[r];
            places[r] = next_places[r];
        }
    }
    wait_for_copies<0>();
}

}  // namespace

// Variant 2's workspace (the total count, its tile counter, one status word a tile of 4096),
// which holds this variant's too (the total count, one status word a tile of 4096).
std::size_t find_repeats_persistent_workspace_bytes(std::size_t n) { return find_repeats_fused_workspace_bytes(n); }

std::size_t find_repeats_persistent(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n < 2) return 0;
    if (reinterpret_cast<std::uintptr_t>(a) % 16 != 0 || !cooperative_launch_supported())
        return find_repeats_fused(a, n, indices, workspace);
    using S = PersistentShape;
    const std::size_t tiles = tiles_of(n, S::kTile);
    auto* words = static_cast<unsigned long long*>(workspace);
    PMPP_CUDA_CHECK(cudaMemsetAsync(words, 0, (1 + tiles) * sizeof(unsigned long long)));
    const unsigned* src = reinterpret_cast<const unsigned*>(a);
    unsigned* total = reinterpret_cast<unsigned*>(words);
    unsigned long long* statuses = words + 1;
    LookBackWaits waits = waits_for(tiles);
    const std::size_t grid =
        resident_grid<S, persistent_find_repeats<S>>("find_repeats_persistent", INT_MAX, tiles);
    void* args[] = {&src, &n, const_cast<std::size_t*>(&tiles), &indices, &total, &statuses, &waits};
    PMPP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_find_repeats<S>),
                                                dim3(static_cast<unsigned>(grid)), dim3(S::kThreads), args,
                                                S::kStageBytes, 0));
    PMPP_CHECK_LAUNCH();
    unsigned count = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&count, total, sizeof(unsigned), cudaMemcpyDeviceToHost));
    return count;
}

}  // namespace find_repeats
