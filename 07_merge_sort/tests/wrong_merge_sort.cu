#include "wrong_merge_sort.h"

#include "../merge_core.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

namespace wrong {

using namespace merge_sort;

namespace {

enum class MergeMistake { CoRankOffByOne, TiesFromB, SkipsLast };

constexpr std::size_t kPerThread = 4;

template <class Key, class Less>
__global__ void faulty_merge(MergeMistake mistake, const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                             Less less) {
    const std::size_t total = na + nb;
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t k0 = min_of(thread * kPerThread, total);
    std::size_t k1 = min_of(k0 + kPerThread, total);
    if (mistake == MergeMistake::SkipsLast && k1 == total) k1 = total - 1;
    if (k0 >= k1) return;
    const NoValues* none = nullptr;
    NoValues* none_out = nullptr;
    if (mistake == MergeMistake::TiesFromB) {  // B plays A's part: its elements win the ties
        const std::size_t j0 = co_rank(k0, b, nb, a, na, less), j1 = co_rank(k1, b, nb, a, na, less);
        merge_sequential(b + j0, none, j1 - j0, a + (k0 - j0), none, (k1 - j1) - (k0 - j0), c + k0, none_out, less);
        return;
    }
    std::size_t i0 = co_rank(k0, a, na, b, nb, less), i1 = co_rank(k1, a, na, b, nb, less);
    if (mistake == MergeMistake::CoRankOffByOne) {
        i0 = min_of(i0 + 1, min_of(k0, na));
        i1 = min_of(i1 + 1, min_of(k1, na));
    }
    merge_sequential(a + i0, none, i1 - i0, b + (k0 - i0), none, (k1 - i1) - (k0 - i0), c + k0, none_out, less);
}

template <class Key>
void launch_faulty(MergeMistake mistake, const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c) {
    const std::size_t total = na + nb;
    if (total == 0) return;
    const std::size_t threads = (total + kPerThread - 1) / kPerThread;
    faulty_merge<<<static_cast<unsigned>((threads + 255) / 256), 256>>>(mistake, a, na, b, nb, c, LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}

// One thread per run of equal keys (found at its start) reverses the run, values with it.
template <class Key, class Value, class Less>
__global__ void reverse_equal_runs(Key* keys, Value* values, std::size_t n, Less less) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    auto equal = [&](const Key& x, const Key& y) { return !less(x, y) && !less(y, x); };
    if (i >= n || (i > 0 && equal(keys[i - 1], keys[i]))) return;
    std::size_t end = i + 1;
    while (end < n && equal(keys[i], keys[end])) ++end;
    for (std::size_t lo = i, hi = end - 1; lo < hi; ++lo, --hi) {
        const Key k = keys[lo];
        keys[lo] = keys[hi];
        keys[hi] = k;
        if constexpr (kHasValues<Value>) {
            const Value v = values[lo];
            values[lo] = values[hi];
            values[hi] = v;
        }
    }
}

template <class Key, class Value>
SortArgs<Key, Value> shifted(const SortArgs<Key, Value>& args, std::size_t offset_by) {
    SortArgs<Key, Value> s = args;
    s.keys_in += offset_by;
    s.keys_out += offset_by;
    s.keys_scratch += offset_by;
    if constexpr (kHasValues<Value>) {
        s.values_in += offset_by;
        s.values_out += offset_by;
        s.values_scratch += offset_by;
    }
    return s;
}

}  // namespace

template <class Key>
void merge_co_rank_off_by_one(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_faulty(MergeMistake::CoRankOffByOne, a, na, b, nb, c);
}
template <class Key>
void merge_ties_from_b(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_faulty(MergeMistake::TiesFromB, a, na, b, nb, c);
}
template <class Key>
void merge_skips_last(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_faulty(MergeMistake::SkipsLast, a, na, b, nb, c);
}

template <class Key, class Value>
void sort_halves_only(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_fast(args, n / 2, LessOf<Key>{});
    sort_fast(shifted(args, n / 2), n - n / 2, LessOf<Key>{});
}

template <class Key, class Value>
void sort_unstable(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_fast(args, n, LessOf<Key>{});
    if (n == 0) return;
    reverse_equal_runs<<<static_cast<unsigned>((n + 255) / 256), 256>>>(args.keys_out, args.values_out, n, LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}

template <class Key, class Value>
void sort_values_stay(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_fast(args, n, LessOf<Key>{});
    if constexpr (kHasValues<Value>)
        if (n > 0)
            PMPP_CUDA_CHECK(cudaMemcpyAsync(args.values_out, args.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
}

template <class Key, class Value>
void sort_into_scratch(const SortArgs<Key, Value>& args, std::size_t n) {
    pmpp::DeviceBuffer<Key> other_keys(n);
    pmpp::DeviceBuffer<Value> other_values(kHasValues<Value> ? n : 0);
    SortArgs<Key, Value> s = args;
    s.keys_out = args.keys_scratch;
    s.keys_scratch = other_keys.data();
    if constexpr (kHasValues<Value>) {
        s.values_out = args.values_scratch;
        s.values_scratch = other_values.data();
    }
    sort_fast(s, n, LessOf<Key>{});
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());  // before the temporary arrays go
}

template <class Key, class Value>
void sort_uses_input_as_scratch(const SortArgs<Key, Value>& args, std::size_t n) {
    SortArgs<Key, Value> s = args;
    s.keys_scratch = const_cast<Key*>(args.keys_in);
    if constexpr (kHasValues<Value>) s.values_scratch = const_cast<Value*>(args.values_in);
    sort_fast(s, n, LessOf<Key>{});
}

#define INSTANTIATE_WRONG_SORTS(Key, Value)                                                           \
    template void sort_halves_only<Key, Value>(const SortArgs<Key, Value>&, std::size_t);             \
    template void sort_unstable<Key, Value>(const SortArgs<Key, Value>&, std::size_t);                \
    template void sort_values_stay<Key, Value>(const SortArgs<Key, Value>&, std::size_t);             \
    template void sort_into_scratch<Key, Value>(const SortArgs<Key, Value>&, std::size_t);            \
    template void sort_uses_input_as_scratch<Key, Value>(const SortArgs<Key, Value>&, std::size_t);
#define INSTANTIATE_WRONG(Key)                                                                                       \
    template void merge_co_rank_off_by_one<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*); \
    template void merge_ties_from_b<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);        \
    template void merge_skips_last<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);         \
    INSTANTIATE_WRONG_SORTS(Key, NoValues)                                                                           \
    INSTANTIATE_WRONG_SORTS(Key, PairValue)
INSTANTIATE_WRONG(std::uint32_t)
INSTANTIATE_WRONG(Event)

}  // namespace wrong
