// merge_core.h: the pieces every merge in this folder is built from, for host and device.
//
//  merge_sequential  PMPP 12.2: merge sorted A and B into C; on equal keys A's element goes first.
//  co_rank           PMPP 12.3-12.4: how many of the first k outputs of that merge come from A. Knowing
//                    it for any k lets any number of workers merge disjoint parts of C at once.
//  merge_slice       PMPP 12.5: one worker's share: outputs [k_begin, k_end) of every pair of runs
//                    in a layout (two arrays, or the sorted runs of a merge-sort pass).
//
// The CPU reference (merge_sort_cpu.cpp) and every reference kernel use these. Inputs are anything
// indexable (a pointer, or a circular view of a shared-memory buffer in merge_sort_3_circular.cu).
#pragma once

#include "merge_sort.h"

#include <cstddef>
#include <type_traits>
#include <utility>

// `#pragma unroll` for loops in host-and-device functions: the host compiler does not know it.
#ifdef __CUDA_ARCH__
#define MERGE_SORT_UNROLL _Pragma("unroll")
#else
#define MERGE_SORT_UNROLL
#endif

namespace merge_sort {

template <class T>
MERGE_SORT_HD constexpr T min_of(T x, T y) {
    return y < x ? y : x;
}
template <class T>
MERGE_SORT_HD constexpr T max_of(T x, T y) {
    return x < y ? y : x;
}

// The element type of an indexable (a pointer or a view).
template <class It>
using element_t = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<It>()[0])>>;

// p + i for a value pointer; the null value pointer of a keys-only sort stays null.
template <class V>
MERGE_SORT_HD V* offset(V* p, std::size_t i) {
    if constexpr (kHasValues<V>) return p + i;
    else return p;
}

// Binary search for i, the number of A's elements among the first k outputs, in
// [max(0, k - nb), min(k, na)]. Probe i = mid: if B[k-1-mid] goes strictly before A[mid], A[mid]
// cannot be among the first k (B[k-1-mid] would have to be, and it goes first): i <= mid.
// Otherwise A[mid] goes first (ties go to A), so it is among them: i > mid.
template <class Index, class KeysA, class KeysB, class Less>
MERGE_SORT_HD Index co_rank(Index k, KeysA a, Index na, KeysB b, Index nb, Less less) {
    Index lo = k > nb ? k - nb : Index{0};
    Index hi = min_of(k, na);
    while (lo < hi) {
        const Index mid = lo + (hi - lo) / 2;
        if (less(b[k - 1 - mid], a[mid])) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

// c[0, na + nb) = the stable merge of a[0, na) and b[0, nb); values move with their keys (pass
// null value pointers of type NoValues* for keys only).
template <class KeysA, class ValuesA, class KeysB, class ValuesB, class KeysC, class ValuesC, class Index, class Less>
MERGE_SORT_HD void merge_sequential(KeysA a, ValuesA av, Index na, KeysB b, ValuesB bv, Index nb, KeysC c, ValuesC cv,
                                    Less less) {
    constexpr bool values = kHasValues<element_t<ValuesC>>;
    Index i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        if (less(b[j], a[i])) {  // strictly before: on equal keys A's element goes first
            c[k] = b[j];
            if constexpr (values) cv[k] = bv[j];
            ++j;
        } else {
            c[k] = a[i];
            if constexpr (values) cv[k] = av[i];
            ++i;
        }
        ++k;
    }
    for (; i < na; ++i, ++k) {
        c[k] = a[i];
        if constexpr (values) cv[k] = av[i];
    }
    for (; j < nb; ++j, ++k) {
        c[k] = b[j];
        if constexpr (values) cv[k] = bv[j];
    }
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

    MERGE_SORT_HD RunPair<Key, Value> pair_containing(std::size_t k) const {
        const std::size_t first = k - k % (2 * width);
        const std::size_t na = min_of(width, n - first);
        const std::size_t nb = min_of(width, n - first - na);
        return {keys + first, offset(values, first), na, keys + first + na, offset(values, first + na), nb, first};
    }
    MERGE_SORT_HD std::size_t size() const { return n; }
};

// A plain merge: one pair, a[0, na) and b[0, nb), into out[0, na + nb).
template <class Key, class Value>
struct TwoArrays {
    const Key* a;
    const Value* av;
    std::size_t na;
    const Key* b;
    const Value* bv;
    std::size_t nb;

    MERGE_SORT_HD RunPair<Key, Value> pair_containing(std::size_t) const { return {a, av, na, b, bv, nb, 0}; }
    MERGE_SORT_HD std::size_t size() const { return na + nb; }
};

// Outputs [k_begin, k_end) of merging every pair of `runs` (SortedRuns or TwoArrays): for each
// pair the slice touches, two co-ranks say where the part starts and ends in the pair's runs,
// and merge_sequential does the rest.
template <class Layout, class KeysOut, class ValuesOut, class Less>
MERGE_SORT_HD void merge_slice(const Layout& runs, std::size_t k_begin, std::size_t k_end, KeysOut out,
                               ValuesOut out_values, Less less) {
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

// Number of bottom-up passes from runs of `run` to one run of n: ceil(log2(n / run)).
constexpr int merge_passes(std::size_t n, std::size_t run) {
    int passes = 0;
    for (std::size_t width = run; width < n; width *= 2) ++passes;
    return passes;
}

}  // namespace merge_sort
