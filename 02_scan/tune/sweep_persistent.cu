// tune/sweep_persistent.cu: tiles in flight while a tile waits. In the shipped kernel a block
// holds its tile in registers from its load to its store, the look-back's wait (2 us) included,
// and a new block starts loading only when one ends: at 3 blocks an SM, the bytes in flight drop
// whenever the SM's tiles wait. The arithmetic behind it (NOTES.md, "Persistent blocks"): 2^28
// ints are 32768 tiles of 8192; 0.67 ms is 49 tiles a microsecond, which is what 396 resident
// tiles (132 SMs x 3) give if each stays about 8 us from load to store.
// Here a block stays for the whole scan (a grid of B blocks an SM, B from the occupancy) and
// takes tiles from the counter in turn, S at a time: while it scans tile k and waits for its
// look-back, its next S - 1 tiles are already on their way into shared memory (cp.async, 16
// bytes a thread an instruction, 512 contiguous bytes a warp), so the waits no longer stop the
// loads. A block processes its tiles in the order it took them, so the smallest unfinished tile
// of the grid always belongs to a block that is working on it: the look-back still always ends.
// Rows: stages S, tile shape, blocks an SM, the look-back's waits; and the same pipeline with no
// look-back at all (a wrong result: the ceiling of the pipeline, as 3d was for the shipped one).
// Built by `make -C 02_scan tune` (cp.async from sm_80; sm_75 stages through registers). Not yet
// run (2026-12-04): tune/gpu_run.sh runs it.
#include "../scan_3_single_pass.cu"
#include "scan_sweep.h"

#include "common/device_limits.h"

#include <climits>

using namespace scan;
using namespace scan_primitives;

namespace persistent_sweep {

enum Mode { kNoLookback = 0, kLookBack = 1 };

__device__ __forceinline__ void copy_16_bytes_async(uint4* dst, const unsigned* src) {
#if __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
#else  // sm_75: through registers
    *dst = *reinterpret_cast<const uint4*>(src);
#endif
}

__device__ __forceinline__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Every group of copies but the newest `PENDING` has landed (each thread's own copies).
template <int PENDING>
__device__ __forceinline__ void wait_for_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
#endif
}

// Thread t copies, reads and rewrites only the words r * THREADS + t of a stage, so its own
// wait_group makes them visible to it: no barrier between a copy and its use.
template <int THREADS, int ROUNDS>
__device__ __forceinline__ uint4& word(uint4* stages, int stage, int round) {
    return stages[(stage * ROUNDS + round) * THREADS + threadIdx.x];
}

// One group of copies a call, empty past the last tile, so that every thread counts the same
// groups and wait_for_copies<S - 1> always means "the oldest stage has landed".
template <int THREADS, int ROUNDS>
__device__ __forceinline__ void load_stage(const unsigned* in, std::size_t n, unsigned tiles, unsigned tile,
                                           uint4* stages, int stage) {
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    if (tile < tiles) {
        const std::size_t tile_first = static_cast<std::size_t>(tile) * kTile;
        const bool full = tile_first + kTile <= n;
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
            if (full) {
                copy_16_bytes_async(&word<THREADS, ROUNDS>(stages, stage, r), in + first);
            } else {
                uint4 w;
                w.x = first < n ? in[first] : 0u;
                w.y = first + 1 < n ? in[first + 1] : 0u;
                w.z = first + 2 < n ? in[first + 2] : 0u;
                w.w = first + 3 < n ? in[first + 3] : 0u;
                word<THREADS, ROUNDS>(stages, stage, r) = w;
            }
        }
    }
    commit_copies();
}

template <int THREADS, int ROUNDS, int STAGES, Mode M>
__global__ void __launch_bounds__(THREADS)
    persistent(const unsigned* in, unsigned* out, std::size_t n, unsigned tiles, unsigned* tile_counter,
               unsigned long long* statuses, LookBackWaits waits) {
    extern __shared__ uint4 stages[];  // STAGES x ROUNDS x THREADS words
    __shared__ TileScanStorage<THREADS, ROUNDS> storage;
    __shared__ unsigned claimed[STAGES];  // the tile in each stage, in the order taken
    __shared__ unsigned tile_prefix;
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; ++s) claimed[s] = atomicAdd(tile_counter, 1u);
    __syncthreads();
    for (int s = 0; s < STAGES; ++s) load_stage<THREADS, ROUNDS>(in, n, tiles, claimed[s], stages, s);

    for (unsigned k = 0;; ++k) {
        const int s = static_cast<int>(k % STAGES);
        const unsigned tile = claimed[s];  // the same in every thread: written before a barrier
        if (tile >= tiles) break;  // taken in increasing order: every later one is past the end too
        wait_for_copies<STAGES - 1>();
        unsigned sums[ROUNDS], prefix[ROUNDS];
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const uint4 w = word<THREADS, ROUNDS>(stages, s, r);
            sums[r] = w.x + w.y + w.z + w.w;
        }
        unsigned aggregate;
        tile_exclusive_scan<THREADS, ROUNDS>(sums, prefix, aggregate, storage);  // ends with a barrier
        if (threadIdx.x < 32) {
            unsigned before = 0;
            if constexpr (M == kLookBack) {
                if (tile == 0) {
                    if (threadIdx.x == 0) publish(&statuses[0], kStatusPrefix, aggregate);
                } else {
                    if (threadIdx.x == 0) publish(&statuses[tile], kStatusAggregate, aggregate);
                    before = look_back(statuses, tile, waits);
                    if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
                }
            }
            if (threadIdx.x == 0) {
                tile_prefix = before;
                claimed[s] = atomicAdd(tile_counter, 1u);  // every thread read claimed[s] before the scan's barrier
            }
        }
        __syncthreads();
        const std::size_t tile_first = static_cast<std::size_t>(tile) * kTile;
        const bool full = tile_first + kTile <= n;
        const unsigned base = tile_prefix;
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const uint4 a = word<THREADS, ROUNDS>(stages, s, r);
            const unsigned x = base + prefix[r];
            const uint4 o = make_uint4(x, x + a.x, x + a.x + a.y, x + a.x + a.y + a.z);
            const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
            if (full) {
                *reinterpret_cast<uint4*>(out + first) = o;
            } else {
                if (first < n) out[first] = o.x;
                if (first + 1 < n) out[first + 1] = o.y;
                if (first + 2 < n) out[first + 2] = o.z;
                if (first + 3 < n) out[first + 3] = o.w;
            }
        }
        // The stage's words were this thread's only: it refills them once it has read them.
        load_stage<THREADS, ROUNDS>(in, n, tiles, claimed[s], stages, s);
    }
    wait_for_copies<0>();  // nothing left in flight when the block ends
}

template <int T, int R, int S>
constexpr int stage_bytes() {
    return S * R * T * 16;
}

// Blocks an SM the kernel can hold, after it opted in to its shared memory (above 48 KB the
// occupancy calculator counts 0 blocks before that).
template <int T, int R, int S, Mode M>
int resident_blocks() {
    static const int blocks = [] {
        PMPP_CUDA_CHECK(cudaFuncSetAttribute(persistent<T, R, S, M>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             stage_bytes<T, R, S>()));
        int b = 0;
        PMPP_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, persistent<T, R, S, M>, T, stage_bytes<T, R, S>()));
        return b;
    }();
    return blocks;
}

// B blocks an SM (0: as many as fit); FIRST / POLL: the look-back's waits, used from 500 tiles.
template <int T, int R, int S, Mode M, int B, int FIRST, int POLL>
void run(const int* in, int* out, std::size_t n, void* ws) {
    const unsigned tiles = static_cast<unsigned>(tiles_of<T, R>(n));
    const int fit = resident_blocks<T, R, S, M>();
    const int per_sm = B == 0 ? fit : (B < fit ? B : fit);
    const unsigned sms = static_cast<unsigned>(pmpp::device_limits().sm_count);
    const unsigned grid = std::min<unsigned>(tiles, sms * static_cast<unsigned>(per_sm > 0 ? per_sm : 1));
    const LookBackWaits waits =
        tiles >= 500 ? LookBackWaits{FIRST, POLL, 0} : LookBackWaits{0, 0, UINT_MAX};  // as the shipped kernel
    auto* words = static_cast<unsigned long long*>(ws);
    PMPP_CUDA_CHECK(cudaMemsetAsync(words, 0, (1 + tiles) * sizeof(unsigned long long)));
    persistent<T, R, S, M><<<grid, T, stage_bytes<T, R, S>()>>>(reinterpret_cast<const unsigned*>(in),
                                                                reinterpret_cast<unsigned*>(out), n, tiles,
                                                                reinterpret_cast<unsigned*>(words), words + 1, waits);
    PMPP_CHECK_LAUNCH();
}

template <int T, int R, int S>
void print_fit(const char* name) {
    std::printf("  %-28s %3d KB of stages a block, %d blocks an SM fit\n", name, stage_bytes<T, R, S>() / 1024,
                resident_blocks<T, R, S, kLookBack>());
}

}  // namespace persistent_sweep
using namespace persistent_sweep;

int main() {
    std::printf("persistent blocks (one grid of B blocks an SM; each takes its tiles S at a time):\n");
    print_fit<256, 8, 2>("T=256 R=8 S=2");
    print_fit<256, 8, 3>("T=256 R=8 S=3");
    print_fit<256, 12, 2>("T=256 R=12 S=2");
    print_fit<256, 4, 4>("T=256 R=4 S=4");
    print_fit<512, 8, 2>("T=512 R=8 S=2");
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("T=256 R=8 S=2 B=3, no look-back (wrong)", run<256, 8, 2, kNoLookback, 3, 0, 0>);
        s.row("T=256 R=8 S=2 B=3, waits 2000 / 300", run<256, 8, 2, kLookBack, 3, 2000, 300>);
        s.row("T=256 R=8 S=2 B=3, waits 1000 / 300", run<256, 8, 2, kLookBack, 3, 1000, 300>);
        s.row("T=256 R=8 S=2 B=3, waits 500 / 100", run<256, 8, 2, kLookBack, 3, 500, 100>);
        s.row("T=256 R=8 S=2 B=3, no waits", run<256, 8, 2, kLookBack, 3, 0, 0>);
        s.row("T=256 R=8 S=2 B=2, waits 1000 / 300", run<256, 8, 2, kLookBack, 2, 1000, 300>);
        s.row("T=256 R=8 S=3 B=2, waits 1000 / 300", run<256, 8, 3, kLookBack, 2, 1000, 300>);
        s.row("T=256 R=8 S=3 B=2, waits 2000 / 300", run<256, 8, 3, kLookBack, 2, 2000, 300>);
        s.row("T=256 R=12 S=2 B=2, waits 1000 / 300", run<256, 12, 2, kLookBack, 2, 1000, 300>);
        s.row("T=256 R=4 S=4 B=3, waits 1000 / 300", run<256, 4, 4, kLookBack, 3, 1000, 300>);
        s.row("T=512 R=8 S=2 B=1, waits 1000 / 300", run<512, 8, 2, kLookBack, 1, 1000, 300>);
    });
}
