// bitonic_4_fused.cu: variant 4, registers and fused passes (the kernels and the reasoning are
// in bitonic_4_fused.cuh). Over variant 3: a thread holds 32 elements, so a tile is 8192
// elements (256 threads) and a step inside it moves no data; and the strides longer than a tile
// go 4 at a time, each thread loading 16 elements spaced by the shortest of the 4.
// PMPP chapters 5-6 (registers, shared memory, coalescing), 13 (sorting).
//
// Cost at 2^24: 33 launches (1 tile sort + 21 long-stride passes + 11 tile merges), each one
// pass over the array: 4.2 GB moved instead of the seed's 40 GB.
// Measured (H200, 2026-11-30): 11.1 Gkeys/s at 2^24 (1.51 ms, 33 launches), 9.7x the seed;
// 9.26 at 2^20, 9.79 at 2^26; 3.3x CUB radix sort's time at 2^24. The tuning sweep is not run yet.
// Where two 8192-element blocks do not fit an SM (a T4; with values an RTX 3060 or an L4) the
// tiles are 4096: 1.58 ms at 2^24 on the H200 under PMPP_DEVICE_PROFILE=t4 (NOTES.md).
#include "bitonic_4_fused.cuh"

#include "common/report.h"  // format

namespace bitonic {

namespace {

using fused::tile_shared_bytes;
using fused::TileShape;

// The shipped shape: 256 threads x 32 elements = 8192 per tile; 33 KiB of shared memory per
// block for keys, 66 KiB with values.
using ShippedShape = TileShape<8, 5>;
// Where two blocks of the shipped shape do not fit an SM (a T4 has 64 KiB per SM and per block;
// with values an RTX 3060 or an L4, 100 KiB): 128 threads x 32 = 4096 per tile, half the shared
// memory (the register windows need 32 elements a thread), one more merge pass per long stage.
// A barrier-bound tile kernel with one block per SM leaves the SM idle at every __syncthreads();
// with two or more the other block runs.
using SmallShape = TileShape<7, 5>;
constexpr int kShippedMaxLogGlobalItems = 4;  // up to 16 elements, 4 strides, per long pass
static_assert(tile_shared_bytes<SmallShape, true>() <= pmpp::kSmallestSharedPerBlock,
              "the fallback shape must fit every supported GPU (sm_75: 64 KiB per block)");

template <bool kValues>
bool shipped_shape_fits() {
    static const bool fits = [] {
        const bool fits = pmpp::shared_memory_fits(tile_shared_bytes<ShippedShape, kValues>(), 2);
        const char* what = kValues ? "bitonic_sort_fused, keys and values" : "bitonic_sort_fused, keys";
        pmpp::report_shape(what,
                           fits ? pmpp::format("tiles of %u (256 threads x 32), %zu bytes of shared memory per block",
                                               ShippedShape::kTile, tile_shared_bytes<ShippedShape, kValues>())
                                : pmpp::format("tiles of %u (128 threads x 32), %zu bytes of shared memory per block: "
                                               "two blocks of the shipped 8192 (%zu bytes) do not fit an SM",
                                               SmallShape::kTile, tile_shared_bytes<SmallShape, kValues>(),
                                               tile_shared_bytes<ShippedShape, kValues>()));
        return fits;
    }();
    return fits;
}

template <bool kValues, typename K>
void sort_on_this_gpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (shipped_shape_fits<kValues>())
        fused::sort_with<ShippedShape, kShippedMaxLogGlobalItems, kValues>(keys, values, n, order);
    else
        fused::sort_with<SmallShape, kShippedMaxLogGlobalItems, kValues>(keys, values, n, order);
}

}  // namespace

std::uint32_t fused::fused_tile_for_this_gpu(bool values) {
    const bool shipped = values ? shipped_shape_fits<true>() : shipped_shape_fits<false>();
    return shipped ? ShippedShape::kTile : SmallShape::kTile;
}

template <typename K>
void bitonic_sort_fused(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (values != nullptr)
        sort_on_this_gpu<true>(keys, values, n, order);
    else
        sort_on_this_gpu<false>(keys, values, n, order);
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_fused)

}  // namespace bitonic
