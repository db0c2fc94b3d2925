// bitonic_2_half_threads.cu: variant 2. The same steps and launches as the seed, but n/2
// threads, one per comparator: thread p spreads its index around a zero at bit log2(j) to get
// the lower element of its pair (bitonic::lower_of_pair), so no thread idles and no warp runs
// with half its lanes masked off. PMPP chapter 13 (sorting), chapter 4 (warps and divergence).
//
// Cost: the seed's launches and bytes, with half the threads and blocks to schedule.
// Measured (H200, 2026-11-30): 1.59 Gkeys/s at 2^24 (10.6 ms), 1.4x the seed kernel.
#include "bitonic.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"

namespace bitonic {

namespace {

constexpr unsigned kThreads = 256;

template <typename K>
__global__ void half_threads_step(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k,
                                  Before<K> before) {
    const std::size_t pair = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t i = lower_of_pair(pair, j);
    const std::size_t partner = i + j;  // bit j of i is clear
    if (partner < n) compare_exchange(keys, values, i, partner, sorts_forward(i, k, n), before);
}

}  // namespace

// The pairs whose upper element is below n are the first ones in pair order, and there are at
// most n/2 of them: n/2 threads cover every comparator.
template <typename K>
void bitonic_global_step(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k, SortOrder order) {
    const std::size_t pairs = n / 2;
    if (pairs == 0) return;
    const auto blocks = static_cast<unsigned>((pairs + kThreads - 1) / kThreads);
    half_threads_step<<<blocks, kThreads>>>(keys, values, n, j, k, before_for<K>(order));
    PMPP_CHECK_LAUNCH();
    count_launch(n, sizeof(K) + (values ? sizeof(std::uint32_t) : 0));
}

template <typename K>
void bitonic_sort_half_threads(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    for (std::size_t k = 2; k <= padded_length(n); k <<= 1)
        for (std::size_t j = k >> 1; j > 0; j >>= 1) bitonic_global_step(keys, values, n, j, k, order);
}

template void bitonic_global_step<std::uint32_t>(std::uint32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t,
                                                 SortOrder);
template void bitonic_global_step<std::int32_t>(std::int32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t,
                                                SortOrder);
template void bitonic_global_step<float>(float*, std::uint32_t*, std::size_t, std::size_t, std::size_t, SortOrder);
BITONIC_INSTANTIATE_SORT(bitonic_sort_half_threads)

}  // namespace bitonic
