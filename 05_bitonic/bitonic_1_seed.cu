// bitonic_1_seed.cu: the seed kernel (PMPP chapter 13 for sorting; chapters 4-5 for why a
// kernel launch is the only barrier between all threads). One launch per step (k, j), one
// thread per element: thread i finds its partner i ^ j, and only the lower of the two works,
// so half the threads idle. Two changes to the seed make it sort any n without padding
// (bitonic_network.h): partners at or past n are skipped, and the direction comes from
// bit k of i ^ (n - 1) instead of bit k of i.
//
// Cost: L(L+1)/2 launches for n <= 2^L (300 at 2^24), each reading and writing the whole array.
// Measured (H200, 2026-11-30): 1.14 Gkeys/s at 2^24 (14.7 ms, 300 launches), 1.05 at 2^20.
#include "bitonic.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"

namespace bitonic {

namespace {

constexpr unsigned kThreads = 256;

template <typename K>
__global__ void seed_step(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k,
                          Before<K> before) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t partner = i ^ j;
    if (partner > i && partner < n)  // the lower thread of each pair works; partners past n are virtual
        compare_exchange(keys, values, i, partner, sorts_forward(i, k, n), before);
}

}  // namespace

template <typename K>
void bitonic_sort_seed(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    const Before<K> before = before_for<K>(order);
    const std::size_t element_bytes = sizeof(K) + (values ? sizeof(std::uint32_t) : 0);
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    // No barrier between steps: each launch starts after the previous one has finished.
    for (std::size_t k = 2; k <= padded_length(n); k <<= 1) {
        for (std::size_t j = k >> 1; j > 0; j >>= 1) {
            seed_step<<<blocks, kThreads>>>(keys, values, n, j, k, before);
            PMPP_CHECK_LAUNCH();
            count_launch(n, element_bytes);
        }
    }
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_seed)

}  // namespace bitonic
