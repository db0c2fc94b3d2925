// tune/sweep_persistent.cu: tiles in flight while a tile waits (variant 4, scan_4_persistent.cu,
// and the two designs before it). In variant 3 a block holds its tile in registers from its load
// to its store, the look-back's wait (2 us) included, and a new block starts loading only when
// one ends: at 3 blocks an SM, the bytes in flight drop whenever the SM's tiles wait. The
// arithmetic (NOTES.md, "Persistent blocks"): 2^28 ints are 32768 tiles of 8192; 0.67 ms is 49
// tiles a microsecond, what 396 resident tiles (132 SMs x 3) give if each stays about 8 us.
// Here a grid of resident blocks stays for the whole scan, each loading its next tiles into
// shared memory (cp.async) while it works on the current one. Rows:
//  - "claimed": each block takes its tiles from the counter, S at a time, and publishes each
//    tile's aggregate one tile ahead of its look-back (the second design; the first published
//    it only after the previous look-back: 2-7x CUB's time, NOTES.md);
//  - "dealt": variant 4's kernel, block b scanning tiles b, b + G, ..., by shape (threads T,
//    16-byte rounds R, stages S), blocks an SM B and the look-back's waits;
//  - each design with no look-back at all (a wrong result: its pipeline's ceiling).
// Built by `make -C 02_scan tune` (cp.async from sm_80; sm_75 copies through registers).
// Measured on an H200 (2026-12-04, NOTES.md): claimed, S = 2, 0.94 of CUB's time at 2^28 and
// slower below; dealt, 512 x 4 x 3, 0.81 / 0.89 / 0.85 at 2^20 / 2^24 / 2^28: variant 4.
#include "../scan_3_single_pass.cu"
#include "../scan_4_persistent.cu"
#include "scan_sweep.h"

#include "common/device_limits.h"
#include "common/primitives/async_copy.cuh"

#include <climits>

using namespace scan;
using namespace scan_primitives;

namespace persistent_sweep {

enum Mode { kNoLookback = 0, kLookBack = 1 };

// The second design (before variant 4): tiles taken from the counter, the next S - 1 of them
// loading while the block works, each tile's aggregate published one tile ahead of its
// look-back. (The first design scanned a tile only after the previous one's look-back: the
// aggregate of every block's second tile then waited for its first tile's prefix, which chained
// all the grid's prefixes one after the other, 2-7x CUB's time.) With S > 2 the chain is back:
// a tile taken S - 1 tiles ahead publishes nothing until the look-backs before it end.
// Stages, loads and the scan of a stage are variant 4's (persistent::Shape and its helpers).
template <class S, Mode M>
__global__ void __launch_bounds__(S::kThreads)
    claimed(const unsigned* in, unsigned* out, std::size_t n, std::size_t tiles, unsigned* tile_counter,
            unsigned long long* statuses, LookBackWaits waits) {
    constexpr int kStages = S::kStages;
    extern __shared__ uint4 stages[];
    __shared__ TileScanStorage<S::kThreads, S::kRounds> storage;
    __shared__ unsigned taken[kStages];  // the tile in each stage, in the order taken
    __shared__ unsigned tile_prefix[2];  // double-buffered, as in variant 4
    if (threadIdx.x == 0)
        for (int s = 0; s < kStages; ++s) taken[s] = atomicAdd(tile_counter, 1u);
    __syncthreads();
    for (int s = 0; s < kStages; ++s) persistent::start_loading<S>(in, n, tiles, taken[s], stages, s);

    std::size_t tile = taken[0];
    if (tile >= tiles) {
        wait_for_copies<0>();
        return;
    }
    unsigned prefix[S::kRounds];
    wait_for_copies<kStages - 1>();
    unsigned aggregate = persistent::scan_stage<S>(stages, 0, prefix, storage);
    if (M == kLookBack && threadIdx.x == 0)
        publish(&statuses[tile], tile == 0 ? kStatusPrefix : kStatusAggregate, aggregate);

    for (unsigned k = 0;; ++k) {
        const int s = static_cast<int>(k % kStages);
        const int s_next = static_cast<int>((k + 1) % kStages);
        const std::size_t next = taken[s_next];  // read by every thread before the barriers below
        unsigned next_prefix[S::kRounds];
        unsigned next_aggregate = 0;
        if (next < tiles) {
            wait_for_copies<kStages - 2>();  // S + k groups started; the next tile's is number k + 1
            next_aggregate = persistent::scan_stage<S>(stages, s_next, next_prefix, storage);
            if (M == kLookBack && threadIdx.x == 0) publish(&statuses[next], kStatusAggregate, next_aggregate);
        }
        if (threadIdx.x < 32) {
            unsigned before = 0;
            if (M == kLookBack && tile != 0) {
                before = look_back(statuses, static_cast<unsigned>(tile), waits);
                if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
            }
            if (threadIdx.x == 0) {
                tile_prefix[k & 1] = before;
                // taken[s] was last read by every thread in the previous iteration (as
                // taken[s_next]), before this iteration's barriers.
                if (next < tiles) taken[s] = atomicAdd(tile_counter, 1u);
            }
        }
        __syncthreads();
        const std::size_t tile_first = tile * S::kTile;
        uint4 v[S::kRounds];
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) {
            const uint4 a = persistent::word<S>(stages, s, r);
            const unsigned x = tile_prefix[k & 1] + prefix[r];
            v[r] = make_uint4(x, x + a.x, x + a.x + a.y, x + a.x + a.y + a.z);
        }
        store_tile<S::kThreads, S::kRounds, true>(out, tile_first, n, tile_first + S::kTile <= n, v);
        if (next >= tiles) break;  // taken in increasing order: every later one is past the end too
        persistent::start_loading<S>(in, n, tiles, taken[s], stages, s);  // this thread's words, read above
        tile = next;
        aggregate = next_aggregate;
#pragma unroll
        for (int r = 0; r < S::kRounds; ++r) prefix[r] = next_prefix[r];
    }
    wait_for_copies<0>();
}

// B blocks an SM (at most as many as fit); FIRST / POLL: the look-back's waits, from 500 tiles.
template <int T, int R, int S, Mode M, int B, int FIRST, int POLL>
void run(const int* in, int* out, std::size_t n, void* ws) {
    using Shape = persistent::Shape<T, R, S>;
    const auto kernel = claimed<Shape, M>;
    static const int fit = [&] {
        pmpp::allow_dynamic_shared_memory(kernel, Shape::kStageBytes, "claimed");
        return pmpp::resident_blocks_per_sm(kernel, T, Shape::kStageBytes);
    }();
    const std::size_t tiles = persistent::tiles_of(n, Shape::kTile);
    const std::size_t sms = static_cast<std::size_t>(pmpp::device_limits().sm_count);
    const std::size_t grid = std::min<std::size_t>(tiles, sms * static_cast<std::size_t>(std::min(B, fit)));
    const LookBackWaits waits = tiles >= 500 ? LookBackWaits{FIRST, POLL, 0} : LookBackWaits{0, 0, UINT_MAX};
    auto* words = static_cast<unsigned long long*>(ws);
    PMPP_CUDA_CHECK(cudaMemsetAsync(words, 0, (1 + tiles) * sizeof(unsigned long long)));
    kernel<<<static_cast<unsigned>(grid), T, Shape::kStageBytes>>>(
        reinterpret_cast<const unsigned*>(in), reinterpret_cast<unsigned*>(out), n, tiles,
        reinterpret_cast<unsigned*>(words), words + 1, waits);
    PMPP_CHECK_LAUNCH();
}

// Variant 4's kernel with shape T x R x S, at most B blocks an SM (as many as fit where fewer do).
template <int T, int R, int S, Mode M, int B, int FIRST, int POLL>
void run_dealt(const int* in, int* out, std::size_t n, void* ws) {
    using Shape = persistent::Shape<T, R, S>;
    const std::size_t tiles = persistent::tiles_of(n, Shape::kTile);
    const LookBackWaits waits = tiles >= 500 ? LookBackWaits{FIRST, POLL, 0} : LookBackWaits{0, 0, UINT_MAX};
    persistent::launch<Shape, M == kLookBack>(reinterpret_cast<const unsigned*>(in), reinterpret_cast<unsigned*>(out),
                                              n, static_cast<unsigned long long*>(ws), B, waits);
    PMPP_CHECK_LAUNCH();
}

}  // namespace persistent_sweep
using namespace persistent_sweep;

int main() {
    std::printf(
        "persistent blocks: a grid of B blocks an SM; claimed: each takes its tiles S at a time;\n"
        "dealt: variant 4, T threads x R 16-byte rounds, S stages\n");
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("variant 4 as shipped (this GPU's shape)", exclusive_scan_persistent);
        s.row("claimed 256x8x2 B=3, no look-back (wrong)", run<256, 8, 2, kNoLookback, 3, 0, 0>);
        s.row("claimed 256x8x2 B=3, waits 1000 / 300", run<256, 8, 2, kLookBack, 3, 1000, 300>);
        s.row("claimed 256x8x3 B=2, waits 1000 / 300", run<256, 8, 3, kLookBack, 2, 1000, 300>);
        s.row("dealt 512x4x3 B=2, no look-back (wrong)", run_dealt<512, 4, 3, kNoLookback, 2, 0, 0>);
        s.row("dealt 512x4x3 B=2, waits 1000 / 300", run_dealt<512, 4, 3, kLookBack, 2, 1000, 300>);
        s.row("dealt 512x4x3 B=2, waits 300 / 100", run_dealt<512, 4, 3, kLookBack, 2, 300, 100>);
        s.row("dealt 512x4x3 B=2, no waits", run_dealt<512, 4, 3, kLookBack, 2, 0, 0>);
        s.row("dealt 512x4x3 B=1, waits 300 / 100", run_dealt<512, 4, 3, kLookBack, 1, 300, 100>);
        s.row("dealt 256x4x3 B=3 (fallback), waits 300 / 100", run_dealt<256, 4, 3, kLookBack, 3, 300, 100>);
        s.row("dealt 256x4x3 B=8, waits 300 / 100", run_dealt<256, 4, 3, kLookBack, 8, 300, 100>);
        s.row("dealt 256x6x3 B=3, waits 300 / 100", run_dealt<256, 6, 3, kLookBack, 3, 300, 100>);
        s.row("dealt 256x8x3 B=2, waits 300 / 100", run_dealt<256, 8, 3, kLookBack, 2, 300, 100>);
        s.row("dealt 384x4x3 B=3, waits 300 / 100", run_dealt<384, 4, 3, kLookBack, 3, 300, 100>);
        s.row("dealt 1024x2x3 B=2, waits 300 / 100", run_dealt<1024, 2, 3, kLookBack, 2, 300, 100>);
        s.row("dealt 512x4x4 B=1, waits 300 / 100", run_dealt<512, 4, 4, kLookBack, 1, 300, 100>);
        s.row("dealt 512x2x4 B=3, waits 300 / 100", run_dealt<512, 2, 4, kLookBack, 3, 300, 100>);
    });
}
