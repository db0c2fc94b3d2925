// parallel_sort.h: what std::sort(first, last, less) leaves, on every core of the host. Each
// thread sorts one contiguous chunk, then neighbouring chunks are merged pairwise, side by side,
// until one is left (ceil(log2(threads)) rounds of std::inplace_merge). For a strict order on
// distinct bit patterns (keys.h's total order) the output is std::sort's exactly; with ties it is
// some sorted permutation, as std::sort's is.
//
// For the CPU answers of the checks and benchmarks, which sort up to 2^26 keys for every run: on
// 16 cores 2^24 u32 keys take some 0.2 s instead of std::sort's 1.4 s. Inputs below `min_chunk`
// keys a thread are sorted by one thread (threads cost more than they save there).
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace pmpp {

template <class It, class Less>
void parallel_sort(It first, It last, Less less, unsigned threads = 0, std::size_t min_chunk = std::size_t{1} << 16) {
    const std::size_t n = static_cast<std::size_t>(last - first);
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t most = min_chunk == 0 ? n : n / min_chunk;
    if (most < threads) threads = static_cast<unsigned>(std::max<std::size_t>(most, 1));
    if (threads <= 1) {
        std::sort(first, last, less);
        return;
    }
    std::vector<std::size_t> bounds(threads + 1);
    for (unsigned t = 0; t <= threads; ++t) bounds[t] = n * t / threads;
    auto side_by_side = [](std::size_t count, auto&& body) {
        std::vector<std::thread> pool;
        for (std::size_t i = 1; i < count; ++i) pool.emplace_back(body, i);
        body(std::size_t{0});
        for (auto& th : pool) th.join();
    };
    side_by_side(threads, [&](std::size_t t) { std::sort(first + bounds[t], first + bounds[t + 1], less); });
    // Merge chunk 2i with 2i+1 in each round; an odd last chunk waits for the next round.
    while (bounds.size() > 2) {
        const std::size_t chunks = bounds.size() - 1;
        side_by_side(chunks / 2, [&](std::size_t i) {
            std::inplace_merge(first + bounds[2 * i], first + bounds[2 * i + 1], first + bounds[2 * i + 2], less);
        });
        std::vector<std::size_t> merged;
        for (std::size_t i = 0; i < chunks; i += 2) merged.push_back(bounds[i]);
        merged.push_back(bounds.back());
        bounds = std::move(merged);
    }
}

}  // namespace pmpp
