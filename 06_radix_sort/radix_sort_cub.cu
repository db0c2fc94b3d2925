// radix_sort_cub.cu: the library baseline, cub::DeviceRadixSort::SortKeys and SortPairs (CUB's
// Onesweep on sm_90, tuned per architecture). Its temporary storage is sized by a first call and
// is part of the workspace the harness allocates once, outside the timed region.
//
// The item count is passed as an int, so CUB picks its 32-bit-offset tuning (the faster one).
// Float keys: CUB orders -0.0 equal to +0.0 and puts negative NaNs first; the course's order
// (common/keys.h) has -0.0 < +0.0 and every NaN last. So the float baseline maps the keys to
// their ordered bits (one kernel), sorts those as uint32 with CUB, and maps them back (one
// kernel): two extra passes over the keys, 16 bytes per key that CUB alone would not move
// (tune/sweep_onesweep.cu prices them against CUB's native float sort).
#include "radix_sort.h"

#include "common/cuda_check.h"

#include <cub/device/device_radix_sort.cuh>

namespace radix_sort {

namespace {

// CUB's temporary storage for n keys of type Stored (with values or not).
template <class Stored>
std::size_t cub_bytes(std::size_t n, bool pairs) {
    std::size_t bytes = 0;
    const Stored* keys = nullptr;
    if (pairs)
        PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, static_cast<Stored*>(nullptr),
                                                        static_cast<const Value*>(nullptr),
                                                        static_cast<Value*>(nullptr), static_cast<int>(n)));
    else
        PMPP_CUDA_CHECK(
            cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, static_cast<Stored*>(nullptr), static_cast<int>(n)));
    return bytes;
}

template <class Stored>
void cub_sort(const Stored* keys_in, Stored* keys_out, const Value* values_in, Value* values_out, std::size_t n,
              int begin_bit, int end_bit, void* temp, std::size_t temp_bytes) {
    const int count = static_cast<int>(n);
    if (values_in != nullptr)
        PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                        count, begin_bit, end_bit));
    else
        PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, count, begin_bit, end_bit));
}

__global__ void float_to_ordered_bits(const float* in, std::uint32_t* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = to_bits(in[i]);
}

__global__ void ordered_bits_to_float(const std::uint32_t* in, float* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = from_bits<float>(in[i]);
}

// The float baseline's workspace: CUB's storage for uint32 keys, then n ordered bits.
struct FloatLayout {
    void* temp;
    std::size_t temp_bytes;
    std::uint32_t* bits;
    std::size_t bytes;
};
FloatLayout float_layout(void* base, std::size_t n, bool pairs) {
    Workspace w(base);
    const std::size_t temp_bytes = cub_bytes<std::uint32_t>(n, pairs);
    void* temp = w.take<unsigned char>(temp_bytes);
    std::uint32_t* bits = w.take<std::uint32_t>(n);
    return {temp, temp_bytes, bits, w.bytes()};
}

}  // namespace

template <class Key>
std::size_t radix_sort_cub_workspace_bytes(std::size_t n, bool pairs) {
    if constexpr (std::is_same_v<Key, float>)
        return float_layout(nullptr, n, pairs).bytes;
    else
        return cub_bytes<Key>(n, pairs);
}

template <class Key>
void radix_sort_cub(const SortArgs<Key>& a) {
    if (a.n == 0) return;
    if constexpr (std::is_same_v<Key, float>) {
        const FloatLayout w = float_layout(a.workspace, a.n, a.pairs());
        const unsigned blocks = static_cast<unsigned>((a.n + 255) / 256);
        float_to_ordered_bits<<<blocks, 256>>>(a.keys_in, w.bits, a.n);
        PMPP_CHECK_LAUNCH();
        auto* out_bits = reinterpret_cast<std::uint32_t*>(a.keys_out);
        cub_sort(static_cast<const std::uint32_t*>(w.bits), out_bits, a.values_in, a.values_out, a.n, a.begin_bit,
                 a.end_bit, w.temp, w.temp_bytes);
        ordered_bits_to_float<<<blocks, 256>>>(out_bits, a.keys_out, a.n);  // in place
        PMPP_CHECK_LAUNCH();
    } else {
        cub_sort(a.keys_in, a.keys_out, a.values_in, a.values_out, a.n, a.begin_bit, a.end_bit, a.workspace,
                 cub_bytes<Key>(a.n, a.pairs()));
    }
}

RADIX_SORT_INSTANTIATE(radix_sort_cub)

}  // namespace radix_sort
