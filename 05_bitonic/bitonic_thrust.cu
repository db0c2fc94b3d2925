// bitonic_thrust.cu: library baseline, thrust::sort (thrust::sort_by_key with values), in
// place. For 4-byte keys compared with less or greater, Thrust runs CUB's radix sort.
//  - Float keys are sorted as their ordered bits (keys.h), one transform each way: Thrust's
//    radix sort treats -0.0 and +0.0 as equal, the course's total order does not.
//  - Thrust allocates temporary storage on every call unless it is given an allocator: the
//    course's caching allocator (common/caching_allocator.h) keeps nothing allocated after the
//    first call of a size (an allocation inside the timed region would be timed).
#include "bitonic.h"

#include "common/caching_allocator.h"
#include "common/cuda_check.h"
#include "common/keys.h"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstddef>
#include <map>
#include <type_traits>

namespace bitonic {

namespace {

struct ToOrderedBits {
    __device__ std::uint32_t operator()(float key) const { return pmpp::ordered_bits(key); }
};
struct FromOrderedBits {
    __device__ float operator()(std::uint32_t bits) const { return pmpp::from_ordered_bits(bits); }
};

template <typename U>
void sort_radix(U* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    auto policy = thrust::cuda::par(pmpp::thrust_allocator());
    const bool ascending = order == SortOrder::Ascending;
    if (values != nullptr) {
        if (ascending)
            thrust::sort_by_key(policy, keys, keys + n, values, thrust::less<U>());
        else
            thrust::sort_by_key(policy, keys, keys + n, values, thrust::greater<U>());
    } else {
        if (ascending)
            thrust::sort(policy, keys, keys + n, thrust::less<U>());
        else
            thrust::sort(policy, keys, keys + n, thrust::greater<U>());
    }
}

}  // namespace

template <typename K>
void thrust_sort(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    if constexpr (std::is_same_v<K, float>) {
        auto* bits = reinterpret_cast<std::uint32_t*>(keys);
        thrust::transform(thrust::cuda::par(pmpp::thrust_allocator()), keys, keys + n, bits, ToOrderedBits());
        sort_radix(bits, values, n, order);
        thrust::transform(thrust::cuda::par(pmpp::thrust_allocator()), bits, bits + n, keys, FromOrderedBits());
    } else {
        sort_radix(keys, values, n, order);  // signed ints: Thrust's order is the course's
    }
}

BITONIC_INSTANTIATE_SORT(thrust_sort)

}  // namespace bitonic
