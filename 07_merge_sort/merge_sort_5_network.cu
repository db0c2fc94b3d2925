// merge_sort_5_network.cu: variant 4's merge sort with its first runs sorted by exercise 05's
// bitonic network (kernels in merge_sort_5_network.cuh).
//
// The idea over variant 4: its stable tile sort (1024 threads x 17 = 17408 keys a block, ten
// rounds of merging in shared memory) is a quarter of the sort's time and bound by shared memory
// (NOTES.md, "Nsight Compute at 2^24"). A sorting network in registers does the same job with a
// min and a max per comparator and a trip through shared memory only every five steps (05's
// variant 4, every comparator forward: 05's NOTES.md). A network is not stable, and for keys that
// are their own identity that does not matter: u32, i32 and float keys are compared through
// pmpp::ordered_bits, a bijection, so two keys that compare equal are the same bit pattern and
// no output can show their order. So 4-byte keys without values sort tiles of 16384 (512 threads
// x 32, where two such blocks fit an SM) or 8192 (256 x 32) with the network, then run variant
// 4's merge passes (fast::sort_runs_with, the same loop variant 4 runs). Every other case keeps
// variant 4's sort (sort_fast): with values, equal keys carry different values and their order
// must be the input's; u64 keys are wider than the network's 32-bit words; Event keys are ordered
// by their time only, so two events can compare equal and still differ (their ids), which the
// stable tile sort keeps in input order. The merge is variant 4's merge_fast.
// PMPP 13.7 (parallel merge sort; the merge passes, chapter 12), with chapter 13's sorting
// networks for the first runs (Batcher's bitonic sort, exercise 05).
// Measured (H100, 2026-12-07, tune/sweep_network and the harness in one call): u32 keys 0.90x
// cub::DeviceMergeSort's time at 2^24 and 0.93x at 2^28 (variant 4: 0.94x and 0.96x); the tile
// sort of 16384 keys 0.185 ms at 2^24 against variant 4's 0.233 (NOTES.md).
#include "merge_sort_5_network.cuh"

#include "common/report.h"  // format

#include <string>

namespace merge_sort {

namespace {

// Whether two blocks of the 16384-key tile (67,584 bytes of shared memory each) fit one SM of
// this GPU (or of the profile); else tiles of 8192. Chosen and reported once.
bool large_network_tiles_fit() {
    static const bool large = [] {
        const auto describe = [](unsigned tile, int threads, std::size_t bytes) {
            return pmpp::format(
                "network tile sort of %u keys (%d threads x 32), %zu bytes of shared memory per block; merge passes "
                "of merge_sort_fast's 4352-key tiles",
                tile, threads, bytes);
        };
        using Large = network::LargeTile;
        using Small = network::SmallTile;
        return pmpp::shipped_shape_fits("merge_sort_network, 4-byte keys", network::tile_shared_bytes<Large>(), 2,
                                        describe(Large::kTile, Large::kThreads, network::tile_shared_bytes<Large>()),
                                        describe(Small::kTile, Small::kThreads, network::tile_shared_bytes<Small>()));
    }();
    return large;
}

}  // namespace

// Variant 4's merge: variant 5 changes only the sort's first runs.
template <class Key, class Less>
void merge_network(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less) {
    merge_fast(a, na, b, nb, c, splits, less);
}

template <class Key, class Value, class Less>
void sort_network(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    if constexpr (network::kSortsWithNetwork<Key, Value, Less>) {
        fast::with_fastest_executor([&](auto executor) {
            using Exec = decltype(executor);
            if (large_network_tiles_fit())
                network::sort_with<network::LargeTile, network::MergeConfig, Exec>(args, n, less);
            else
                network::sort_with<network::SmallTile, network::MergeConfig, Exec>(args, n, less);
        });
    } else {
        sort_fast(args, n, less);  // values, u64 keys, events: the stable tile sort
    }
}

#define INSTANTIATE_NETWORK(Key, Less)                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_network, Key, Less) \
    MERGE_SORT_INSTANTIATE_SORT(sort_network, Key, Less)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_NETWORK)
#undef INSTANTIATE_NETWORK

}  // namespace merge_sort
