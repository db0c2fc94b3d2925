// merge_sort_5_network.cuh: variant 5's tile sort, exercise 05's bitonic network, for any tile
// shape (bitonic::fused::TileShape), and the sort built on it: the network's sorted tiles, then
// variant 4's merge passes. merge_sort_5_network.cu picks the shape; the tune sweep
// (tune/sweep_network.cu) instantiates both; tests/test_network_tiles.cu runs the per-tile code on
// the host. See merge_sort_5_network.cu for the idea.
//
// A tile of the network is 05's sort_tile on an "array" of its own: keys_in + base, keys_out +
// base, n = count = min(kTile, n - base), tile 0, ascending (flip 0), last_pass (the load
// encodes each key with pmpp::ordered_bits, the store decodes). The padding past count sorts
// last and is never stored, so each block reads exactly its count keys and writes them sorted.
#pragma once

#include "merge_sort_4_fast.cuh"

#include "../05_bitonic/bitonic_4_fused.cuh"

#include "common/cuda_check.h"
#include "common/device_limits.h"

#include <cstdint>
#include <type_traits>

namespace merge_sort::network {

// The keys the network sorts: 4 bytes, ordered by pmpp::ordered_bits (a bijection onto u32, so
// keys that compare equal are the same bit pattern and no sort can tell them apart: an unstable
// sort is as good as a stable one). With values, u64 keys or Event, variant 4's sort runs.
template <class Key, class Value, class Less>
inline constexpr bool kSortsWithNetwork =
    !kHasValues<Value> && std::is_same_v<Less, KeyLess> &&
    (std::is_same_v<Key, std::uint32_t> || std::is_same_v<Key, std::int32_t> || std::is_same_v<Key, float>);

// The two tile shapes: 256 threads x 32 keys = 8192 (33,792 bytes of shared memory, every GPU),
// and 512 x 32 = 16384 (67,584 bytes: more than sm_75's 64 KiB per block).
using SmallTile = bitonic::fused::TileShape<8, 5>;
using LargeTile = bitonic::fused::TileShape<9, 5>;

template <class Shape>
constexpr std::size_t tile_shared_bytes() {
    return bitonic::fused::tile_shared_bytes<Shape, false>();
}
static_assert(tile_shared_bytes<SmallTile>() <= pmpp::kSmallestSharedPerBlock,
              "the small network tile must fit every supported GPU (sm_75: 64 KiB per block)");

// The merge passes: variant 4's shipped merge shape for 4-byte keys (256 threads x 17 = 4352
// outputs a tile, 5 blocks per SM). Variant 4's fallback for small GPUs changes only its sort
// tile; its merge shape is the same, so one Config serves both.
using MergeConfig = fast::ShippedShape<4>::type;
using SmallMergeConfig = fast::ShippedShape<4>::small;
static_assert(MergeConfig::kMergeThreads == SmallMergeConfig::kMergeThreads &&
                  MergeConfig::kItems == SmallMergeConfig::kItems &&
                  MergeConfig::kMergeMinBlocks == SmallMergeConfig::kMergeMinBlocks,
              "variant 4's fallback merges with the shipped merge shape");

// Sorts, on its own and ascending, the tile of keys_in[base, base + kTile) (fewer at the end of
// the array) into keys_out[base, ...). Block: 05's executor (GpuBlock on the GPU, a host loop over
// the threads in the tests); its `tile` is set to 0, the tile's place in its own array.
#pragma nv_exec_check_disable
template <class Shape, class Key, class Block>
PMPP_HD void sort_tile_alone(Block& block, const Key* keys_in, Key* keys_out, std::size_t n, std::size_t base) {
    const std::size_t left = n - base;
    const auto count = static_cast<std::uint32_t>(left < Shape::kTile ? left : Shape::kTile);
    block.tile = 0;
    bitonic::fused::sort_tile<Shape, false>(block, keys_in + base, static_cast<const std::uint32_t*>(nullptr),
                                            keys_out + base, static_cast<std::uint32_t*>(nullptr), count, 0u, true);
}

// Kernels and drivers have internal linkage, as merge_sort_4_fast.cuh's: each file that includes
// this header gets its own copies.
namespace {

// One tile a block. Launched the usual way (it waits for nothing: the sort's first kernel); after
// its stores it lets the next kernel, the first pass's partition launched with programmatic
// dependent launch, start launching (fast::let_next_kernel_launch). Registers capped so that two
// blocks share an SM (64 a thread for 2 x 512 threads; on sm_90 ptxas takes 48 for the tile of
// 8192 and 56 for 16384, no spills).
template <class Shape, class Key>
__global__ void __launch_bounds__(Shape::kThreads, pmpp::min_blocks_that_fit(Shape::kThreads, 2))
    network_sort_tiles_kernel(const Key* keys_in, Key* keys_out, std::size_t n) {
    extern __shared__ std::uint32_t network_shared[];
    bitonic::fused::GpuBlock<Shape, false> block{{}, network_shared, network_shared + Shape::kSharedWords, 0};
    sort_tile_alone<Shape>(block, keys_in, keys_out, n, blockIdx.x * static_cast<std::size_t>(Shape::kTile));
    fast::let_next_kernel_launch();
}

// keys_out = keys_in sorted in tiles of Shape::kTile, each on its own.
template <class Shape, class Key>
void sort_tiles(const Key* keys_in, Key* keys_out, std::size_t n) {
    if (n == 0) return;
    constexpr std::size_t bytes = tile_shared_bytes<Shape>();
    static const bool allowed = (pmpp::allow_dynamic_shared_memory(network_sort_tiles_kernel<Shape, Key>, bytes,
                                                                   "merge_sort_network's tile sort"),
                                 true);
    (void)allowed;
    const std::size_t tiles = (n + Shape::kTile - 1) / Shape::kTile;
    network_sort_tiles_kernel<Shape, Key>
        <<<static_cast<unsigned>(tiles), Shape::kThreads, bytes>>>(keys_in, keys_out, n);
    PMPP_CHECK_LAUNCH();
}

// The sort of plain 4-byte keys: tiles of Shape::kTile sorted by the network, then the merge
// passes of Cfg (variant 4's fast::sort_runs_with; Exec launches them, fast::OverlappingExecutor
// with programmatic dependent launch). A pair of runs of 8192 or 16384 keys is not a whole number
// of merge tiles of 4352, so the passes lay their tiles out per pair (fast::PairTiledRuns).
template <class Shape, class Cfg, class Exec, class Key, class Less>
void sort_with(const SortArgs<Key, NoValues>& args, std::size_t n, Less less) {
    static_assert(kSortsWithNetwork<Key, NoValues, Less>, "the network sorts 4-byte keys without values");
    fast::sort_runs_with<Cfg, Exec, fast::PairTiledRuns>(
        args, n, less, Shape::kTile, [&](const Key* keys_in, const NoValues*, Key* keys_out, NoValues*) {
            sort_tiles<Shape>(keys_in, keys_out, n);
        });
}

}  // namespace
}  // namespace merge_sort::network
