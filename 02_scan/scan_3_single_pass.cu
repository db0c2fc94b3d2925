// scan_3_single_pass.cu: single-pass scan with decoupled look-back (Merrill & Garland, 2016).
//
// Idea over scan_2_hierarchical: one pass over memory. Each block scans its tile in registers
// and needs only one number from the rest of the grid, the sum of everything before its tile.
// It gets it from its predecessors while they are still running: each tile publishes its own
// sum (its "aggregate") at once, and its inclusive prefix as soon as it knows it; a tile
// walks back over its predecessors, adding aggregates, until it finds an inclusive prefix
// (scan_3_lookback.cuh). Traffic: read n, write n, as a copy: 8 bytes per element.
//  - 32 elements per thread, read and written as 16-byte words in rounds, so that every warp
//    instruction moves 512 contiguous bytes (a first version gave each thread 16 contiguous
//    elements: 64 bytes per thread, half-used sectors per instruction, 1.5x CUB's time);
//  - the look-back waits before it reads (scan_3_lookback.cuh, LookBackWaits): without the
//    waits this kernel ran at 0.62 of the copy bandwidth, the same kernel with no look-back at
//    all at 0.97; the polling, not the arithmetic, was the cost;
//  - tile numbers come from an atomic counter when the block starts, not from blockIdx.x: the
//    hardware may start blocks in any order, and a tile that waited for a predecessor not yet
//    started could wait forever;
//  - status words are cleared before each scan (one small memset), so the workspace can be
//    reused without any state kept on the host.
// Measured on an H200 (NOTES.md): 0.67 ms at 2^28, CUB's time (0.68 ms), 0.75 of the copy bandwidth.
#include "scan.h"
#include "scan_3_lookback.cuh"

#include "common/cuda_check.h"

#include <cstdint>

namespace scan {

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 8;  // uint4 per thread: 32 elements per thread, 8192 per tile (NOTES.md)

template <int THREADS, int ROUNDS>
__host__ __device__ constexpr std::size_t tile_elements() {
    return 4 * static_cast<std::size_t>(THREADS) * ROUNDS;
}

template <int THREADS, int ROUNDS>
std::size_t tiles_of(std::size_t n) {
    return (n + tile_elements<THREADS, ROUNDS>() - 1) / tile_elements<THREADS, ROUNDS>();
}

// No __restrict__: in and out may be the same array. Each tile reads all of its input before
// it writes, and no tile reads another's elements, so in place is safe.
template <int THREADS, int ROUNDS, bool VECTOR>
__global__ void __launch_bounds__(THREADS) single_pass_scan(const unsigned* in, unsigned* out, std::size_t n,
                                                            unsigned* tile_counter, unsigned long long* statuses) {
    using namespace scan_primitives;
    __shared__ TileScanStorage<THREADS, ROUNDS> storage;
    __shared__ unsigned tile_id, tile_prefix;
    if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = tile_id;
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    const std::size_t tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;

    uint4 v[ROUNDS];
    load_tile<THREADS, ROUNDS, VECTOR>(in, tile_first, n, full, v);
    unsigned sums[ROUNDS], prefix[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) sums[r] = v[r].x + v[r].y + v[r].z + v[r].w;
    unsigned aggregate;
    tile_exclusive_scan<THREADS, ROUNDS>(sums, prefix, aggregate, storage);

    if (threadIdx.x < 32) {
        unsigned before = 0;
        if (tile == 0) {
            if (threadIdx.x == 0) publish(&statuses[0], kStatusPrefix, aggregate);
        } else {
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusAggregate, aggregate);
            before = look_back(statuses, tile);
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
        }
        if (threadIdx.x == 0) tile_prefix = before;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const unsigned x = tile_prefix + prefix[r];
        const uint4 in4 = v[r];
        v[r] = make_uint4(x, x + in4.x, x + in4.x + in4.y, x + in4.x + in4.y + in4.z);
    }
    store_tile<THREADS, ROUNDS, VECTOR>(out, tile_first, n, full, v);
}

template <int THREADS, int ROUNDS>
std::size_t workspace_bytes(std::size_t n) {
    // One 8-byte word for the tile counter, then one status word per tile.
    return (1 + tiles_of<THREADS, ROUNDS>(n)) * sizeof(unsigned long long);
}

template <int THREADS, int ROUNDS>
void run_single_pass(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    const std::size_t tiles = tiles_of<THREADS, ROUNDS>(n);
    auto* words = static_cast<unsigned long long*>(workspace);
    PMPP_CUDA_CHECK(cudaMemsetAsync(words, 0, (1 + tiles) * sizeof(unsigned long long)));
    auto* counter = reinterpret_cast<unsigned*>(words);
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    const auto* src = reinterpret_cast<const unsigned*>(in);
    auto* dst = reinterpret_cast<unsigned*>(out);
    if (aligned)
        single_pass_scan<THREADS, ROUNDS, true>
            <<<static_cast<unsigned>(tiles), THREADS>>>(src, dst, n, counter, words + 1);
    else
        single_pass_scan<THREADS, ROUNDS, false>
            <<<static_cast<unsigned>(tiles), THREADS>>>(src, dst, n, counter, words + 1);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

std::size_t scan_single_pass_workspace_bytes(std::size_t n) { return workspace_bytes<kThreads, kRounds>(n); }

void exclusive_scan_single_pass(const int* in, int* out, std::size_t n, void* workspace) {
    run_single_pass<kThreads, kRounds>(in, out, n, workspace);
}

}  // namespace scan
