// bitonic_4_fused.cu: variant 4, registers and fused passes (the kernels and the reasoning are
// in bitonic_4_fused.cuh). Over variant 3: a thread holds 32 elements, so a tile is 8192
// elements (256 threads) and a step inside it moves no data; and the strides longer than a tile
// go 5 at a time (3 with values), each thread loading 32 elements spaced by the shortest of the 5.
// PMPP chapters 5-6 (registers, shared memory, coalescing), 13 (sorting).
//
// Cost at 2^24, keys, every stage over the whole array (before the chunks below): 30 launches
// (1 tile sort + 18 long-stride passes + 11 tile merges), each one pass over the array: 4.0 GB
// moved instead of the seed's 40 GB.
// Measured (H200, 2026-12-02, tune/sweep.cu): 11.65 Gkeys/s at 2^24 (1.44 ms, 30 launches), 10x
// the seed; 9.4 at 2^20, 10.3 at 2^26; 3.1x CUB radix sort's time at 2^24. Where the rest goes:
// the tile sort is 0.22 ms of it (0.14 of the copy bandwidth), the 11 tile merges 0.05 ms each
// (0.70 of copy), the long passes 0.034-0.039 ms each (0.81-0.94 of copy).
// Since 2026-12-07 every comparator is a min and a max, backward blocks holding their keys
// complemented: the tile sort 1.9x faster, the sort 5% at 2^24 (H100: 1.69 -> 1.60 ms; NOTES.md).
// Since 2026-12-07 too: chunks of the array that fit the L2 go through their own stages first,
// every kernel with dependent launch (H100: 2^24 1.58 -> 1.18 ms, 14.3 Gkeys/s, then with tiles
// of 16384; 2^20 0.93x CUB's time; NOTES.md "Chunks that stay in L2"); then the end of a long
// stage chunk by chunk, and long passes of up to 8 strides a block at a time, back to tiles of
// 8192 (H100: 2^24 1.09 ms, 15.4 Gkeys/s; 2^26 5.43 ms; NOTES.md "Fewer passes").
// Where two 8192-element blocks do not fit an SM (a T4; with values an RTX 3060 or an L4) the
// tiles are 4096: 1.58 ms at 2^24 on the H200 under PMPP_DEVICE_PROFILE=t4 (NOTES.md).
#include "bitonic_4_fused.cuh"

#include "common/report.h"  // format

namespace bitonic {

namespace {

using fused::Schedule;
using fused::tile_shared_bytes;
using fused::TileShape;

// The shipped shape: 256 threads x 32 elements = 8192 per tile; 33 KiB of shared
// memory per block for keys, 66 KiB with values.
using ShippedShape = TileShape<8, 5>;
// Where two blocks of the shipped shape do not fit an SM (a T4 has 64 KiB per SM and per block;
// with values an RTX 3060 or an L4, 100 KiB): 128 threads x 32 = 4096 per tile, half the shared
// memory (the register windows need 32 elements a thread), one more merge pass per long stage.
// A barrier-bound tile kernel with one block per SM leaves the SM idle at every __syncthreads();
// with two or more the other block runs.
using SmallShape = TileShape<7, 5>;
// Strides per long pass, from the sweep (tune/sweep.cu, H200, 2026-12-02): keys alone 5 (32
// elements a thread: 30 passes at 2^24, 1.44 ms against 1.53 with 4, 6% faster at 2^20 and 2^26
// too); with values 3 (8 keys and 8 values a thread: 3.75 ms against 3.93 with 4 at 2^24; more
// per thread costs the values' pass more registers than its saved passes are worth).
constexpr int kKeysMaxLogGlobalItems = 5;
constexpr int kPairsMaxLogGlobalItems = 3;
template <bool kValues>
constexpr int kMaxLogGlobalItems = kValues ? kPairsMaxLogGlobalItems : kKeysMaxLogGlobalItems;
static_assert(tile_shared_bytes<SmallShape, true>() <= pmpp::kSmallestSharedPerBlock,
              "the fallback shape must fit every supported GPU (sm_75: 64 KiB per block)");
// The chunks of the plan (fused::plan): as long as their keys (and values) take at most this
// share of the L2 cache, a chunk goes through all the stages up to its length before the next
// chunk starts. tune/sweep.cu's schedules (H100, 50 MiB L2, 2026-12-07): chunks of 2^23 keys
// (32 MiB, 0.64 of the L2) beat 2^22 and no chunks at 2^24 and 2^26.
constexpr double kChunkL2Share = 0.7;
// A stage longer than a chunk ends chunk by chunk (plan's tails_in_chunks), and long passes of
// more strides than registers hold run a block at a time (Schedule::block_passes): NOTES.md,
// "Fewer passes".
// Measured (H100, 2026-12-07, tune/sweep.cu schedules, chunks of 2^23): 2^24 keys 1.182 ms (tiles
// of 16384, as shipped until then) -> 1.088 (tiles of 8192 with both), 2^26 6.178 -> 5.429, pairs
// at 2^24 3.800 -> 3.251; with block passes, tiles of 16384 lose to 8192 at every size.
constexpr bool kStageEndsInChunks = true;
constexpr bool kLongPassesInBlocks = true;

enum class Tile { Shipped, Small };

template <bool kValues>
Tile tile_for_this_gpu() {
    static const Tile tile = [] {
        const auto describe = [](std::uint32_t tile, int threads, std::size_t bytes) {
            return pmpp::format("tiles of %u (%d threads x 32), %zu bytes of shared memory per block", tile, threads,
                                bytes);
        };
        const char* what = kValues ? "bitonic_sort_fused, keys and values" : "bitonic_sort_fused, keys";
        return pmpp::shipped_shape_fits(what, tile_shared_bytes<ShippedShape, kValues>(), 2,
                                        describe(ShippedShape::kTile, 256, tile_shared_bytes<ShippedShape, kValues>()),
                                        describe(SmallShape::kTile, 128, tile_shared_bytes<SmallShape, kValues>()))
                   ? Tile::Shipped
                   : Tile::Small;
    }();
    return tile;
}

template <bool kValues>
std::uint32_t tile_size() {
    return tile_for_this_gpu<kValues>() == Tile::Shipped ? ShippedShape::kTile : SmallShape::kTile;
}

template <bool kValues>
Schedule schedule_for(std::uint32_t tile) {
    const std::size_t element_bytes = 4 + (kValues ? 4 : 0);
    return {fused::log_chunk_for(pmpp::device_limits().l2_bytes, element_bytes, kChunkL2Share, log2_exact(tile)), true,
            kStageEndsInChunks, kLongPassesInBlocks};
}

template <bool kValues, typename K>
void sort_on_this_gpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    constexpr int kG = kMaxLogGlobalItems<kValues>;
    const Schedule schedule = schedule_for<kValues>(tile_size<kValues>());
    if (tile_for_this_gpu<kValues>() == Tile::Shipped)
        fused::sort_with<ShippedShape, kG, kValues>(keys, values, n, order, schedule);
    else
        fused::sort_with<SmallShape, kG, kValues>(keys, values, n, order, schedule);
}

}  // namespace

int fused::long_strides_per_pass(bool values) { return values ? kPairsMaxLogGlobalItems : kKeysMaxLogGlobalItems; }

std::uint32_t fused::fused_tile_for_this_gpu(bool values) { return values ? tile_size<true>() : tile_size<false>(); }

fused::Schedule fused::fused_schedule_for_this_gpu(bool values) {
    return values ? schedule_for<true>(tile_size<true>()) : schedule_for<false>(tile_size<false>());
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
