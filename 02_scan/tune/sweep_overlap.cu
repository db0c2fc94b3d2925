// tune/sweep_overlap.cu: can the look-back hide behind the tile's loads? In scan_3 a tile loads,
// scans, and only then looks back (after a 2 us wait), while its data sits in registers and no
// bytes are in flight. Here one extra warp per block does the look-back from the moment the
// tile number is known, beside the THREADS data threads that load and scan; the two meet at one
// named barrier. Swept: the wait before the first read (F ns), between polls (P ns), the tile
// shape. Against the shipped kernel, CUB and cudaMemcpy at 2^20, 2^24, 2^28. Built by
// `make -C 02_scan tune`.
#include "../scan_3_single_pass.cu"
#include "common/device_buffer.h"
#include "common/rng.h"
#include "common/timing.h"

#include <cstdio>
#include <vector>
using namespace pmpp;
using namespace scan;
using namespace scan_primitives;

namespace overlap_sweep {

template <int ID, int COUNT>
__device__ __forceinline__ void named_sync() {
    asm volatile("bar.sync %0, %1;" ::"n"(ID), "n"(COUNT) : "memory");
}

// tile_exclusive_scan of common/primitives/scan.cuh with a named barrier over the data threads
// only (the look-back warp does not take part).
template <int THREADS, int ROUNDS>
__device__ __forceinline__ void data_tile_scan(const unsigned (&sums)[ROUNDS], unsigned (&prefix)[ROUNDS],
                                               unsigned& total, TileScanStorage<THREADS, ROUNDS>& s) {
    constexpr int kWarps = THREADS / 32;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned inclusive[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        inclusive[r] = warp_inclusive_scan(sums[r]);
        if (lane == 31) s.warp_prefix[r][warp] = inclusive[r];
    }
    named_sync<1, THREADS>();
    if (warp == 0) {
        unsigned running = 0;
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const unsigned w = lane < kWarps ? s.warp_prefix[r][lane] : 0u;
            const unsigned w_inclusive = warp_inclusive_scan(w);
            if (lane < kWarps) s.warp_prefix[r][lane] = w_inclusive - w;
            if (lane == 0) s.round_offset[r] = running;
            running += __shfl_sync(0xFFFFFFFFu, w_inclusive, 31);
        }
        if (lane == 0) s.total = running;
    }
    named_sync<1, THREADS>();
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) prefix[r] = s.round_offset[r] + s.warp_prefix[r][warp] + inclusive[r] - sums[r];
    total = s.total;
}

template <int THREADS, int ROUNDS, int F, int P>
__global__ void __launch_bounds__(THREADS + 32)
    overlapped(const unsigned* in, unsigned* out, std::size_t n, unsigned* tile_counter, unsigned long long* statuses) {
    __shared__ TileScanStorage<THREADS, ROUNDS> storage;
    __shared__ unsigned tile_id, tile_prefix, tile_aggregate;
    if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = tile_id;
    if (threadIdx.x >= THREADS) {  // the look-back warp
        unsigned before = 0;
        if (tile != 0) before = look_back(statuses, tile, LookBackWaits{F, P, 500});
        if (threadIdx.x == THREADS) tile_prefix = before;
        named_sync<2, THREADS + 32>();
        if (threadIdx.x == THREADS && tile != 0) publish(&statuses[tile], kStatusPrefix, before + tile_aggregate);
        return;
    }
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    const std::size_t tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;
    uint4 v[ROUNDS];
    load_tile<THREADS, ROUNDS, true>(in, tile_first, n, full, v);
    unsigned sums[ROUNDS], prefix[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) sums[r] = v[r].x + v[r].y + v[r].z + v[r].w;
    unsigned aggregate;
    data_tile_scan<THREADS, ROUNDS>(sums, prefix, aggregate, storage);
    if (threadIdx.x == 0) {
        publish(&statuses[tile], tile == 0 ? kStatusPrefix : kStatusAggregate, aggregate);
        tile_aggregate = aggregate;
    }
    named_sync<2, THREADS + 32>();
    const unsigned base = tile_prefix;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const unsigned x = base + prefix[r];
        const uint4 a = v[r];
        v[r] = make_uint4(x, x + a.x, x + a.x + a.y, x + a.x + a.y + a.z);
    }
    store_tile<THREADS, ROUNDS, true>(out, tile_first, n, full, v);
}

template <int T, int R, int F, int P>
void run_overlapped(const int* in, int* out, std::size_t n, void* ws) {
    const std::size_t tiles = tiles_of<T, R>(n);
    auto* words = static_cast<unsigned long long*>(ws);
    cudaMemsetAsync(words, 0, (1 + tiles) * 8);
    overlapped<T, R, F, P><<<static_cast<unsigned>(tiles), T + 32>>>(reinterpret_cast<const unsigned*>(in),
                                                                     reinterpret_cast<unsigned*>(out), n,
                                                                     reinterpret_cast<unsigned*>(words), words + 1);
}

}  // namespace overlap_sweep
using namespace overlap_sweep;

int main() {
    L2Flusher fl;
    TimingOptions t;
    t.repeats = 20;
    t.warmup = 3;
    for (int lg : {20, 24, 28}) {
        const std::size_t n = std::size_t{1} << lg;
        std::vector<int> h = generate<int>(n, Distribution::Uniform, 1);
        std::vector<int> expect(n);
        exclusive_scan_cpu(h.data(), expect.data(), n);
        DeviceBuffer<int> in, out(n);
        in.upload(h);
        DeviceBuffer<unsigned char> ws(std::max(scan_cub_workspace_bytes(n), workspace_bytes<128, 1>(n)) + 1024);
        CopyBandwidth cb = measure_copy_bandwidth(n * 4, t, &fl);
        Stats cub = time_device(t, &fl, [&] { exclusive_scan_cub(in.data(), out.data(), n, ws.data()); });
        Stats shipped = time_device(t, &fl, [&] { exclusive_scan_single_pass(in.data(), out.data(), n, ws.data()); });
        std::printf("n=2^%d memcpy %.4f ms  cub %.4f ms = %.2f of copy  shipped %.4f ms t/cub %.3f of copy %.2f %s\n",
                    lg, cb.ms.median, cub.median, cb.ms.median / cub.median, shipped.median,
                    shipped.median / cub.median, cb.ms.median / shipped.median,
                    out.to_host() == expect ? "ok" : "(wrong)");
#define RUNO(T, R, F, P)                                                                                             \
    {                                                                                                                \
        out.poison();                                                                                                \
        Stats s = time_device(t, &fl, [&] { run_overlapped<T, R, F, P>(in.data(), out.data(), n, ws.data()); });     \
        const bool ok = out.to_host() == expect;                                                                     \
        std::printf(                                                                                                 \
            "  overlapped T=%4d+32 R=%2d first=%4d poll=%3d: %.4f ms (spread %.3f) t/cub %.3f of copy %.2f %s\n", T, \
            R, F, P, s.median, s.spread(), s.median / cub.median, cb.ms.median / s.median, ok ? "ok" : "(wrong)");   \
    }
        RUNO(256, 8, 0, 0);
        RUNO(256, 8, 0, 100);
        RUNO(256, 8, 0, 300);
        RUNO(256, 8, 500, 100);
        RUNO(256, 8, 500, 300);
        RUNO(256, 8, 1000, 100);
        RUNO(256, 8, 1000, 300);
        RUNO(256, 8, 2000, 300);
        RUNO(256, 12, 500, 300);
        RUNO(256, 12, 1000, 300);
        RUNO(256, 16, 500, 300);
        RUNO(256, 16, 1000, 300);
        RUNO(512, 8, 500, 300);
        RUNO(512, 8, 1000, 300);
        RUNO(128, 16, 1000, 300);
        RUNO(384, 8, 1000, 300);
    }
    cudaDeviceSynchronize();
}
