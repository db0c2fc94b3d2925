// merge_sort_1_basic.cuh: co-rank (PMPP 12.3-12.4) and what the basic merge (PMPP 12.5,
// merge_sort_1_basic.cu) builds on it, for host and device: the split of a merge, or of a
// merge-sort pass, among any number of workers. It holds the answers to tasks 1, 2 and 4
// (README.md), so it is withheld with the numbered variants; variants 2-4, the CPU reference and
// the check (harness/) use it too.
//
//  co_rank           how many of the first k outputs of the stable merge of A and B come from A.
//                    Knowing it for any k lets any number of workers merge disjoint parts of C at once.
//  merge_slice       one worker's share: outputs [k_begin, k_end) of every pair of runs in a layout
//                    (two arrays, TwoArrays, or the sorted runs of a merge-sort pass, SortedRuns).
//  merge_passes, pass_writes_output, pass_output: how many bottom-up passes a sort makes, and
//                    where each writes.
#pragma once

#include "merge_core.h"

#include <cstddef>

namespace merge_sort {

// Binary search for i, the number of A's elements among the first k outputs, in
// [max(0, k - nb), min(k, na)]. Probe i = mid: if B[k-1-mid] goes strictly before A[mid], A[mid]
// cannot be among the first k (B[k-1-mid] would have to be, and it goes first): i <= mid.
// Otherwise A[mid] goes first (ties go to A), so it is among them: i > mid.
template <class Index, class KeysA, class KeysB, class Less>
PMPP_HD Index co_rank(Index k, KeysA a, Index na, KeysB b, Index nb, Less less) {
    Index lo = k > nb ? k - nb : Index{0};
    Index hi = min_of(k, na);
    while (lo < hi) {
        const Index mid = lo + (hi - lo) / 2;
        if (less(b[k - 1 - mid], a[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// Two sorted runs that merge into out[first, first + na + nb).
template <class Key, class Value>
struct RunPair {
    const Key* a;
    const Value* av;
    std::size_t na;
    const Key* b;
    const Value* bv;
    std::size_t nb;
    std::size_t first;
};

// One bottom-up merge-sort pass: keys[0, n) holds sorted runs of `width` (the last may be
// shorter); run 2p and run 2p + 1 merge into out[2p * width, ...).
template <class Key, class Value>
struct SortedRuns {
    const Key* keys;
    const Value* values;
    std::size_t n;
    std::size_t width;

    PMPP_HD RunPair<Key, Value> pair_containing(std::size_t k) const {
        const std::size_t first = k - k % (2 * width);
        const std::size_t na = min_of(width, n - first);
        const std::size_t nb = min_of(width, n - first - na);
        return {keys + first, offset(values, first), na, keys + first + na, offset(values, first + na), nb, first};
    }
    PMPP_HD std::size_t size() const { return n; }
};

// A plain merge: one pair, a[0, na) and b[0, nb), into out[0, na + nb) (first is 0).
template <class Key, class Value>
struct TwoArrays : RunPair<Key, Value> {
    PMPP_HD RunPair<Key, Value> pair_containing(std::size_t) const { return *this; }
    PMPP_HD std::size_t size() const { return this->na + this->nb; }
};
template <class Key>
PMPP_HD TwoArrays<Key, NoValues> two_arrays(const Key* a, std::size_t na, const Key* b, std::size_t nb) {
    return {{a, nullptr, na, b, nullptr, nb, 0}};
}

// Outputs [k_begin, k_end) of merging every pair of `runs` (SortedRuns or TwoArrays): for each
// pair the slice touches, two co-ranks say where the part starts and ends in the pair's runs,
// and merge_sequential does the rest.
template <class Layout, class KeysOut, class ValuesOut, class Less>
PMPP_HD void merge_slice(const Layout& runs, std::size_t k_begin, std::size_t k_end, KeysOut out, ValuesOut out_values,
                         Less less) {
    while (k_begin < k_end) {
        const auto pair = runs.pair_containing(k_begin);
        const std::size_t stop = min_of(k_end, pair.first + pair.na + pair.nb);
        const std::size_t d0 = k_begin - pair.first, d1 = stop - pair.first;
        const std::size_t i0 = co_rank(d0, pair.a, pair.na, pair.b, pair.nb, less);
        const std::size_t i1 = co_rank(d1, pair.a, pair.na, pair.b, pair.nb, less);
        const std::size_t j0 = d0 - i0, j1 = d1 - i1;
        merge_sequential(pair.a + i0, offset(pair.av, i0), i1 - i0, pair.b + j0, offset(pair.bv, j0), j1 - j0,
                         out + k_begin, offset(out_values, k_begin), less);
        k_begin = stop;
    }
}

// Where a bottom-up sort's passes write so that the last one lands in the output: pass p
// (1-based) of `passes` writes the output when passes - p is even, the scratch otherwise; the
// first step (tile sort, or the first pass) reads the untouched input.
constexpr bool pass_writes_output(int pass, int passes) { return (passes - pass) % 2 == 0; }

// The keys and values pass p of `passes` writes: the output or the scratch, as above.
template <class Key, class Value>
struct PassOutput {
    Key* keys;
    Value* values;
};
template <class Key, class Value>
PassOutput<Key, Value> pass_output(const SortArgs<Key, Value>& args, int pass, int passes) {
    if (pass_writes_output(pass, passes)) return {args.keys_out, args.values_out};
    return {args.keys_scratch, args.values_scratch};
}

// Number of bottom-up passes from runs of `run` to one run of n: ceil(log2(n / run)).
constexpr int merge_passes(std::size_t n, std::size_t run) {
    int passes = 0;
    for (std::size_t width = run; width < n; width *= 2) ++passes;
    return passes;
}

}  // namespace merge_sort
