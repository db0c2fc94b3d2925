// merge_sort_thrust.cu: the other library baseline, Thrust with the exercise's comparators.
// thrust::sort with a comparator other than less/greater takes Thrust's merge-sort path (the
// radix sort is only for plain less/greater on arithmetic keys), which is what a user who needs
// a custom order gets. Thrust sorts in place: the harness copies the input into the output
// before the call, untimed in the benchmark.
//
// Thrust allocates its temporary storage on every call unless given an allocator: the course's
// caching allocator (common/caching_allocator.h) keeps nothing allocated after the warm-up.
#include "merge_sort.h"

#include "common/caching_allocator.h"
#include "common/cuda_check.h"

#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#include <thrust/sort.h>

namespace merge_sort {

template <class Key, class Less>
void merge_thrust(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*, Less less) {
    if (na + nb == 0) return;
    thrust::merge(thrust::cuda::par_nosync(pmpp::thrust_allocator()), a, a + na, b, b + nb, c, less);
    PMPP_CHECK_LAUNCH();
}

template <class Key, class Value, class Less>
void sort_thrust_in_place(Key* keys, Value* values, std::size_t n, Less less) {
    if (n < 2) return;
    if constexpr (kHasValues<Value>)
        thrust::sort_by_key(thrust::cuda::par_nosync(pmpp::thrust_allocator()), keys, keys + n, values, less);
    else
        thrust::sort(thrust::cuda::par_nosync(pmpp::thrust_allocator()), keys, keys + n, less);
    PMPP_CHECK_LAUNCH();
}

#define INSTANTIATE_THRUST(Key, Less)                                                            \
    MERGE_SORT_INSTANTIATE_MERGE(merge_thrust, Key, Less)                                        \
    template void sort_thrust_in_place<Key, NoValues, Less>(Key*, NoValues*, std::size_t, Less); \
    template void sort_thrust_in_place<Key, PairValue, Less>(Key*, PairValue*, std::size_t, Less);
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_THRUST)
#undef INSTANTIATE_THRUST

}  // namespace merge_sort
