// bitonic_network.h: the network itself, as index arithmetic shared by the CPU network and every
// GPU variant (host and device), so the CPU tests prove the rules the kernels use.
//
// Batcher's network for N = 2^L elements: stages k = 2, 4, ..., N; in stage k, steps
// j = k/2, ..., 2, 1; in step (k, j), element i is compared with its partner i ^ j, and the block
// of k elements that holds i is sorted forward (in the requested order) or backward.
//
// Any n, no padding in memory: think of n real elements followed by N - n virtual ones that
// sort after everything. If the block holding the last real element n - 1 always sorts forward,
// a comparator between a real element and a virtual one never moves anything (the virtual one
// already sits behind), so it can be skipped, and nothing past n is ever read or written.
// The seed's rule "forward when (i & k) == 0" breaks that for some k; "forward when bit k of i
// equals bit k of n - 1" keeps it, and is still a bitonic network: the two halves of every
// block of 2k still sort in opposite directions, and the last stage (k = N) sorts forward.
#pragma once

#include "bitonic.h"

#include "common/bits.h"
#include "common/keys.h"

#include <cstddef>
#include <cstdint>

namespace bitonic {

// The smallest power of two >= n (1 for n <= 1): the length of the network that sorts n.
PMPP_HD std::size_t padded_length(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

using pmpp::log2_exact;  // common/bits.h

// Does the block of stage k that holds element i sort in the requested order? (see above)
PMPP_HD bool sorts_forward(std::size_t i, std::size_t k, std::size_t n) { return ((i ^ (n - 1)) & k) == 0; }

// The p-th index whose bit j is clear (j a power of two): the lower element of pair p in a step
// of stride j. Spreading p around a zero bit gives each of n/2 threads one pair, none idle.
PMPP_HD std::size_t lower_of_pair(std::size_t p, std::size_t j) { return ((p & ~(j - 1)) << 1) | (p & (j - 1)); }

// Steps and comparators of the network for N = 2^L.
constexpr std::size_t network_steps(int L) { return static_cast<std::size_t>(L) * (L + 1) / 2; }
constexpr std::size_t network_comparators(int L) {
    return (std::size_t{1} << L) * static_cast<std::size_t>(L) * (L + 1) / 4;
}

// "a comes strictly before b" in the requested order, on the total order of keys.h.
template <typename K>
struct Before {
    bool descending = false;
    PMPP_HD bool operator()(K a, K b) const {
        const auto x = pmpp::ordered_bits(a), y = pmpp::ordered_bits(b);
        return descending ? y < x : x < y;
    }
};

template <typename K>
Before<K> before_for(SortOrder order) {
    return Before<K>{order == SortOrder::Descending};
}

// One comparator: elements i < l; forward puts the one that comes first at i. A tie never
// swaps. Values (when present) move with their keys.
template <typename K>
PMPP_HD void compare_exchange(K* keys, std::uint32_t* values, std::size_t i, std::size_t l, bool forward,
                              Before<K> before) {
    const K a = keys[i], b = keys[l];
    if (forward ? before(b, a) : before(a, b)) {
        keys[i] = b;
        keys[l] = a;
        if (values != nullptr) {
            const std::uint32_t v = values[i];
            values[i] = values[l];
            values[l] = v;
        }
    }
}

}  // namespace bitonic
