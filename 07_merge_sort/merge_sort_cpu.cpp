// merge_sort_cpu.cpp: the definition of correct.
//
// merge_cpu is PMPP 12.2's sequential merge. sort_cpu is a bottom-up merge sort: runs of 32
// sorted by insertion, then passes that merge pairs of runs. Each pass is split evenly among the
// host's threads with co-rank, the split every GPU variant uses (PMPP 12.5), so checking a large
// sort takes a fraction of a second instead of the many seconds of one thread. Both are tested
// against std::merge, std::stable_sort and a brute-force co-rank (tests/test_merge_sort_cpu.cpp).
#include "merge_core.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace merge_sort {

namespace {

// Runs work(t) for t in [0, threads): on new threads, and t = 0 on the calling one.
template <class Work>
void parallel_for(unsigned threads, const Work& work) {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&work, t] { work(t); });
    work(0);
    for (auto& th : pool) th.join();
}

// Stable: an element moves left only past strictly greater ones.
template <class Key, class Value, class Less>
void insertion_sort(Key* keys, Value* values, std::size_t begin, std::size_t end, Less less) {
    for (std::size_t i = begin + 1; i < end; ++i) {
        const Key key = keys[i];
        [[maybe_unused]] Value value{};
        if constexpr (kHasValues<Value>) value = values[i];
        std::size_t j = i;
        for (; j > begin && less(key, keys[j - 1]); --j) {
            keys[j] = keys[j - 1];
            if constexpr (kHasValues<Value>) values[j] = values[j - 1];
        }
        keys[j] = key;
        if constexpr (kHasValues<Value>) values[j] = value;
    }
}

constexpr std::size_t kFirstRun = 32;         // runs sorted by insertion before the first pass
constexpr std::size_t kMinPerThread = 16384;  // below this, another thread costs more than it saves

}  // namespace

template <class Key, class Less>
void merge_cpu(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, Less less) {
    merge_sequential(a, static_cast<const NoValues*>(nullptr), na, b, static_cast<const NoValues*>(nullptr), nb, c,
                     static_cast<NoValues*>(nullptr), less);
}

template <class Key, class Value, class Less>
void sort_cpu(Key* keys, Value* values, std::size_t n, Less less, unsigned threads) {
    if (n < 2) return;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, n / kMinPerThread)));

    const std::size_t runs = (n + kFirstRun - 1) / kFirstRun;
    parallel_for(threads, [&](unsigned t) {
        for (std::size_t r = runs * t / threads; r < runs * (t + 1) / threads; ++r)
            insertion_sort(keys, values, r * kFirstRun, std::min(n, (r + 1) * kFirstRun), less);
    });

    std::vector<Key> key_scratch(n);
    std::vector<Value> value_scratch(kHasValues<Value> ? n : 0);
    Key* src = keys;
    Key* dst = key_scratch.data();
    Value* src_values = values;
    Value* dst_values = kHasValues<Value> ? value_scratch.data() : values;
    for (std::size_t width = kFirstRun; width < n; width *= 2) {
        const SortedRuns<Key, Value> pass{src, src_values, n, width};
        parallel_for(threads, [&](unsigned t) {
            merge_slice(pass, n * t / threads, n * (t + 1) / threads, dst, dst_values, less);
        });
        std::swap(src, dst);
        std::swap(src_values, dst_values);
    }
    if (src != keys) {
        std::copy(src, src + n, keys);
        if constexpr (kHasValues<Value>) std::copy(src_values, src_values + n, values);
    }
}

#define INSTANTIATE_CPU(Key, Less)                                                            \
    template void merge_cpu<Key, Less>(const Key*, std::size_t, const Key*, std::size_t, Key*, Less); \
    template void sort_cpu<Key, NoValues, Less>(Key*, NoValues*, std::size_t, Less, unsigned);       \
    template void sort_cpu<Key, PairValue, Less>(Key*, PairValue*, std::size_t, Less, unsigned);
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_CPU)
#undef INSTANTIATE_CPU

}  // namespace merge_sort
