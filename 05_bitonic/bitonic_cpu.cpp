// bitonic_cpu.cpp: the CPU side. sort_cpu is the definition of correct (std::sort on the total
// order); bitonic_network_cpu is the network itself, one comparator at a time, with the same
// index rules as the kernels (bitonic_network.h), so the tests can prove those rules.
#include "bitonic.h"
#include "bitonic_network.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace bitonic {

template <typename K>
void sort_cpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    const Before<K> before = before_for<K>(order);
    if (values == nullptr) {
        std::sort(keys, keys + n, before);
        return;
    }
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) { return before(keys[a], keys[b]); });
    std::vector<K> k(n);
    std::vector<std::uint32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        k[i] = keys[perm[i]];
        v[i] = values[perm[i]];
    }
    std::copy(k.begin(), k.end(), keys);
    std::copy(v.begin(), v.end(), values);
}

template <typename K>
NetworkCounts bitonic_network_cpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    NetworkCounts counts;
    const Before<K> before = before_for<K>(order);
    const std::size_t padded = padded_length(n);
    for (std::size_t k = 2; k <= padded; k <<= 1) {
        for (std::size_t j = k >> 1; j > 0; j >>= 1) {
            ++counts.steps;
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t l = i ^ j;
                if (l <= i || l >= n) continue;  // each pair once; partners past n are virtual
                ++counts.comparators;
                compare_exchange(keys, values, i, l, sorts_forward(i, k, n), before);
            }
        }
    }
    return counts;
}

BITONIC_INSTANTIATE_SORT(sort_cpu)
template NetworkCounts bitonic_network_cpu<std::uint32_t>(std::uint32_t*, std::uint32_t*, std::size_t, SortOrder);
template NetworkCounts bitonic_network_cpu<std::int32_t>(std::int32_t*, std::uint32_t*, std::size_t, SortOrder);
template NetworkCounts bitonic_network_cpu<float>(float*, std::uint32_t*, std::size_t, SortOrder);

}  // namespace bitonic
