// merge_sort_4_fast.cuh: the kernels of the fast merge and sort, for any tile shape (Config), so
// the tuning sweep and the tests can instantiate other shapes. merge_sort_4_fast.cu picks the
// shipped shapes. See that file for the ideas and the measurements.
//
// Structure (merge path, Odeh, Green et al. 2012; CUB's DeviceMergeSort and ModernGPU have the
// same three kernels):
//   partition_kernel   for every output tile, where it starts in A: a k-ary co-rank search by a
//                      group of lanes, all tiles at once, before the merge
//   merge_tiles_kernel one tile per block: load its pieces of A and B (coalesced) into shared
//                      memory, each thread merges kItems outputs into registers, back through
//                      shared memory, store coalesced
//   sort_tiles_kernel  a sort's first step: kSortTile keys per block, each thread sorts its kItems
//                      in registers, then merge rounds in shared memory double the runs
//
// The per-thread work of each kernel phase is a host-and-device function in TileSteps, called by
// the kernels between __syncthreads() and, in tests/test_fast_steps.cu, by a host loop over the
// threads of a block: the tests run the exact kernel logic without a GPU.
#pragma once

#include "merge_core.h"

#include "common/bits.h"
#include "common/cuda_check.h"
#include "common/device_limits.h"

namespace merge_sort::fast {

// MERGE_THREADS x ITEMS outputs per merge tile, SORT_THREADS x ITEMS keys per sorted tile.
// MERGE_MIN_BLOCKS, SORT_MIN_BLOCKS: the blocks per SM that each kernel's registers must allow
// (1: no limit).
template <int MERGE_THREADS, int SORT_THREADS, int ITEMS, int MERGE_MIN_BLOCKS = 1, int SORT_MIN_BLOCKS = 1>
struct Config {
    static constexpr int kMergeThreads = MERGE_THREADS;
    static constexpr int kMergeMinBlocks = MERGE_MIN_BLOCKS;
    static constexpr int kSortMinBlocks = SORT_MIN_BLOCKS;
    static constexpr int kSortThreads = SORT_THREADS;
    static constexpr int kItems = ITEMS;
    static constexpr int kMergeTile = MERGE_THREADS * ITEMS;
    static constexpr int kSortTile = SORT_THREADS * ITEMS;
    static_assert((MERGE_THREADS & (MERGE_THREADS - 1)) == 0 && (SORT_THREADS & (SORT_THREADS - 1)) == 0,
                  "thread counts must be powers of two");
    // Pass widths are kSortTile * 2^p: a merge tile must never straddle two pairs of runs.
    static_assert(MERGE_THREADS <= 2 * SORT_THREADS, "a merge tile must divide every pair of runs");
    static_assert(MERGE_THREADS >= 32 && MERGE_THREADS <= 1024 && SORT_THREADS >= 32 && SORT_THREADS <= 1024,
                  "a block has 32 to 1024 threads");
};

// ---- The k-ary co-rank search of the partition kernel ------------------------------------------
// A group of `lanes` threads narrows [lo, hi) together: lane l probes lo + (hi - lo)(l + 1)/(lanes + 1),
// and the lanes whose probe lies before the answer form a prefix of the group, counted with one
// ballot. Each step divides the range by about lanes + 1 (PMPP's co-rank divides it by 2).
struct SearchRange {
    std::size_t lo, hi;
};
MERGE_SORT_HD inline std::size_t kary_probe(SearchRange r, int lane, int lanes) {
    const std::size_t span = r.hi - r.lo;
    if (span < (std::size_t{1} << 26))  // the same quotient in 32 bits: a 64-bit division is a long routine
        return r.lo + static_cast<unsigned>(span) * static_cast<unsigned>(lane + 1) / static_cast<unsigned>(lanes + 1);
    return r.lo + span * static_cast<std::size_t>(lane + 1) / static_cast<std::size_t>(lanes + 1);
}
// `before`: how many lanes found their probe p before the answer (i.e. co_rank > p).
MERGE_SORT_HD inline SearchRange kary_narrow(SearchRange r, int lanes, int before) {
    if (before == 0) return {r.lo, kary_probe(r, 0, lanes)};
    const std::size_t lo = kary_probe(r, before - 1, lanes) + 1;
    return {lo, before < lanes ? kary_probe(r, before, lanes) : r.hi};
}
// The co-rank search's test at probe p: true when A[p] is among the first `diag` outputs.
template <class Key, class Value, class Less>
MERGE_SORT_HD bool probe_is_before(const RunPair<Key, Value>& pair, std::size_t diag, std::size_t p, Less less) {
    return !less(pair.b[diag - 1 - p], pair.a[p]);
}
template <class Key, class Value>
MERGE_SORT_HD SearchRange co_rank_range(const RunPair<Key, Value>& pair, std::size_t diag) {
    return {diag > pair.nb ? diag - pair.nb : 0, min_of(diag, pair.na)};
}

// ---- What one thread does in each phase of a block --------------------------------------------
// One thread's kItems outputs of a merge, in registers.
template <int ITEMS, class Key, class Value>
struct ThreadItems {
    Key keys[ITEMS];
    Value values[ITEMS];
    int first = 0;  // shared-memory position of keys[0]
    int count = 0;  // how many of the ITEMS exist (fewer at the end of a partial tile)
};

template <int THREADS, int ITEMS>
struct TileSteps {
    // Shared memory positions [0, count) from a[0, na) then b[0, count - na), striped: element
    // k * THREADS + tid, so a warp reads 32 consecutive elements. All loads are issued before the
    // first store, so each thread has ITEMS loads in flight.
    template <class Key, class Value>
    MERGE_SORT_HD static void load(int tid, const Key* a, const Value* av, int na, const Key* b, const Value* bv,
                                   int count, Key* s_keys, Value* s_values) {
        Key keys[ITEMS] = {};  // {}: the host compiler cannot see that only loaded slots are stored
        const bool full = count == THREADS * ITEMS;  // every tile but the last: no bounds tests
MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (full || i < count) keys[k] = i < na ? a[i] : b[i - na];
        }
MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (full || i < count) s_keys[i] = keys[k];
        }
        if constexpr (kHasValues<Value>) {
            Value values[ITEMS] = {};
MERGE_SORT_UNROLL
            for (int k = 0; k < ITEMS; ++k) {
                const int i = k * THREADS + tid;
                if (full || i < count) values[k] = i < na ? av[i] : bv[i - na];
            }
MERGE_SORT_UNROLL
            for (int k = 0; k < ITEMS; ++k) {
                const int i = k * THREADS + tid;
                if (full || i < count) s_values[i] = values[k];
            }
        }
    }

    // out[0, count) = shared [0, count), striped (coalesced).
    template <class Key, class Value>
    MERGE_SORT_HD static void store(int tid, int count, const Key* s_keys, const Value* s_values, Key* out,
                                    Value* out_values) {
        const bool full = count == THREADS * ITEMS;
MERGE_SORT_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
            const int i = k * THREADS + tid;
            if (full || i < count) {
                out[i] = s_keys[i];
                if constexpr (kHasValues<Value>) out_values[i] = s_values[i];
            }
        }
    }

    // The tile sort's first phase: this thread's ITEMS consecutive keys, sorted in registers by
    // odd-even transposition (ITEMS rounds of compare-and-swap of neighbours; a swap only when
    // strictly out of order, so it is stable), written back in place. A thread with all ITEMS
    // keys (every thread of a full tile) runs the network without a bounds test.
    template <class Key, class Value, class Less>
    MERGE_SORT_HD static void sort_own_items(int tid, int count, Key* s_keys, Value* s_values, Less less) {
        const int first = tid * ITEMS;
        const int own = max_of(0, min_of(ITEMS, count - first));
        Key keys[ITEMS] = {};
        Value values[ITEMS] = {};
MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j) {
            if (j < own) {
                keys[j] = s_keys[first + j];
                if constexpr (kHasValues<Value>) values[j] = s_values[first + j];
            }
        }
        if (own == ITEMS)
            transposition_sort<true>(keys, values, own, less);
        else
            transposition_sort<false>(keys, values, own, less);
MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j) {
            if (j < own) {
                s_keys[first + j] = keys[j];
                if constexpr (kHasValues<Value>) s_values[first + j] = values[j];
            }
        }
    }

    template <bool ALL, class Key, class Value, class Less>
    MERGE_SORT_HD static void transposition_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS], int own, Less less) {
MERGE_SORT_UNROLL
        for (int round = 0; round < ITEMS; ++round) {
MERGE_SORT_UNROLL
            for (int j = round & 1; j + 1 < ITEMS; j += 2) {
                if ((ALL || j + 1 < own) && less(keys[j + 1], keys[j])) {
                    const Key k = keys[j];
                    keys[j] = keys[j + 1];
                    keys[j + 1] = k;
                    if constexpr (kHasValues<Value>) {
                        const Value v = values[j];
                        values[j] = values[j + 1];
                        values[j + 1] = v;
                    }
                }
            }
        }
    }

    // Outputs [diag, diag + ITEMS) of merging shared [a_begin, a_begin + na) with
    // [b_begin, b_begin + nb): co-rank in shared memory, then a sequential merge into registers
    // that keeps the next key of each side in a register. Values follow through the source index.
    // The merge reads one key past a side's end (never taken): the shared key array has a spare
    // slot after the tile (shared_bytes), so no load needs a bounds clamp. Each output then costs
    // one compare and one predicated load (2.6% off the sort at 2^28 against a clamped,
    // branch-free load: NOTES.md).
    template <class Key, class Value, class Less>
    MERGE_SORT_HD static void merge_items(const Key* s_keys, const Value* s_values, int a_begin, int na, int b_begin,
                                          int nb, int diag, ThreadItems<ITEMS, Key, Value>& out, Less less) {
        const int i = co_rank(diag, s_keys + a_begin, na, s_keys + b_begin, nb, less);
        int a = a_begin + i, b = b_begin + (diag - i);
        const int a_end = a_begin + na, b_end = b_begin + nb;
        Key key_a = s_keys[a];
        Key key_b = s_keys[b];
        int source[ITEMS];
MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j) {
            const bool take_b = b < b_end && (a >= a_end || less(key_b, key_a));  // ties: A first
            out.keys[j] = take_b ? key_b : key_a;
            source[j] = take_b ? b : a;
            if (take_b)
                key_b = s_keys[++b];
            else
                key_a = s_keys[++a];
        }
        out.first = a_begin + diag;
        out.count = max_of(0, min_of(ITEMS, na + nb - diag));
        if constexpr (kHasValues<Value>) {
MERGE_SORT_UNROLL
            for (int j = 0; j < ITEMS; ++j)
                if (j < out.count) out.values[j] = s_values[source[j]];
        }
    }

    // Round `run` of the tile sort: sorted runs of `run` keys in shared [0, count) merge pairwise;
    // the 2 run / ITEMS threads of a pair produce ITEMS outputs each.
    template <class Key, class Value, class Less>
    MERGE_SORT_HD static void merge_round_items(int tid, int run, int count, const Key* s_keys, const Value* s_values,
                                                ThreadItems<ITEMS, Key, Value>& out, Less less) {
        const int threads_per_pair = 2 * run / ITEMS;  // run = ITEMS * 2^r: a power of two
        const int shift = pmpp::log2_exact(static_cast<unsigned>(threads_per_pair));
        const int a_begin = (tid >> shift) * 2 * run;
        const int na = max_of(0, min_of(run, count - a_begin));
        const int nb = max_of(0, min_of(run, count - a_begin - run));
        const int diag = min_of((tid & (threads_per_pair - 1)) * ITEMS, na + nb);
        merge_items(s_keys, s_values, a_begin, na, a_begin + run, nb, diag, out, less);
    }

    // After a barrier: the items back into shared memory at their output positions.
    template <class Key, class Value>
    MERGE_SORT_HD static void write_items(const ThreadItems<ITEMS, Key, Value>& items, Key* s_keys, Value* s_values) {
MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j) {
            if (j < items.count) {
                s_keys[items.first + j] = items.keys[j];
                if constexpr (kHasValues<Value>) s_values[items.first + j] = items.values[j];
            }
        }
    }
};

// Merge tile t of `runs`: its pair, and the pieces [a_begin, a_end) of the pair's A and
// [b_begin, b_end) of its B that merge into the tile, from the partition's split positions.
template <class Pair>
struct TileSource {
    Pair pair;
    std::size_t a_begin, a_end, b_begin, b_end;
};
template <class Layout>
MERGE_SORT_HD auto tile_source(const Layout& runs, std::size_t tile, std::size_t t, const std::size_t* splits) {
    const std::size_t k = t * tile;
    const auto pair = runs.pair_containing(k);
    const std::size_t d0 = k - pair.first;
    const std::size_t d1 = min_of(d0 + tile, pair.na + pair.nb);
    const std::size_t i0 = splits[t];
    // The pair's last tile ends where the pair does; any other ends where the next one starts.
    const std::size_t i1 = d1 == pair.na + pair.nb ? pair.na : splits[t + 1];
    return TileSource<std::remove_cv_t<decltype(pair)>>{pair, i0, i1, d0 - i0, d1 - i1};
}

// Bytes of shared memory for `tile` keys and a spare key slot (merge_items reads one key past a
// side's end), followed by `tile` values (16-byte aligned parts).
template <class Key>
constexpr std::size_t shared_key_bytes(int tile) {
    return (static_cast<std::size_t>(tile + 1) * sizeof(Key) + 15) / 16 * 16;
}
template <class Key, class Value>
constexpr std::size_t shared_bytes(int tile) {
    const std::size_t keys = shared_key_bytes<Key>(tile);
    return keys + (kHasValues<Value> ? static_cast<std::size_t>(tile) * sizeof(Value) : 0);
}
template <class Key, class Value>
__device__ inline void shared_arrays(unsigned char* shared, int tile, Key*& keys, Value*& values) {
    keys = reinterpret_cast<Key*>(shared);
    values = reinterpret_cast<Value*>(shared + shared_key_bytes<Key>(tile));
}

// Kernels and drivers have internal linkage: each file that includes this header (the shipped
// variant, the sweep, the tests) gets its own copies.
namespace {

// Programmatic dependent launch (sm_90 and newer). A kernel launched with it (the
// OverlappingExecutor below) may be resident before the kernel ahead of it on the stream has
// finished, which hides the gap between the two. Each block waits for the previous kernel's
// results first; when it has written its own, it lets the next kernel launch (the next kernel
// starts once every block has done so or exited). Launched the usual way, both return at once.
// Letting the next kernel launch at the start of each block instead made the sort of 2^28 keys
// 1.4% slower (its blocks then sat waiting on the SMs through the whole kernel): NOTES.md.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void let_next_kernel_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

template <class Layout, class Less>
__global__ void partition_kernel(Layout runs, std::size_t tile, std::size_t tiles, std::size_t* splits, int lanes,
                                 Less less) {
    wait_for_previous_kernel();
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t t = thread / lanes;
    if (t >= tiles) return;  // whole groups leave together: lanes divides 32
    const int lane = static_cast<int>(threadIdx.x % lanes);
    const int group_first_lane = static_cast<int>(threadIdx.x & 31) - lane;
    const unsigned group_mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1) << group_first_lane;
    const std::size_t k = t * tile;
    const auto pair = runs.pair_containing(k);
    const std::size_t diag = k - pair.first;
    if (lanes == 1) {  // the plain co-rank search: the k-ary one's steps, without its ballots and division
        splits[t] = co_rank(diag, pair.a, pair.na, pair.b, pair.nb, less);
        let_next_kernel_launch();
        return;
    }
    SearchRange r = co_rank_range(pair, diag);
    while (r.lo < r.hi) {  // the same range in every lane of the group
        const bool before = probe_is_before(pair, diag, kary_probe(r, lane, lanes), less);
        const int count = __popc(__ballot_sync(group_mask, before) & group_mask);
        r = kary_narrow(r, lanes, count);
    }
    if (lane == 0) splits[t] = r.lo;
    let_next_kernel_launch();
}

template <class Cfg, class Layout, class Key, class Value, class Less>
__global__ void __launch_bounds__(Cfg::kMergeThreads, Cfg::kMergeMinBlocks)
    merge_tiles_kernel(Layout runs, const std::size_t* splits, Key* out, Value* out_values, Less less) {
    wait_for_previous_kernel();
    using Steps = TileSteps<Cfg::kMergeThreads, Cfg::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    Key* s_keys;
    Value* s_values;
    shared_arrays(shared, Cfg::kMergeTile, s_keys, s_values);
    const int tid = threadIdx.x;
    const std::size_t t = blockIdx.x;
    const auto src = tile_source(runs, Cfg::kMergeTile, t, splits);
    const auto& pair = src.pair;
    const int na = static_cast<int>(src.a_end - src.a_begin), nb = static_cast<int>(src.b_end - src.b_begin);
    Steps::load(tid, pair.a + src.a_begin, offset(pair.av, src.a_begin), na, pair.b + src.b_begin,
                offset(pair.bv, src.b_begin), na + nb, s_keys, s_values);
    __syncthreads();
    ThreadItems<Cfg::kItems, Key, Value> items;
    Steps::merge_items(s_keys, s_values, 0, na, na, nb, min_of(tid * Cfg::kItems, na + nb), items, less);
    __syncthreads();
    Steps::write_items(items, s_keys, s_values);
    __syncthreads();
    const std::size_t k = t * Cfg::kMergeTile;
    Steps::store(tid, na + nb, s_keys, s_values, out + k, offset(out_values, k));
    let_next_kernel_launch();
}

template <class Cfg, class Key, class Value, class Less>
__global__ void __launch_bounds__(Cfg::kSortThreads, Cfg::kSortMinBlocks)
    sort_tiles_kernel(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n, Less less) {
    wait_for_previous_kernel();
    using Steps = TileSteps<Cfg::kSortThreads, Cfg::kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    Key* s_keys;
    Value* s_values;
    shared_arrays(shared, Cfg::kSortTile, s_keys, s_values);
    const int tid = threadIdx.x;
    const std::size_t base = blockIdx.x * static_cast<std::size_t>(Cfg::kSortTile);
    const int count = static_cast<int>(min_of<std::size_t>(Cfg::kSortTile, n - base));
    Steps::load(tid, in + base, offset(in_values, base), count, in + base, offset(in_values, base), count, s_keys,
                s_values);
    __syncthreads();
    Steps::sort_own_items(tid, count, s_keys, s_values, less);
    __syncthreads();
    // (Warp barriers for the rounds whose pairs fit in one warp measured 7% slower: NOTES.md.)
    for (int run = Cfg::kItems; run < count; run *= 2) {
        ThreadItems<Cfg::kItems, Key, Value> items;
        Steps::merge_round_items(tid, run, count, s_keys, s_values, items, less);
        __syncthreads();
        Steps::write_items(items, s_keys, s_values);
        __syncthreads();
    }
    Steps::store(tid, count, s_keys, s_values, out + base, offset(out_values, base));
    let_next_kernel_launch();
}

// Lanes per partition search: the most that keep all the searches' threads within a quarter of
// the resident threads. Measured (NOTES.md): 1 lane is best for 61681 searches (2^28 keys), 16
// for 3856 (2^24), 32 for 241 (2^20); more lanes than that only add loads to the same steps.
inline int partition_lanes(std::size_t searches) {
    static const std::size_t resident_threads = [] {
        const pmpp::DeviceLimits& limits = pmpp::device_limits();
        return static_cast<std::size_t>(limits.sm_count) * static_cast<std::size_t>(limits.max_threads_per_sm);
    }();
    int lanes = 32;
    while (lanes > 1 && searches * lanes > resident_threads / 4) lanes /= 2;
    return lanes;
}

// The three kernels, launched on the default stream. The drivers below take the executor as a
// parameter so that tests/test_fast_steps.cu can run them with one that emulates the kernels on
// the host: the same drivers, the same steps, no GPU.
// OVERLAP: launched with programmatic dependent launch (see wait_for_previous_kernel).
template <bool OVERLAP>
struct BasicDeviceExecutor {
    template <class... Params, class... Args>
    static void launch(void (*kernel)(Params...), std::size_t blocks, int threads, std::size_t shared, Args&&... args) {
        if constexpr (!OVERLAP) {
            kernel<<<static_cast<unsigned>(blocks), threads, shared>>>(std::forward<Args>(args)...);
        } else {
            cudaLaunchConfig_t config = {};
            config.gridDim = dim3(static_cast<unsigned>(blocks));
            config.blockDim = dim3(static_cast<unsigned>(threads));
            config.dynamicSmemBytes = shared;
            cudaLaunchAttribute attribute[1];
            attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attribute[0].val.programmaticStreamSerializationAllowed = 1;
            config.attrs = attribute;
            config.numAttrs = 1;
            PMPP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
        }
        PMPP_CHECK_LAUNCH();
    }

    template <class Cfg, class Key, class Value, class Less>
    static void sort_tiles(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n, Less less) {
        constexpr std::size_t bytes = shared_bytes<Key, Value>(Cfg::kSortTile);
        static const bool allowed =
            (pmpp::allow_dynamic_shared_memory(sort_tiles_kernel<Cfg, Key, Value, Less>, bytes, "merge_sort_fast's tile sort"),
             true);
        (void)allowed;
        const std::size_t tiles = (n + Cfg::kSortTile - 1) / Cfg::kSortTile;
        launch(sort_tiles_kernel<Cfg, Key, Value, Less>, tiles, Cfg::kSortThreads, bytes, in, in_values, out,
               out_values, n, less);
    }

    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        const int lanes = partition_lanes(tiles);
        constexpr int kThreads = 256;
        const std::size_t blocks = (tiles * lanes + kThreads - 1) / kThreads;
        launch(partition_kernel<Layout, Less>, blocks, kThreads, 0, runs, tile, tiles, splits, lanes, less);
    }

    template <class Cfg, class Layout, class Key, class Value, class Less>
    static void merge_tiles(const Layout& runs, std::size_t tiles, const std::size_t* splits, Key* out,
                            Value* out_values, Less less) {
        constexpr std::size_t bytes = shared_bytes<Key, Value>(Cfg::kMergeTile);
        static const bool allowed =
            (pmpp::allow_dynamic_shared_memory(merge_tiles_kernel<Cfg, Layout, Key, Value, Less>, bytes,
                                               "merge_sort_fast's tile merge"),
             true);
        (void)allowed;
        launch(merge_tiles_kernel<Cfg, Layout, Key, Value, Less>, tiles, Cfg::kMergeThreads, bytes, runs, splits, out,
               out_values, less);
    }
};
using DeviceExecutor = BasicDeviceExecutor<false>;
using OverlappingExecutor = BasicDeviceExecutor<true>;

// Programmatic dependent launch needs code compiled for sm_90 or newer: a kernel JIT-compiled
// from older PTX has no griddepcontrol instructions, and launched with the attribute it would
// no longer wait for the kernel before it. The probe was compiled with the same flags as the
// sort's kernels, so its PTX version is theirs.
__global__ void overlap_probe_kernel() {}
inline bool overlap_available() {
    static const bool available = [] {
        cudaFuncAttributes attributes{};
        PMPP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, overlap_probe_kernel));
        // The device (or the profile, PMPP_DEVICE_PROFILE) must be sm_90 too.
        return attributes.ptxVersion >= 90 && pmpp::device_limits().compute_capability >= 90;
    }();
    return available;
}
// Calls run(executor) with the OverlappingExecutor where it is available, else the usual one.
template <class Run>
void with_fastest_executor(Run run) {
    if (overlap_available())
        run(OverlappingExecutor{});
    else
        run(DeviceExecutor{});
}

// Merges every pair of `runs` (SortedRuns or TwoArrays) into out: partition, then one tile per block.
template <class Cfg, class Exec, class Layout, class Key, class Value, class Less>
void merge_runs(const Layout& runs, std::size_t* splits, Key* out, Value* out_values, Less less) {
    const std::size_t total = runs.size();
    if (total == 0) return;
    const std::size_t tiles = (total + Cfg::kMergeTile - 1) / Cfg::kMergeTile;
    Exec::partition(runs, Cfg::kMergeTile, tiles, splits, less);
    Exec::template merge_tiles<Cfg>(runs, tiles, splits, out, out_values, less);
}

template <class Cfg, class Exec = DeviceExecutor, class Key, class Less>
void merge_with(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits, Less less) {
    merge_runs<Cfg, Exec>(TwoArrays<Key, NoValues>{a, nullptr, na, b, nullptr, nb}, splits, c,
                          static_cast<NoValues*>(nullptr), less);
}

// Tiles of kSortTile sorted by sort_tiles_kernel, then ceil(log2(n / kSortTile)) merge passes.
// The tile sort writes where the pass count makes the last pass land in the output.
template <class Cfg, class Exec = DeviceExecutor, class Key, class Value, class Less>
void sort_with(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    if (n == 0) return;
    const int passes = merge_passes(n, Cfg::kSortTile);
    auto destination = [&](int pass, Key*& keys, Value*& values) {
        const bool to_output = pass_writes_output(pass, passes);
        keys = to_output ? args.keys_out : args.keys_scratch;
        values = to_output ? args.values_out : args.values_scratch;
    };
    Key* dst;
    Value* dst_values;
    destination(0, dst, dst_values);
    Exec::template sort_tiles<Cfg>(args.keys_in, args.values_in, dst, dst_values, n, less);
    std::size_t width = Cfg::kSortTile;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const SortedRuns<Key, Value> runs{dst, dst_values, n, width};
        destination(pass, dst, dst_values);
        merge_runs<Cfg, Exec>(runs, args.splits, dst, dst_values, less);
    }
}

}  // namespace
}  // namespace merge_sort::fast
