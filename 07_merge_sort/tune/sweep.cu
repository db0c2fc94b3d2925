// tune/sweep.cu: the tuning sweep for 07_merge_sort's fast variant, built and run by tune/gpu_run.sh.
// Includes the kernel header and instantiates other tile shapes: merge threads x items per
// thread, sort threads x items per thread. Six parts (-DSWEEP_PART=0..5) compile in parallel.
//   part 0: CUB in the same run; the shipped shape's kernels one by one; the partition's lanes
//   part 1-2: u32 keys, other shapes
//   part 3: u32 keys with u32 values, other shapes; the merge of two arrays
//   part 4: programmatic dependent launch against the usual way; the merge kernel at 6 and 8 blocks/SM
//   part 5: the shipped shapes launched both ways, and the breakdown (to compare two builds)
// Every sorted output is checked on the device: no descent, and the same multiset fingerprint
// as the input (the harness and the tests check the shipped shapes exactly).
#ifndef SWEEP_PART  // `make tune` builds part 0; tune/gpu_run.sh builds all six
#define SWEEP_PART 0
#endif
#include "../merge_sort_4_fast.cuh"

#include "common/device_buffer.h"
#include "common/timing.h"

#if SWEEP_PART == 0
#include <cub/cub.cuh>
#endif

#include <cstdio>
#include <vector>

using namespace merge_sort;
using namespace pmpp;

namespace {

const std::size_t kSizes[] = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};

__device__ unsigned long long mix(unsigned long long x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

// out[0]: descents, out[1]: sum of mix(key, value) (a permutation keeps it).
template <class Key, class Value>
__global__ void fingerprint(const Key* keys, const Value* values, std::size_t n, unsigned long long* out) {
    unsigned long long descents = 0, sum = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        unsigned long long v = 0;
        if constexpr (kHasValues<Value>) v = values[i];
        sum += mix(static_cast<unsigned long long>(keys[i]) * 0x9E3779B97F4A7C15ull ^ v);
        if (i > 0 && KeyLess{}(keys[i], keys[i - 1])) ++descents;
    }
    atomicAdd(&out[0], descents);
    atomicAdd(&out[1], sum);
}

template <class Key, class Value>
void fingerprint_of(const Key* keys, const Value* values, std::size_t n, unsigned long long result[2]) {
    DeviceBuffer<unsigned long long> d(2);
    PMPP_CUDA_CHECK(cudaMemset(d.data(), 0, 16));
    fingerprint<<<1024, 256>>>(keys, values, n, d.data());
    PMPP_CHECK_LAUNCH();
    PMPP_CUDA_CHECK(cudaMemcpy(result, d.data(), 16, cudaMemcpyDeviceToHost));
}

__global__ void fill_random(std::uint32_t* keys, std::size_t n, unsigned long long seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        keys[i] = static_cast<std::uint32_t>(mix(seed + i) >> 32);
}

struct Arrays {
    DeviceBuffer<std::uint32_t> keys_in, keys_out, keys_scratch, values_in, values_out, values_scratch;
    DeviceBuffer<std::size_t> splits;
    explicit Arrays(std::size_t n)
        : keys_in(n),
          keys_out(n),
          keys_scratch(n),
          values_in(n),
          values_out(n),
          values_scratch(n),
          splits(split_capacity(n)) {
        fill_random<<<1024, 256>>>(keys_in.data(), n, 12345);
        fill_random<<<1024, 256>>>(values_in.data(), n, 777);
        PMPP_CHECK_LAUNCH();
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    }
    template <class Value>
    SortArgs<std::uint32_t, Value> args() {
        SortArgs<std::uint32_t, Value> a;
        a.keys_in = keys_in.data();
        a.keys_out = keys_out.data();
        a.keys_scratch = keys_scratch.data();
        a.splits = splits.data();
        if constexpr (kHasValues<Value>) {
            a.values_in = values_in.data();
            a.values_out = values_out.data();
            a.values_scratch = values_scratch.data();
        }
        return a;
    }
};

TimingOptions timing() {
    TimingOptions t;
    t.warmup = 2;
    t.repeats = 10;
    return t;
}

double gkeys(std::size_t n, double ms) { return static_cast<double>(n) / (ms * 1e6); }

template <class Value, class Sort>
void time_sort(const char* name, Arrays& arrays, std::size_t n, L2Flusher& flusher, Sort sort) {
    auto args = arrays.args<Value>();
    const Stats s = time_device(timing(), &flusher, [&] { sort(args, n); });
    unsigned long long in[2], out[2];
    fingerprint_of(args.keys_in, args.values_in, n, in);
    fingerprint_of(args.keys_out, args.values_out, n, out);
    const bool ok = out[0] == 0 && out[1] == in[1];
    std::printf("  %-34s n=2^%-2d %9.4f ms  %6.2f Gkeys/s  spread %4.1f%%  %s\n", name, __builtin_ctzll(n), s.median,
                gkeys(n, s.median), 100 * s.spread(), ok ? "ok" : "WRONG");
}

template <class Cfg, class Value, class Exec = fast::DeviceExecutor>
void sweep_shape(Arrays& arrays, L2Flusher& flusher, const char* suffix = "") {
    char name[96];
    std::snprintf(name, sizeof name, "%s merge %dx%d sort %dx%d%s", kHasValues<Value> ? "pairs" : "keys ",
                  Cfg::kMergeThreads, Cfg::kItems, Cfg::kSortThreads, Cfg::kItems, suffix);
    for (std::size_t n : kSizes)
        time_sort<Value>(name, arrays, n, flusher, [](const SortArgs<std::uint32_t, Value>& a, std::size_t m) {
            fast::sort_with<Cfg, Exec>(a, m, KeyLess{});
        });
}

#if SWEEP_PART == 0
void time_cub(Arrays& arrays, L2Flusher& flusher) {
    void* temp = nullptr;
    std::size_t bytes = 0;
    const std::size_t largest = kSizes[2];
    PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(nullptr, bytes, arrays.keys_in.data(), arrays.values_in.data(),
                                                        arrays.keys_out.data(), arrays.values_out.data(),
                                                        static_cast<std::int64_t>(largest), KeyLess{}));
    PMPP_CUDA_CHECK(cudaMalloc(&temp, bytes));
    for (std::size_t n : kSizes) {
        time_sort<NoValues>("cub StableSortKeysCopy", arrays, n, flusher,
                            [&](const SortArgs<std::uint32_t, NoValues>& a, std::size_t m) {
                                std::size_t b = bytes;
                                PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(
                                    temp, b, a.keys_in, a.keys_out, static_cast<std::int64_t>(m), KeyLess{}));
                            });
        time_sort<PairValue>(
            "cub SortPairsCopy", arrays, n, flusher, [&](const SortArgs<std::uint32_t, PairValue>& a, std::size_t m) {
                std::size_t b = bytes;
                PMPP_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(temp, b, a.keys_in, a.values_in, a.keys_out,
                                                                    a.values_out, static_cast<std::int64_t>(m),
                                                                    KeyLess{}));
            });
    }
    PMPP_CUDA_CHECK(cudaFree(temp));
}

#endif

#if SWEEP_PART == 0 || SWEEP_PART == 5
// Where the shipped shape's time goes: the tile sort, then every pass (partition and merge) in
// order on the real data (each step reads one buffer and writes the other, so repeating it is
// harmless); then the last pass's partition with each lane count.
void breakdown(Arrays& arrays, L2Flusher& flusher) {
    using Cfg = fast::Config<256, 1024, 17, 5, 2>;  // shipped
    using Exec = fast::DeviceExecutor;
    const NoValues* no_in = nullptr;
    NoValues* no_out = nullptr;
    for (std::size_t n : kSizes) {
        std::uint32_t* src = arrays.keys_out.data();
        std::uint32_t* dst = arrays.keys_scratch.data();
        const Stats tiles = time_device(timing(), &flusher, [&] {
            Exec::sort_tiles<Cfg>(arrays.keys_in.data(), no_in, src, no_out, n, KeyLess{});
        });
        std::printf("  breakdown n=2^%d: tile sort (%d keys per block) %.4f ms, %.0f GB/s\n", __builtin_ctzll(n),
                    Cfg::kSortTile, tiles.median, 8.0 * n / (tiles.median * 1e6));
        const std::size_t tiles_n = (n + Cfg::kMergeTile - 1) / Cfg::kMergeTile;
        double passes_ms = 0;
        std::size_t width = Cfg::kSortTile;
        for (; 2 * width < n; width *= 2) {
            const SortedRuns<std::uint32_t, NoValues> runs{src, nullptr, n, width};
            const Stats part = time_device(timing(), &flusher, [&] {
                Exec::partition(runs, Cfg::kMergeTile, tiles_n, arrays.splits.data(), KeyLess{});
            });
            const Stats merge = time_device(timing(), &flusher, [&] {
                Exec::merge_tiles<Cfg>(runs, tiles_n, arrays.splits.data(), dst, no_out, KeyLess{});
            });
            passes_ms += part.median + merge.median;
            std::printf("    pass width %10zu: partition %.4f ms, merge %.4f ms (%.0f GB/s)\n", width, part.median,
                        merge.median, 8.0 * n / (merge.median * 1e6));
            std::swap(src, dst);
        }
        if (width >= n) continue;
        // The last pass: the partition with each lane count, then the merge.
        const SortedRuns<std::uint32_t, NoValues> last{src, nullptr, n, width};
        for (int lanes : {1, 2, 4, 8, 16, 32}) {
            const std::size_t blocks = (tiles_n * lanes + 255) / 256;
            const Stats p = time_device(timing(), &flusher, [&] {
                fast::partition_kernel<<<static_cast<unsigned>(blocks), 256>>>(
                    last, std::size_t{Cfg::kMergeTile}, tiles_n, arrays.splits.data(), lanes, KeyLess{});
            });
            std::printf("    last pass: partition of %zu tiles, %2d lanes: %.4f ms%s\n", tiles_n, lanes, p.median,
                        lanes == fast::partition_lanes(tiles_n) ? "  (the shipped choice)" : "");
        }
        Exec::partition(last, Cfg::kMergeTile, tiles_n, arrays.splits.data(), KeyLess{});
        const Stats merge = time_device(timing(), &flusher, [&] {
            Exec::merge_tiles<Cfg>(last, tiles_n, arrays.splits.data(), dst, no_out, KeyLess{});
        });
        passes_ms += merge.median;
        std::printf("    last pass merge %.4f ms (%.0f GB/s); tile sort + every pass %.4f ms\n", merge.median,
                    8.0 * n / (merge.median * 1e6), passes_ms + tiles.median);
        unsigned long long in[2], out[2];
        fingerprint_of(arrays.keys_in.data(), no_in, n, in);
        fingerprint_of(dst, no_in, n, out);
        std::printf("    breakdown result %s\n", out[0] == 0 && out[1] == in[1] ? "sorted, a permutation" : "WRONG");
    }
}
#endif

#if SWEEP_PART == 3 || SWEEP_PART == 4
template <class Cfg, class Exec = fast::DeviceExecutor>
void sweep_merge(L2Flusher& flusher, const char* suffix = "") {
    const std::size_t n = std::size_t{1} << 28;
    DeviceBuffer<std::uint32_t> a(n / 2), b(n / 2), c(n);
    DeviceBuffer<std::size_t> splits(split_capacity(n));
    fill_random<<<1024, 256>>>(a.data(), n / 2, 1);
    fill_random<<<1024, 256>>>(b.data(), n / 2, 2);
    PMPP_CHECK_LAUNCH();
    // sorted inputs: the shipped sort
    DeviceBuffer<std::uint32_t> scratch(n / 2);
    for (auto* buf : {&a, &b}) {
        SortArgs<std::uint32_t, NoValues> args;
        args.keys_in = buf->data();
        args.keys_out = c.data();
        args.keys_scratch = scratch.data();
        args.splits = splits.data();
        fast::sort_with<fast::Config<256, 512, 17>>(args, n / 2, KeyLess{});
        PMPP_CUDA_CHECK(cudaMemcpy(buf->data(), c.data(), n / 2 * 4, cudaMemcpyDeviceToDevice));
    }
    const Stats s = time_device(timing(), &flusher, [&] {
        fast::merge_with<Cfg, Exec>(a.data(), n / 2, b.data(), n / 2, c.data(), splits.data(), KeyLess{});
    });
    unsigned long long out[2];
    fingerprint_of(c.data(), static_cast<const NoValues*>(nullptr), n, out);
    std::printf("  merge 2^27 + 2^27, tile %dx%d %s: %.4f ms, %.0f GB/s  %s\n", Cfg::kMergeThreads, Cfg::kItems, suffix,
                s.median, 8.0 * n / (s.median * 1e6), out[0] == 0 ? "sorted" : "WRONG");
}
#endif

}  // namespace

int main() {
    L2Flusher flusher;
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    std::printf("part %d: copy bandwidth %.0f GB/s (2^28 u32 read + written: %.4f ms)\n", SWEEP_PART, copy.gbs,
                8.0 * (1 << 28) / (copy.gbs * 1e6));
    Arrays arrays(kSizes[2]);
#if SWEEP_PART == 0
    time_cub(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 17>, NoValues>(arrays, flusher);  // no register caps
    sweep_shape<fast::Config<256, 512, 17, 5, 4>, NoValues>(arrays, flusher);  // both capped
    sweep_shape<fast::Config<256, 1024, 17, 5, 2>, NoValues>(arrays, flusher);  // shipped
    breakdown(arrays, flusher);
#elif SWEEP_PART == 5
    // Both launches and the breakdown, in a few seconds: built once from the header as it is and
    // once from a copy with one change, it compares the two in separate processes (their runs
    // agree within 0.2%). The predicated merge loads and the end-of-block launch were measured so.
    using Keys = fast::Config<256, 1024, 17, 5, 2>;
    using Pairs = fast::Config<256, 512, 11, 5>;
    sweep_shape<Keys, NoValues, fast::DeviceExecutor>(arrays, flusher, " usual launch");
    sweep_shape<Keys, NoValues, fast::OverlappingExecutor>(arrays, flusher, " PDL");
    sweep_shape<Pairs, PairValue, fast::DeviceExecutor>(arrays, flusher, " usual launch");
    sweep_shape<Pairs, PairValue, fast::OverlappingExecutor>(arrays, flusher, " PDL");
    breakdown(arrays, flusher);
#elif SWEEP_PART == 1
    // The shipped 1024-thread tiles uncapped; 512-thread tiles with the merge capped; 21 items.
    sweep_shape<fast::Config<256, 1024, 17, 5>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 17, 5>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 21, 5>, NoValues>(arrays, flusher);
#elif SWEEP_PART == 2
    sweep_shape<fast::Config<256, 1024, 17, 5>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<256, 256, 17, 5>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<512, 512, 17, 3>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 19, 4>, NoValues>(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 23, 4>, NoValues>(arrays, flusher);
#elif SWEEP_PART == 4
    // The gap between dependent kernels (29 launches at 2^28, 23 at 2^24): the same kernels,
    // launched the usual way and then with programmatic dependent launch; and the merge kernel
    // capped for 6 and 8 blocks per SM (40 and 32 registers: CUB's merge keeps 58% of the warps
    // active against our 47% before the cap at 5).
    using Keys = fast::Config<256, 1024, 17, 5, 2>;  // 4-byte keys (the shape of the last session)
    using Pairs = fast::Config<256, 512, 11, 5>;  // 4-byte keys with 4-byte values
    using Exec = fast::DeviceExecutor;
    using Overlap = fast::OverlappingExecutor;
    sweep_shape<Keys, NoValues, Exec>(arrays, flusher, " usual launch");
    sweep_shape<Keys, NoValues, Overlap>(arrays, flusher, " PDL");
    sweep_shape<fast::Config<256, 1024, 17, 6, 2>, NoValues, Exec>(arrays, flusher, " merge 6/SM");
    sweep_shape<fast::Config<256, 1024, 17, 6, 2>, NoValues, Overlap>(arrays, flusher, " merge 6/SM PDL");
    sweep_shape<fast::Config<256, 1024, 17, 8, 2>, NoValues, Overlap>(arrays, flusher, " merge 8/SM PDL");
    sweep_shape<Keys, NoValues, Exec>(arrays, flusher, " usual launch, again");
    sweep_shape<Pairs, PairValue, Exec>(arrays, flusher, " usual launch");
    sweep_shape<Pairs, PairValue, Overlap>(arrays, flusher, " PDL");
    sweep_shape<fast::Config<256, 512, 11, 6>, PairValue, Overlap>(arrays, flusher, " merge 6/SM PDL");
    sweep_merge<Keys, Exec>(flusher, "usual launch");
    sweep_merge<Keys, Overlap>(flusher, "PDL");
    sweep_merge<fast::Config<256, 1024, 17, 6, 2>, Overlap>(flusher, "merge 6/SM PDL");
#else
    sweep_shape<fast::Config<256, 512, 11, 5>, PairValue>(arrays, flusher);  // shipped for pairs
    sweep_shape<fast::Config<256, 512, 13, 4>, PairValue>(arrays, flusher);
    sweep_shape<fast::Config<256, 512, 11, 5, 4>, PairValue>(arrays, flusher);
    sweep_merge<fast::Config<256, 512, 17>>(flusher);
    sweep_merge<fast::Config<256, 512, 17, 5>>(flusher);  // shipped
    sweep_merge<fast::Config<256, 512, 21, 4>>(flusher);
#endif
    return 0;
}
