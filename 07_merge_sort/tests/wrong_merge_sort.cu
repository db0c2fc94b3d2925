#include "wrong_merge_sort.h"

#include "../merge_sort_1_basic.cuh"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

namespace wrong {

using namespace merge_sort;

namespace {

enum class MergeMistake { CoRankOffByOne, TiesFromB, SkipsLast, WritesOneEarly };

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
    Key* slice = c + k0;
    if (mistake == MergeMistake::WritesOneEarly) slice -= 1;
    merge_sequential(a + i0, none, i1 - i0, b + (k0 - i0), none, (k1 - i1) - (k0 - i0), slice, none_out, less);
}

constexpr unsigned kOutputsPerBlock = 256;

// Output k of the merge is the first of what is left after the first k: A's next element unless
// B's goes strictly before it. The bound is the mistake (k < total is right); the co-rank search
// is clamped to the merge, so the thread one too many reads in bounds and stores the last output
// again at c[total].
template <class Key, class Less>
__global__ void merge_one_output_per_thread_inclusive(const Key* a, std::size_t na, const Key* b, std::size_t nb,
                                                      Key* c, Less less) {
    const std::size_t total = na + nb;
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k <= total) {
        const std::size_t clamped = min_of(k, total - 1);
        const std::size_t i = co_rank(clamped, a, na, b, nb, less), j = clamped - i;
        c[k] = (j >= nb || (i < na && !less(b[j], a[i]))) ? a[i] : b[j];
    }
}

// What a memoized call remembers of its last call.
struct CallSeen {
    const void* first_input = nullptr;
    const void* second_input = nullptr;
    const void* output = nullptr;
    std::size_t n = 0;
    bool operator==(const CallSeen& o) const {
        return first_input == o.first_input && second_input == o.second_input && output == o.output && n == o.n;
    }
};
CallSeen last_merge, last_sort;
bool merge_seen = false, sort_seen = false;

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

template <class Key>
void merge_one_past_end(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    const std::size_t total = na + nb;
    if (total == 0) return;
    const std::size_t blocks = total / kOutputsPerBlock + 1;  // "rounded up", one block too many when it divides
    merge_one_output_per_thread_inclusive<<<static_cast<unsigned>(blocks), kOutputsPerBlock>>>(a, na, b, nb, c,
                                                                                               LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}
template <class Key>
void merge_one_early(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*) {
    launch_faulty(MergeMistake::WritesOneEarly, a, na, b, nb, c);
}
template <class Key>
void merge_memoized(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits) {
    const CallSeen call{a, b, c, na + nb};
    if (merge_seen && call == last_merge) return;
    merge_fast(a, na, b, nb, c, splits, LessOf<Key>{});
    last_merge = call;
    merge_seen = true;
}

void forget_memoized_calls() { merge_seen = sort_seen = false; }

template <class Key, class Value>
void sort_sentinel_past_scratch(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_fast(args, n, LessOf<Key>{});
    PMPP_CUDA_CHECK(cudaMemsetAsync(args.keys_scratch + n, 0xFF, sizeof(Key)));
}

template <class Key, class Value>
void sort_memoized(const SortArgs<Key, Value>& args, std::size_t n) {
    const CallSeen call{args.keys_in, args.values_in, args.keys_out, n};
    if (sort_seen && call == last_sort) return;
    sort_fast(args, n, LessOf<Key>{});
    last_sort = call;
    sort_seen = true;
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
    reverse_equal_runs<<<static_cast<unsigned>((n + 255) / 256), 256>>>(args.keys_out, args.values_out, n,
                                                                        LessOf<Key>{});
    PMPP_CHECK_LAUNCH();
}

template <class Key, class Value>
void sort_values_stay(const SortArgs<Key, Value>& args, std::size_t n) {
    sort_fast(args, n, LessOf<Key>{});
    if constexpr (kHasValues<Value>)
        if (n > 0)
            PMPP_CUDA_CHECK(
                cudaMemcpyAsync(args.values_out, args.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
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

#define INSTANTIATE_WRONG_SORTS(Key, Value)                                                         \
    template void sort_halves_only<Key, Value>(const SortArgs<Key, Value>&, std::size_t);           \
    template void sort_unstable<Key, Value>(const SortArgs<Key, Value>&, std::size_t);              \
    template void sort_values_stay<Key, Value>(const SortArgs<Key, Value>&, std::size_t);           \
    template void sort_into_scratch<Key, Value>(const SortArgs<Key, Value>&, std::size_t);          \
    template void sort_uses_input_as_scratch<Key, Value>(const SortArgs<Key, Value>&, std::size_t); \
    template void sort_sentinel_past_scratch<Key, Value>(const SortArgs<Key, Value>&, std::size_t); \
    template void sort_memoized<Key, Value>(const SortArgs<Key, Value>&, std::size_t);
#define INSTANTIATE_WRONG(Key)                                                                                         \
    template void merge_co_rank_off_by_one<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*); \
    template void merge_ties_from_b<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);        \
    template void merge_skips_last<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);         \
    template void merge_one_past_end<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);       \
    template void merge_one_early<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);          \
    template void merge_memoized<Key>(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*);           \
    INSTANTIATE_WRONG_SORTS(Key, NoValues)                                                                             \
    INSTANTIATE_WRONG_SORTS(Key, PairValue)
#define INSTANTIATE_WRONG_KEY(Key, Less) INSTANTIATE_WRONG(Key)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_WRONG_KEY)
#undef INSTANTIATE_WRONG_KEY

}  // namespace wrong
