// bitonic_3_shared.cu: variant 3, shared-memory tiles (PMPP chapter 5: shared memory and
// __syncthreads; chapter 13: sorting). Every step whose stride j is below the tile (2048
// elements) compares two elements of the same tile, so one block can do all of them in shared
// memory with a __syncthreads between steps, instead of one launch each:
//  - one launch sorts every tile (all stages k <= 2048: 66 steps);
//  - then for each longer stage k, the steps j >= 2048 run as variant 2's global step, and one
//    launch does the remaining 11 steps (j = 1024 ... 1) of every tile.
// Shared memory pays only for small j: a step with j >= the tile still needs a global barrier.
//
// Cost at 2^24: 105 launches instead of 300, each a pass over the array.
// Measured (H200, 2026-11-30): 2.18 Gkeys/s at 2^24 (7.70 ms, 105 launches), 2.60 at 2^20.
#include "bitonic.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"

namespace bitonic {

namespace {

constexpr unsigned kThreads = 1024;  // one comparator per thread and step
constexpr unsigned kTile = 2 * kThreads;

// Stages k_first ... k_last (powers of two) of the network on each tile of kTile elements, but
// only the steps with j < kTile. The direction comes from the global index, so each tile sorts
// the way its place in the whole network asks.
template <typename K>
__global__ void __launch_bounds__(kThreads) shared_steps(K* keys, std::uint32_t* values, std::size_t n,
                                                         std::size_t k_first, std::size_t k_last, Before<K> before) {
    __shared__ K tile_keys[kTile];
    __shared__ std::uint32_t tile_values[kTile];
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(kTile);
    const std::size_t count = n - base < kTile ? n - base : kTile;  // the last tile may be short
    std::uint32_t* shared_values = values != nullptr ? tile_values : nullptr;

    for (unsigned e = threadIdx.x; e < count; e += kThreads) {  // coalesced
        tile_keys[e] = keys[base + e];
        if (values != nullptr) tile_values[e] = values[base + e];
    }
    __syncthreads();
    for (std::size_t k = k_first; k <= k_last; k <<= 1) {
        for (std::size_t j = (k < kTile ? k : kTile) >> 1; j > 0; j >>= 1) {
            const std::size_t i = lower_of_pair(threadIdx.x, j);
            if (i + j < count)
                compare_exchange(tile_keys, shared_values, i, i + j, sorts_forward(base + i, k, n), before);
            __syncthreads();  // the next step reads what other threads wrote
        }
    }
    for (unsigned e = threadIdx.x; e < count; e += kThreads) {
        keys[base + e] = tile_keys[e];
        if (values != nullptr) values[base + e] = tile_values[e];
    }
}

template <typename K>
void launch_shared_steps(K* keys, std::uint32_t* values, std::size_t n, std::size_t k_first, std::size_t k_last,
                         SortOrder order) {
    const auto tiles = static_cast<unsigned>((n + kTile - 1) / kTile);
    shared_steps<<<tiles, kThreads>>>(keys, values, n, k_first, k_last, before_for<K>(order));
    PMPP_CHECK_LAUNCH();
    count_launch(n, sizeof(K) + (values ? sizeof(std::uint32_t) : 0));
}

}  // namespace

template <typename K>
void bitonic_sort_shared(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    const std::size_t padded = padded_length(n);
    launch_shared_steps(keys, values, n, 2, padded < kTile ? padded : kTile, order);
    for (std::size_t k = 2 * kTile; k <= padded; k <<= 1) {
        for (std::size_t j = k >> 1; j >= kTile; j >>= 1) bitonic_global_step(keys, values, n, j, k, order);
        launch_shared_steps(keys, values, n, k, k, order);
    }
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_shared)

}  // namespace bitonic
