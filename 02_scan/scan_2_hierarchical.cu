// scan_2_hierarchical.cu: hierarchical scan (PMPP 11.5-11.7), any length.
//
// Idea over scan_1_blelloch: do the tree inside a block, in shared memory and registers, where
// steps are cheap, and touch global memory only in coalesced passes.
//  1. scan_tiles: each block loads a tile of THREADS * ITEMS elements (coalesced, through
//     shared memory), each thread scans its ITEMS in registers, the threads' totals are scanned
//     with warp shuffles (common/primitives/scan.cuh), and the tile is written back; the tile's sum
//     goes to a small array;
//  2. the array of tile sums is scanned by this same function (recursively: any length);
//  3. add_tile_offsets: every element gets its tile's offset added.
// Traffic: read n + write n (pass 1), read n + write n (pass 3): 16 bytes per element, twice a
// copy. Measured on an H200: see NOTES.md.
#include "scan.h"
#include "common/primitives/scan.cuh"

#include "common/cuda_check.h"

namespace scan {

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr std::size_t kTile = static_cast<std::size_t>(kThreads) * kItems;

std::size_t tiles_of(std::size_t n) { return (n + kTile - 1) / kTile; }

__global__ void __launch_bounds__(kThreads)
    scan_tiles(const unsigned* in, unsigned* out, std::size_t n, unsigned* tile_sums) {
    __shared__ unsigned tile[kTile];
    __shared__ scan_primitives::BlockScanStorage<kThreads> storage;
    const std::size_t base = blockIdx.x * kTile;
    const std::size_t count = n - base < kTile ? n - base : kTile;
    // Coalesced: consecutive threads read consecutive words; padding beyond n reads as 0.
    for (int k = 0; k < kItems; ++k) {
        const std::size_t i = static_cast<std::size_t>(k) * kThreads + threadIdx.x;
        tile[i] = i < count ? in[base + i] : 0u;
    }
    __syncthreads();
    // Each thread owns ITEMS consecutive elements: a sequential scan in registers.
    unsigned items[kItems];
    unsigned sum = 0;
    for (int k = 0; k < kItems; ++k) {
        items[k] = sum;
        sum += tile[threadIdx.x * kItems + k];
    }
    unsigned total;
    const unsigned prefix = scan_primitives::block_exclusive_scan<kThreads>(sum, total, storage);
    for (int k = 0; k < kItems; ++k) tile[threadIdx.x * kItems + k] = items[k] + prefix;
    __syncthreads();
    for (int k = 0; k < kItems; ++k) {
        const std::size_t i = static_cast<std::size_t>(k) * kThreads + threadIdx.x;
        if (i < count) out[base + i] = tile[i];
    }
    if (threadIdx.x == 0) tile_sums[blockIdx.x] = total;
}

__global__ void add_tile_offsets(unsigned* out, std::size_t n, const unsigned* tile_offsets) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] += tile_offsets[i / kTile];
}

}  // namespace

// Room for the tile sums of every level of the recursion.
std::size_t scan_hierarchical_workspace_bytes(std::size_t n) {
    std::size_t words = 0;
    for (std::size_t m = tiles_of(n); m > 1; m = tiles_of(m)) words += m;
    return (words + 1) * sizeof(unsigned);
}

void exclusive_scan_hierarchical(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    const std::size_t tiles = tiles_of(n);
    unsigned* sums = static_cast<unsigned*>(workspace);
    scan_tiles<<<static_cast<unsigned>(tiles), kThreads>>>(reinterpret_cast<const unsigned*>(in),
                                                           reinterpret_cast<unsigned*>(out), n, sums);
    PMPP_CHECK_LAUNCH();
    if (tiles == 1) return;  // one tile: its scan is the answer
    exclusive_scan_hierarchical(reinterpret_cast<const int*>(sums), reinterpret_cast<int*>(sums), tiles, sums + tiles);
    add_tile_offsets<<<static_cast<unsigned>((n + 255) / 256), 256>>>(reinterpret_cast<unsigned*>(out), n, sums);
    PMPP_CHECK_LAUNCH();
}

}  // namespace scan
