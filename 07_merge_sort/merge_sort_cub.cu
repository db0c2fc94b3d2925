// merge_sort_cub.cu: the library baseline, CUB. cub::DeviceMerge::MergeKeys for the merge;
// cub::DeviceMergeSort::StableSortKeysCopy and SortPairsCopy for the sort (out of place, like
// ours: the input stays unchanged). SortPairsCopy's documentation does not promise stability, but
// it runs the same merge sort as StableSortPairs; the check holds it to the same standard.
// cub::DeviceMerge is CCCL 2.7's (CUDA 12.8): with CUDA older than 12.8 (CUDA 12.4 has CCCL
// 2.3), the merge baseline is thrust::merge instead, as in merge_sort_thrust.cu.
//
// CUB's temporary storage is kept between calls and only grows: it is allocated during the
// benchmark's warm-up runs, never inside a timed run.
#include "merge_sort.h"

#include "common/cuda_check.h"

#include <cub/cub.cuh>

// cub::DeviceMerge (cub/device/device_merge.cuh) first shipped in CCCL 2.7.0 (CUB_VERSION
// 200700, CUDA 12.8). Older CCCLs (CUDA 12.4's 2.3) have DeviceMergeSort but no DeviceMerge.
#if CUB_VERSION >= 200700
#define MERGE_SORT_HAVE_CUB_DEVICE_MERGE 1
#else
#define MERGE_SORT_HAVE_CUB_DEVICE_MERGE 0
#include "common/caching_allocator.h"

#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#endif

namespace merge_sort {

namespace {

// Never null: CUB reads a null pointer as "how much do you need?" and does nothing.
void* temporary_storage(std::size_t bytes) {
    static void* storage = nullptr;
    static std::size_t capacity = 0;
    bytes = bytes == 0 ? 1 : bytes;
    if (bytes > capacity) {
        if (storage != nullptr) PMPP_CUDA_CHECK(cudaFree(storage));
        storage = nullptr;
        PMPP_CUDA_CHECK(cudaMalloc(&storage, bytes));
        capacity = bytes;
    }
    return storage;
}

}  // namespace

template <class Key, class Less>
void merge_cub(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*, Less less) {
    if (na + nb == 0) return;
#if MERGE_SORT_HAVE_CUB_DEVICE_MERGE
    const auto count_a = static_cast<std::int64_t>(na), count_b = static_cast<std::int64_t>(nb);
    std::size_t bytes = 0;
    PMPP_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, bytes, a, count_a, b, count_b, c, less));
    void* storage = temporary_storage(bytes);
    PMPP_CUDA_CHECK(cub::DeviceMerge::MergeKeys(storage, bytes, a, count_a, b, count_b, c, less));
#else
    // No cub::DeviceMerge before CCCL 2.7 (CUDA 12.8): thrust::merge, which is stable too (A's
    // element first on ties), on the default stream like the CUB calls here, asynchronous
    // (par_nosync) like them, its temporaries from the course's caching allocator as in
    // merge_sort_thrust.cu (nothing allocated inside a timed run).
    thrust::merge(thrust::cuda::par_nosync(pmpp::thrust_allocator()), a, a + na, b, b + nb, c, less);
    PMPP_CHECK_LAUNCH();
#endif
}

template <class Key, class Value, class Less>
void sort_cub(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    if (n == 0) return;
    const auto count = static_cast<std::int64_t>(n);
    std::size_t bytes = 0;
    if constexpr (kHasValues<Value>) {
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(nullptr, bytes, args.keys_in, args.values_in, args.keys_out,
                                                            args.values_out, count, less));
        void* storage = temporary_storage(bytes);
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(storage, bytes, args.keys_in, args.values_in, args.keys_out,
                                                            args.values_out, count, less));
    } else {
        PMPP_CUDA_CHECK(
            cub::DeviceMergeSort::StableSortKeysCopy(nullptr, bytes, args.keys_in, args.keys_out, count, less));
        void* storage = temporary_storage(bytes);
        PMPP_CUDA_CHECK(
            cub::DeviceMergeSort::StableSortKeysCopy(storage, bytes, args.keys_in, args.keys_out, count, less));
    }
}

#define INSTANTIATE_CUB(Key, Less)                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_cub, Key, Less) \
    MERGE_SORT_INSTANTIATE_SORT(sort_cub, Key, Less)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_CUB)
#undef INSTANTIATE_CUB

}  // namespace merge_sort
