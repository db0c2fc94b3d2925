// bitonic_cub.cu: library baseline, cub::DeviceRadixSort: the fastest sort a user can call, and
// the "t / cub" column of the benchmark. Not a comparison sort: it makes one pass per 8-bit digit
// (4 for 32-bit keys) plus a histogram, so its work is O(n), against the network's O(n log^2 n).
//  - Temporary storage is sized and allocated once, in the constructor, outside any timed region.
//  - Out of place: keys_in stays intact, so the benchmark needs no restore between runs.
//  - Float keys go through their ordered bits (keys.h): CUB treats -0.0 and +0.0 as equal, the
//    course's total order puts -0.0 first. Signed ints need nothing: CUB's order is the usual one.
#include "bitonic.h"

#include "common/cuda_check.h"
#include "common/keys.h"

#include <cub/cub.cuh>

#include <stdexcept>
#include <type_traits>
#include <vector>

namespace bitonic {

namespace {

constexpr unsigned kThreads = 256;

__global__ void float_to_ordered_bits(const float* keys, std::uint32_t* bits, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) bits[i] = pmpp::ordered_bits(keys[i]);
}

__global__ void ordered_bits_to_float(std::uint32_t* bits_then_keys, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) reinterpret_cast<float*>(bits_then_keys)[i] = pmpp::from_ordered_bits(bits_then_keys[i]);
}

// The radix sort itself on the unsigned (or signed) key type U. temp == nullptr: size query.
template <typename U>
void radix_sort(void* temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const std::uint32_t* values_in,
                std::uint32_t* values_out, std::size_t n, bool with_values, SortOrder order, cudaStream_t stream) {
    const int count = static_cast<int>(n);
    constexpr int kBits = 8 * sizeof(U);
    if (with_values) {
        if (order == SortOrder::Ascending)
            PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                            count, 0, kBits, stream));
        else
            PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, keys_in, keys_out, values_in,
                                                                      values_out, count, 0, kBits, stream));
    } else {
        if (order == SortOrder::Ascending)
            PMPP_CUDA_CHECK(
                cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, count, 0, kBits, stream));
        else
            PMPP_CUDA_CHECK(
                cub::DeviceRadixSort::SortKeysDescending(temp, temp_bytes, keys_in, keys_out, count, 0, kBits, stream));
    }
}

// Radix keys: floats as their ordered bits, integers as they are.
template <typename K>
using RadixKey = std::conditional_t<std::is_same_v<K, float>, std::uint32_t, K>;

}  // namespace

template <typename K>
CubRadixSort<K>::CubRadixSort(std::size_t max_n, bool with_values, SortOrder order)
    : max_n_(max_n), with_values_(with_values), order_(order) {
    std::size_t bytes = 0;
    radix_sort<RadixKey<K>>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, max_n, with_values, order, 0);
    temp_.resize(bytes);
    if constexpr (std::is_same_v<K, float>) ordered_bits_.resize(max_n);
}

template <typename K>
void CubRadixSort<K>::sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                           std::size_t n, cudaStream_t stream) {
    if (n > max_n_) throw std::logic_error("CubRadixSort: n exceeds the size it was built for");
    if (n == 0) return;
    std::size_t bytes = temp_.size();
    if constexpr (std::is_same_v<K, float>) {
        const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
        auto* out_bits = reinterpret_cast<std::uint32_t*>(keys_out);
        float_to_ordered_bits<<<blocks, kThreads, 0, stream>>>(keys_in, ordered_bits_.data(), n);
        PMPP_CHECK_LAUNCH();
        radix_sort<std::uint32_t>(temp_.data(), bytes, ordered_bits_.data(), out_bits, values_in, values_out, n,
                                  with_values_, order_, stream);
        ordered_bits_to_float<<<blocks, kThreads, 0, stream>>>(out_bits, n);
        PMPP_CHECK_LAUNCH();
    } else {
        radix_sort<K>(temp_.data(), bytes, keys_in, keys_out, values_in, values_out, n, with_values_, order_, stream);
    }
}

template <typename K>
std::size_t CubRadixSort<K>::count_kernel_launches(const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                                                   std::uint32_t* values_out, std::size_t n) {
    cudaStream_t stream = nullptr;
    PMPP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    PMPP_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    sort(keys_in, keys_out, values_in, values_out, n, stream);
    PMPP_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    std::size_t count = 0;
    PMPP_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    PMPP_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
    std::size_t kernels = 0;
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        PMPP_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
        if (type == cudaGraphNodeTypeKernel) ++kernels;
    }
    PMPP_CUDA_CHECK(cudaGraphDestroy(graph));
    PMPP_CUDA_CHECK(cudaStreamDestroy(stream));
    return kernels;
}

template class CubRadixSort<std::uint32_t>;
template class CubRadixSort<std::int32_t>;
template class CubRadixSort<float>;

}  // namespace bitonic
