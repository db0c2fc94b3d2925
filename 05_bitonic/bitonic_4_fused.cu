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
#include "bitonic_4_fused.cuh"

namespace {

using ShippedShape = bitonic::fused::TileShape<8, 5>;  // 256 threads x 32 elements = 8192 per tile
constexpr int kShippedMaxLogGlobalItems = 4;           // up to 16 elements, 4 strides, per long pass

}  // namespace

template <typename K>
void bitonic_sort_fused(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (values != nullptr)
        bitonic::fused::sort_with<ShippedShape, kShippedMaxLogGlobalItems, true>(keys, values, n, order);
    else
        bitonic::fused::sort_with<ShippedShape, kShippedMaxLogGlobalItems, false>(keys, values, n, order);
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_fused)
