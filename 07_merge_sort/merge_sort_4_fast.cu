// merge_sort_4_fast.cu: the fast merge and sort (merge path; kernels in merge_sort_4_fast.cuh).
//
// Ideas over merge_sort_3_circular:
//  - every output tile's start in A and B is found up front by a partition kernel, for all
//    tiles at once: a k-ary search in which a group of lanes probes the range together and
//    narrows it by a factor of lanes + 1 per step (five steps for 2^23 with 32 lanes, where a
//    binary search takes 23 dependent reads); with many tiles, fewer lanes each (one at 2^28:
//    the searches then share the DRAM's random reads better);
//  - one tile per block, loaded once: the block reads exactly its pieces of A and B, coalesced,
//    kItems loads in flight per thread; each thread merges kItems consecutive outputs from
//    shared memory into registers (a co-rank search in shared memory, then a sequential merge
//    that keeps the next key of each side in a register); the outputs go back through shared
//    memory so that the stores are coalesced too. Per element: one read and one write of global
//    memory, the minimum;
//  - larger sorted tiles at the start: kSortTile keys per block, each thread sorting its kItems
//    in registers (odd-even transposition, stable), then merge rounds in shared memory. Runs of
//    17408 instead of 1024 save four of the passes over global memory, each a full read and
//    write of the keys (and values);
//  - no final copy: the tile sort writes where the number of passes makes the last one land in
//    the output;
//  - registers capped so that more blocks share an SM, which hides each block's load phase
//    behind the others' merging (the shapes below);
//  - the serial merge needs no bounds clamp: the shared tile has a spare key slot, so reading
//    one key past a side's end is harmless, and each output costs one predicated load;
//  - each kernel is resident before the previous one ends (programmatic dependent launch).
// kItems is odd so that a warp's blocked accesses (thread t at t * kItems + j) hit 32 different
// banks. The shapes come from the sweep in tune/sweep.cu (NOTES.md).
// Measured (H200, 2026-11-30): sort 22.8 Gkeys/s at 2^24, 22.0 at 2^28: 0.95x and 0.98x the
// time of cub::DeviceMergeSort (pairs: 0.94x at both); merge at 2^28: 0.75 of the copy
// bandwidth (CUB 0.81). Before the register caps: 1.20x and 1.23x (NOTES.md). Where two sort
// tiles of 17408 keys do not fit an SM (a T4, an RTX 3060, an L4), 8704: under the t4 profile on
// the H200, 0.88 ms at 2^24, 1.14x CUB's time (no dependent launch on sm_75 either; NOTES.md).
#include "merge_sort_4_fast.cuh"

#include "common/report.h"  // format

#include <string>
#include <type_traits>

namespace merge_sort {

namespace {

// The shipped shapes (fast::ShippedShape, merge_sort_4_fast.cuh, where variant 5 finds them too).
template <class Key, class Value>
using Shape = fast::ShippedShape<sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0)>;

// Whether kSortMinBlocks of the shipped shape's sort tiles fit one SM of this GPU (or of the
// profile).
template <class Key, class Value>
bool shipped_sort_tiles_fit() {
    using Shipped = typename Shape<Key, Value>::type;
    return pmpp::shared_memory_fits(fast::shared_bytes<Key, Value>(Shipped::kSortTile), Shipped::kSortMinBlocks);
}

// Calls run(Config{}) with the shipped shape where this GPU's limits (or the profile's) allow
// it, else with the small one; reports the choice once per item size.
template <class Key, class Value, class Run>
void with_shape_for_this_gpu(Run run) {
    using Shipped = typename Shape<Key, Value>::type;
    using Small = typename Shape<Key, Value>::small;
    static_assert(fast::shared_bytes<Key, Value>(Small::kSortTile) <= pmpp::kSmallestSharedPerBlock &&
                      fast::shared_bytes<Key, Value>(Small::kMergeTile) <= pmpp::kSmallestSharedPerBlock,
                  "the fallback shape must fit every supported GPU (sm_75: 64 KiB per block)");
    static const bool shipped = [] {
        const std::string what = "merge_sort_fast, " + std::to_string(sizeof(Key)) + "-byte keys" +
                                 (kHasValues<Value> ? " and " + std::to_string(sizeof(Value)) + "-byte values" : "");
        const auto describe = [](int tile, int threads, std::size_t shared) {
            return pmpp::format(
                "sort tiles of %d (%d threads x 17 or fewer items), %zu bytes of shared memory per block", tile,
                threads, shared);
        };
        constexpr std::size_t bytes = fast::shared_bytes<Key, Value>(Shipped::kSortTile);
        const std::string shipped_shape = describe(Shipped::kSortTile, Shipped::kSortThreads, bytes);
        if constexpr (std::is_same_v<Shipped, Small>) {  // one shape: nothing to choose
            pmpp::report_shape(what, shipped_shape);
            return true;
        }
        return pmpp::shipped_shape_fits(
            what, bytes, Shipped::kSortMinBlocks, shipped_shape,
            describe(Small::kSortTile, Small::kSortThreads, fast::shared_bytes<Key, Value>(Small::kSortTile)));
    }();
    if constexpr (std::is_same_v<Shipped, Small>) {
        run(Shipped{});
    } else {
        if (shipped)
            run(Shipped{});
        else
            run(Small{});
    }
}

}  // namespace

// Each kernel is launched with programmatic dependent launch where the build allows it (sm_90
// code): it is resident and waiting when the kernel before it ends. That hides most of the gap
// between dependent launches: 4% of a sort of 2^24 keys (23 kernels in 0.74 ms), 15% at 2^20,
// 0.4% at 2^28 (NOTES.md).
template <class Key, class Less>
void merge_fast(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less) {
    with_shape_for_this_gpu<Key, NoValues>([&](auto config) {
        fast::with_fastest_executor([&](auto executor) {
            fast::merge_with<decltype(config), decltype(executor)>(a, na, b, nb, c, splits, less);
        });
    });
}

template <class Key, class Value, class Less>
void sort_fast(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    with_shape_for_this_gpu<Key, Value>([&](auto config) {
        fast::with_fastest_executor(
            [&](auto executor) { fast::sort_with<decltype(config), decltype(executor)>(args, n, less); });
    });
}

// The shape with_shape_for_this_gpu runs, without reporting it (the check asks for every variant).
template <class Key, class Value>
FastTiles fast_tiles() {
    using Shipped = typename Shape<Key, Value>::type;
    using Small = typename Shape<Key, Value>::small;
    static const bool shipped = std::is_same_v<Shipped, Small> || shipped_sort_tiles_fit<Key, Value>();
    FastTiles tiles;
    tiles.sort_tile = static_cast<std::size_t>(shipped ? Shipped::kSortTile : Small::kSortTile);
    tiles.merge_tile = static_cast<std::size_t>(shipped ? Shipped::kMergeTile : Small::kMergeTile);
    return tiles;
}

#define INSTANTIATE_FAST(Key, Less)                               \
    MERGE_SORT_INSTANTIATE_MERGE(merge_fast, Key, Less)           \
    MERGE_SORT_INSTANTIATE_SORT(sort_fast, Key, Less)             \
    template FastTiles fast_tiles<Key, ::merge_sort::NoValues>(); \
    template FastTiles fast_tiles<Key, ::merge_sort::PairValue>();
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_FAST)
#undef INSTANTIATE_FAST

}  // namespace merge_sort
