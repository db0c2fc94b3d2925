// tune/sweep_onesweep.cu: the shape of variant 5's pass kernel, swept against CUB in one process:
// threads per block, keys per thread, blocks per SM (the register budget), how a warp finds the
// lanes with its digit (__match_any_sync or 8 ballots), and a wait before the look-back (what
// made 02's scan fast). Then the price of the float baseline's order mapping around CUB.
// Built and run by tune/gpu_run.sh; the numbers go to NOTES.md.
//
//   sweep_onesweep [log2 n ...]      default: 24 28
#include "../radix_sort_5_onesweep.cuh"

#include "common/device_buffer.h"
#include "common/rng.h"
#include "common/timing.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace radix_sort;
using pmpp::DeviceBuffer;

namespace {

template <class T>
__global__ void count_differences(const T* a, const T* b, std::size_t n, unsigned long long* count) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += a[i] != b[i];
    if (local != 0) atomicAdd(count, local);
}

template <class T>
unsigned long long differences(const DeviceBuffer<T>& a, const DeviceBuffer<T>& b, std::size_t n) {
    DeviceBuffer<unsigned long long> count(1);
    PMPP_CUDA_CHECK(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
    count_differences<<<1024, 256>>>(a.data(), b.data(), n, count.data());
    PMPP_CHECK_LAUNCH();
    return count.to_host()[0];
}

// One size, one key type, keys alone or with values: CUB first, then each shape.
template <class Key, bool PAIRS>
class Sweep {
public:
    Sweep(std::size_t n, pmpp::L2Flusher& flusher) : n_(n), flusher_(flusher) {
        pmpp::Rng rng(42);
        std::vector<Key> keys(n);
        for (auto& k : keys) k = static_cast<Key>(sizeof(Key) == 8 ? rng.next_u64() : rng.next_u32());
        keys_in_.upload(keys);
        keys_out_.resize(n);
        cub_keys_.resize(n);
        if (PAIRS) {
            std::vector<Value> values(n);
            for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<Value>(i);
            values_in_.upload(values);
            values_out_.resize(n);
            cub_values_.resize(n);
        }
        timing_.repeats = 10;
        timing_.warmup = 2;
        std::size_t bytes = 0;
        cub_call(nullptr, bytes);
        cub_temp_.resize(bytes);
        cub_ms_ = pmpp::time_device(timing_, &flusher_, [&] { cub_call(cub_temp_.data(), bytes); }).median;
        std::printf("\n%s keys%s, n = %zu: cub %.3f ms (%.1f Gkeys/s)\n", sizeof(Key) == 8 ? "u64" : "u32",
                    PAIRS ? " + u32 values" : "", n, cub_ms_, n / (cub_ms_ * 1e6));
    }

    template <class Cfg>
    void run(const char* name) {
        DeviceBuffer<unsigned char> workspace(onesweep::workspace_bytes<Key, Cfg>(n_, PAIRS));
        SortArgs<Key> args;
        args.keys_in = keys_in_.data();
        args.keys_out = keys_out_.data();
        args.values_in = PAIRS ? values_in_.data() : nullptr;
        args.values_out = PAIRS ? values_out_.data() : nullptr;
        args.n = n_;
        args.workspace = workspace.data();
        const double ms = pmpp::time_device(timing_, &flusher_, [&] { onesweep::sort<Key, PAIRS, Cfg>(args); }).median;
        unsigned long long wrong = differences(keys_out_, cub_keys_, n_);
        if (PAIRS) wrong += differences(values_out_, cub_values_, n_);
        std::printf("  %-44s %8.3f ms  %6.1f Gkeys/s  t/cub %.3f  %s\n", name, ms, n_ / (ms * 1e6), ms / cub_ms_,
                    wrong == 0 ? "ok" : ("WRONG: " + std::to_string(wrong) + " differ").c_str());
    }

private:
    void cub_call(void* temp, std::size_t& bytes) {
        if constexpr (PAIRS)
            PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in_.data(), cub_keys_.data(),
                                                            values_in_.data(), cub_values_.data(),
                                                            static_cast<int>(n_)));
        else
            PMPP_CUDA_CHECK(
                cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in_.data(), cub_keys_.data(), static_cast<int>(n_)));
    }

    std::size_t n_;
    pmpp::L2Flusher& flusher_;
    pmpp::TimingOptions timing_;
    DeviceBuffer<Key> keys_in_, keys_out_, cub_keys_;
    DeviceBuffer<Value> values_in_, values_out_, cub_values_;
    DeviceBuffer<unsigned char> cub_temp_;
    double cub_ms_ = 0;
};

using onesweep::Config;
using onesweep::PeerMatch;

void sweep_size(std::size_t n, pmpp::L2Flusher& flusher) {
    constexpr PeerMatch B = PeerMatch::Ballots, M = PeerMatch::MatchAny, P = PeerMatch::BallotsInPtx;
    {
        Sweep<std::uint32_t, false> s(n, flusher);
        s.run<Config<256, 16, 3, B>>("256 x 16, 3 blocks/SM, 8 ballots (shipped)");
        s.run<Config<384, 20, 2, B>>("384 x 20, 2 blocks/SM, 8 ballots");
        s.run<Config<384, 20, 2, M>>("384 x 20, 2 blocks/SM, __match_any_sync");
        s.run<Config<256, 20, 3, B>>("256 x 20, 3 blocks/SM, 8 ballots");
        s.run<Config<256, 12, 4, B>>("256 x 12, 4 blocks/SM, 8 ballots");
        s.run<Config<512, 16, 1, B>>("512 x 16, 1 block/SM, 8 ballots");
        s.run<Config<256, 16, 3, P>>("256 x 16, 3 blocks/SM, PTX ballots (variant 6)");
        s.run<Config<256, 20, 3, P>>("256 x 20, 3 blocks/SM, PTX ballots");
        s.run<Config<256, 12, 4, P>>("256 x 12, 4 blocks/SM, PTX ballots");
        s.run<Config<384, 20, 2, P>>("384 x 20, 2 blocks/SM, PTX ballots");
    }
    {
        Sweep<std::uint32_t, true> s(n, flusher);
        s.run<Config<384, 20, 2, B>>("384 x 20, 2 blocks/SM, 8 ballots (shipped)");
        s.run<Config<384, 16, 2, B>>("384 x 16, 2 blocks/SM, 8 ballots");
        s.run<Config<384, 16, 2, M>>("384 x 16, 2 blocks/SM, __match_any_sync");
        s.run<Config<256, 16, 3, B>>("256 x 16, 3 blocks/SM, 8 ballots");
        s.run<Config<384, 20, 2, P>>("384 x 20, 2 blocks/SM, PTX ballots (variant 6)");
        s.run<Config<384, 20, 2, P, 0, true>>("384 x 20, 2 blocks/SM, PTX, values beside");
        s.run<Config<384, 16, 2, P, 0, true>>("384 x 16, 2 blocks/SM, PTX, values beside");
        s.run<Config<256, 16, 3, P, 0, true>>("256 x 16, 3 blocks/SM, PTX, values beside");
        s.run<Config<384, 24, 2, P, 0, true>>("384 x 24, 2 blocks/SM, PTX, values beside");
        s.run<Config<384, 16, 2, P>>("384 x 16, 2 blocks/SM, PTX ballots");
        s.run<Config<256, 16, 3, P>>("256 x 16, 3 blocks/SM, PTX ballots");
        s.run<Config<256, 12, 4, P>>("256 x 12, 4 blocks/SM, PTX ballots");
    }
    {
        Sweep<std::uint64_t, false> s(n / 2, flusher);
        s.run<Config<384, 16, 2, B>>("384 x 16, 2 blocks/SM, 8 ballots (shipped)");
        s.run<Config<384, 16, 2, M>>("384 x 16, 2 blocks/SM, __match_any_sync");
        s.run<Config<384, 20, 1, B>>("384 x 20, 1 block/SM, 8 ballots");
        s.run<Config<384, 12, 2, B>>("384 x 12, 2 blocks/SM, 8 ballots");
        s.run<Config<384, 16, 2, P>>("384 x 16, 2 blocks/SM, PTX ballots (variant 6)");
    }
    {
        Sweep<std::uint64_t, true> s(n / 2, flusher);
        s.run<Config<384, 12, 2, B>>("384 x 12, 2 blocks/SM, 8 ballots (shipped)");
        s.run<Config<384, 12, 2, M>>("384 x 12, 2 blocks/SM, __match_any_sync");
        s.run<Config<384, 8, 2, B>>("384 x 8, 2 blocks/SM, 8 ballots");
        s.run<Config<384, 16, 1, B>>("384 x 16, 1 block/SM, 8 ballots");
        s.run<Config<384, 12, 2, P>>("384 x 12, 2 blocks/SM, PTX ballots (variant 6)");
        s.run<Config<384, 12, 2, P, 0, true>>("384 x 12, 2 blocks/SM, PTX, values beside");
    }
}

__global__ void to_ordered(const float* in, std::uint32_t* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = to_bits(in[i]);
}
__global__ void from_ordered(const std::uint32_t* in, float* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = from_bits<float>(in[i]);
}

// The float baseline maps keys to ordered bits and back around CUB's uint32 sort; CUB's native
// float sort skips both maps (and orders -0.0, +0.0 and NaNs its own way).
void price_the_float_mapping(std::size_t n, pmpp::L2Flusher& flusher) {
    pmpp::Rng rng(7);
    std::vector<float> keys(n);
    for (auto& k : keys) k = rng.signed_unit_float();
    DeviceBuffer<float> in, out(n);
    DeviceBuffer<std::uint32_t> bits(n), sorted(n);
    in.upload(keys);
    std::size_t native_bytes = 0, bits_bytes = 0;
    PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, native_bytes, in.data(), out.data(), static_cast<int>(n)));
    PMPP_CUDA_CHECK(
        cub::DeviceRadixSort::SortKeys(nullptr, bits_bytes, bits.data(), sorted.data(), static_cast<int>(n)));
    DeviceBuffer<unsigned char> temp(std::max(native_bytes, bits_bytes));
    pmpp::TimingOptions t;
    t.repeats = 10;
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    const double native = pmpp::time_device(t, &flusher, [&] {
                              PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp.data(), native_bytes, in.data(),
                                                                             out.data(), static_cast<int>(n)));
                          }).median;
    const double mapped = pmpp::time_device(t, &flusher, [&] {
                              to_ordered<<<blocks, 256>>>(in.data(), bits.data(), n);
                              PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp.data(), bits_bytes, bits.data(),
                                                                             sorted.data(), static_cast<int>(n)));
                              from_ordered<<<blocks, 256>>>(sorted.data(), out.data(), n);
                          }).median;
    std::printf("\nf32 keys, n = %zu: CUB native %.3f ms, mapped around a u32 sort (the baseline) %.3f ms: x%.3f\n", n,
                native, mapped, mapped / native);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> logs;
    for (int i = 1; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
    if (logs.empty()) logs = {24, 28};
    try {
        pmpp::L2Flusher flusher;
        for (int lg : logs) sweep_size(std::size_t{1} << lg, flusher);
        price_the_float_mapping(std::size_t{1} << logs.back(), flusher);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const pmpp::CudaError& e) {
        std::fprintf(stderr, "sweep_onesweep: %s\n", e.what());
        return 3;
    }
    return 0;
}
