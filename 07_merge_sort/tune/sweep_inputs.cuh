// tune/sweep_inputs.cuh: what 07's u32 sweeps (sweep_multiway.cu, sweep_persistent.cu,
// sweep_network.cu, sweep_partition.cu) share: seeded keys on the device (random, or of few
// distinct values) and their host copy, the host's answer (std::sort on every core, then merges),
// the timing options, and the verdict of a result against it.
#pragma once

#include "common/cuda_check.h"
#include "common/timing.h"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace merge_sort::sweep {

using pmpp::TimingOptions;

__device__ inline unsigned long long mix(unsigned long long x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

// (static: each sweep that includes this is one binary)
static __global__ void fill_random(std::uint32_t* keys, std::size_t n, unsigned long long seed,
                                   std::uint32_t distinct) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const auto key = static_cast<std::uint32_t>(mix(seed + i) >> 32);
        keys[i] = distinct ? key % distinct : key;
    }
}

// Seeded keys written on the device (random, or of `distinct` values), and their copy on the host.
inline std::vector<std::uint32_t> draw_keys(std::uint32_t* d_keys, std::size_t n, unsigned long long seed,
                                            std::uint32_t distinct) {
    fill_random<<<1024, 256>>>(d_keys, n, seed, distinct);
    PMPP_CHECK_LAUNCH();
    std::vector<std::uint32_t> host(n);
    PMPP_CUDA_CHECK(cudaMemcpy(host.data(), d_keys, n * 4, cudaMemcpyDeviceToHost));
    return host;
}

inline TimingOptions timing() {
    TimingOptions t;
    t.warmup = 2;
    t.repeats = 10;
    return t;
}

// std::sort in chunks on every core, then rounds of pairwise merges.
inline std::vector<std::uint32_t> host_sorted(std::vector<std::uint32_t> v) {
    const std::size_t n = v.size();
    const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::size_t> bounds;
    for (unsigned c = 0; c <= threads; ++c) bounds.push_back(n * c / threads);
    std::vector<std::thread> pool;
    for (unsigned c = 0; c < threads; ++c)
        pool.emplace_back([&, c] { std::sort(v.begin() + bounds[c], v.begin() + bounds[c + 1]); });
    for (auto& t : pool) t.join();
    for (std::size_t step = 1; step < threads; step *= 2) {
        pool.clear();
        for (std::size_t c = 0; c + step < threads; c += 2 * step) {
            const std::size_t lo = bounds[c], mid = bounds[c + step],
                              hi = bounds[std::min<std::size_t>(c + 2 * step, threads)];
            pool.emplace_back(
                [&v, lo, mid, hi] { std::inplace_merge(v.begin() + lo, v.begin() + mid, v.begin() + hi); });
        }
        for (auto& t : pool) t.join();
    }
    return v;
}

inline const char* verdict(const std::vector<std::uint32_t>& want, const std::uint32_t* d_result, std::size_t n) {
    std::vector<std::uint32_t> got(n);
    PMPP_CUDA_CHECK(cudaMemcpy(got.data(), d_result, n * 4, cudaMemcpyDeviceToHost));
    return got == want ? "ok" : "WRONG";
}

}  // namespace merge_sort::sweep
