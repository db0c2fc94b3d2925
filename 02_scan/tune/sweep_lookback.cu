// tune/sweep_lookback.cu: which part limits the single-pass scan? The kernel with no look-back at
// all (a wrong result, to price the look-back), and with the look-back waits of scan_3_lookback.cuh
// swept. The experiments of NOTES.md, 3d-3g. Built by tune/gpu_run.sh.
#include "../scan_3_single_pass.cu"
#include "scan_sweep.h"

using namespace scan;
using namespace scan_primitives;

enum Mode { kNoLookback = 0, kLookBack = 1 };

template <int THREADS, int ROUNDS, Mode M, int F, int P>
__global__ void __launch_bounds__(THREADS)
    variant(const unsigned* in, unsigned* out, std::size_t n, unsigned* tile_counter, unsigned long long* statuses) {
    __shared__ TileScanStorage<THREADS, ROUNDS> storage;
    __shared__ unsigned tile_id, tile_prefix;
    if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = tile_id;
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    const std::size_t tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;
    uint4 v[ROUNDS];
    load_tile<THREADS, ROUNDS, true>(in, tile_first, n, full, v);
    unsigned sums[ROUNDS], prefix[ROUNDS];
    for (int r = 0; r < ROUNDS; ++r) sums[r] = v[r].x + v[r].y + v[r].z + v[r].w;
    unsigned aggregate;
    tile_exclusive_scan<THREADS, ROUNDS>(sums, prefix, aggregate, storage);
    if (threadIdx.x < 32) {
        unsigned before = 0;
        if constexpr (M != kNoLookback) {
            if (tile == 0) {
                if (threadIdx.x == 0) publish(&statuses[0], kStatusPrefix, aggregate);
            } else {
                if (threadIdx.x == 0) publish(&statuses[tile], kStatusAggregate, aggregate);
                before = look_back(statuses, tile, LookBackWaits{F, P, 500});
                if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
            }
        }
        if (threadIdx.x == 0) tile_prefix = before;
    }
    __syncthreads();
    for (int r = 0; r < ROUNDS; ++r) {
        const unsigned x = tile_prefix + prefix[r];
        const uint4 a = v[r];
        v[r] = make_uint4(x, x + a.x, x + a.x + a.y, x + a.x + a.y + a.z);
    }
    store_tile<THREADS, ROUNDS, true>(out, tile_first, n, full, v);
}

template <int T, int R, Mode M, int F = 0, int P = 0>
void run(const int* in, int* out, std::size_t n, void* ws) {
    const std::size_t tiles = tiles_of<T, R>(n);
    auto* words = static_cast<unsigned long long*>(ws);
    cudaMemsetAsync(words, 0, (1 + tiles) * 8);
    variant<T, R, M, F, P><<<tiles, T>>>((const unsigned*)in, (unsigned*)out, n, (unsigned*)words, words + 1);
}

int main() {
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("T=256 R=8 no look-back (wrong: its price)", run<256, 8, kNoLookback>);
        s.row("T=256 R=8 look-back, no waits", run<256, 8, kLookBack, 0, 0>);
        s.row("T=256 R=8 look-back, first 1000 poll 300", run<256, 8, kLookBack, 1000, 300>);
        s.row("T=256 R=8 look-back, first 2000 poll 300", run<256, 8, kLookBack, 2000, 300>);
        s.row("T=256 R=8 look-back, first 3000 poll 300", run<256, 8, kLookBack, 3000, 300>);
        s.row("T=256 R=8 look-back, first 2000 poll 650", run<256, 8, kLookBack, 2000, 650>);
        s.row("T=256 R=4 look-back, first 2000 poll 300", run<256, 4, kLookBack, 2000, 300>);
        s.row("T=128 R=8 look-back, first 2000 poll 300", run<128, 8, kLookBack, 2000, 300>);
        s.row("T=256 R=6 look-back, first 2000 poll 300", run<256, 6, kLookBack, 2000, 300>);
    });
}
