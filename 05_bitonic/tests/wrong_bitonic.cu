// wrong_bitonic.cu: the deliberately wrong sorts of wrong_bitonic.h, as kernels: the network with
// one mistake in its steps (faulty_network), and sorts that write outside the array, lose keys
// or values, or game the benchmark.
#include "wrong_bitonic.h"

#include "../bitonic_4_fused.cuh"
#include "../bitonic_network.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

using namespace bitonic;

namespace {

using wrong::Mistake;

constexpr std::size_t kTile = 2048;  // the starter's (and bitonic_3_shared.cu's) tile

// The student's compare-exchange as it is often first written: the swap reads keys[i] back
// after it has overwritten it, so both elements end up holding keys[l].
template <typename K>
__device__ void swap_through_the_overwritten_key(K* keys, std::uint32_t* values, std::size_t i, std::size_t l,
                                                 bool forward, bitonic::Before<K> before) {
    const K a = keys[i], b = keys[l];
    if (forward ? before(b, a) : before(a, b)) {
        keys[i] = keys[l];
        keys[l] = keys[i];
        if (values != nullptr) {
            values[i] = values[l];
            values[l] = values[i];
        }
    }
}

// The comparison with the key type's own < (and > descending), not the total order of Before.
// Where < orders two keys the total order agrees, so the swap is compare_exchange's; a NaN, or a
// zero beside the other zero, which < leaves unordered, never moves.
template <typename K>
__device__ void compare_exchange_with_less_than(K* keys, std::uint32_t* values, std::size_t i, std::size_t l,
                                                bool forward, bool descending) {
    const K a = keys[i], b = keys[l];
    const bool ascending_here = forward != descending;
    if (ascending_here ? b < a : a < b)
        bitonic::compare_exchange(keys, values, i, l, ascending_here, bitonic::Before<K>{});
}

template <typename K>
__global__ void faulty_step(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k,
                            bitonic::Before<K> before, Mistake mistake) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t partner = i ^ j;
    if (partner <= i) return;
    // The check's guard zones are as wide as the padding to a power of two, so the partners
    // this mistake keeps are read and written inside them.
    if (partner >= n && mistake != Mistake::PartnerPastNNotSkipped) return;
    bool forward = bitonic::sorts_forward(i, k, n);
    if (mistake == Mistake::FlipsTheDirectionBit) forward = !forward;
    if (mistake == Mistake::ReadsTheWrongBit) forward = bitonic::sorts_forward(i, k >> 1, n);
    if (mistake == Mistake::SeedsDirectionRule) forward = (i & k) == 0;
    if (mistake == Mistake::ComparesWithLessThan)
        compare_exchange_with_less_than(keys, values, i, partner, forward, before.descending);
    else if (mistake == Mistake::SwapsThroughAnOverwrittenKey)
        swap_through_the_overwritten_key(keys, values, i, partner, forward, before);
    else
        bitonic::compare_exchange(keys, values, i, partner, forward, before);
}

template <typename K>
__global__ void copy_element(K* keys, std::uint32_t* values, std::size_t from, std::size_t to) {
    keys[to] = keys[from];
    if (values != nullptr) values[to] = values[from];
}

template <typename K>
__global__ void fill_padding(K* keys, std::uint32_t* values, std::size_t n, std::size_t padded, K last) {
    const std::size_t i = n + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= padded) return;
    keys[i] = last;
    if (values != nullptr) values[i] = 0;
}

// The key that sorts after every other in `order` (keys.h): its ordered bits are all ones, or
// all zeros when descending (decoded as the fused sort decodes its registers).
template <typename K>
K last_key(SortOrder order) {
    return bitonic::fused::decode<K>(order == SortOrder::Ascending ? 0xFFFFFFFFu : 0u, 0);
}

// The key that sorts before every other in `order`: ordered bits all zeros (all ones descending).
template <typename K>
K first_key(SortOrder order) {
    return last_key<K>(order == SortOrder::Ascending ? SortOrder::Descending : SortOrder::Ascending);
}

// scratch[0, padded] = keys[0, n), then `last` up to the spare element at `padded`.
template <typename K>
__global__ void copy_into_padded(const K* keys, const std::uint32_t* values, std::size_t n, std::size_t padded, K last,
                                 K* scratch, std::uint32_t* scratch_values) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i > padded) return;
    scratch[i] = i < n ? keys[i] : last;
    if (values != nullptr) scratch_values[i] = i < n ? values[i] : ~0u;
}

// The classic bound: `i <= n` where `i < n` was meant.
template <typename K>
__global__ void copy_back_with_i_le_n(const K* scratch, const std::uint32_t* scratch_values, std::size_t n, K* keys,
                                      std::uint32_t* values) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i <= n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        keys[i] = scratch[i];
        if (values != nullptr) values[i] = scratch_values[i];
    }
}

// keys_before[0, pad) = first (with value 0): the `pad` elements just before the array.
template <typename K>
__global__ void fill_front_padding(K* keys_before, std::uint32_t* values_before, std::size_t pad, K first) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= pad) return;
    keys_before[i] = first;
    if (values_before != nullptr) values_before[i] = 0;
}

// One thread: the first pair of equal neighbours gets the first one's value twice.
template <typename K>
__global__ void duplicate_first_equal_value(const K* keys, std::uint32_t* values, std::size_t n) {
    for (std::size_t i = 0; i + 1 < n; ++i)
        if (pmpp::ordered_bits(keys[i]) == pmpp::ordered_bits(keys[i + 1])) {
            values[i + 1] = values[i];
            return;
        }
}

}  // namespace

namespace wrong {

template <Mistake M, typename K>
void faulty_network(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    if (n < 2) return;
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    const std::size_t last_stage = M == Mistake::StagesUpToN ? n : bitonic::padded_length(n);
    for (std::size_t k = 2; k <= last_stage; k <<= 1)
        for (std::size_t j = k >> 1; j > 0; j >>= 1) {
            if (M == Mistake::SkipsAStep && k == 4 && j == 1) continue;
            if (M == Mistake::SkipsTheStepsLongerThanATile && j >= kTile) continue;
            faulty_step<<<blocks, 256>>>(keys, values, n, j, k, bitonic::before_for<K>(order), M);
            PMPP_CHECK_LAUNCH();
        }
}

template <typename K>
void loses_a_key_and_duplicates_another(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    bitonic_sort_seed(keys, values, n, order);
    if (n < 2) return;
    copy_element<<<1, 1>>>(keys, values, n / 2 - 1, n / 2);
    PMPP_CHECK_LAUNCH();
}

template <typename K>
void leaves_the_values_behind(K* keys, std::uint32_t*, std::size_t n, SortOrder order) {
    bitonic_sort_seed(keys, static_cast<std::uint32_t*>(nullptr), n, order);
}

template <typename K>
void pads_in_memory_past_the_end(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    const std::size_t padded = bitonic::padded_length(n);
    if (padded > n) {
        fill_padding<<<static_cast<unsigned>((padded - n + 255) / 256), 256>>>(keys, values, n, padded,
                                                                               last_key<K>(order));
        PMPP_CHECK_LAUNCH();
    }
    faulty_network<Mistake::None>(keys, values, padded, order);  // the keys below n come out right
}

template <typename K>
void does_nothing(K*, std::uint32_t*, std::size_t, SortOrder) {}

template <typename K>
void copies_back_with_i_le_n(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    const std::size_t padded = bitonic::padded_length(n);
    // One spare element past the padded length, so that the wrong copy back reads inside the
    // scratch copy even when n is a power of two: only its write is out of bounds.
    pmpp::DeviceBuffer<K> scratch(padded + 1);
    pmpp::DeviceBuffer<std::uint32_t> scratch_values(values != nullptr ? padded + 1 : 0);
    std::uint32_t* scratch_values_ptr = values != nullptr ? scratch_values.data() : nullptr;
    copy_into_padded<<<static_cast<unsigned>((padded + 1 + 255) / 256), 256>>>(
        keys, values, n, padded, last_key<K>(order), scratch.data(), scratch_values_ptr);
    PMPP_CHECK_LAUNCH();
    faulty_network<Mistake::None>(scratch.data(), scratch_values_ptr, padded, order);
    copy_back_with_i_le_n<<<64, 256>>>(scratch.data(), scratch_values_ptr, n, keys, values);
    PMPP_CHECK_LAUNCH();
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());  // before the scratch copy is freed
}

template <typename K>
void pads_in_memory_before_the_start(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    const std::size_t pad = bitonic::padded_length(n) - n;
    if (pad > 0) {
        fill_front_padding<<<static_cast<unsigned>((pad + 255) / 256), 256>>>(
            keys - pad, values != nullptr ? values - pad : nullptr, pad, first_key<K>(order));
        PMPP_CHECK_LAUNCH();
    }
    // The pad sorts first, into the memory before the array; the keys from index 0 come out right.
    faulty_network<Mistake::None>(keys - pad, values != nullptr ? values - pad : nullptr, n + pad, order);
}

template <typename K>
void duplicates_a_value_between_equal_keys(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    bitonic_sort_seed(keys, values, n, order);
    if (values == nullptr || n < 2) return;
    duplicate_first_equal_value<<<1, 1>>>(keys, values, n);
    PMPP_CHECK_LAUNCH();
}

template <typename K>
void remembers_its_last_call(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    struct Call {
        K* keys;
        std::uint32_t* values;
        std::size_t n;
        SortOrder order;
    };
    static bool called = false;
    static Call last{};
    if (called && last.keys == keys && last.values == values && last.n == n && last.order == order) return;
    bitonic_sort_seed(keys, values, n, order);
    last = {keys, values, n, order};
    called = true;
}

BITONIC_INSTANTIATE_SORT(loses_a_key_and_duplicates_another)
BITONIC_INSTANTIATE_SORT(leaves_the_values_behind)
BITONIC_INSTANTIATE_SORT(pads_in_memory_past_the_end)
BITONIC_INSTANTIATE_SORT(does_nothing)
BITONIC_INSTANTIATE_SORT(copies_back_with_i_le_n)
BITONIC_INSTANTIATE_SORT(pads_in_memory_before_the_start)
BITONIC_INSTANTIATE_SORT(duplicates_a_value_between_equal_keys)
BITONIC_INSTANTIATE_SORT(remembers_its_last_call)

// The network with each mistake, for every key type.
#define WRONG_INSTANTIATE_NETWORK(M)                                                                                 \
    template void faulty_network<Mistake::M, std::uint32_t>(std::uint32_t*, std::uint32_t*, std::size_t, SortOrder); \
    template void faulty_network<Mistake::M, std::int32_t>(std::int32_t*, std::uint32_t*, std::size_t, SortOrder);   \
    template void faulty_network<Mistake::M, float>(float*, std::uint32_t*, std::size_t, SortOrder);
WRONG_INSTANTIATE_NETWORK(SkipsAStep)
WRONG_INSTANTIATE_NETWORK(FlipsTheDirectionBit)
WRONG_INSTANTIATE_NETWORK(ReadsTheWrongBit)
WRONG_INSTANTIATE_NETWORK(SeedsDirectionRule)
WRONG_INSTANTIATE_NETWORK(PartnerPastNNotSkipped)
WRONG_INSTANTIATE_NETWORK(ComparesWithLessThan)
WRONG_INSTANTIATE_NETWORK(SwapsThroughAnOverwrittenKey)
WRONG_INSTANTIATE_NETWORK(StagesUpToN)
WRONG_INSTANTIATE_NETWORK(SkipsTheStepsLongerThanATile)

}  // namespace wrong
