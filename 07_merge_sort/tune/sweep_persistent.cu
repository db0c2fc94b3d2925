// tune/sweep_persistent.cu: the persistent merge pass (tune/persistent_merge.cuh) against the
// shipped one, u32 keys, built and run by tune/gpu_run.sh (or `make tune`, then
// build/tune/sweep_persistent). For each size: the input sorted into the shipped tiles of
// 17,408 keys (the shipped tile sort), then, from the same tiles, timed:
//   - the shipped 2-way passes with programmatic dependent launch (as the shipped sort runs them);
//   - the persistent passes (the same partition, then a resident grid whose blocks load their
//     next tiles with cp.async while they merge) for several shapes (threads x items, stages,
//     blocks per SM);
//   - the whole sort: the shipped tile sort, then the persistent passes; the shipped sort and
//     CUB's StableSortKeysCopy, for t / CUB;
// then, at 2^24 and 2^28, the first and the last pass kernel by kernel (partition, shipped merge,
// persistent merge), and the merge of two sorted halves of 2^28 (CUB's DeviceMerge, the shipped
// merge, the persistent one). Every result is compared with the host's sort.
#include "../merge_sort_4_fast.cuh"
#include "persistent_merge.cuh"
#include "self_partition_merge.cuh"
#include "sweep_inputs.cuh"

#include "common/device_buffer.h"
#include "common/device_limits.h"
#include "common/timing.h"

#include <cub/cub.cuh>

#include <cstdio>
#include <type_traits>
#include <vector>

using namespace merge_sort;
using namespace merge_sort::sweep;
using namespace pmpp;

// (Outside the anonymous namespace: nvcc's launch stubs cannot name an alias declared in one.)
using Runs = SortedRuns<std::uint32_t, NoValues>;

namespace {

using Cfg = fast::Config<256, 1024, 17, 5, 2>;  // the shipped shape for 4-byte keys
constexpr std::size_t kTile = Cfg::kSortTile;  // 17,408
using Exec = fast::OverlappingExecutor;  // sm_90: the shipped sort's launches

// The persistent shapes swept: threads x items (a merge tile must divide 2 x 17,408), stages,
// blocks per SM that the registers must allow (shared memory decides the rest).
using P256x2 = persistent::Shape<256, 17, 2, 4>;  // 3 x 17.4 KB a block: 4 blocks an SM
using P128x3 = persistent::Shape<128, 17, 3, 6>;  // 4 x 8.7 KB: 6 blocks
using W256x2 = persistent::Shape<256, 17, 2, 4, persistent::Copy::kWords>;  // 16-byte words past L1
using W256x3 = persistent::Shape<256, 17, 3, 3, persistent::Copy::kWords>;
using W128x3 = persistent::Shape<128, 17, 3, 6, persistent::Copy::kWords>;
using R256 = persistent::Shape<256, 17, 1, 4, persistent::Copy::kRegisters>;  // 2 x 17.4 KB; 64 registers
using R256x5 = persistent::Shape<256, 17, 1, 5, persistent::Copy::kRegisters>;  // capped at 48 registers
using R128 = persistent::Shape<128, 17, 1, 8, persistent::Copy::kRegisters>;  // 2 x 8.7 KB; 64 registers
// No partition kernel (tune/self_partition_merge.cuh): each block searches its own splits.
using T256 = self_partition::Shape<256, 17, 5, false>;  // one tile a block, as shipped
using T128 = self_partition::Shape<128, 17, 10, false>;
using Q256 = self_partition::Shape<256, 17, 4, true>;  // persistent, + a searching warp: 288 threads
using Q128 = self_partition::Shape<128, 17, 7, true>;  // 160 threads

template <class S>
struct IsSelfPartitioned : std::false_type {};
template <int T, int I, int B, bool P>
struct IsSelfPartitioned<self_partition::Shape<T, I, B, P>> : std::true_type {};

// One pass of shape S (persistent or self-partitioned) from `runs`.
template <class S, class E, class Layout>
void merge_pass(const Layout& runs, std::size_t* splits, std::uint32_t* out) {
    if constexpr (IsSelfPartitioned<S>::value)
        self_partition::merge_runs<S, E>(runs, splits, out, static_cast<NoValues*>(nullptr), KeyLess{});
    else
        persistent::merge_runs<S, E>(runs, splits, out, static_cast<NoValues*>(nullptr), KeyLess{});
}

struct Buffers {
    DeviceBuffer<std::uint32_t> in, tiles, buf0, buf1, out;
    DeviceBuffer<std::size_t> splits;
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0;
    explicit Buffers(std::size_t max_n)
        : in(max_n), tiles(max_n), buf0(max_n), buf1(max_n), out(max_n), splits(split_capacity(max_n)) {
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, cub_bytes, in.data(), out.data(),
                                                                 static_cast<std::int64_t>(max_n), KeyLess{}));
        std::size_t merge_bytes = 0;
        PMPP_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, merge_bytes, in.data(), static_cast<int>(max_n / 2),
                                                    in.data(), static_cast<int>(max_n / 2), out.data(), KeyLess{}));
        cub_bytes = std::max(cub_bytes, merge_bytes);
        PMPP_CUDA_CHECK(cudaMalloc(&cub_temp, cub_bytes));
    }
    ~Buffers() { cudaFree(cub_temp); }
};

// The passes from the tiles (shipped, or persistent shape S); returns the buffer holding the result.
template <class S>
std::uint32_t* passes_from_tiles(Buffers& b, std::size_t n) {
    const std::uint32_t* src = b.tiles.data();
    std::uint32_t* dst = b.buf0.data();
    NoValues* no_out = nullptr;
    for (std::size_t w = kTile; w < n; w *= 2) {
        const Runs runs{src, nullptr, n, w};
        if constexpr (std::is_same_v<S, Cfg>)
            fast::merge_runs<Cfg, Exec>(runs, b.splits.data(), dst, no_out, KeyLess{});
        else
            merge_pass<S, Exec>(runs, b.splits.data(), dst);
        src = dst;
        dst = dst == b.buf0.data() ? b.buf1.data() : b.buf0.data();
    }
    return const_cast<std::uint32_t*>(src);
}

template <class S>
const char* shape_name() {
    static char name[96];
    if constexpr (IsSelfPartitioned<S>::value) {
        std::snprintf(name, sizeof name, "self-split %s %3dx%d%s, %d blocks/SM",
                      S::kPersistent ? "persistent" : "1 tile/blk", S::kThreads, S::kItems, S::kPersistent ? "+32" : "",
                      self_partition::blocks_per_sm<S, std::uint32_t, NoValues, Runs, KeyLess>());
        return name;
    } else {
        const char* copy = S::kCopy == persistent::Copy::kElements ? "elements"
                           : S::kCopy == persistent::Copy::kWords  ? "words"
                                                                   : "registers";
        std::snprintf(name, sizeof name, "%-9s %3dx%d, %d stages, %d blocks/SM", copy, S::kThreads, S::kItems,
                      S::kStages, persistent::blocks_per_sm<S, std::uint32_t, NoValues, Runs, KeyLess>());
        return name;
    }
}

template <class S>
void time_passes(Buffers& b, std::size_t n, L2Flusher& flusher, const std::vector<std::uint32_t>& want, double copy_gbs,
                 double tile_ms, double cub_ms) {
    const int passes = merge_passes(n, kTile);
    std::uint32_t* result = nullptr;
    const Stats s = time_device(timing(), &flusher, [&] { result = passes_from_tiles<S>(b, n); });
    const char* name = "shipped 256x17, one tile a block (PDL)";
    if constexpr (!std::is_same_v<S, Cfg>) name = shape_name<S>();
    std::printf("  %-44s %2d passes %9.4f ms (p10-p90 %.1f%%)  %.3f of copy  %s; + tile sort = %.3f x CUB\n", name,
                passes, s.median, 100 * s.spread(), gigabytes_per_second(8.0 * n * passes, s.median) / copy_gbs,
                verdict(want, result, n), (s.median + tile_ms) / cub_ms);
}

template <class S>
void time_whole_sort(Buffers& b, std::size_t n, L2Flusher& flusher, const std::vector<std::uint32_t>& want,
                     double cub_ms) {
    SortArgs<std::uint32_t, NoValues> args;
    args.keys_in = b.in.data();
    args.keys_out = b.out.data();
    args.keys_scratch = b.buf0.data();
    args.splits = b.splits.data();
    const Stats s = time_device(timing(), &flusher, [&] {
        if constexpr (IsSelfPartitioned<S>::value)
            self_partition::sort_with<Cfg, S, Exec>(args, n, KeyLess{});
        else
            persistent::sort_with<Cfg, S, Exec>(args, n, KeyLess{});
    });
    std::printf("  whole sort, %-40s %9.4f ms (p10-p90 %.1f%%) = %.3f x CUB  %s\n", shape_name<S>(), s.median,
                100 * s.spread(), s.median / cub_ms, verdict(want, b.out.data(), n));
}

// The first and the last pass, kernel by kernel (the splits computed once, before the merges).
template <class... Shapes>
void breakdown(Buffers& b, std::size_t n, L2Flusher& flusher) {
    const int passes = merge_passes(n, kTile);
    for (int pass : {1, passes}) {
        // The pass's input: the shipped passes before it, from the tiles (buf0 and buf1 in turn).
        const std::uint32_t* src = b.tiles.data();
        for (int p = 1; p < pass; ++p) {
            std::uint32_t* dst = p % 2 ? b.buf0.data() : b.buf1.data();
            fast::merge_runs<Cfg, Exec>(Runs{src, nullptr, n, kTile << (p - 1)}, b.splits.data(), dst,
                                        static_cast<NoValues*>(nullptr), KeyLess{});
            src = dst;
        }
        const std::size_t w = kTile << (pass - 1);
        const Runs runs{src, nullptr, n, w};
        const std::size_t tiles = (n + Cfg::kMergeTile - 1) / Cfg::kMergeTile;
        const Stats part = time_device(timing(), &flusher, [&] {
            fast::DeviceExecutor::partition(runs, Cfg::kMergeTile, tiles, b.splits.data(), KeyLess{});
        });
        const Stats shipped = time_device(timing(), &flusher, [&] {
            fast::DeviceExecutor::merge_tiles<Cfg>(runs, tiles, b.splits.data(), b.out.data(),
                                                   static_cast<NoValues*>(nullptr), KeyLess{});
        });
        std::printf("    pass %2d (runs of %9zu): partition %.4f ms, shipped merge %.4f ms (%.0f GB/s)", pass, w,
                    part.median, shipped.median, 8.0 * n / (shipped.median * 1e6));
        const auto persistent_merge = [&](auto shape) {
            using S = decltype(shape);
            if constexpr (IsSelfPartitioned<S>::value) {  // no splits: the search is in the time
                const Stats m = time_device(timing(), &flusher, [&] {
                    self_partition::merge_runs<S, fast::DeviceExecutor>(runs, b.splits.data(), b.out.data(),
                                                                        static_cast<NoValues*>(nullptr), KeyLess{});
                });
                std::printf(", %c%dx%d %.4f", S::kPersistent ? 'q' : 't', S::kThreads, S::kItems, m.median);
                return;
            } else {
                const std::size_t t = (n + S::kTile - 1) / S::kTile;
                fast::DeviceExecutor::partition(runs, S::kTile, t, b.splits.data(), KeyLess{});
                const Stats m = time_device(timing(), &flusher, [&] {
                    persistent::merge_tiles<S, fast::DeviceExecutor>(runs, t, b.splits.data(), b.out.data(),
                                                                     static_cast<NoValues*>(nullptr), KeyLess{});
                });
                std::printf(", %c%dx%d/%d %.4f", "ewr"[static_cast<int>(S::kCopy)], S::kThreads, S::kItems, S::kStages,
                            m.median);
            }
        };
        (persistent_merge(Shapes{}), ...);
        std::printf("\n");
    }
}

void sweep_size(Buffers& b, std::size_t n, std::uint32_t distinct, L2Flusher& flusher, double copy_gbs, bool detail) {
    const std::vector<std::uint32_t> want = host_sorted(draw_keys(b.in.data(), n, 12345 + n, distinct));
    std::printf("n=%zu (%s), runs of %zu: %zu, %d passes\n", n, distinct ? "16 distinct keys" : "random keys", kTile,
                (n + kTile - 1) / kTile, merge_passes(n, kTile));

    const Stats cub = time_device(timing(), &flusher, [&] {
        std::size_t bytes = b.cub_bytes;
        PMPP_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(b.cub_temp, bytes, b.in.data(), b.out.data(),
                                                                 static_cast<std::int64_t>(n), KeyLess{}));
    });
    std::printf("  cub StableSortKeysCopy %9.4f ms  %s\n", cub.median, verdict(want, b.out.data(), n));

    SortArgs<std::uint32_t, NoValues> args;
    args.keys_in = b.in.data();
    args.keys_out = b.out.data();
    args.keys_scratch = b.buf0.data();
    args.splits = b.splits.data();
    const Stats shipped = time_device(timing(), &flusher, [&] { fast::sort_with<Cfg, Exec>(args, n, KeyLess{}); });
    std::printf("  shipped sort %9.4f ms (p10-p90 %.1f%%) = %.3f x CUB  %s\n", shipped.median, 100 * shipped.spread(),
                shipped.median / cub.median, verdict(want, b.out.data(), n));

    const Stats tiles = time_device(timing(), &flusher, [&] {
        Exec::sort_tiles<Cfg>(b.in.data(), static_cast<const NoValues*>(nullptr), b.tiles.data(),
                              static_cast<NoValues*>(nullptr), n, KeyLess{});
    });
    std::printf("  tile sort alone %9.4f ms\n", tiles.median);

    time_passes<Cfg>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<P256x2>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<P128x3>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<W256x2>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<W256x3>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<W128x3>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<R256>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<R256x5>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<R128>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<T256>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<T128>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<Q256>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_passes<Q128>(b, n, flusher, want, copy_gbs, tiles.median, cub.median);
    time_whole_sort<P128x3>(b, n, flusher, want, cub.median);
    time_whole_sort<W256x2>(b, n, flusher, want, cub.median);
    time_whole_sort<R256>(b, n, flusher, want, cub.median);
    time_whole_sort<T256>(b, n, flusher, want, cub.median);
    time_whole_sort<T128>(b, n, flusher, want, cub.median);
    time_whole_sort<Q256>(b, n, flusher, want, cub.median);
    time_whole_sort<Q128>(b, n, flusher, want, cub.median);
    if (detail) breakdown<W256x2, W128x3, R256, T256, T128, Q256, Q128>(b, n, flusher);
}

// The merge of two sorted halves of n (the shipped sort makes them).
void sweep_merge(Buffers& b, std::size_t n, L2Flusher& flusher, double copy_gbs) {
    const std::size_t half = n / 2;
    fill_random<<<1024, 256>>>(b.in.data(), n, 999, 0);
    PMPP_CHECK_LAUNCH();
    for (std::size_t h = 0; h < 2; ++h) {
        SortArgs<std::uint32_t, NoValues> args;
        args.keys_in = b.in.data() + h * half;
        args.keys_out = b.tiles.data() + h * half;
        args.keys_scratch = b.buf0.data();
        args.splits = b.splits.data();
        fast::sort_with<Cfg, Exec>(args, half, KeyLess{});
    }
    std::vector<std::uint32_t> host(n);
    PMPP_CUDA_CHECK(cudaMemcpy(host.data(), b.in.data(), n * 4, cudaMemcpyDeviceToHost));
    const std::vector<std::uint32_t> want = host_sorted(std::move(host));
    const std::uint32_t* a = b.tiles.data();
    const std::uint32_t* c = b.tiles.data() + half;
    std::printf("merge of two sorted halves of %zu:\n", n);
    const auto report = [&](const char* name, const Stats& s) {
        std::printf("  %-44s %9.4f ms  %.3f of copy  %s\n", name, s.median,
                    gigabytes_per_second(8.0 * n, s.median) / copy_gbs, verdict(want, b.out.data(), n));
    };
    report("cub DeviceMerge::MergeKeys", time_device(timing(), &flusher, [&] {
               std::size_t bytes = b.cub_bytes;
               PMPP_CUDA_CHECK(cub::DeviceMerge::MergeKeys(b.cub_temp, bytes, a, static_cast<int>(half), c,
                                                           static_cast<int>(half), b.out.data(), KeyLess{}));
           }));
    report("shipped merge (PDL)", time_device(timing(), &flusher, [&] {
               fast::merge_with<Cfg, Exec>(a, half, c, half, b.out.data(), b.splits.data(), KeyLess{});
           }));
    const auto persistent_merge = [&](auto shape) {
        using S = decltype(shape);
        report(shape_name<S>(), time_device(timing(), &flusher, [&] {
                   merge_pass<S, Exec>(two_arrays(a, half, c, half), b.splits.data(), b.out.data());
               }));
    };
    persistent_merge(P256x2{});
    persistent_merge(P128x3{});
    persistent_merge(W256x2{});
    persistent_merge(W128x3{});
    persistent_merge(R256{});
    persistent_merge(R256x5{});
    persistent_merge(R128{});
    persistent_merge(T256{});
    persistent_merge(T128{});
    persistent_merge(Q256{});
    persistent_merge(Q128{});
}

}  // namespace

int main() {
    L2Flusher flusher;
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    cudaDeviceProp prop{};
    PMPP_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("sweep_persistent: %s, copy bandwidth %.0f GB/s (2^28 u32 read + written: %.4f ms)\n", prop.name,
                copy.gbs, 8.0 * (1 << 28) / (copy.gbs * 1e6));
    const std::size_t big = std::size_t{1} << 28;
    Buffers b(big);
    sweep_size(b, (std::size_t{1} << 20) + 13, 0, flusher, copy.gbs, false);
    sweep_size(b, std::size_t{1} << 24, 0, flusher, copy.gbs, true);
    sweep_size(b, std::size_t{1} << 24, 16, flusher, copy.gbs, false);
    sweep_size(b, (std::size_t{1} << 22) + 12345, 0, flusher, copy.gbs, false);
    sweep_size(b, big, 0, flusher, copy.gbs, true);
    sweep_merge(b, big, flusher, copy.gbs);
    return 0;
}
