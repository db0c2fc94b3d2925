// tune/multiway_merge.cuh: a 4-way merge pass of u32 keys (any key type with a comparator;
// keys only), for tune/sweep_multiway.cu. Runs of `width` become runs of 4 * width in one pass:
// every key is read and written once per pass, half the passes of the 2-way merge.
//
//   corank_grid_kernel (optional) co_rank(jG, A, B) and co_rank(jG, C, D) for every segment
//                      start jG of every group: plain 2-way co-rank searches, one per segment
//   partition4_kernel  for every output segment, the split (a, b, c, d) of its group of four
//                      runs where it starts: partition4 (multiway_partition.cuh) by a group of
//                      `lanes` threads (k-ary outer search, one ballot per round), from the
//                      grids' window of G outputs when they were computed
//                      (partition4_start_on_grid), else over the whole range
//   merge4_kernel      one segment of THREADS x ITEMS outputs per block: its four pieces loaded
//                      (coalesced) into shared memory one after another, each thread finds its
//                      ITEMS outputs' split in shared memory (partition4, one lane) and merges
//                      them 4-way into registers, back through shared memory, stored coalesced
//
// Segments are counted per group of four runs (a segment never straddles two groups), so any
// run width works with any segment size; a last group of 1, 2 or 3 runs (or a short one) is the
// same code with empty runs. The per-thread steps are host-and-device (Block4Steps), so
// tune/check_multiway_partition.cu runs them in a host loop over a block's threads.
#pragma once

#include "multiway_partition.cuh"

#include "common/cuda_check.h"

#include <cstddef>

namespace merge_sort::multiway {

// keys[0, n) in sorted runs of `width`; runs 4g .. 4g + 3 merge into out[4g * width, ...).
template <class Key>
struct SortedRuns4 {
    const Key* keys;
    std::size_t n, width;

    PMPP_HD Runs4<const Key*, std::size_t> group(std::size_t first) const {
        Runs4<const Key*, std::size_t> r;
        for (int q = 0; q < 4; ++q) {
            const std::size_t start = min_of(first + q * width, n);
            r.run[q] = keys + start;
            r.n[q] = min_of(width, n - start);
        }
        return r;
    }
};

// Segment t of a pass: group t / per_group, local outputs [local, local_end) of the group.
struct Segment {
    std::size_t group, first;  // the group and its first output
    std::size_t local, local_end, group_size;
};
struct SegmentGrid {
    std::size_t n, group, size, per_group, count;  // group: 4 * width; size: outputs per segment

    PMPP_HD static SegmentGrid make(std::size_t n, std::size_t width, std::size_t size) {
        const std::size_t group = 4 * width, per_group = (group + size - 1) / size;
        const std::size_t full = n / group, rest = n % group;
        return {n, group, size, per_group, full * per_group + (rest + size - 1) / size};
    }
    PMPP_HD Segment segment(std::size_t t) const {
        const std::size_t g = t / per_group, j = t % per_group;
        const std::size_t first = g * group, group_size = min_of(group, n - first);
        const std::size_t local = j * size;
        return {g, first, local, min_of(local + size, group_size), group_size};
    }
};

// The co-rank grids of a pass (multiway_partition.cuh, partition4_start_on_grid): for group g
// and pair h (0: runs 0 and 1, 1: runs 2 and 3), f at grid_position(j) for j < entries, spacing
// `spacing` (the segment size, so every segment starts on a grid point).
struct CoRankGrid {
    std::size_t width, spacing, entries, count;  // entries per pair; count: all of them

    PMPP_HD static CoRankGrid make(std::size_t n, std::size_t width, std::size_t spacing) {
        const std::size_t entries = grid_entries(2 * width, spacing), groups = (n + 4 * width - 1) / (4 * width);
        return {width, spacing, entries, 2 * groups * entries};
    }
    PMPP_HD std::size_t offset(std::size_t group, int pair) const { return (2 * group + pair) * entries; }
};

// The outer search's state where segment seg's split search starts: from the co-rank grids
// when given (coranks non-null), else from the whole range.
template <class Key, class Less>
PMPP_HD Partition4State<std::size_t> segment_search_start(const Segment& seg, const Runs4<const Key*, std::size_t>& r,
                                                          const std::size_t* coranks, const CoRankGrid& cg, Less less) {
    if (!coranks) return partition4_start(seg.local, r);
    return partition4_start_on_grid(seg.local, r, coranks + cg.offset(seg.group, 0), coranks + cg.offset(seg.group, 1),
                                    cg.spacing, less);
}

// Entry i of the co-rank grids (0 <= i < cg.count).
template <class Key, class Less>
PMPP_HD void corank_grid_entry(const SortedRuns4<Key>& runs, const CoRankGrid& cg, std::size_t i, std::size_t* coranks,
                               Less less) {
    const std::size_t pair_index = i / cg.entries, j = i % cg.entries;
    const int h = static_cast<int>(pair_index % 2);
    const Runs4<const Key*, std::size_t> r = runs.group(pair_index / 2 * 4 * cg.width);
    const std::size_t na = r.n[2 * h], nb = r.n[2 * h + 1];
    if (j >= grid_entries(na + nb, cg.spacing)) return;
    coranks[i] = co_rank(grid_position(j, na + nb, cg.spacing), r.run[2 * h], na, r.run[2 * h + 1], nb, less);
}

// What one thread of a merge4 block does, phase by phase (between __syncthreads()).
template <int THREADS, int ITEMS>
struct Block4Steps {
    static constexpr int kSegment = THREADS * ITEMS;

    // Shared [0, count): the pieces piece[0][0, len[0]), then piece[1], piece[2], piece[3];
    // striped (element k * THREADS + tid), every load issued before the first store.
    template <class Key>
    PMPP_HD static void load(int tid, const Runs4<const Key*, int>& pieces, Key* s_keys) {
        const int o1 = pieces.n[0], o2 = o1 + pieces.n[1], o3 = o2 + pieces.n[2], count = o3 + pieces.n[3];
        Key keys[ITEMS] = {};
        MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (i < count)
                keys[k] = i < o1   ? pieces.run[0][i]
                          : i < o2 ? pieces.run[1][i - o1]
                          : i < o3 ? pieces.run[2][i - o2]
                                   : pieces.run[3][i - o3];
        }
        MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (i < count) s_keys[i] = keys[k];
        }
    }

    // The four pieces as they lie in shared memory.
    template <class Key>
    PMPP_HD static Runs4<const Key*, int> local_runs(const Key* s_keys, const int (&len)[4]) {
        return {{s_keys, s_keys + len[0], s_keys + len[0] + len[1], s_keys + len[0] + len[1] + len[2]},
                {len[0], len[1], len[2], len[3]}};
    }

    // Outputs [tid * ITEMS, tid * ITEMS + ITEMS) of the 4-way merge of the pieces, into keys[];
    // returns how many exist.
    template <class Key, class Less>
    PMPP_HD static int merge(int tid, const Runs4<const Key*, int>& r, Key (&keys)[ITEMS], Less less) {
        const int count = r.n[0] + r.n[1] + r.n[2] + r.n[3];
        const int diag = min_of(tid * ITEMS, count);
        const Split4<int> s = partition4(diag, r, less);
        merge4_sequential<ITEMS>(r, s, keys, less);
        return max_of(0, min_of(ITEMS, count - diag));
    }

    template <class Key>
    PMPP_HD static void write_items(int tid, int own, const Key (&keys)[ITEMS], Key* s_keys) {
        MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j)
            if (j < own) s_keys[tid * ITEMS + j] = keys[j];
    }

    template <class Key>
    PMPP_HD static void store(int tid, int count, const Key* s_keys, Key* out) {
        MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (i < count) out[i] = s_keys[i];
        }
    }

    // ITEMS outputs of the 4-way merge from split s: a tournament of the four heads, in the
    // order of merge(merge(A, B), merge(C, D)). One key load per output (predicated at a run's
    // end); outputs past the end are left unspecified.
    template <int N, class Key, class Less>
    PMPP_HD static void merge4_sequential(const Runs4<const Key*, int>& r, Split4<int> s, Key (&out)[N], Less less) {
        int a = s.s[0], b = s.s[1], c = s.s[2], d = s.s[3];
        Key ka{}, kb{}, kc{}, kd{};
        if (a < r.n[0]) ka = r.run[0][a];
        if (b < r.n[1]) kb = r.run[1][b];
        if (c < r.n[2]) kc = r.run[2][c];
        if (d < r.n[3]) kd = r.run[3][d];
        MERGE_SORT_UNROLL
        for (int j = 0; j < N; ++j) {
            const bool va = a < r.n[0], vb = b < r.n[1], vc = c < r.n[2], vd = d < r.n[3];
            const bool xb = vb && (!va || less(kb, ka));  // X's head: B only when strictly before A
            const bool yd = vd && (!vc || less(kd, kc));
            const Key kx = xb ? kb : ka, ky = yd ? kd : kc;
            const bool ty = (vc || vd) && (!(va || vb) || less(ky, kx));  // Y only when strictly before X
            out[j] = ty ? ky : kx;
            if (ty) {
                if (yd) {
                    if (++d < r.n[3]) kd = r.run[3][d];
                } else {
                    if (++c < r.n[2]) kc = r.run[2][c];
                }
            } else if (va || vb) {
                if (xb) {
                    if (++b < r.n[1]) kb = r.run[1][b];
                } else {
                    if (++a < r.n[0]) ka = r.run[0][a];
                }
            }
        }
    }
};

// The pieces of segment t: the split where it starts (splits[t]) and where it ends (the next
// segment's start, or the group's runs' ends).
template <class Key>
PMPP_HD Runs4<const Key*, int> segment_pieces(const SortedRuns4<Key>& runs, const SegmentGrid& grid, std::size_t t,
                                              const Split4<std::size_t>* splits, Segment& seg) {
    seg = grid.segment(t);
    const Runs4<const Key*, std::size_t> g = runs.group(seg.first);
    const Split4<std::size_t> s0 = splits[t];
    const Split4<std::size_t> s1 =
        seg.local_end == seg.group_size ? Split4<std::size_t>{{g.n[0], g.n[1], g.n[2], g.n[3]}} : splits[t + 1];
    Runs4<const Key*, int> p;
    for (int q = 0; q < 4; ++q) {
        p.run[q] = g.run[q] + s0.s[q];
        p.n[q] = static_cast<int>(s1.s[q] - s0.s[q]);
    }
    return p;
}

// (Templates without an anonymous namespace: a sweep's `using namespace merge_sort::multiway`
// would make nvcc's stubs' references to the file's anonymous namespace ambiguous.)
template <class Key, class Less>
__global__ void corank_grid_kernel(SortedRuns4<Key> runs, CoRankGrid cg, std::size_t* coranks, Less less) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < cg.count) corank_grid_entry(runs, cg, i, coranks, less);
}

// coranks: the pass's co-rank grids (spacing: the segment size), or null (the search over the
// whole range).
template <class Key, class Less>
__global__ void partition4_kernel(SortedRuns4<Key> runs, SegmentGrid grid, const std::size_t* coranks, CoRankGrid cg,
                                  Split4<std::size_t>* splits, int lanes, Less less) {
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t t = thread / lanes;
    if (t >= grid.count) return;  // whole groups leave together: lanes divides 32
    const int lane = static_cast<int>(threadIdx.x % lanes);
    const int group_first_lane = static_cast<int>(threadIdx.x & 31) - lane;
    const unsigned mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1) << group_first_lane;
    const Segment seg = grid.segment(t);
    if (seg.local == 0) {
        if (lane == 0) splits[t] = {{0, 0, 0, 0}};
        return;
    }
    const Runs4<const Key*, std::size_t> r = runs.group(seg.first);
    Partition4State<std::size_t> st = segment_search_start(seg, r, coranks, cg, less);
    if (lanes == 1) {
        splits[t] = partition4_from(st, r, less);
        return;
    }
    while (st.lo < st.hi) {  // the same state in every lane of the group
        const Probe4<std::size_t> pr = partition4_probe(st, r, kary_probe4(st.lo, st.hi, lane, lanes), less);
        const int before = __popc(__ballot_sync(mask, pr.before) & mask);
        const int below_lane = group_first_lane + max_of(before - 1, 0);
        const int above_lane = group_first_lane + min_of(before, lanes - 1);
        Probe4<std::size_t> below, above;
        below.p = __shfl_sync(mask, pr.p, below_lane);
        below.fa = __shfl_sync(mask, pr.fa, below_lane);
        below.fc = __shfl_sync(mask, pr.fc, below_lane);
        above.p = __shfl_sync(mask, pr.p, above_lane);
        above.fa = __shfl_sync(mask, pr.fa, above_lane);
        above.fc = __shfl_sync(mask, pr.fc, above_lane);
        partition4_narrow(st, before, lanes, below, above);
    }
    if (lane == 0) splits[t] = partition4_finish(st, r, less);
}

// MIN_BLOCKS: the blocks per SM its registers must allow (1: no cap; the shipped 2-way merge
// caps at 5 for 256 threads, 48 registers).
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1, class Key, class Less>
__global__ void __launch_bounds__(THREADS, pmpp::min_blocks_that_fit(THREADS, MIN_BLOCKS))
    merge4_kernel(SortedRuns4<Key> runs, SegmentGrid grid, const Split4<std::size_t>* splits, Key* out, Less less) {
    using Steps = Block4Steps<THREADS, ITEMS>;
    __shared__ Key s_keys[Steps::kSegment];
    const int tid = threadIdx.x;
    Segment seg;
    const Runs4<const Key*, int> pieces = segment_pieces(runs, grid, blockIdx.x, splits, seg);
    const int len[4] = {pieces.n[0], pieces.n[1], pieces.n[2], pieces.n[3]};
    const int count = len[0] + len[1] + len[2] + len[3];
    Steps::load(tid, pieces, s_keys);
    __syncthreads();
    Key keys[ITEMS];
    const int own = Steps::merge(tid, Steps::local_runs(s_keys, len), keys, less);
    __syncthreads();
    Steps::write_items(tid, own, keys, s_keys);
    __syncthreads();
    Steps::store(tid, count, s_keys, out + seg.first + seg.local);
}

// Lanes per partition search: the most (up to 32) that keep all searches' threads within the
// resident threads (`resident`: SMs x threads per SM). The nested search is a long chain of
// dependent loads, so lanes (fewer rounds) pay for longer than in the 2-way partition.
inline int partition4_lanes(std::size_t searches, std::size_t resident) {
    int lanes = 32;
    while (lanes > 1 && searches * lanes > resident) lanes /= 2;
    return lanes;
}

// One pass: runs of `width` in src[0, n) to runs of 4 * width in dst. splits: room for
// SegmentGrid::make(n, width, THREADS * ITEMS).count entries. lanes: per partition search.
// coranks: room for CoRankGrid::make(n, width, THREADS * ITEMS).count entries, or null (no
// grid kernel; each search nests over the whole range).
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1, class Key, class Less>
void merge4_pass(const Key* src, Key* dst, std::size_t n, std::size_t width, Split4<std::size_t>* splits,
                 std::size_t* coranks, int lanes, Less less) {
    const SegmentGrid grid = SegmentGrid::make(n, width, std::size_t{THREADS} * ITEMS);
    const CoRankGrid cg = CoRankGrid::make(n, width, std::size_t{THREADS} * ITEMS);
    const SortedRuns4<Key> runs{src, n, width};
    constexpr int kThreads = 256;
    if (coranks) {
        corank_grid_kernel<<<static_cast<unsigned>((cg.count + kThreads - 1) / kThreads), kThreads>>>(runs, cg, coranks,
                                                                                                      less);
        PMPP_CHECK_LAUNCH();
    }
    const std::size_t blocks = (grid.count * lanes + kThreads - 1) / kThreads;
    partition4_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(runs, grid, coranks, cg, splits, lanes, less);
    PMPP_CHECK_LAUNCH();
    merge4_kernel<THREADS, ITEMS, MIN_BLOCKS>
        <<<static_cast<unsigned>(grid.count), THREADS>>>(runs, grid, splits, dst, less);
    PMPP_CHECK_LAUNCH();
}

// Passes from runs of `width` to one run of n: ceil(log4(n / width)).
constexpr int merge4_passes(std::size_t n, std::size_t width) {
    int passes = 0;
    for (; width < n; width *= 4) ++passes;
    return passes;
}

}  // namespace merge_sort::multiway
