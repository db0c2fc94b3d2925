// scan_4_persistent.cu: the single-pass scan with blocks that stay, and load ahead.
//
// Idea over scan_3_single_pass: there a block holds its tile from its load to its store, the
// look-back's wait included (about 8 us a tile at 2^28), and the next block of its SM starts
// loading only when it ends: while an SM's tiles wait, its loads stop. Here the grid is only as
// large as the GPU holds at once (2 blocks an SM on an H200), each block stays for the whole
// scan, and its tiles are dealt out in advance: block b scans tiles b, b + G, b + 2G, ... (G
// blocks). Knowing its next tiles, a block keeps them coming into shared memory (cp.async, three
// stages) while it works:
//   iteration k: start loading tile k + 2; wait for tile k + 1 (loaded during iteration k - 1),
//   scan it and publish its aggregate; look back for tile k (scanned in iteration k - 1);
//   write tile k out.
// Two rules make it work (tune/sweep_persistent.cu, NOTES.md "Persistent blocks"):
//  - a tile's aggregate is published one tile ahead, before the block waits for its current
//    look-back. A first version scanned each tile only after the previous look-back: every
//    block's next aggregate then waited for its current prefix, which chained the grid's
//    prefixes one after another (2-7x CUB's time);
//  - tiles are dealt, not taken from a counter. Taken early, a tile is claimed long before its
//    aggregate can be published, and every later tile waits for it (the same chain, 2-3x).
//    Dealt tiles need every block resident at once (block b's first tile is waited for by all
//    later ones): a cooperative launch guarantees that, or refuses.
// PMPP 11.7 (single-pass scan) with the book's "thread coarsening" carried to a whole grid.
// Measured on an H200 (NOTES.md, 2026-12-04): 2^28 in 0.578 ms, 0.85 of CUB's time and 0.87 of the copy
// bandwidth (variant 3 in the same run: 1.00, 0.74); 2^24 0.90x, 2^20 0.79x.
//
// Where it falls back to variant 3's kernel: pointers off the 16-byte grid (cp.async copies 16
// aligned bytes), and a GPU that cannot launch cooperative grids. Where two blocks of 96 KiB do
// not fit an SM (a T4, a laptop card, the t4 profile), the same kernel runs a tile of half the
// threads, 48 KiB (the fallback shape; "shapes chosen" in a run's output says which).
// sm_75 has no cp.async: its copies go through registers, so it computes the same scan
// without the overlap (common/primitives/async_copy.cuh).
#include "scan.h"
#include "scan_4_persistent.h"
#include "scan_4_pipeline.cuh"

#include "common/report.h"

#include <cstdint>
#include <string>

namespace scan::persistent {

using ShippedShape = Shape<512, 4, 3>;
using FallbackShape = Shape<256, 4, 3>;
constexpr int kShippedBlocksPerSm = 2;  // as measured; one block of 512 an SM was slower
static_assert(FallbackShape::kSharedBytes <= pmpp::kSmallestSharedPerBlock,
              "the fallback shape must fit every supported GPU (sm_75: 64 KiB a block and an SM)");

// The tile in `stage` scanned across the block: this thread's exclusive prefix of each round and
// the tile's aggregate. Ends with a barrier.
template <class S>
__device__ __forceinline__ unsigned scan_stage(uint4* stages, int stage, unsigned (&prefix)[S::kRounds],
                                               TileScanStorage<S::kThreads, S::kRounds>& storage) {
    unsigned sums[S::kRounds];
#pragma unroll
    for (int r = 0; r < S::kRounds; ++r) {
        const uint4 w = word<S>(stages, stage, r);
        sums[r] = w.x + w.y + w.z + w.w;
    }
    unsigned aggregate;
    tile_exclusive_scan<S::kThreads, S::kRounds>(sums, prefix, aggregate, storage);
    return aggregate;
}

// LOOK_BACK = false only in tune/ (a wrong result: the pipeline's ceiling without the chain).
// Progress: the smallest tile without a published aggregate is either some block's next tile,
// published before that block waits, or beyond the tile its block is looking back for, whose
// predecessors have all published; every block is resident. So every look-back ends.
template <class S, bool LOOK_BACK = true>
__global__ void __launch_bounds__(S::kThreads)
    persistent_scan(const unsigned* in, unsigned* out, std::size_t n, std::size_t tiles, unsigned long long* statuses,
                    LookBackWaits waits) {
    constexpr int kStages = S::kStages;
    static_assert(kStages >= 3, "one stage written out, one scanned ahead, one loading");
    extern __shared__ uint4 stages[];  // kStages x kRounds x kThreads words
    __shared__ TileScanStorage<S::kThreads, S::kRounds> storage;
    // Double-buffered: in a block's last iteration no scan (and no barrier) lies between the
    // write of the next prefix and the other warps' reads of the previous one.
    __shared__ unsigned tile_prefix[2];
    const auto tile_of = [](unsigned k) { return blockIdx.x + static_cast<std::size_t>(k) * gridDim.x; };

    for (int s = 0; s < kStages - 1; ++s) start_loading<S>(in, n, tiles, tile_of(s), stages, s);
    std::size_t tile = tile_of(0);  // < tiles: the grid has at most one block a tile
    unsigned prefix[S::kRounds];
    wait_for_copies<kStages - 2>();  // kStages - 1 groups started; the first has landed
    unsigned aggregate = scan_stage<S>(stages, 0, prefix, storage);
    if (LOOK_BACK && threadIdx.x == 0)
        publish(&statuses[tile], tile == 0 ? kStatusPrefix : kStatusAggregate, aggregate);

    for (unsigned k = 0;; ++k) {
        const std::size_t next = tile_of(k + 1);
        // Into the stage that tile k - 1 left at the end of the previous iteration.
        start_loading<S>(in, n, tiles, tile_of(k + kStages - 1), stages, static_cast<int>((k + kStages - 1) % kStages));
        unsigned next_prefix[S::kRounds];
        unsigned next_aggregate = 0;
        if (next < tiles) {
            // kStages + k groups started; the next tile's is number k + 1 (from 0).
            wait_for_copies<kStages - 2>();
            next_aggregate = scan_stage<S>(stages, static_cast<int>((k + 1) % kStages), next_prefix, storage);
            if (LOOK_BACK && threadIdx.x == 0) publish(&statuses[next], kStatusAggregate, next_aggregate);
        }
        if (threadIdx.x < 32) {
            unsigned before = 0;
            if (LOOK_BACK && tile != 0) {
                before = look_back(statuses, static_cast<unsigned>(tile), waits);
                if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
            }
            if (threadIdx.x == 0) tile_prefix[k & 1] = before;
        }
        __syncthreads();
        const int s = static_cast<int>(k % kStages);
        const std::size_t tile_first = tile * S::kTile;
        uint4 v[S::kRounds];
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) {
            const uint4 a = word<S>(stages, s, r);
            const unsigned x = tile_prefix[k & 1] + prefix[r];
            v[r] = make_uint4(x, x + a.x, x + a.x + a.y, x + a.x + a.y + a.z);
        }
        store_tile<S::kThreads, S::kRounds, true>(out, tile_first, n, tile_first + S::kTile <= n, v);
        if (next >= tiles) break;
        tile = next;
        aggregate = next_aggregate;
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) prefix[r] = next_prefix[r];
    }
    wait_for_copies<0>();  // nothing left in flight when the block ends (its copies are all past n)
}

// One cooperative launch of as many blocks of shape S as the GPU holds at once (at most
// blocks_per_sm an SM, at most one a tile, at most max_grid if > 0: the tests' way to give each
// block many tiles). The statuses are cleared first, as in variant 3.
template <class S, bool LOOK_BACK = true>
void launch(const unsigned* in, unsigned* out, std::size_t n, unsigned long long* statuses, int blocks_per_sm,
            LookBackWaits waits, std::size_t max_grid = 0) {
    const auto kernel = persistent_scan<S, LOOK_BACK>;
    const std::size_t tiles = tiles_of(n, S::kTile);
    const std::size_t grid =
        resident_grid<S, persistent_scan<S, LOOK_BACK>>("scan_persistent", blocks_per_sm, tiles, max_grid);
    PMPP_CUDA_CHECK(cudaMemsetAsync(statuses, 0, tiles * sizeof(unsigned long long)));
    void* args[] = {&in, &out, &n, const_cast<std::size_t*>(&tiles), &statuses, &waits};
    PMPP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                                dim3(static_cast<unsigned>(grid)), dim3(S::kThreads), args,
                                                S::kStageBytes, 0));
}

bool shipped_shape_fits() {
    static const bool fits = [] {
        const auto describe = [](std::size_t tile, int threads, std::size_t bytes) {
            return pmpp::format("tiles of %zu (%d threads x 16), 3 stages: %zu bytes of shared memory per block", tile,
                                threads, bytes);
        };
        return pmpp::shipped_shape_fits(
            "scan_persistent", ShippedShape::kSharedBytes, kShippedBlocksPerSm,
            describe(ShippedShape::kTile, ShippedShape::kThreads, ShippedShape::kSharedBytes),
            describe(FallbackShape::kTile, FallbackShape::kThreads, FallbackShape::kSharedBytes));
    }();
    return fits;
}

void exclusive_scan_with_shape(TileShape shape, const int* in, int* out, std::size_t n, void* workspace,
                               std::size_t max_grid) {
    if (n == 0) return;
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    if (!aligned || !cooperative_launch_supported()) {
        exclusive_scan_single_pass(in, out, n, workspace);  // same workspace layout, smaller
        return;
    }
    const auto* src = reinterpret_cast<const unsigned*>(in);
    auto* dst = reinterpret_cast<unsigned*>(out);
    auto* statuses = static_cast<unsigned long long*>(workspace);
    if (shape == TileShape::Shipped)
        launch<ShippedShape>(src, dst, n, statuses, kShippedBlocksPerSm, waits_for(tiles_of(n, ShippedShape::kTile)),
                             max_grid);
    else
        launch<FallbackShape>(src, dst, n, statuses, INT_MAX, waits_for(tiles_of(n, FallbackShape::kTile)), max_grid);
    PMPP_CHECK_LAUNCH();
}

}  // namespace scan::persistent

namespace scan {

// One status word a tile of the smaller (fallback) shape, or variant 3's workspace where it
// falls back to variant 3, whichever is larger.
std::size_t scan_persistent_workspace_bytes(std::size_t n) {
    const std::size_t own = persistent::tiles_of(n, persistent::FallbackShape::kTile) * sizeof(unsigned long long);
    return std::max(own, scan_single_pass_workspace_bytes(n));
}

void exclusive_scan_persistent(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    if (!persistent::cooperative_launch_supported())
        pmpp::report_shape("scan_persistent", "variant 3's kernel: this GPU cannot launch cooperative grids");
    persistent::exclusive_scan_with_shape(
        persistent::shipped_shape_fits() ? persistent::TileShape::Shipped : persistent::TileShape::Fallback, in, out, n,
        workspace);
}

}  // namespace scan
