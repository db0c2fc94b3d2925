// merge_core.h: what every merge in this folder is built from, for host and device.
//
//  merge_sequential  PMPP 12.2: merge sorted A and B into C; on equal keys A's element goes first.
//
// and small helpers (min_of, max_of, element_t, offset). The CPU reference and every reference
// kernel use these; co-rank and the split of a merge among workers built on it are in
// merge_sort_1_basic.cuh. Inputs are anything indexable (a pointer, or a circular view of a
// shared-memory buffer in merge_sort_3_circular.cu).
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
PMPP_HD constexpr T min_of(T x, T y) {
    return y < x ? y : x;
}
template <class T>
PMPP_HD constexpr T max_of(T x, T y) {
    return x < y ? y : x;
}

// The element type of an indexable (a pointer or a view).
template <class It>
using element_t = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<It>()[0])>>;

// p + i for a value pointer; the null value pointer of a keys-only sort stays null.
template <class V>
PMPP_HD V* offset(V* p, std::size_t i) {
    if constexpr (kHasValues<V>)
        return p + i;
    else
        return p;
}

// c[0, na + nb) = the stable merge of a[0, na) and b[0, nb); values move with their keys (pass
// null value pointers of type NoValues* for keys only).
template <class KeysA, class ValuesA, class KeysB, class ValuesB, class KeysC, class ValuesC, class Index, class Less>
PMPP_HD void merge_sequential(KeysA a, ValuesA av, Index na, KeysB b, ValuesB bv, Index nb, KeysC c, ValuesC cv,
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

}  // namespace merge_sort
