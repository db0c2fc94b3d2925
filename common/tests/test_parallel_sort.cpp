// parallel_sort: std::sort's output for every count of threads and chunk, ties and edges included.
#include "common/parallel_sort.h"

#include "common/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace pmpp {
namespace {

std::vector<std::uint32_t> random_keys(std::size_t n, std::uint32_t distinct, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = distinct == 0 ? rng.next_u32() : rng.next_u32() % distinct;
    return v;
}

TEST(ParallelSort, GivesStdSortsOutputForEveryCountOfThreadsAndSize) {
    for (std::size_t n : {0u, 1u, 2u, 7u, 100u, 1000u, 4097u}) {
        for (unsigned threads : {1u, 2u, 3u, 5u, 8u, 16u}) {
            for (std::uint32_t distinct : {0u, 1u, 3u}) {
                std::vector<std::uint32_t> v = random_keys(n, distinct, n * 31 + threads + distinct);
                std::vector<std::uint32_t> want = v;
                std::sort(want.begin(), want.end());
                parallel_sort(v.begin(), v.end(), std::less<std::uint32_t>(), threads, /*min_chunk=*/1);
                EXPECT_EQ(v, want) << "n " << n << ", " << threads << " threads, " << distinct << " distinct";
            }
        }
    }
}

TEST(ParallelSort, TakesTheComparatorsOrderAndSortedOrReversedInput) {
    std::vector<int> v(5000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(i);
    std::vector<int> down = v;
    std::reverse(down.begin(), down.end());
    std::vector<int> a = v;
    parallel_sort(a.begin(), a.end(), std::greater<int>(), 7, 1);
    EXPECT_EQ(a, down);
    parallel_sort(a.begin(), a.end(), std::less<int>(), 7, 1);
    EXPECT_EQ(a, v);
}

TEST(ParallelSort, AnInputBelowOneChunkAThreadIsSortedAsWell) {
    std::vector<std::uint32_t> v = random_keys(3000, 0, 9), want = v;
    std::sort(want.begin(), want.end());
    parallel_sort(v.begin(), v.end(), std::less<std::uint32_t>(), 16);  // default chunk 2^16: one thread
    EXPECT_EQ(v, want);
}

}  // namespace
}  // namespace pmpp
