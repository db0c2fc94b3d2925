// odd_even_baseline.cu: the foil, a baseline of the benchmark's (not a variant of the network,
// not an answer to a task). Odd-even transposition sort compares neighbours only:
// step s compares (i, i+1) for every i of the parity of s, and n steps sort any input. Like the
// bitonic network its schedule ignores the data, but it needs n steps where the network needs
// L(L+1)/2 (n = 2^14: 16384 launches against 105), and O(n^2) comparisons. The benchmark times
// it beside the network at small n (bench size 2^14); it is not checked or timed above 2^16.
// PMPP chapter 13 (sorting).
//
// Measured (H200, 2026-11-30): 80.6 ms at 2^14 (16384 launches), against 0.46 ms for the seed.
#include "bitonic_harness.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"

namespace bitonic {

namespace {

constexpr unsigned kThreads = 256;

template <typename K>
__global__ void odd_even_step(K* keys, std::uint32_t* values, std::size_t n, unsigned parity, Before<K> before) {
    const std::size_t i = 2 * (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) + parity;
    if (i + 1 < n) compare_exchange(keys, values, i, i + 1, true, before);
}

}  // namespace

template <typename K>
void odd_even_transposition_sort(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    const Before<K> before = before_for<K>(order);
    const auto blocks = static_cast<unsigned>((n / 2 + kThreads - 1) / kThreads);
    const std::size_t element_bytes = sizeof(K) + (values ? sizeof(std::uint32_t) : 0);
    for (std::size_t step = 0; step < n; ++step) {
        odd_even_step<<<blocks, kThreads>>>(keys, values, n, static_cast<unsigned>(step & 1), before);
        PMPP_CHECK_LAUNCH();
        count_launch(n, element_bytes);
    }
}

BITONIC_INSTANTIATE_SORT(odd_even_transposition_sort)

}  // namespace bitonic
