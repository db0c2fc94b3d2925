// tune/sweep_overlap.cu: can the look-back hide behind the tile's loads? In scan_3 a tile loads,
// scans, and only then looks back (after a 2 us wait), while its data sits in registers and no
// bytes are in flight. Here one extra warp per block does the look-back from the moment the
// tile number is known, beside the THREADS data threads that load and scan; the two meet at one
// named barrier. Swept: the wait before the first read (F ns), between polls (P ns), the tile
// shape. Against the shipped kernel, CUB and cudaMemcpy at 2^20, 2^24, 2^28. Built by
// `make -C 02_scan tune`.
#include "../scan_3_single_pass.cu"
#include "scan_sweep.h"

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
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("overlapped T=256+32 R=8 first=0 poll=0", run_overlapped<256, 8, 0, 0>);
        s.row("overlapped T=256+32 R=8 first=0 poll=100", run_overlapped<256, 8, 0, 100>);
        s.row("overlapped T=256+32 R=8 first=0 poll=300", run_overlapped<256, 8, 0, 300>);
        s.row("overlapped T=256+32 R=8 first=500 poll=100", run_overlapped<256, 8, 500, 100>);
        s.row("overlapped T=256+32 R=8 first=500 poll=300", run_overlapped<256, 8, 500, 300>);
        s.row("overlapped T=256+32 R=8 first=1000 poll=100", run_overlapped<256, 8, 1000, 100>);
        s.row("overlapped T=256+32 R=8 first=1000 poll=300", run_overlapped<256, 8, 1000, 300>);
        s.row("overlapped T=256+32 R=8 first=2000 poll=300", run_overlapped<256, 8, 2000, 300>);
        s.row("overlapped T=256+32 R=12 first=500 poll=300", run_overlapped<256, 12, 500, 300>);
        s.row("overlapped T=256+32 R=12 first=1000 poll=300", run_overlapped<256, 12, 1000, 300>);
        s.row("overlapped T=256+32 R=16 first=500 poll=300", run_overlapped<256, 16, 500, 300>);
        s.row("overlapped T=256+32 R=16 first=1000 poll=300", run_overlapped<256, 16, 1000, 300>);
        s.row("overlapped T=512+32 R=8 first=500 poll=300", run_overlapped<512, 8, 500, 300>);
        s.row("overlapped T=512+32 R=8 first=1000 poll=300", run_overlapped<512, 8, 1000, 300>);
        s.row("overlapped T=128+32 R=16 first=1000 poll=300", run_overlapped<128, 16, 1000, 300>);
        s.row("overlapped T=384+32 R=8 first=1000 poll=300", run_overlapped<384, 8, 1000, 300>);
    });
}
