// tune/sweep.cu: the tuning sweep for 05_bitonic variant 4 behind NOTES.md: u32 keys, ascending.
//  1. the whole sort for several tile shapes (threads x 32 elements) and long-pass widths
//     (at most 2^G elements, G strides, per thread), at 2^20, 2^24, 2^26;
//  2. where the time goes at 2^24 for the shipped configuration: each kind of pass alone, as
//     GB/s of its own traffic (every pass reads and writes the array once) against a copy;
//  3. pairs (u32 values) for the shipped shape with G = 3, 4, 5.
// Built (from the repository root, after `make -C 05_bitonic`) and run by tune/gpu_run.sh.
#include "../bitonic_4_fused.cuh"

#include "common/device_buffer.h"
#include "common/rng.h"
#include "common/timing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace pmpp;
using namespace bitonic;
using namespace bitonic::fused;

namespace {

TimingOptions timing() {
    TimingOptions t;
    t.repeats = 10;
    t.warmup = 2;
    return t;
}

struct Data {
    std::size_t n;
    std::vector<u32> input, expected, values;
    DeviceBuffer<u32> source, keys, source_values, work_values;
    explicit Data(std::size_t n_) : n(n_) {
        input = generate<u32>(n, Distribution::Uniform, 12345 + n);
        expected = input;
        std::sort(expected.begin(), expected.end());
        values.resize(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<u32>(i);
        source.upload(input);
        keys.resize(n);
        source_values.upload(values);
        work_values.resize(n);
    }
    void restore(bool with_values) {
        PMPP_CUDA_CHECK(cudaMemcpyAsync(keys.data(), source.data(), n * 4, cudaMemcpyDeviceToDevice));
        if (with_values)
            PMPP_CUDA_CHECK(cudaMemcpyAsync(work_values.data(), source_values.data(), n * 4, cudaMemcpyDeviceToDevice));
    }
    bool sorted(bool with_values) {
        const auto out = keys.to_host();
        if (out != expected) return false;
        if (!with_values) return true;
        const auto v = work_values.to_host();
        for (std::size_t i = 0; i < n; ++i)
            if (v[i] >= n || input[v[i]] != out[i]) return false;
        return true;
    }
};

template <class Shape, int kG, bool kValues>
void time_sort(Data& d, L2Flusher& flusher, double cub_ms, Schedule schedule = {}) {
    u32* values = kValues ? d.work_values.data() : nullptr;
    const Stats s = time_device(
        timing(), &flusher,
        [&] { sort_with<Shape, kG, kValues>(d.keys.data(), values, d.n, SortOrder::Ascending, schedule); },
        [&] { d.restore(kValues); });
    const std::size_t passes = plan(d.n, Shape::kLogTile, kG, schedule.log_chunk, schedule.tails_in_chunks,
                                    schedule.block_passes ? Shape::kLogTile - 5 : 0)
                                   .size();
    char chunk[32] = "no chunks";
    if (schedule.log_chunk < 31)
        std::snprintf(chunk, sizeof chunk, "chunk 2^%d%s", schedule.log_chunk, schedule.tails_in_chunks ? "+t" : "");
    if (schedule.block_passes) std::strncat(chunk, "+b", sizeof chunk - std::strlen(chunk) - 1);
    std::printf(
        "  %-6s threads %4d x 32 (tile %6u)  G=%d %-13s %-9s: %8.3f ms (spread %.2f)  %6.2f Gkeys/s  %3zu "
        "launches  %.2f x cub  %s\n",
        kValues ? "pairs" : "keys", Shape::kThreads, Shape::kTile, kG, chunk,
        schedule.dependent ? "dependent" : "plain", s.median, s.spread(), d.n / s.median / 1e6, passes,
        s.median / cub_ms, d.sorted(kValues) ? "ok" : "WRONG");
}

// Each kind of pass alone, on the shipped shape, at n (keys only).
template <class Shape, int kG>
void time_passes(Data& d, L2Flusher& flusher, double copy_gbs) {
    const u32 n = static_cast<u32>(d.n);
    const u32 tiles = (n + Shape::kTile - 1) / Shape::kTile;
    const std::size_t smem = Shape::kSharedWords * 4;
    const double bytes = 8.0 * d.n;
    auto report = [&](const char* what, const Stats& s) {
        const double gbs = bytes / s.median / 1e6;
        std::printf("  %-34s %8.4f ms  %6.0f GB/s = %.2f of copy\n", what, s.median, gbs, gbs / copy_gbs);
    };
    report("sort tiles (all stages <= tile)", time_device(
                                                  timing(), &flusher,
                                                  [&] {
                                                      sort_tiles_kernel<Shape, false, u32>
                                                          <<<tiles, Shape::kThreads, smem>>>(d.keys.data(), nullptr, n,
                                                                                             0u, false, 0u);
                                                  },
                                                  [&] { d.restore(false); }));
    report("merge tiles (13 short strides)", time_device(timing(), &flusher, [&] {
               merge_tiles_kernel<Shape, false, u32>
                   <<<tiles, Shape::kThreads, smem>>>(d.keys.data(), nullptr, n, 1u << 24, 0u, false, 0u);
           }));
    static_for<1, kG + 1>([&](auto g) {
        constexpr int G = decltype(g)::value;
        const int low_bit = Shape::kLogTile;
        const u32 threads = global_pass_threads(n, low_bit, G);
        char what[64];
        std::snprintf(what, sizeof what, "long pass, %d stride(s) (%d per thread)", G, 1 << G);
        report(what, time_device(timing(), &flusher, [&] {
                   global_pass_kernel<G, false, u32>
                       <<<(threads + kGlobalThreads - 1) / kGlobalThreads, kGlobalThreads>>>(
                           d.keys.data(), nullptr, n, 1u << 24, low_bit, 0u, threads);
               }));
    });
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}

double time_cub(Data& d, L2Flusher& flusher) {
    CubRadixSort<u32> cub(d.n, false, SortOrder::Ascending);
    const Stats s =
        time_device(timing(), &flusher, [&] { cub.sort(d.source.data(), d.keys.data(), nullptr, nullptr, d.n); });
    std::printf("  cub::DeviceRadixSort keys: %.3f ms  %.2f Gkeys/s\n", s.median, d.n / s.median / 1e6);
    return s.median;
}

// The schedule (chunks that stay in L2 while they go through their own stages; dependent launch)
// against the shipped plan, which passes over the whole array for every stage.
void sweep_schedules(L2Flusher& flusher) {
    std::printf("\nschedules (u32 keys; L2 %.0f MiB)\n", pmpp::device_limits().l2_bytes / 1048576.0);
    // "+t": the longer stages end chunk by chunk once their strides are shorter than a chunk;
    // "+b": long passes of more than G strides run a block at a time (BlockStrides).
    for (int log_n : {20, 22, 24, 26}) {
        Data d(std::size_t{1} << log_n);
        std::printf("\nn = 2^%d\n", log_n);
        const double cub_ms = time_cub(d, flusher);
        time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms, {31, true});
        time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms, {31, true, true, true});
        time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms, {31, true});
        time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms, {31, true, true, true});
        for (int log_chunk : {22, 23}) {
            if (log_chunk >= log_n) continue;
            time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, false});
            time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true});
            time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true, true});
            time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, false});
            time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true});
            time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true, true});
            time_sort<TileShape<9, 5>, 4, false>(d, flusher, cub_ms, {log_chunk, true, true, true});
            if (pmpp::shared_memory_fits(tile_shared_bytes<TileShape<10, 5>, false>(), 1)) {
                time_sort<TileShape<10, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true});
                time_sort<TileShape<10, 5>, 5, false>(d, flusher, cub_ms, {log_chunk, true, true, true});
            }
        }
        if (log_n == 24) {
            std::printf(" pairs\n");
            time_sort<TileShape<8, 5>, 3, true>(d, flusher, cub_ms, {31, true});
            for (int log_chunk : {21, 22}) {
                time_sort<TileShape<8, 5>, 3, true>(d, flusher, cub_ms, {log_chunk, true, false});
                time_sort<TileShape<8, 5>, 3, true>(d, flusher, cub_ms, {log_chunk, true, true});
                time_sort<TileShape<8, 5>, 3, true>(d, flusher, cub_ms, {log_chunk, true, true, true});
            }
        }
    }
}

}  // namespace

// `sweep schedules`: only the schedules; no argument: everything.
int main(int argc, char** argv) {
    L2Flusher flusher;
    if (argc > 1 && std::string(argv[1]) == "schedules") {
        sweep_schedules(flusher);
        return 0;
    }
    const CopyBandwidth copy = measure_copy_bandwidth(std::size_t{1} << 30, timing(), &flusher);
    std::printf("copy bandwidth %.0f GB/s\n", copy.gbs);
    for (int log_n : {20, 24, 26}) {
        Data d(std::size_t{1} << log_n);
        std::printf("\nn = 2^%d\n", log_n);
        const double cub_ms = time_cub(d, flusher);
        time_sort<TileShape<8, 5>, 4, false>(d, flusher, cub_ms);
        time_sort<TileShape<8, 5>, 5, false>(d, flusher, cub_ms);
        time_sort<TileShape<9, 5>, 4, false>(d, flusher, cub_ms);
        time_sort<TileShape<9, 5>, 5, false>(d, flusher, cub_ms);
        if (log_n == 26) continue;
        time_sort<TileShape<7, 5>, 4, false>(d, flusher, cub_ms);
        time_sort<TileShape<8, 5>, 3, false>(d, flusher, cub_ms);
        time_sort<TileShape<10, 5>, 4, false>(d, flusher, cub_ms);
        if (log_n == 24) {
            std::printf(" pairs\n");
            time_sort<TileShape<8, 5>, 3, true>(d, flusher, cub_ms);
            time_sort<TileShape<8, 5>, 4, true>(d, flusher, cub_ms);
            time_sort<TileShape<9, 5>, 4, true>(d, flusher, cub_ms);
            std::printf(" each pass alone (shipped shape 256 x 32, keys)\n");
            time_passes<TileShape<8, 5>, 5>(d, flusher, copy.gbs);
        }
    }
    sweep_schedules(flusher);
    return 0;
}
