// tune/check_window_partition.cu: the host check of tune/window_partition.cuh. No GPU: it runs
// anywhere (`make -C 07_merge_sort tune`, then build/tune/check_window_partition).
// Every split of emulated_window_splits (the kernel's steps, warp by warp: ends searched by one lane
// each, or by emulated k-ary groups of 16) against the plain co-rank of the same diagonal, for
// two arrays (either side empty, uneven sides), sorted runs (pairs of 2 to 128 tiles) and
// pair-tiled runs (a short last tile in every pair, pairs of 1 to hundreds of tiles, several pairs
// a warp), on random keys, all equal, 3 distinct and only 0 and 2^32 - 1, sizes around powers of
// two, tiles of 1 to 4352 keys. Then two deliberately wrong windows (the ends taken a lane apart
// instead of a tile; the upper end's split one too high), which must give wrong splits: the check
// can fail. Prints one line per layout and "check_window_partition: PASS" (exit
// 0) or "... FAIL" (exit 1).
#include "window_partition.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

using namespace merge_sort;

namespace {

struct Less {
    PMPP_HD bool operator()(std::uint32_t x, std::uint32_t y) const { return x < y; }
};

enum class Keys { Random, AllEqual, ThreeDistinct, Extremes };
const char* name(Keys k) {
    switch (k) {
        case Keys::Random: return "random";
        case Keys::AllEqual: return "all equal";
        case Keys::ThreeDistinct: return "3 distinct";
        case Keys::Extremes: return "0 and 2^32-1";
    }
    return "?";
}

std::uint32_t draw(std::mt19937& rng, Keys k) {
    switch (k) {
        case Keys::Random: return static_cast<std::uint32_t>(rng());
        case Keys::AllEqual: return 7u;
        case Keys::ThreeDistinct: return static_cast<std::uint32_t>(rng() % 3) * 1000u;
        case Keys::Extremes: return rng() % 2 ? 0xFFFFFFFFu : 0u;
    }
    return 0;
}

// Sorted runs of `width` keys (the last shorter), from fresh keys.
std::vector<std::uint32_t> sorted_runs(std::size_t n, std::size_t width, Keys k, std::mt19937& rng) {
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = draw(rng, k);
    for (std::size_t first = 0; first < n; first += width)
        std::sort(v.begin() + static_cast<std::ptrdiff_t>(first),
                  v.begin() + static_cast<std::ptrdiff_t>(std::min(n, first + width)));
    return v;
}

struct Tally {
    long cases = 0, splits = 0, wrong = 0;
};

// The plain co-rank of every tile's diagonal: what the shipped partition writes.
template <class Layout>
std::vector<std::size_t> plain_splits(const Layout& runs, std::size_t tile) {
    std::vector<std::size_t> s(fast::tile_count(runs, tile));
    for (std::size_t t = 0; t < s.size(); ++t) {
        const std::size_t k = fast::tile_start(runs, tile, t);
        const auto pair = runs.pair_containing(k);
        s[t] = co_rank(k - pair.first, pair.a, pair.na, pair.b, pair.nb, Less{});
    }
    return s;
}

template <class Layout>
void check(const Layout& runs, std::size_t tile, Tally& tally, const char* what) {
    const std::vector<std::size_t> want = plain_splits(runs, tile);
    for (bool kary : {false, true}) {
        const std::vector<std::size_t> got = window::emulated_window_splits(runs, tile, kary, Less{});
        ++tally.cases;
        tally.splits += static_cast<long>(want.size());
        for (std::size_t t = 0; t < want.size(); ++t)
            if (got[t] != want[t]) {
                if (++tally.wrong <= 5)
                    std::printf("  wrong split: %s, tile %zu of %zu keys, %s ends: %zu, want %zu\n", what, t, tile,
                                kary ? "k-ary" : "one-lane", got[t], want[t]);
            }
    }
}

// The negative controls: middle lanes searched between wrong bounds must give some wrong split.
// mutate(ends, lane) returns the bounds a buggy kernel would use for that lane of the warp.
template <class Layout, class Mutate>
long wrong_with(const Layout& runs, std::size_t tile, Mutate mutate) {
    const std::vector<std::size_t> want = plain_splits(runs, tile);
    long wrong = 0;
    for (std::size_t warp = 0; warp + 2 < want.size(); warp += 32) {
        const std::size_t last = std::min(want.size(), warp + 32) - 1;
        const auto pair = runs.pair_containing(fast::tile_start(runs, tile, warp));
        if (runs.pair_containing(fast::tile_start(runs, tile, last)).first != pair.first) continue;
        const std::size_t d0 = fast::tile_start(runs, tile, warp) - pair.first;
        const std::size_t d1 = fast::tile_start(runs, tile, last) - pair.first;
        const multiway::CoRankBounds<std::size_t> ends{d0, want[warp], d1, want[last]};
        for (std::size_t t = warp + 1; t < last; ++t) {
            const std::size_t d = fast::tile_start(runs, tile, t) - pair.first;
            if (window::split_between(pair, d, mutate(ends, d, t - warp), Less{}) != want[t]) ++wrong;
        }
    }
    return wrong;
}

}  // namespace

int main() {
    std::mt19937 rng(20261207);
    const std::size_t sizes[] = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 4097, 65535, 65536, 65537, 131073};
    const std::size_t tiles[] = {1, 3, 17, 64, 4352};
    const Keys kinds[] = {Keys::Random, Keys::AllEqual, Keys::ThreeDistinct, Keys::Extremes};
    bool ok = true;

    Tally two;
    for (std::size_t n : sizes)
        for (std::size_t tile : tiles)
            for (Keys k : kinds)
                for (double share : {0.0, 0.3, 0.5, 1.0}) {  // A's share of the keys: either side may be empty
                    const auto na = static_cast<std::size_t>(share * static_cast<double>(n));
                    std::vector<std::uint32_t> a = sorted_runs(na, na + 1, k, rng);
                    std::vector<std::uint32_t> b = sorted_runs(n - na, n - na + 1, k, rng);
                    check(two_arrays(a.data(), na, b.data(), n - na), tile, two, name(k));
                }
    std::printf("two arrays: %ld cases, %ld splits, %ld wrong\n", two.cases, two.splits, two.wrong);
    ok = ok && two.wrong == 0;

    Tally runs;
    for (std::size_t n : sizes)
        for (std::size_t tile : tiles)
            for (std::size_t tiles_per_pair : {2, 8, 64, 128})
                for (Keys k : kinds) {
                    const std::size_t width = tile * tiles_per_pair / 2;  // 2 width is a whole number of tiles
                    const std::vector<std::uint32_t> v = sorted_runs(n, width, k, rng);
                    const SortedRuns<std::uint32_t, NoValues> layout{v.data(), nullptr, n, width};
                    check(layout, tile, runs, name(k));
                }
    std::printf("sorted runs: %ld cases, %ld splits, %ld wrong\n", runs.cases, runs.splits, runs.wrong);
    ok = ok && runs.wrong == 0;

    Tally paired;
    for (std::size_t n : sizes)
        for (std::size_t tile : tiles)
            for (std::size_t width : {8, 100, 1000, 16384})
                for (Keys k : kinds) {
                    const std::vector<std::uint32_t> v = sorted_runs(n, width, k, rng);
                    const auto layout = fast::pass_runs<fast::PairTiledRuns, std::uint32_t, NoValues>(v.data(), nullptr,
                                                                                                      n, width, tile);
                    check(layout, tile, paired, name(k));
                }
    std::printf("pair-tiled runs: %ld cases, %ld splits, %ld wrong\n", paired.cases, paired.splits, paired.wrong);
    ok = ok && paired.wrong == 0;

    // The negative controls. On random keys: the lower end's diagonal taken as if the lanes'
    // diagonals were one apart, not a tile apart (the window then ends lane keys above the lower
    // split). On all-equal keys, where every split is min(d, na) and both edges of the window
    // meet at it: the upper end's split one too high, which lifts the lower edge past it.
    const std::vector<std::uint32_t> a = sorted_runs(65536, 65537, Keys::Random, rng);
    const std::vector<std::uint32_t> b = sorted_runs(65536, 65537, Keys::Random, rng);
    const long lane_apart = wrong_with(two_arrays(a.data(), 65536, b.data(), 65536), 64,
                                       [](multiway::CoRankBounds<std::size_t> e, std::size_t d, std::size_t lane) {
                                           e.i0 = d - lane;
                                           return e;
                                       });
    const std::vector<std::uint32_t> same_a = sorted_runs(65536, 65537, Keys::AllEqual, rng);
    const std::vector<std::uint32_t> same_b = sorted_runs(65536, 65537, Keys::AllEqual, rng);
    const long edge_high = wrong_with(two_arrays(same_a.data(), 65536, same_b.data(), 65536), 64,
                                      [](multiway::CoRankBounds<std::size_t> e, std::size_t, std::size_t) {
                                          e.f1 += 1;
                                          return e;
                                      });
    std::printf(
        "negative controls: ends a lane apart %ld wrong splits, upper end one high %ld (each must be more "
        "than 0)\n",
        lane_apart, edge_high);
    ok = ok && lane_apart > 0 && edge_high > 0;

    std::printf("check_window_partition: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
