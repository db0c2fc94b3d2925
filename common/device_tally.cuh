// device_tally.cuh: how many elements of an output are of each kind, counted without leaving the
// device: the check of every timed run (time_checked's verify) where the verdict needs more than
// "equal or not" (08's images: never written, above max_iter, differing, differing away from the
// boundary). device_check.cuh covers plain equality.
//
// `classify(i)` says what element i is as bits, bit k for kind k; tally_on_device<K> counts, for
// each k < K, the i in [0, n) whose bit k is set: one grid-stride kernel, summed per warp and then
// over the device, and K counts copied back. The classifier is a small struct of device pointers
// and values with a `__device__ unsigned operator()(std::size_t i) const` (a `__host__ __device__`
// one lets the host check use the same rule).
#pragma once

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_limits.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace pmpp {

namespace detail {

template <int K, class Classify>
__global__ void tally_kernel(std::size_t n, Classify classify, unsigned long long* sums) {
    unsigned long long mine[K] = {};
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const unsigned kinds = classify(i);
        for (int k = 0; k < K; ++k) mine[k] += (kinds >> k) & 1u;
    }
    for (int k = 0; k < K; ++k) {
        for (int offset = 16; offset > 0; offset /= 2)  // every thread of the block gets here
            mine[k] += __shfl_down_sync(0xFFFFFFFFu, mine[k], offset);
        if ((threadIdx.x & 31) == 0 && mine[k] > 0) atomicAdd(&sums[k], mine[k]);
    }
}

}  // namespace detail

template <int K, class Classify>
std::array<unsigned long long, K> tally_on_device(std::size_t n, const Classify& classify) {
    static_assert(K >= 1 && K <= 32, "one bit per kind of an unsigned verdict");
    std::array<unsigned long long, K> tally{};
    if (n == 0) return tally;
    DeviceBuffer<unsigned long long> sums(K);
    PMPP_CUDA_CHECK(cudaMemset(sums.data(), 0, sums.bytes()));
    // As many blocks as the elements need, at most 8 per SM (each thread then loops): device_check.cuh's rule.
    const std::size_t most = static_cast<std::size_t>(device_limits().sm_count) * 8;
    const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, most));
    detail::tally_kernel<K><<<blocks, 256>>>(n, classify, sums.data());
    PMPP_CHECK_LAUNCH();
    sums.download(tally.data(), K);
    return tally;
}

}  // namespace pmpp
