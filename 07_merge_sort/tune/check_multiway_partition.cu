// tune/check_multiway_partition.cu: the host check of tune/multiway_partition.cuh and of the
// 4-way merge pass's per-thread steps (tune/multiway_merge.cuh). No GPU: it runs anywhere.
//   1. partition4 (one lane) and partition4_kary (2 to 32 lanes, emulated) at every output k,
//      against a brute-force stable merge, on small runs: random keys, all equal, few distinct,
//      extremes (0 and 2^32 - 1), disjoint and reversed ranges, lengths 0 to 300 (empty runs,
//      one-element runs, lengths that are multiples of nothing). Keys carry their run and index
//      in the low 32 bits and compare on the high 32 only, so a tie taken in the wrong order
//      shows.
//   2. The same at 2500 positions each on runs of 2^16 to 2^18, and how many comparisons a
//      search makes (runs of 2^12 to 2^22, u32 keys).
//   3. Whole passes and whole sorts through Block4Steps, block by block and thread by thread
//      as the kernels run them (the partition per segment as partition4_kernel computes it),
//      against std::stable_sort: small segment shapes, widths with a last group of 1, 2 or 3
//      runs.
// Prints one line per part and a last "check_multiway_partition: PASS" (exit 0) or
// "... FAIL" (exit 1).
#include "multiway_merge.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::multiway;

namespace {

// A key in the high 32 bits, a tag (run and index, or input position) in the low 32.
struct HighLess {
    PMPP_HD bool operator()(std::uint64_t x, std::uint64_t y) const { return (x >> 32) < (y >> 32); }
};

unsigned long long g_compares = 0;
struct CountingLess {
    PMPP_HD bool operator()(std::uint32_t x, std::uint32_t y) const {
#ifndef __CUDA_ARCH__
        ++g_compares;
#endif
        return x < y;
    }
};

int g_failures = 0;
void fail(const char* what, std::size_t k, int lanes) {
    if (++g_failures <= 10) std::printf("  FAIL %s at k=%zu lanes=%d\n", what, k, lanes);
}

using Runs = std::vector<std::vector<std::uint64_t>>;

// Runs of the given lengths, keys from `key(rng)`, each run sorted, tags (run << 24 | index).
template <class KeyGen>
Runs make_runs(const std::size_t (&len)[4], std::mt19937_64& rng, KeyGen key) {
    Runs runs(4);
    for (int q = 0; q < 4; ++q) {
        std::vector<std::uint32_t> keys(len[q]);
        for (auto& k : keys) k = key(rng);
        std::sort(keys.begin(), keys.end());
        for (std::size_t i = 0; i < len[q]; ++i)
            runs[q].push_back(std::uint64_t{keys[i]} << 32 | (std::uint64_t(q) << 24 | i));
    }
    return runs;
}

// The run (0-3) of each output of the stable merge A, B, C, D (= a stable sort of A|B|C|D).
std::vector<int> brute_sources(const Runs& runs) {
    std::vector<std::uint64_t> all;
    for (const auto& r : runs) all.insert(all.end(), r.begin(), r.end());
    std::stable_sort(all.begin(), all.end(), HighLess{});
    std::vector<int> src;
    for (std::uint64_t x : all) src.push_back(static_cast<int>((x >> 24) & 0xFF));
    return src;
}

Runs4<const std::uint64_t*, std::size_t> view(const Runs& runs) {
    Runs4<const std::uint64_t*, std::size_t> r;
    for (int q = 0; q < 4; ++q) {
        r.run[q] = runs[q].data();
        r.n[q] = runs[q].size();
    }
    return r;
}

const int kLanes[] = {1, 2, 3, 4, 7, 8, 16, 31, 32};
const std::size_t kSpacings[] = {1, 2, 3, 5, 16, 61};

// The co-rank grid of pair h (0: runs 0 and 1, 1: runs 2 and 3) at spacing g.
template <class Keys>
std::vector<std::size_t> grid_of(const Runs4<Keys, std::size_t>& r, int h, std::size_t g) {
    const std::size_t na = r.n[2 * h], nb = r.n[2 * h + 1];
    std::vector<std::size_t> f;
    for (std::size_t j = 0; j < grid_entries(na + nb, g); ++j)
        f.push_back(co_rank(grid_position(j, na + nb, g), r.run[2 * h], na, r.run[2 * h + 1], nb, HighLess{}));
    return f;
}

// Every k (or `samples` random ones, with 0, total and their neighbours) for every lane count.
std::size_t check_partition(const Runs& runs, std::mt19937_64& rng, std::size_t samples = 0) {
    const std::vector<int> src = brute_sources(runs);
    const auto r = view(runs);
    const std::size_t total = src.size();
    std::vector<std::size_t> ks;
    if (samples == 0 || samples >= total + 1) {
        for (std::size_t k = 0; k <= total; ++k) ks.push_back(k);
    } else {
        for (std::size_t k : {std::size_t{0}, std::size_t{1}, total - 1, total}) ks.push_back(k);
        for (std::size_t i = 0; i < samples; ++i) ks.push_back(rng() % (total + 1));
        std::sort(ks.begin(), ks.end());
    }
    std::vector<std::vector<std::size_t>> grids;  // X's and Y's for each spacing
    for (std::size_t g : kSpacings) {
        grids.push_back(grid_of(r, 0, g));
        grids.push_back(grid_of(r, 1, g));
    }
    std::size_t checks = 0, pos = 0;
    std::size_t want[4] = {0, 0, 0, 0};
    for (std::size_t k : ks) {
        for (; pos < k; ++pos) ++want[src[pos]];
        for (int lanes : kLanes) {
            bool prefix = true;
            const Split4<std::size_t> s =
                lanes == 1 ? partition4(k, r, HighLess{}) : partition4_kary(k, r, lanes, HighLess{}, &prefix);
            bool ok = prefix;
            for (int q = 0; q < 4; ++q) ok = ok && s.s[q] == want[q];
            if (!ok) fail("partition4", k, lanes);
            ++checks;
        }
        // From the co-rank grids, for every spacing that k is a multiple of.
        for (const std::size_t& g : kSpacings) {
            if (k % g != 0) continue;
            const std::vector<std::size_t>&fx = grids[2 * (&g - kSpacings)], &fy = grids[2 * (&g - kSpacings) + 1];
            for (int lanes : {1, 3, 8}) {
                bool prefix = true;
                const auto st = partition4_start_on_grid(k, r, fx.data(), fy.data(), g, HighLess{});
                const Split4<std::size_t> s = lanes == 1 ? partition4_from(st, r, HighLess{})
                                                         : partition4_kary_from(st, r, lanes, HighLess{}, &prefix);
                bool ok = prefix && st.hi - st.lo <= g;
                for (int q = 0; q < 4; ++q) ok = ok && s.s[q] == want[q];
                if (!ok) fail("partition4 from the grid", k, lanes);
                ++checks;
            }
        }
    }
    return checks;
}

// One pass through Block4Steps as the kernels do it: src in runs of `width`, out in runs of 4x.
template <int THREADS, int ITEMS>
void pass_on_host(const std::vector<std::uint64_t>& src, std::vector<std::uint64_t>& out, std::size_t width, int lanes,
                  bool use_grid) {
    using Steps = Block4Steps<THREADS, ITEMS>;
    const std::size_t n = src.size();
    const SegmentGrid grid = SegmentGrid::make(n, width, Steps::kSegment);
    const CoRankGrid cg = CoRankGrid::make(n, width, Steps::kSegment);
    const SortedRuns4<std::uint64_t> runs{src.data(), n, width};
    std::vector<std::size_t> coranks(cg.count, ~std::size_t{0});
    if (use_grid)
        for (std::size_t i = 0; i < cg.count; ++i)
            corank_grid_entry(runs, cg, i, coranks.data(), HighLess{});  // corank_grid_kernel
    std::vector<Split4<std::size_t>> splits(grid.count);
    for (std::size_t t = 0; t < grid.count; ++t) {  // partition4_kernel
        const Segment seg = grid.segment(t);
        const auto r = runs.group(seg.first);
        splits[t] = seg.local == 0
                        ? Split4<std::size_t>{{0, 0, 0, 0}}
                        : partition4_kary_from(
                              segment_search_start(seg, r, use_grid ? coranks.data() : nullptr, cg, HighLess{}), r,
                              lanes, HighLess{});
    }
    std::vector<std::uint64_t> s_keys(Steps::kSegment);
    std::vector<std::uint64_t> items(static_cast<std::size_t>(THREADS) * ITEMS);
    std::vector<int> own(THREADS);
    for (std::size_t t = 0; t < grid.count; ++t) {  // merge4_kernel, block t
        Segment seg;
        const Runs4<const std::uint64_t*, int> pieces = segment_pieces(runs, grid, t, splits.data(), seg);
        const int len[4] = {pieces.n[0], pieces.n[1], pieces.n[2], pieces.n[3]};
        const int count = len[0] + len[1] + len[2] + len[3];
        if (count != static_cast<int>(seg.local_end - seg.local)) fail("segment size", t, lanes);
        for (int tid = 0; tid < THREADS; ++tid) Steps::load(tid, pieces, s_keys.data());
        for (int tid = 0; tid < THREADS; ++tid) {
            std::uint64_t keys[ITEMS];
            own[tid] = Steps::merge(tid, Steps::local_runs(s_keys.data(), len), keys, HighLess{});
            std::copy(keys, keys + ITEMS, items.begin() + tid * ITEMS);
        }
        for (int tid = 0; tid < THREADS; ++tid) {
            std::uint64_t keys[ITEMS];
            std::copy(items.begin() + tid * ITEMS, items.begin() + (tid + 1) * ITEMS, keys);
            Steps::write_items(tid, own[tid], keys, s_keys.data());
        }
        for (int tid = 0; tid < THREADS; ++tid)
            Steps::store(tid, count, s_keys.data(), out.data() + seg.first + seg.local);
    }
}

// Input keys (tag: input position), runs of `width` sorted stably, then passes to one run.
template <int THREADS, int ITEMS>
bool sort_on_host(std::size_t n, std::size_t width, std::uint32_t distinct, int lanes, bool use_grid,
                  std::mt19937_64& rng, bool one_pass_only) {
    std::vector<std::uint64_t> in(n), a, b(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t key =
            distinct ? static_cast<std::uint32_t>(rng() % distinct) : static_cast<std::uint32_t>(rng());
        in[i] = std::uint64_t{key} << 32 | i;
    }
    a = in;
    for (std::size_t first = 0; first < n; first += width)
        std::stable_sort(a.begin() + first, a.begin() + std::min(n, first + width), HighLess{});
    std::vector<std::uint64_t> want = a;
    if (one_pass_only) {
        for (std::size_t first = 0; first < n; first += 4 * width)
            std::stable_sort(want.begin() + first, want.begin() + std::min(n, first + 4 * width), HighLess{});
        pass_on_host<THREADS, ITEMS>(a, b, width, lanes, use_grid);
        return b == want;
    }
    std::stable_sort(want.begin(), want.end(), HighLess{});
    for (std::size_t w = width; w < n; w *= 4) {
        pass_on_host<THREADS, ITEMS>(a, b, w, lanes, use_grid);
        std::swap(a, b);
    }
    return a == want;
}

}  // namespace

int main() {
    std::mt19937_64 rng(20261202);
    const auto any = [](std::mt19937_64& g) { return static_cast<std::uint32_t>(g()); };
    const auto equal = [](std::mt19937_64&) { return 7u; };
    const auto few = [](std::mt19937_64& g) { return static_cast<std::uint32_t>(g() % 3); };
    const auto some = [](std::mt19937_64& g) { return static_cast<std::uint32_t>(g() % 17); };
    const auto extremes = [](std::mt19937_64& g) { return g() % 2 ? 0xFFFFFFFFu : 0u; };

    // 1. Small runs, every k, every lane count.
    std::size_t checks = 0, cases = 0;
    const std::size_t fixed[][4] = {
        {0, 0, 0, 0},   {5, 0, 0, 0},     {0, 5, 0, 0},     {0, 0, 5, 0},   {0, 0, 0, 5},       {1, 1, 1, 1},
        {1, 0, 1, 0},   {0, 1, 0, 1},     {3, 3, 0, 0},     {0, 0, 3, 3},   {13, 7, 0, 29},     {100, 1, 57, 3},
        {0, 64, 64, 0}, {17, 17, 17, 17}, {1, 300, 2, 299}, {255, 0, 0, 1}, {299, 101, 37, 211}};
    for (const auto& len : fixed) {
        for (int gen = 0; gen < 5; ++gen) {
            Runs runs = gen == 0   ? make_runs(len, rng, any)
                        : gen == 1 ? make_runs(len, rng, equal)
                        : gen == 2 ? make_runs(len, rng, few)
                        : gen == 3 ? make_runs(len, rng, some)
                                   : make_runs(len, rng, extremes);
            checks += check_partition(runs, rng);
            ++cases;
        }
    }
    for (int i = 0; i < 400; ++i) {  // random lengths 0-300, every distribution
        std::size_t len[4];
        for (auto& l : len) l = rng() % 4 == 0 ? rng() % 3 : rng() % 301;
        const int gen = i % 5;
        Runs runs = gen == 0   ? make_runs(len, rng, any)
                    : gen == 1 ? make_runs(len, rng, equal)
                    : gen == 2 ? make_runs(len, rng, few)
                    : gen == 3 ? make_runs(len, rng, some)
                               : make_runs(len, rng, extremes);
        checks += check_partition(runs, rng);
        ++cases;
    }
    // Disjoint ranges, in order and reversed (D's keys smallest), and interleaved by parity.
    for (int order = 0; order < 3; ++order) {
        const std::size_t len[4] = {50, 31, 77, 12};
        Runs runs(4);
        for (int q = 0; q < 4; ++q)
            for (std::size_t i = 0; i < len[q]; ++i) {
                const std::uint32_t key = order == 0   ? static_cast<std::uint32_t>(q * 1000 + i)
                                          : order == 1 ? static_cast<std::uint32_t>((3 - q) * 1000 + i)
                                                       : static_cast<std::uint32_t>(4 * i + q);
                runs[q].push_back(std::uint64_t{key} << 32 | (std::uint64_t(q) << 24 | i));
            }
        checks += check_partition(runs, rng);
        ++cases;
    }
    std::printf("small runs: %zu cases, %zu splits (every k, lanes 1-32)\n", cases, checks);

    // 2. Larger runs at sampled k.
    checks = 0;
    for (int i = 0; i < 12; ++i) {
        std::size_t len[4];
        for (auto& l : len) l = (std::size_t{1} << (16 + rng() % 3)) + rng() % 1000 - 500;
        if (i % 4 == 3) len[rng() % 4] = 0;
        Runs runs = i % 3 == 0   ? make_runs(len, rng, any)
                    : i % 3 == 1 ? make_runs(len, rng, few)
                                 : make_runs(len, rng, some);
        checks += check_partition(runs, rng, 2500);
    }
    std::printf("runs of 2^16-2^18: %zu splits at sampled k\n", checks);

    // Comparisons per search (u32 keys, four random runs of L): the mean over 200 k.
    for (int log_l : {12, 16, 20, 22}) {
        const std::size_t l = std::size_t{1} << log_l;
        std::vector<std::vector<std::uint32_t>> keys(4, std::vector<std::uint32_t>(l));
        Runs4<const std::uint32_t*, std::size_t> r;
        for (int q = 0; q < 4; ++q) {
            for (auto& k : keys[q]) k = static_cast<std::uint32_t>(rng());
            std::sort(keys[q].begin(), keys[q].end());
            r.run[q] = keys[q].data();
            r.n[q] = l;
        }
        std::printf("comparisons per search, runs of 2^%d:", log_l);
        for (int lanes : {1, 4, 8, 32}) {
            g_compares = 0;
            for (int i = 0; i < 200; ++i) {
                const std::size_t k = rng() % (4 * l + 1);
                if (lanes == 1)
                    (void)partition4(k, r, CountingLess{});
                else
                    (void)partition4_kary(k, r, lanes, CountingLess{});
            }
            // per lane: the emulation does every lane's comparisons, a lane does 1/lanes of them
            std::printf("  %d lane%s %.0f per lane", lanes, lanes == 1 ? "" : "s", g_compares / 200.0 / lanes);
        }
        // From the co-rank grids at spacing 4352 (the default segment): the grid search and the
        // window's nested search (the grids themselves: one 2-way co-rank search per segment).
        const std::size_t g = 4352;
        std::vector<std::size_t> fx, fy;
        for (std::size_t j = 0; j < grid_entries(2 * l, g); ++j) {
            fx.push_back(co_rank(grid_position(j, 2 * l, g), r.run[0], l, r.run[1], l, KeyLess{}));
            fy.push_back(co_rank(grid_position(j, 2 * l, g), r.run[2], l, r.run[3], l, KeyLess{}));
        }
        std::printf("; from a grid of %zu:", g);
        for (int lanes : {1, 4, 8}) {
            g_compares = 0;
            for (int i = 0; i < 200; ++i) {
                const std::size_t k = rng() % (4 * l / g + 1) * g;
                const auto st = partition4_start_on_grid(k, r, fx.data(), fy.data(), g, CountingLess{});
                if (lanes == 1)
                    (void)partition4_from(st, r, CountingLess{});
                else
                    (void)partition4_kary_from(st, r, lanes, CountingLess{});
            }
            std::printf("  %d lane%s %.0f", lanes, lanes == 1 ? "" : "s", g_compares / 200.0 / lanes);
        }
        std::printf("\n");
    }

    // 3. Passes and sorts through the block steps.
    int sorts = 0, wrong = 0;
    struct Case {
        std::size_t n, width;
        std::uint32_t distinct;
        bool one_pass;
    };
    const Case sort_cases[] = {
        {0, 40, 0, false},      {1, 40, 0, false},      {39, 40, 0, false},   {40, 40, 0, false},
        {41, 40, 3, false},     {80, 40, 0, false},     {120, 40, 2, false},  {159, 40, 0, false},
        {160, 40, 0, false},    {161, 40, 5, false},    {1000, 40, 0, false}, {1000, 40, 1, false},
        {6399, 40, 7, false},   {6401, 40, 0, false},   {5000, 17, 0, false}, {777, 13, 4, false},
        {20000, 100, 0, false}, {20000, 100, 9, false}, {3333, 160, 0, true}, {3333, 45, 0, true},
        {96, 40, 2, true},      {120, 40, 0, true},     {257, 64, 0, true},   {9999, 1, 3, false},
        {4096, 1024, 0, true},
    };
    for (const Case& c : sort_cases) {
        for (int lanes : {1, 8}) {
            for (bool use_grid : {false, true}) {
                const bool a = sort_on_host<32, 5>(c.n, c.width, c.distinct, lanes, use_grid, rng, c.one_pass);
                const bool b = sort_on_host<64, 7>(c.n, c.width, c.distinct, lanes, use_grid, rng, c.one_pass);
                sorts += 2;
                if (!a) fail(use_grid ? "pass/sort 32x5, grid" : "pass/sort 32x5", c.n, lanes);
                if (!b) fail(use_grid ? "pass/sort 64x7, grid" : "pass/sort 64x7", c.n, lanes);
                wrong += !a + !b;
            }
        }
    }
    std::printf("passes and sorts through the block steps (32x5 and 64x7 segments): %d, %d wrong\n", sorts, wrong);

    std::printf("check_multiway_partition: %s (%d failures)\n", g_failures == 0 ? "PASS" : "FAIL", g_failures);
    return g_failures == 0 ? 0 : 1;
}
