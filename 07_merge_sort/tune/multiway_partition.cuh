// tune/multiway_partition.cuh: the split of a 4-way merge at any output position, for host and
// device (tune/sweep_multiway.cu's kernels, tune/check_multiway_partition.cu's host check).
//
// The 4-way merge of sorted runs A, B, C, D is defined as merge(X, Y) with X = merge(A, B) and
// Y = merge(C, D), every 2-way merge stable (ties: the first input first). So equal keys come
// out in the order A, B, C, D, and in run order within each: a stable sort of A|B|C|D.
//
// partition4(k) returns (a, b, c, d), a + b + c + d = k: how many of the first k outputs come
// from each run. It is a co-rank search for x (outputs from X) on the virtual arrays X and Y;
// each probe needs X[p] and Y[k-1-p], and element i of merge(A, B) is found by a co-rank
// search on A and B (f(i) = co_rank(i, A, B), then one compare). That nests two binary
// searches: O(log^2 L). What keeps it cheaper than log(nx) * log(na):
//   - f is known exactly at the outer search's last probes on either side (i0, i1), and
//     f(i0) <= f(i) <= f(i0) + (i - i0), f(i1) - (i1 - i) <= f(i) <= f(i1): every inner search
//     runs over at most min(i - i0, i1 - i) positions, about half the outer range. The outer
//     step t (range R / 2^t) costs about log2(R) - t - 1 inner probes: about log2(R)^2 / 2 probes
//     per inner chain instead of log2(R)^2.
//   - the searches for X[p] and Y[k-1-p] are independent (two chains of loads in flight).
// The k-ary form (a group of lanes probes the outer range at once, as the shipped partition
// does) divides the outer range by lanes + 1 per round; partition4_narrow is its update, and
// partition4_kary below emulates a group on the host.
#pragma once

#include "../merge_sort_1_basic.cuh"

#include <cstddef>

namespace merge_sort::multiway {

// Positions in A, B, C, D.
template <class Index>
struct Split4 {
    Index s[4];
};

// Four sorted runs: run[q][0, n[q]). Keys: a pointer (or anything indexable).
template <class Keys, class Index>
struct Runs4 {
    Keys run[4];
    Index n[4];
};

// co_rank(i, A, B) restricted to [lo, hi], which must contain it (the usual range intersected).
template <class Index, class Keys, class Less>
PMPP_HD Index co_rank_within(Index i, Keys a, Index na, Keys b, Index nb, Index lo, Index hi, Less less) {
    lo = max_of(lo, i > nb ? i - nb : Index{0});
    hi = min_of(hi, min_of(i, na));
    while (lo < hi) {
        const Index mid = lo + (hi - lo) / 2;
        if (less(b[i - 1 - mid], a[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// f(i) = co_rank(i, A, B) known at i0 <= i1: the range of f(i) for i in [i0, i1].
template <class Index>
struct CoRankBounds {
    Index i0, f0, i1, f1;
    PMPP_HD Index lo_at(Index i) const {
        const Index back = i1 - i;
        return max_of(f0, f1 > back ? f1 - back : Index{0});
    }
    PMPP_HD Index hi_at(Index i) const { return min_of(f1, f0 + (i - i0)); }
};

// The outer search for output k: x in [lo, hi], f_AB known at two points, f_CD at two points.
template <class Index>
struct Partition4State {
    Index k, lo, hi;
    CoRankBounds<Index> x, y;
};

// One probe of the outer search at p (lo <= p < hi): fa = co_rank(p, A, B), fc =
// co_rank(k-1-p, C, D); before: X[p] is among the first k outputs (the answer is > p).
template <class Index>
struct Probe4 {
    Index p, fa, fc;
    bool before;
};

template <class Keys, class Index>
PMPP_HD Partition4State<Index> partition4_start(Index k, const Runs4<Keys, Index>& r) {
    const Index nx = r.n[0] + r.n[1], ny = r.n[2] + r.n[3];
    Partition4State<Index> st;
    st.k = k;
    st.lo = k > ny ? k - ny : Index{0};
    st.hi = min_of(k, nx);
    st.x = {Index{0}, Index{0}, nx, r.n[0]};
    st.y = {Index{0}, Index{0}, ny, r.n[2]};
    return st;
}

// Element i (< na + nb) of merge(A, B), given f = co_rank(i, A, B).
template <class Index, class Keys, class Less>
PMPP_HD auto merged_key(Index i, Index f, Keys a, Index na, Keys b, Index nb, Less less) {
    const Index j = i - f;
    const bool take_b = j < nb && (f >= na || less(b[j], a[f]));
    return take_b ? b[j] : a[f];
}

template <class Keys, class Index, class Less>
PMPP_HD Probe4<Index> partition4_probe(const Partition4State<Index>& st, const Runs4<Keys, Index>& r, Index p,
                                       Less less) {
    const Index q = st.k - 1 - p;
    Probe4<Index> pr;
    pr.p = p;
    pr.fa = co_rank_within(p, r.run[0], r.n[0], r.run[1], r.n[1], st.x.lo_at(p), st.x.hi_at(p), less);
    pr.fc = co_rank_within(q, r.run[2], r.n[2], r.run[3], r.n[3], st.y.lo_at(q), st.y.hi_at(q), less);
    const auto xk = merged_key(p, pr.fa, r.run[0], r.n[0], r.run[1], r.n[1], less);
    const auto yk = merged_key(q, pr.fc, r.run[2], r.n[2], r.run[3], r.n[3], less);
    pr.before = !less(yk, xk);  // ties: X first
    return pr;
}

// The answer is > pr.p: probes after it see larger p (X) and smaller k-1-p (Y).
template <class Index>
PMPP_HD void partition4_raise(Partition4State<Index>& st, const Probe4<Index>& pr) {
    st.lo = pr.p + 1;
    st.x.i0 = pr.p;
    st.x.f0 = pr.fa;
    st.y.i1 = st.k - 1 - pr.p;
    st.y.f1 = pr.fc;
}
// The answer is <= pr.p.
template <class Index>
PMPP_HD void partition4_lower(Partition4State<Index>& st, const Probe4<Index>& pr) {
    st.hi = pr.p;
    st.x.i1 = pr.p;
    st.x.f1 = pr.fa;
    st.y.i0 = st.k - 1 - pr.p;
    st.y.f0 = pr.fc;
}

// A k-ary round: lane l of `lanes` probed kary_probe4(lo, hi, l, lanes) (nondecreasing in l);
// `before` lanes (a prefix) found their probe before the answer. below: lane before - 1's probe,
// above: lane before's (either ignored where it does not exist).
template <class Index>
PMPP_HD void partition4_narrow(Partition4State<Index>& st, int before, int lanes, const Probe4<Index>& below,
                               const Probe4<Index>& above) {
    if (before > 0) partition4_raise(st, below);
    if (before < lanes) partition4_lower(st, above);
}

// lo + (hi - lo)(lane + 1) / (lanes + 1), in [lo, hi) when lo < hi; 32-bit division when it fits.
template <class Index>
PMPP_HD Index kary_probe4(Index lo, Index hi, int lane, int lanes) {
    const Index span = hi - lo;
    if (static_cast<unsigned long long>(span) < (1ull << 26))
        return lo + static_cast<Index>(static_cast<unsigned>(span) * static_cast<unsigned>(lane + 1) /
                                       static_cast<unsigned>(lanes + 1));
    return lo + static_cast<Index>(static_cast<unsigned long long>(span) * static_cast<unsigned long long>(lane + 1) /
                                   static_cast<unsigned long long>(lanes + 1));
}

template <class Keys, class Index, class Less>
PMPP_HD Split4<Index> partition4_finish(const Partition4State<Index>& st, const Runs4<Keys, Index>& r, Less less) {
    const Index x = st.lo, y = st.k - st.lo;
    const Index a = co_rank_within(x, r.run[0], r.n[0], r.run[1], r.n[1], st.x.lo_at(x), st.x.hi_at(x), less);
    const Index c = co_rank_within(y, r.run[2], r.n[2], r.run[3], r.n[3], st.y.lo_at(y), st.y.hi_at(y), less);
    return {{a, x - a, c, y - c}};
}

// The outer search from `st` to the split: one binary search (one lane).
template <class Keys, class Index, class Less>
PMPP_HD Split4<Index> partition4_from(Partition4State<Index> st, const Runs4<Keys, Index>& r, Less less) {
    while (st.lo < st.hi) {
        const Probe4<Index> pr = partition4_probe(st, r, st.lo + (st.hi - st.lo) / 2, less);
        if (pr.before)
            partition4_raise(st, pr);
        else
            partition4_lower(st, pr);
    }
    return partition4_finish(st, r, less);
}

// The split at output k (0 <= k <= total).
template <class Keys, class Index, class Less>
PMPP_HD Split4<Index> partition4(Index k, const Runs4<Keys, Index>& r, Less less) {
    return partition4_from(partition4_start(k, r), r, less);
}

// The same with `lanes` (1 to 32) probes per round, the lanes of a group emulated one after
// another (the partition kernel runs them in a warp with a ballot). *prefix_ok turns false if
// the lanes that found their probe before the answer were ever not a prefix.
template <class Keys, class Index, class Less>
PMPP_HD Split4<Index> partition4_kary_from(Partition4State<Index> st, const Runs4<Keys, Index>& r, int lanes, Less less,
                                           bool* prefix_ok = nullptr) {
    Probe4<Index> probes[32];
    while (st.lo < st.hi) {
        int before = 0;
        bool prefix = true;
        for (int l = 0; l < lanes; ++l) {
            probes[l] = partition4_probe(st, r, kary_probe4(st.lo, st.hi, l, lanes), less);
            if (probes[l].before) {
                prefix = prefix && before == l;
                ++before;
            }
        }
        if (!prefix && prefix_ok) *prefix_ok = false;
        partition4_narrow(st, before, lanes, probes[max_of(before - 1, 0)], probes[min_of(before, lanes - 1)]);
    }
    return partition4_finish(st, r, less);
}
template <class Keys, class Index, class Less>
PMPP_HD Split4<Index> partition4_kary(Index k, const Runs4<Keys, Index>& r, int lanes, Less less,
                                      bool* prefix_ok = nullptr) {
    return partition4_kary_from(partition4_start(k, r), r, lanes, less, prefix_ok);
}

// ---- The grid start: most of the outer search without nested searches ---------------------
// A pass can first compute f at every G-th position of X and of Y (co-rank grids: f_AB(jG),
// f_CD(jG), and f at the pair's end: grid_entries values per pair; one plain co-rank search
// each, as many as there are segments of G outputs, like one 2-way partition). For k a multiple
// of G, an outer probe at p = jG then needs no inner search: X[p] from f_AB(jG), and Y[k-1-p]
// is the last of the first (k/G - j)G outputs of merge(C, D), from f_CD((k/G - j)G). A binary
// search over the grid points leaves x in a window of G with f known exactly at both ends, for
// X and for Y; partition4_from (or _kary_from) finishes inside it (outer range G: log2(G)^2 / 2
// inner probes per chain instead of log2(L)^2 / 2).
template <class Index>
PMPP_HD Index grid_entries(Index len, Index g) {
    return (len + g - 1) / g + 1;
}
template <class Index>
PMPP_HD Index grid_position(Index j, Index len, Index g) {
    return min_of(j * g, len);
}

// The last of the first i >= 1 outputs of merge(A, B), given f = co_rank(i, A, B).
template <class Index, class Keys, class Less>
PMPP_HD auto last_merged_key(Index i, Index f, Keys a, Keys b, Less less) {
    const Index j = i - f;
    const bool from_b = j > 0 && (f == 0 || !less(b[j - 1], a[f - 1]));  // ties: B's comes after A's
    return from_b ? b[j - 1] : a[f - 1];
}

// The state after the search over the grid points (k a multiple of g; fx, fy: the grids of X
// and Y, grid_entries(nx, g) and grid_entries(ny, g) values).
template <class Keys, class Index, class Less>
PMPP_HD Partition4State<Index> partition4_start_on_grid(Index k, const Runs4<Keys, Index>& r, const Index* fx,
                                                        const Index* fy, Index g, Less less) {
    Partition4State<Index> st = partition4_start(k, r);
    if (st.lo >= st.hi) return st;
    const Index nx = r.n[0] + r.n[1], ny = r.n[2] + r.n[3], kg = k / g;
    const Index j0 = (st.lo + g - 1) / g, j1 = (st.hi + g - 1) / g;  // grid points in [lo, hi)
    Index jl = j0, jh = j1;
    while (jl < jh) {  // the first grid point that is not before the answer
        const Index j = jl + (jh - jl) / 2, p = j * g;
        const auto xk = merged_key(p, fx[j], r.run[0], r.n[0], r.run[1], r.n[1], less);
        const auto yk = last_merged_key(k - p, fy[kg - j], r.run[2], r.run[3], less);
        if (!less(yk, xk))
            jl = j + 1;
        else
            jh = j;
    }
    const Index lo = jl > j0 ? (jl - 1) * g + 1 : st.lo, hi = jl < j1 ? jl * g : st.hi;
    const Index x0 = lo / g, x1 = (hi + g - 1) / g;  // grid points around [lo, hi] in X
    const Index y0 = (k - hi) / g, y1 = (k - lo + g - 1) / g;  // and around [k - hi, k - lo] in Y
    st.lo = lo;
    st.hi = hi;
    st.x = {grid_position(x0, nx, g), fx[x0], grid_position(x1, nx, g), fx[x1]};
    st.y = {grid_position(y0, ny, g), fy[y0], grid_position(y1, ny, g), fy[y1]};
    return st;
}

}  // namespace merge_sort::multiway
