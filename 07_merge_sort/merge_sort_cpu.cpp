// merge_sort_cpu.cpp: the definition of correct.
//
// merge_cpu is PMPP 12.2's sequential merge. sort_cpu is a bottom-up merge sort: runs of 32
// sorted by insertion, then passes that merge pairs of runs, on all the host's threads, so
// checking a large sort takes a fraction of a second instead of the many seconds of one thread.
// A pass cuts every pair of runs into pieces at evenly spaced elements of its first run, each
// found in the second by a binary search for the first element not less than it: not the
// co-rank split of the GPU variants (task 1), which cuts the output evenly. Both are tested
// against std::merge and std::stable_sort (tests/test_merge_sort_cpu.cpp).
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

constexpr std::size_t kFirstRun = 32;  // runs sorted by insertion before the first pass
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
    const std::size_t piece = std::max(kMinPerThread, (n + threads - 1) / threads);  // elements, about
    for (std::size_t width = kFirstRun; width < n; width *= 2) {
        // Pair p merges [lo, mid) and [mid, hi); cut into `cuts` pieces. Piece q of it starts at
        // A's element lo + na * q / cuts and at the first element of B not less than that one:
        // B's elements before it are those strictly less, so the stable merge of each piece's A and
        // B, one after the other, is the stable merge of the pair.
        const std::size_t pairs = (n + 2 * width - 1) / (2 * width);
        const std::size_t cuts = std::max<std::size_t>(1, std::min(2 * width / piece, width));
        parallel_for(threads, [&](unsigned t) {
            for (std::size_t k = t; k < pairs * cuts; k += threads) {
                const std::size_t lo = k / cuts * 2 * width, q = k % cuts;
                const std::size_t mid = std::min(n, lo + width), hi = std::min(n, lo + 2 * width);
                const std::size_t na = mid - lo;
                auto b_start = [&](std::size_t i) {  // the first element of B not less than A's element i
                    if (i == na) return hi;
                    return static_cast<std::size_t>(std::lower_bound(src + mid, src + hi, src[lo + i], less) - src);
                };
                const std::size_t a0 = lo + na * q / cuts, a1 = lo + na * (q + 1) / cuts;
                const std::size_t b0 = q == 0 ? mid : b_start(a0 - lo), b1 = b_start(a1 - lo);
                const std::size_t out = a0 + (b0 - mid);
                merge_sequential(src + a0, offset(src_values, a0), a1 - a0, src + b0, offset(src_values, b0), b1 - b0,
                                 dst + out, offset(dst_values, out), less);
            }
        });
        std::swap(src, dst);
        std::swap(src_values, dst_values);
    }
    if (src != keys) {
        std::copy(src, src + n, keys);
        if constexpr (kHasValues<Value>) std::copy(src_values, src_values + n, values);
    }
}

#define INSTANTIATE_CPU(Key, Less)                                                                    \
    template void merge_cpu<Key, Less>(const Key*, std::size_t, const Key*, std::size_t, Key*, Less); \
    template void sort_cpu<Key, NoValues, Less>(Key*, NoValues*, std::size_t, Less, unsigned);        \
    template void sort_cpu<Key, PairValue, Less>(Key*, PairValue*, std::size_t, Less, unsigned);
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_CPU)
#undef INSTANTIATE_CPU

}  // namespace merge_sort
