// tune/sweep_staged.cu: more tiles in flight per SM. The shipped kernel holds its tile in
// registers (74 a thread: 3 blocks of 256 threads an SM on an H200), so while a tile waits for its
// look-back (2 us and more) at most 3 tiles an SM have bytes in flight. Here the tile goes to
// shared memory with cp.async (16 bytes a thread an instruction, 512 contiguous bytes a warp, as
// before) and the registers hold only each round's sum and prefix: the blocks an SM are bounded
// by shared memory (32 KB a tile of 8192: 6 an SM on an H200). Against the shipped kernel, CUB
// and cudaMemcpy at 2^20+777, 2^24, 2^28. Built by `make -C 02_scan tune` (cp.async from sm_80;
// sm_75 stages through registers).
// Measured on an H200 (2026-12-03, NOTES.md): slower than the shipped kernel at every size and shape
// but one, 256 x 12 at 2^28 (0.941 of CUB's time, the shipped 0.985).
#include "../scan_3_single_pass.cu"
#include "scan_sweep.h"

using namespace scan;
using namespace scan_primitives;

namespace staged_sweep {

// The tile staged in shared memory (dynamic: THREADS * ROUNDS 16-byte words). Thread t copies
// and later reads the words r * THREADS + t only, so its own cp.async.wait_group makes them
// visible to it: no barrier between the copy and the sums.
template <int THREADS, int ROUNDS, int F, int P>
__global__ void __launch_bounds__(THREADS)
    staged(const unsigned* in, unsigned* out, std::size_t n, unsigned* tile_counter, unsigned long long* statuses) {
    extern __shared__ uint4 words[];
    __shared__ TileScanStorage<THREADS, ROUNDS> storage;
    __shared__ unsigned tile_id, tile_prefix;
    if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = tile_id;
    constexpr std::size_t kTile = tile_elements<THREADS, ROUNDS>();
    const std::size_t tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;
    if (full) {
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const unsigned* src = in + tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
#if __CUDA_ARCH__ >= 800
            const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&words[r * THREADS + threadIdx.x]));
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
#else  // sm_75 has no cp.async: through registers (the same bytes; the registers are busy meanwhile)
            words[r * THREADS + threadIdx.x] = *reinterpret_cast<const uint4*>(src);
#endif
        }
#if __CUDA_ARCH__ >= 800
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
#endif
    } else {
        for (int r = 0; r < ROUNDS; ++r) {
            const std::size_t first = tile_first + 4 * (static_cast<std::size_t>(r) * THREADS + threadIdx.x);
            uint4 w;
            w.x = first < n ? in[first] : 0u;
            w.y = first + 1 < n ? in[first + 1] : 0u;
            w.z = first + 2 < n ? in[first + 2] : 0u;
            w.w = first + 3 < n ? in[first + 3] : 0u;
            words[r * THREADS + threadIdx.x] = w;
        }
    }
    unsigned sums[ROUNDS], prefix[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const uint4 w = words[r * THREADS + threadIdx.x];
        sums[r] = w.x + w.y + w.z + w.w;
    }
    unsigned aggregate;
    tile_exclusive_scan<THREADS, ROUNDS>(sums, prefix, aggregate, storage);
    if (threadIdx.x < 32) {
        unsigned before = 0;
        if (tile == 0) {
            if (threadIdx.x == 0) publish(&statuses[0], kStatusPrefix, aggregate);
        } else {
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusAggregate, aggregate);
            before = look_back(statuses, tile, LookBackWaits{F, P, 500});
            if (threadIdx.x == 0) publish(&statuses[tile], kStatusPrefix, before + aggregate);
        }
        if (threadIdx.x == 0) tile_prefix = before;
    }
    __syncthreads();
    const unsigned base = tile_prefix;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const uint4 a = words[r * THREADS + threadIdx.x];
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
}

template <int T, int R, int F, int P>
void run_staged(const int* in, int* out, std::size_t n, void* ws) {
    const std::size_t tiles = tiles_of<T, R>(n);
    const int smem = T * R * 16;
    static bool set = [&] {
        PMPP_CUDA_CHECK(cudaFuncSetAttribute(staged<T, R, F, P>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        return true;
    }();
    (void)set;
    auto* w = static_cast<unsigned long long*>(ws);
    PMPP_CUDA_CHECK(cudaMemsetAsync(w, 0, (1 + tiles) * 8));
    staged<T, R, F, P><<<static_cast<unsigned>(tiles), T, smem>>>(reinterpret_cast<const unsigned*>(in),
                                                                  reinterpret_cast<unsigned*>(out), n,
                                                                  reinterpret_cast<unsigned*>(w), w + 1);
    PMPP_CHECK_LAUNCH();
}

// Above 48 KB of dynamic shared memory the occupancy calculator counts 0 blocks until the kernel
// has opted in (run_staged does so before its first launch): opt in here first.
template <typename Kernel>
int blocks_per_sm(Kernel k, int threads, int smem) {
    PMPP_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int blocks = 0;
    PMPP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, smem));
    return blocks;
}

}  // namespace staged_sweep
using namespace staged_sweep;

int main() {
    std::printf(
        "blocks an SM: staged<256,8> %d, staged<256,12> %d, staged<256,16> %d, "
        "staged<128,16> %d, staged<512,8> %d\n",
        blocks_per_sm(staged<256, 8, 2000, 300>, 256, 256 * 8 * 16),
        blocks_per_sm(staged<256, 12, 2000, 300>, 256, 256 * 12 * 16),
        blocks_per_sm(staged<256, 16, 2000, 300>, 256, 256 * 16 * 16),
        blocks_per_sm(staged<128, 16, 2000, 300>, 128, 128 * 16 * 16),
        blocks_per_sm(staged<512, 8, 2000, 300>, 512, 512 * 8 * 16));
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("staged T=256 R=8, first 2000 poll 300", run_staged<256, 8, 2000, 300>);
        s.row("staged T=256 R=8, first 1000 poll 300", run_staged<256, 8, 1000, 300>);
        s.row("staged T=256 R=8, first 3000 poll 300", run_staged<256, 8, 3000, 300>);
        s.row("staged T=256 R=8, first 2000 poll 600", run_staged<256, 8, 2000, 600>);
        s.row("staged T=256 R=12, first 2000 poll 300", run_staged<256, 12, 2000, 300>);
        s.row("staged T=256 R=16, first 2000 poll 300", run_staged<256, 16, 2000, 300>);
        s.row("staged T=128 R=16, first 2000 poll 300", run_staged<128, 16, 2000, 300>);
        s.row("staged T=512 R=8, first 2000 poll 300", run_staged<512, 8, 2000, 300>);
        s.row("staged T=256 R=4, first 2000 poll 300", run_staged<256, 4, 2000, 300>);
    });
}
