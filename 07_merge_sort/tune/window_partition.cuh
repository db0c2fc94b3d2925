// tune/window_partition.cuh: a partition kernel whose searches share their bounds (NOTES.md,
// "Partitions that share their bounds"; not shipped). The shipped partition_kernel
// (merge_sort_4_fast.cuh) searches every tile's split over its whole range. Here a warp takes 32
// consecutive tiles, one lane each; of the lanes on the same pair of runs, the first and the last
// search the whole range and every other lane only the window their two splits leave it:
// co_rank(d) is non-decreasing and grows by at most one a diagonal (CoRankBounds, from
// multiway_partition.cuh). The ends are searched by their own lanes, or (kKaryEnds, where the
// whole warp is on one pair) by 16 lanes each in the shipped k-ary search.
//
// WindowPartitionExecutor<kKaryEnds, Base> is Base (a fast:: executor) with this partition: the
// shipped drivers (merge_with, sort_with, network::sort_with) take it as their Exec.
// emulated_window_splits runs the same steps on the host, warp by warp (check_window_partition.cu).
#pragma once

#include "../merge_sort_4_fast.cuh"
#include "multiway_partition.cuh"

#include <cstddef>
#include <vector>

namespace merge_sort::window {

using fast::co_rank_range;
using fast::kary_narrow;
using fast::kary_probe;
using fast::probe_is_before;
using fast::SearchRange;
using multiway::co_rank_within;
using multiway::CoRankBounds;

constexpr int kEndLanes = 16;  // lanes a k-ary end search takes: two ends, one warp

// The split of diagonal diag of `pair` over its whole range, by one lane.
template <class Pair, class Less>
PMPP_HD std::size_t whole_split(const Pair& pair, std::size_t diag, Less less) {
    const SearchRange r = co_rank_range(pair, diag);
    return co_rank_within(diag, pair.a, pair.na, pair.b, pair.nb, r.lo, r.hi, less);
}

// The split of diagonal diag between the ends' splits (low_diag <= diag <= high_diag).
template <class Pair, class Less>
PMPP_HD std::size_t split_between(const Pair& pair, std::size_t diag, const CoRankBounds<std::size_t>& ends,
                                  Less less) {
    return co_rank_within(diag, pair.a, pair.na, pair.b, pair.nb, ends.lo_at(diag), ends.hi_at(diag), less);
}

template <bool kKaryEnds, class Layout, class Less>
__global__ void window_partition_kernel(Layout runs, std::size_t tile, std::size_t tiles, std::size_t* splits,
                                        Less less) {
    fast::wait_for_previous_kernel();
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const unsigned active = __ballot_sync(0xFFFFFFFFu, t < tiles);  // a prefix of the warp
    if (t >= tiles) return;
    const int lane = static_cast<int>(threadIdx.x & 31);
    const std::size_t k = fast::tile_start(runs, tile, t);
    const auto pair = runs.pair_containing(k);
    const std::size_t diag = k - pair.first;
    // The lanes on this lane's pair: consecutive tiles, so a run of lanes from `low` to `high`.
    const unsigned same = __match_any_sync(active, static_cast<unsigned long long>(pair.first));
    const int low = __ffs(static_cast<int>(same)) - 1;
    const int high = 31 - __clz(static_cast<int>(same));
    // The ends' splits: lane low's and lane high's, searched whole; where the warp is one pair
    // (kKaryEnds), lanes 0-15 search lane 0's and lanes 16-31 lane 31's as the shipped k-ary search.
    std::size_t split = 0;
    int low_holder = low, high_holder = high;  // the lanes that hold the ends' splits
    if (kKaryEnds && same == 0xFFFFFFFFu) {
        const int group = lane / kEndLanes;
        const unsigned group_mask = 0xFFFFu << (group * kEndLanes);
        const std::size_t end_diag = __shfl_sync(same, diag, group == 0 ? low : high);
        SearchRange r = co_rank_range(pair, end_diag);
        while (r.lo < r.hi) {
            const bool before = probe_is_before(pair, end_diag, kary_probe(r, lane % kEndLanes, kEndLanes), less);
            r = kary_narrow(r, kEndLanes, __popc(__ballot_sync(group_mask, before) & group_mask));
        }
        split = r.lo;
        high_holder = kEndLanes;
    } else if (lane == low || lane == high) {
        split = whole_split(pair, diag, less);
    }
    const CoRankBounds<std::size_t> ends{__shfl_sync(same, diag, low), __shfl_sync(same, split, low_holder),
                                         __shfl_sync(same, diag, high), __shfl_sync(same, split, high_holder)};
    split = lane == low ? ends.f0 : lane == high ? ends.f1 : split_between(pair, diag, ends, less);
    splits[t] = split;
    fast::let_next_kernel_launch();
}

template <bool kKaryEnds, class Base = fast::OverlappingExecutor>
struct WindowPartitionExecutor : Base {
    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        constexpr int kThreads = 256;
        Base::launch(window_partition_kernel<kKaryEnds, Layout, Less>, (tiles + kThreads - 1) / kThreads, kThreads, 0,
                     runs, tile, tiles, splits, less);
    }
};

// The shipped k-ary search of the split of diag by a group of `lanes`, emulated on the host.
template <class Pair, class Less>
std::size_t emulated_kary_split(const Pair& pair, std::size_t diag, int lanes, Less less) {
    SearchRange r = co_rank_range(pair, diag);
    while (r.lo < r.hi) {
        int before = 0;
        for (int l = 0; l < lanes; ++l) before += probe_is_before(pair, diag, kary_probe(r, l, lanes), less) ? 1 : 0;
        r = kary_narrow(r, lanes, before);
    }
    return r.lo;
}

// The kernel's splits computed on the host, warp by warp, with the same steps: the lanes of a
// warp grouped by their pair; each group's first and last lane searched whole (by emulated k-ary
// groups of 16 with kary_ends where the group is the whole warp), the others between them.
template <class Layout, class Less>
std::vector<std::size_t> emulated_window_splits(const Layout& runs, std::size_t tile, bool kary_ends, Less less) {
    const std::size_t tiles = fast::tile_count(runs, tile);
    std::vector<std::size_t> splits(tiles);
    for (std::size_t warp = 0; warp < tiles; warp += 32) {
        const std::size_t lanes = tiles - warp < 32 ? tiles - warp : 32;
        const auto diag_of = [&](std::size_t lane) {
            const std::size_t k = fast::tile_start(runs, tile, warp + lane);
            return k - runs.pair_containing(k).first;
        };
        const auto pair_first = [&](std::size_t lane) {
            return runs.pair_containing(fast::tile_start(runs, tile, warp + lane)).first;
        };
        for (std::size_t low = 0; low < lanes;) {  // one run of lanes on the same pair at a time
            std::size_t high = low;
            while (high + 1 < lanes && pair_first(high + 1) == pair_first(low)) ++high;
            const auto pair = runs.pair_containing(fast::tile_start(runs, tile, warp + low));
            const bool kary = kary_ends && low == 0 && high == 31;
            const auto end_split = [&](std::size_t d) {
                return kary ? emulated_kary_split(pair, d, kEndLanes, less) : whole_split(pair, d, less);
            };
            const CoRankBounds<std::size_t> ends{diag_of(low), end_split(diag_of(low)), diag_of(high),
                                                 end_split(diag_of(high))};
            for (std::size_t lane = low; lane <= high; ++lane)
                splits[warp + lane] = lane == low    ? ends.f0
                                      : lane == high ? ends.f1
                                                     : split_between(pair, diag_of(lane), ends, less);
            low = high + 1;
        }
    }
    return splits;
}

}  // namespace merge_sort::window
