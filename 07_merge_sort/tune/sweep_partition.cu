// tune/sweep_partition.cu: the partition whose searches share their bounds (window_partition.cuh;
// NOTES.md, "Partitions that share their bounds") against the shipped one, u32 keys; `make tune`,
// then build/tune/sweep_partition (or tune/gpu_run.sh). Timed, each beside the shipped executor:
//  1. the merge of two sorted halves at 2^24 and 2^28 (the harness's merge): the partition alone
//     (its splits compared with the shipped partition's), then the whole merge, and CUB's
//     DeviceMerge;
//  2. whole sorts at 2^24 and 2^28 (random keys, and 16 distinct at 2^24): CUB's
//     DeviceMergeSort, variant 4 (tiles of 17,408) and variant 5 (network tiles of 16384), each
//     with the shipped partition, the window partition with one-lane ends and with 16-lane ends.
// Every output is compared with the host's answer. Events, two warm-ups, the L2 flushed before
// each of ten runs, medians (sweep_inputs.cuh). About 30 s on an H200.
#include "../merge_sort_5_network.cuh"
#include "sweep_inputs.cuh"
#include "window_partition.cuh"

#include "common/device_buffer.h"
#include "common/timing.h"

#include <cub/cub.cuh>

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::sweep;
// (pmpp's names qualified, as in sweep_network.cu: a using-directive for pmpp makes nvcc's launch
// stubs of this file's anonymous namespace ambiguous.)
using pmpp::DeviceBuffer;
using pmpp::L2Flusher;
using pmpp::Stats;
using pmpp::time_device;

namespace {

using Cfg = fast::ShippedShape<4>::type;  // variant 4's shipped shape for 4-byte keys
using LargeTile = network::LargeTile;  // variant 5's network tile where two blocks fit an SM

struct Buffers {
    DeviceBuffer<std::uint32_t> in, out, scratch;
    DeviceBuffer<std::size_t> splits, shipped_splits;
    DeviceBuffer<unsigned char> cub_temp;
    explicit Buffers(std::size_t max_n)
        : in(max_n),
          out(max_n),
          scratch(max_n),
          splits(split_capacity(max_n)),
          shipped_splits(split_capacity(max_n)),
          cub_temp(cub_sort_bytes(max_n)) {}
    static std::size_t cub_sort_bytes(std::size_t n) {
        std::size_t bytes = 0;
        std::uint32_t* none = nullptr;
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, bytes, none, none,
                                                                 static_cast<std::int64_t>(n), KeyLess{}));
        return std::max<std::size_t>(bytes, 1);
    }
    SortArgs<std::uint32_t, NoValues> args() {
        SortArgs<std::uint32_t, NoValues> a;
        a.keys_in = in.data();
        a.keys_out = out.data();
        a.keys_scratch = scratch.data();
        a.splits = splits.data();
        return a;
    }
};

template <class Exec>
using OneLaneEnds = window::WindowPartitionExecutor<false, Exec>;
template <class Exec>
using KaryEnds = window::WindowPartitionExecutor<true, Exec>;

// ---- 1. the merge of two sorted halves -----------------------------------------------------------
// The halves of b.in, each sorted by variant 4 into b.out; the merges write b.in.
template <class Exec>
void sweep_merge(Buffers& b, std::size_t n, L2Flusher& flusher, double copy_gbs) {
    const std::vector<std::uint32_t> want = host_sorted(draw_keys(b.in.data(), n, 777 + n, 0));
    for (std::size_t half : {std::size_t{0}, n / 2}) {
        SortArgs<std::uint32_t, NoValues> args = b.args();
        args.keys_in = b.in.data() + half;
        args.keys_out = b.out.data() + half;
        args.keys_scratch = b.scratch.data() + half;
        fast::sort_with<Cfg, Exec>(args, half == 0 ? n / 2 : n - n / 2, KeyLess{});
    }
    const auto runs = two_arrays(b.out.data(), n / 2, b.out.data() + n / 2, n - n / 2);
    const std::size_t tiles = fast::tile_count(runs, Cfg::kMergeTile);
    std::printf("merge of two sorted halves, n=%zu: %zu tiles of %d keys, %zu warps of searches\n", n, tiles,
                Cfg::kMergeTile, (tiles + 31) / 32);
    Exec::partition(runs, Cfg::kMergeTile, tiles, b.shipped_splits.data(), KeyLess{});
    std::vector<std::size_t> shipped(tiles);
    PMPP_CUDA_CHECK(
        cudaMemcpy(shipped.data(), b.shipped_splits.data(), tiles * sizeof(std::size_t), cudaMemcpyDeviceToHost));
    const auto partition_row = [&](const char* name, auto executor) {
        using Partition = decltype(executor);
        const Stats s = time_device(timing(), &flusher, [&] {
            Partition::partition(runs, Cfg::kMergeTile, tiles, b.splits.data(), KeyLess{});
        });
        std::vector<std::size_t> got(tiles);
        PMPP_CUDA_CHECK(cudaMemcpy(got.data(), b.splits.data(), tiles * sizeof(std::size_t), cudaMemcpyDeviceToHost));
        std::printf("  partition alone, %-32s %9.4f ms (p10-p90 %4.1f%%)  %s\n", name, s.median, 100 * s.spread(),
                    got == shipped ? "ok" : "WRONG");
    };
    partition_row("shipped", Exec{});
    partition_row("window, one-lane ends", OneLaneEnds<Exec>{});
    partition_row("window, 16-lane ends", KaryEnds<Exec>{});
    const auto row = [&](const char* name, const Stats& s) {
        const double gbs = pmpp::gigabytes_per_second(8.0 * static_cast<double>(n), s.median);
        std::printf("  %-50s %9.4f ms (p10-p90 %4.1f%%) %.3f of copy  %s\n", name, s.median, 100 * s.spread(),
                    gbs / copy_gbs, verdict(want, b.in.data(), n));
    };
#if CUB_VERSION >= 200700  // cub::DeviceMerge: CCCL 2.7 (CUDA 12.8) and newer
    std::size_t bytes = 0;
    const auto na = static_cast<std::int64_t>(n / 2), nb = static_cast<std::int64_t>(n - n / 2);
    PMPP_CUDA_CHECK(
        cub::DeviceMerge::MergeKeys(nullptr, bytes, b.out.data(), na, b.out.data() + na, nb, b.in.data(), KeyLess{}));
    DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    row("cub::DeviceMerge::MergeKeys", time_device(timing(), &flusher, [&] {
            std::size_t size = bytes;
            PMPP_CUDA_CHECK(cub::DeviceMerge::MergeKeys(temp.data(), size, b.out.data(), na, b.out.data() + na, nb,
                                                        b.in.data(), KeyLess{}));
        }));
#endif
    const auto merge_row = [&](const char* name, auto executor) {
        using MergeExec = decltype(executor);
        row(name, time_device(timing(), &flusher, [&] {
                fast::merge_with<Cfg, MergeExec>(b.out.data(), n / 2, b.out.data() + n / 2, n - n / 2, b.in.data(),
                                                 b.splits.data(), KeyLess{});
            }));
    };
    merge_row("merge, shipped partition", Exec{});
    merge_row("merge, window partition, one-lane ends", OneLaneEnds<Exec>{});
    merge_row("merge, window partition, 16-lane ends", KaryEnds<Exec>{});
}

// ---- 2. whole sorts -------------------------------------------------------------------------------
template <class Exec>
void sweep_sort(Buffers& b, std::size_t n, std::uint32_t distinct, L2Flusher& flusher) {
    const std::vector<std::uint32_t> want = host_sorted(draw_keys(b.in.data(), n, 777 + n, distinct));
    std::printf("sort, n=%zu (%s)\n", n, distinct ? "16 distinct keys" : "random keys");
    SortArgs<std::uint32_t, NoValues> args = b.args();
    const Stats cub = time_device(timing(), &flusher, [&] {
        std::size_t bytes = b.cub_temp.size();
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(b.cub_temp.data(), bytes, b.in.data(), b.out.data(),
                                                                 static_cast<std::int64_t>(n), KeyLess{}));
    });
    std::printf("  %-50s %9.4f ms (p10-p90 %4.1f%%)              %s\n", "cub::DeviceMergeSort (StableSortKeysCopy)",
                cub.median, 100 * cub.spread(), verdict(want, b.out.data(), n));
    const auto row = [&](const char* name, const Stats& s) {
        std::printf("  %-50s %9.4f ms (p10-p90 %4.1f%%) = %.3f x CUB  %s\n", name, s.median, 100 * s.spread(),
                    s.median / cub.median, verdict(want, b.out.data(), n));
    };
    const auto rows = [&](const char* variant, auto executor) {
        using SortExec = decltype(executor);
        char name[96];
        std::snprintf(name, sizeof name, "variant 4, %s", variant);
        row(name, time_device(timing(), &flusher, [&] { fast::sort_with<Cfg, SortExec>(args, n, KeyLess{}); }));
        std::snprintf(name, sizeof name, "variant 5 (16384), %s", variant);
        row(name, time_device(timing(), &flusher, [&] {
                network::sort_with<LargeTile, network::MergeConfig, SortExec>(args, n, KeyLess{});
            }));
    };
    rows("shipped partition", Exec{});
    rows("window, one-lane ends", OneLaneEnds<Exec>{});
    rows("window, 16-lane ends", KaryEnds<Exec>{});
}

}  // namespace

int main() {
    L2Flusher flusher;
    const pmpp::CopyBandwidth copy = pmpp::measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    cudaDeviceProp prop{};
    PMPP_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("sweep_partition: %s, copy bandwidth %.0f GB/s; passes %s programmatic dependent launch\n", prop.name,
                copy.gbs, pmpp::dependent_launch_available() ? "with" : "without");
    const std::size_t big = std::size_t{1} << 28;
    Buffers b(big);
    fast::with_fastest_executor([&](auto executor) {
        using Exec = decltype(executor);
        sweep_merge<Exec>(b, std::size_t{1} << 24, flusher, copy.gbs);
        sweep_merge<Exec>(b, big, flusher, copy.gbs);
        sweep_sort<Exec>(b, std::size_t{1} << 24, 0, flusher);
        sweep_sort<Exec>(b, std::size_t{1} << 24, 16, flusher);
        sweep_sort<Exec>(b, big, 0, flusher);
    });
    return 0;
}
