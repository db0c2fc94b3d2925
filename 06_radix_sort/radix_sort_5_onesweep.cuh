// radix_sort_5_onesweep.cuh: the kernels of variant 5 (radix_sort_5_onesweep.cu), templated on
// their tuning so tune/sweep_onesweep.cu can try other shapes. Onesweep: Adinets and Merrill,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022.
//
// Three kernels before the passes, then one kernel per 8-bit digit:
//   histogram_all_digits   one read of the keys counts every digit of every pass at once;
//   scan_histograms        each pass's 256 counts become the start of each digit's run;
//   onesweep_pass          per tile of kThreads * kItems keys:
//     a. take a tile number from an atomic counter (in the order blocks start, so every
//        predecessor of a tile is running or done: the look-back below always ends);
//     b. load the keys warp-striped (warp w holds a contiguous stretch; its lanes read
//        consecutive keys), so warps and items are in input order;
//     c. count the tile's digits per warp (shared-memory atomics), publish the tile's count of
//        each digit at once ("early counts"), so later tiles can look back past this one while
//        it is still ranking;
//     d. rank: a block scan of the 256 counts gives each digit's start in the sorted tile; each
//        key's place is its digit's start, plus the same digit's keys in earlier warps, plus
//        those in earlier items and lanes of its warp: eight ballots (one per bit of the
//        digit) find the lanes with the same digit, and one of them adds the group's size to
//        the warp's counter (__match_any_sync does the same in one instruction, 1.6x slower
//        per pass on an H200);
//     e. the keys go to shared memory in sorted order; meanwhile one thread per digit looks
//        back over the predecessors' statuses (02's decoupled look-back, one chain per digit)
//        for the number of keys of its digit before this tile;
//     f. the keys are written out striped: consecutive threads, consecutive keys of a digit's
//        run, consecutive addresses. The values, if any, follow the same way: placed in sorted
//        order in shared memory beside the keys and written with them where an SM holds two
//        blocks of both, after the keys in the keys' memory where it does not.
// Traffic: the histogram reads the keys once; each pass reads and writes them once (8 bytes
// per 4-byte key; 16 with 4-byte values). 2^28 uint32 keys: 9.7 GB, 2.3 ms at the H200's copy
// bandwidth. CUB's Onesweep takes 6.3 ms there, ours 7.1: ranking, not memory, sets the pace.
#pragma once

#include "radix_sort.h"

#include "../02_scan/scan_3_lookback.cuh"

#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/report.h"  // format

#include <cuda/atomic>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace radix_sort::onesweep {

constexpr int kDigitBits = 8;
constexpr int kDigits = 1 << kDigitBits;
constexpr unsigned kFullMask = 0xFFFFFFFFu;

// The look-back status of (tile, digit): a flag in the top two bits, a count in the low 30
// (hence kMaxKeys). 0 means "nothing published yet" (the statuses are cleared before a sort).
constexpr unsigned kStatusAggregate = 1u << 30;  // the count of the digit in this tile
constexpr unsigned kStatusPrefix = 2u << 30;  // the count in this tile and every tile before
constexpr unsigned kCountMask = (1u << 30) - 1;

// How a warp finds the lanes whose key has the same digit.
enum class PeerMatch {
    MatchAny,  // one __match_any_sync
    Ballots,  // eight __ballot_sync, one per bit of the digit
    BallotsInPtx,  // the same eight ballots, each in CUB's PTX sequence (variant 6)
};

// One shape of the pass kernel. THREADS: at least one thread per digit. WAIT_NS: how long a
// tile waits before its first look at a predecessor's status (0: no wait). VALUES_BESIDE (pairs):
// the tile's values get shared memory of their own beside its keys, so they are placed in sorted
// order with the keys and written out in the same loop; otherwise they reuse the keys' memory
// after the keys are written out (half the shared memory, two more barriers).
template <int THREADS, int ITEMS, int MIN_BLOCKS_PER_SM, PeerMatch MATCH = PeerMatch::MatchAny, unsigned WAIT_NS = 0,
          bool VALUES_BESIDE = false>
struct Config {
    static_assert(THREADS >= kDigits && THREADS % 32 == 0 && THREADS <= 1024, "a thread per digit, whole warps");
    static constexpr int kThreads = THREADS;
    static constexpr int kItems = ITEMS;
    static constexpr int kMinBlocks = MIN_BLOCKS_PER_SM;
    static constexpr int kWarps = THREADS / 32;
    static constexpr int kTile = THREADS * ITEMS;
    static constexpr PeerMatch kMatch = MATCH;
    static constexpr unsigned kWaitNs = WAIT_NS;
    static constexpr bool kValuesBeside = VALUES_BESIDE;
};

// ---- the histogram of every digit, and its scan ----------------------------------------------

constexpr int kHistogramThreads = 256;
constexpr int kHistogramItems = 16;  // keys per thread per round: all loaded before any is counted

template <class Key>
__global__ void __launch_bounds__(kHistogramThreads)
    histogram_all_digits(const Key* keys, std::size_t n, int begin_bit, int end_bit, int passes, unsigned* histograms) {
    constexpr int kMaxPasses = static_cast<int>(sizeof(Key));  // 8-bit digits
    __shared__ unsigned counts[kMaxPasses][kDigits];
    for (int i = threadIdx.x; i < kMaxPasses * kDigits; i += kHistogramThreads) (&counts[0][0])[i] = 0;
    __syncthreads();
    constexpr std::size_t kRound = static_cast<std::size_t>(kHistogramThreads) * kHistogramItems;
    for (std::size_t first = blockIdx.x * kRound; first < n; first += static_cast<std::size_t>(gridDim.x) * kRound) {
        BitsOf<Key> bits[kHistogramItems];
#pragma unroll
        for (int i = 0; i < kHistogramItems; ++i) {
            const std::size_t index = first + static_cast<std::size_t>(i) * kHistogramThreads + threadIdx.x;
            if (index < n) bits[i] = to_bits(keys[index]);
        }
#pragma unroll
        for (int i = 0; i < kHistogramItems; ++i) {
            if (first + static_cast<std::size_t>(i) * kHistogramThreads + threadIdx.x >= n) break;
#pragma unroll
            for (int p = 0; p < kMaxPasses; ++p) {
                if (p >= passes) break;
                const int shift = begin_bit + p * kDigitBits;
                const int width = end_bit - shift < kDigitBits ? end_bit - shift : kDigitBits;
                atomicAdd(&counts[p][digit_of(bits[i], shift, width)], 1u);
            }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < passes * kDigits; i += kHistogramThreads) {
        const unsigned c = (&counts[0][0])[i];
        if (c != 0) atomicAdd(&histograms[i], c);
    }
}

// One block per pass: the 256 counts become each digit's start in the output.
static __global__ void __launch_bounds__(kDigits) scan_histograms(unsigned* histograms) {
    __shared__ scan_primitives::BlockScanStorage<kDigits> storage;
    unsigned* h = histograms + static_cast<std::size_t>(blockIdx.x) * kDigits;
    unsigned total;
    const unsigned count = h[threadIdx.x];
    h[threadIdx.x] = scan_primitives::block_exclusive_scan<kDigits>(count, total, storage);
}

// ---- the pass ---------------------------------------------------------------------------------

template <class Key, class Cfg>
struct PassStorage {
    union {
        unsigned warp_offsets[Cfg::kWarps][kDigits];  // while ranking: per warp and digit
        BitsOf<Key> keys[Cfg::kTile];  // then the tile's keys in sorted order
        Value values[Cfg::kTile];  // then its values (after the keys are written out)
        // or, with kValuesBeside, the keys and after them the values, both at once
        unsigned char keys_and_values[Cfg::kValuesBeside ? Cfg::kTile * (sizeof(BitsOf<Key>) + sizeof(Value)) : 1];
    };
    __device__ Value* values_beside_keys() { return reinterpret_cast<Value*>(keys_and_values + sizeof(keys)); }
    unsigned run_offset[kDigits];  // output index of the tile's run of digit d, minus its start in the tile
    scan_primitives::BlockScanStorage<Cfg::kThreads> scan;
    unsigned tile;
};

__device__ __forceinline__ void publish(unsigned* status, unsigned flag, unsigned count) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ref(*status);
    ref.store(flag | count, cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned read_status(unsigned* status) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ref(*status);
    return ref.load(cuda::memory_order_relaxed);
}

// The count of `digit` in every tile before `tile` (> 0), walking back from the nearest
// predecessor: add aggregates until a tile that published its inclusive prefix. Then publish
// this tile's own inclusive prefix. Flag and count share one word: a reader that sees the flag
// sees the count, no fence needed.
template <class Cfg>
__device__ __forceinline__ unsigned look_back(unsigned* statuses, unsigned tile, unsigned digit, unsigned tile_count) {
    if constexpr (Cfg::kWaitNs > 0) __nanosleep(Cfg::kWaitNs);
    unsigned before = 0;
    for (unsigned pred = tile; pred-- > 0;) {
        unsigned status;
        while ((status = read_status(&statuses[pred * kDigits + digit])) == 0) {}
        before += status & kCountMask;
        if (status & kStatusPrefix) break;
    }
    publish(&statuses[tile * kDigits + digit], kStatusPrefix, before + tile_count);
    return before;
}

// One bit of the peer mask as CUB's radix sort writes it (its MatchAny, in PTX): the bit of this
// lane's digit into a predicate, the warp's ballot of that predicate, inverted where the bit is
// 0, and-ed into the mask. The bit is tested once; from the C++ form below nvcc tests it twice
// (once for the vote, once to pick ones or ~ones) and spends about 6 instructions a bit, not 4.
template <unsigned BIT>
__device__ __forceinline__ void and_lanes_agreeing_on_bit(unsigned& peers, unsigned digit) {
    asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\t"
        "and.b32 t, %1, %2;\n\t"
        "setp.ne.u32 p, t, 0;\n\t"
        "vote.sync.ballot.b32 t, p, 0xffffffff;\n\t"
        "@!p not.b32 t, t;\n\t"
        "and.b32 %0, %0, t;\n\t}"
        : "+r"(peers)
        : "r"(digit), "n"(1u << BIT));
}

template <int... BIT>
__device__ __forceinline__ unsigned lanes_agreeing_on_bits(unsigned digit, std::integer_sequence<int, BIT...>) {
    unsigned peers = kFullMask;
    (and_lanes_agreeing_on_bit<BIT>(peers, digit), ...);
    return peers;
}

template <PeerMatch M>
__device__ __forceinline__ unsigned lanes_with_same_digit(unsigned digit) {
    if constexpr (M == PeerMatch::MatchAny) {
        return __match_any_sync(kFullMask, digit);
    } else if constexpr (M == PeerMatch::BallotsInPtx) {
        return lanes_agreeing_on_bits(digit, std::make_integer_sequence<int, kDigitBits>{});
    } else {
        unsigned peers = kFullMask;
#pragma unroll
        for (int b = 0; b < kDigitBits; ++b) {
            const unsigned ones = __ballot_sync(kFullMask, (digit >> b) & 1u);
            peers &= ((digit >> b) & 1u) ? ones : ~ones;
        }
        return peers;
    }
}

// Index arithmetic shared with the host emulation in tests/test_passes_emulated.cu.
// Warp-striped: item k of lane `lane` in warp `warp` is key warp * 32 * ITEMS + k * 32 + lane
// of the tile, so (warp, k, lane) order is input order.
template <class Cfg>
__host__ __device__ constexpr unsigned striped_position(unsigned warp, unsigned k, unsigned lane) {
    return warp * 32u * Cfg::kItems + k * 32u + lane;
}

template <class Key, bool PAIRS, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    onesweep_pass(const Key* __restrict__ keys_in, Key* __restrict__ keys_out, const Value* __restrict__ values_in,
                  Value* __restrict__ values_out, unsigned n, int shift, int width,
                  const unsigned* __restrict__ digit_starts, unsigned* tile_counter, unsigned* statuses) {
    using Bits = BitsOf<Key>;
    constexpr int T = Cfg::kThreads, K = Cfg::kItems, kTile = Cfg::kTile;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    auto& s = *reinterpret_cast<PassStorage<Key, Cfg>*>(shared_bytes);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned my_digit = threadIdx.x;  // threads below kDigits each own one digit

    // a. The tile number, and the per-warp counters cleared.
    if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
    for (int i = threadIdx.x; i < Cfg::kWarps * kDigits; i += T) (&s.warp_offsets[0][0])[i] = 0;
    __syncthreads();
    const unsigned tile = s.tile;
    const unsigned tile_first = tile * kTile;
    const bool full = tile_first + kTile <= n;
    const unsigned valid = full ? kTile : n - tile_first;

    // b. Keys, warp-striped. Past the end: all ones, the largest digit, last in input order:
    // they rank at the end of the tile, at positions >= valid, and are never written.
    Bits bits[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const unsigned index = tile_first + striped_position<Cfg>(warp, k, lane);
        bits[k] = (full || index < n) ? to_bits(keys_in[index]) : ~Bits{0};
    }

    // c. Early counts: per warp, then per tile, published before the tile is ranked.
    unsigned* warp_counts = s.warp_offsets[warp];
#pragma unroll
    for (int k = 0; k < K; ++k) atomicAdd(&warp_counts[digit_of(bits[k], shift, width)], 1u);
    __syncthreads();
    unsigned tile_count = 0;
    if (my_digit < kDigits) {
#pragma unroll
        for (int w = 0; w < Cfg::kWarps; ++w) {  // the count becomes the earlier warps' total
            const unsigned c = s.warp_offsets[w][my_digit];
            s.warp_offsets[w][my_digit] = tile_count;
            tile_count += c;
        }
        publish(&statuses[tile * kDigits + my_digit], tile == 0 ? kStatusPrefix : kStatusAggregate, tile_count);
    }

    // d. Rank. Each digit's start in the sorted tile; each warp's counter of a digit starts at
    // the digit's start plus the earlier warps' keys of it.
    unsigned tile_total;
    const unsigned digit_start =
        scan_primitives::block_exclusive_scan<T>(my_digit < kDigits ? tile_count : 0u, tile_total, s.scan);
    if (my_digit < kDigits) {
#pragma unroll
        for (int w = 0; w < Cfg::kWarps; ++w) s.warp_offsets[w][my_digit] += digit_start;
    }
    __syncthreads();
    unsigned rank[K];
    const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const unsigned digit = digit_of(bits[k], shift, width);
        const unsigned peers = lanes_with_same_digit<Cfg::kMatch>(digit);
        const unsigned leader = 31u - __clz(peers);  // any one lane of the group adds for all
        unsigned base = 0;
        if (lane == leader) base = atomicAdd(&warp_counts[digit], __popc(peers));
        base = __shfl_sync(kFullMask, base, leader);
        rank[k] = base + __popc(peers & lanes_below);
    }
    __syncthreads();  // every rank read from warp_offsets before the keys overwrite them

    // e. The keys in sorted order in shared memory; the look-back meanwhile. The values' loads
    // are issued here, into the registers the keys free, rather than after the keys' write-out;
    // an H200 times both the same (9.34 against 9.33 ms for 2^28 pairs): their latency is hidden
    // either way. With kValuesBeside the values go to their own shared memory right after the
    // look-back, and f writes each position's key and value together: two barriers fewer and no
    // destinations kept in registers, 5% faster for 2^28 pairs on an H200 (NOTES.md). Otherwise
    // they wait for the keys' memory, after the keys are written out.
#pragma unroll
    for (int k = 0; k < K; ++k) s.keys[rank[k]] = bits[k];
    Value v[PAIRS ? K : 1];
    if constexpr (PAIRS) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const unsigned index = tile_first + striped_position<Cfg>(warp, k, lane);
            v[k] = (full || index < n) ? values_in[index] : 0u;
        }
    }
    if (my_digit < kDigits) {
        const unsigned before = tile == 0 ? 0u : look_back<Cfg>(statuses, tile, my_digit, tile_count);
        // Modulo 2^32: negative until position j (>= digit_start) is added below.
        s.run_offset[my_digit] = digit_starts[my_digit] + before - digit_start;
    }
    constexpr bool kBeside = PAIRS && Cfg::kValuesBeside;
    if constexpr (kBeside) {
        Value* sorted_values = s.values_beside_keys();
#pragma unroll
        for (int k = 0; k < K; ++k) sorted_values[rank[k]] = v[k];
    }
    __syncthreads();

    // f. Out, striped: position j of the sorted tile goes to run_offset[digit] + j.
    constexpr bool kValuesAfter = PAIRS && !Cfg::kValuesBeside;
    unsigned destination[kValuesAfter ? K : 1];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const unsigned j = i * T + threadIdx.x;
        const Bits b = s.keys[j];
        const unsigned dst = s.run_offset[digit_of(b, shift, width)] + j;
        if (j < valid) {
            keys_out[dst] = from_bits<Key>(b);
            if constexpr (kBeside) values_out[dst] = s.values_beside_keys()[j];
        }
        if constexpr (kValuesAfter) destination[i] = dst;
    }
    if constexpr (kValuesAfter) {
        __syncthreads();  // the keys are read out of shared memory
#pragma unroll
        for (int k = 0; k < K; ++k) s.values[rank[k]] = v[k];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const unsigned j = i * T + threadIdx.x;
            if (j < valid) values_out[destination[i]] = s.values[j];
        }
    }
}

// ---- the host side ----------------------------------------------------------------------------

template <class Key, class Cfg>
struct Layout {
    Key* keys = nullptr;
    Value* values = nullptr;
    unsigned* histograms = nullptr;  // [passes][256]: counts, then starts
    unsigned* tile_counters = nullptr;  // [passes]
    unsigned* statuses = nullptr;  // [passes][tiles][256]
    std::size_t cleared_bytes = 0;  // from histograms to the end of statuses
    std::size_t tiles = 0;
    int passes = 0;
    std::size_t bytes = 0;
};

template <class Key, class Cfg>
Layout<Key, Cfg> layout(void* base, std::size_t n, bool pairs, int passes) {
    Workspace w(base);
    Layout<Key, Cfg> l;
    l.passes = passes;
    l.tiles = (n + Cfg::kTile - 1) / Cfg::kTile;
    l.keys = w.take<Key>(n);
    l.values = w.take<Value>(pairs ? n : 0);
    l.histograms = w.take<unsigned>(static_cast<std::size_t>(passes) * kDigits);
    l.tile_counters = w.take<unsigned>(passes);
    l.statuses = w.take<unsigned>(static_cast<std::size_t>(passes) * l.tiles * kDigits);
    l.cleared_bytes = static_cast<std::size_t>(reinterpret_cast<char*>(l.statuses + passes * l.tiles * kDigits) -
                                               reinterpret_cast<char*>(l.histograms));
    l.bytes = w.bytes();
    return l;
}

template <class Key, class Cfg>
std::size_t workspace_bytes(std::size_t n, bool pairs) {
    // Sized for the most passes any bit range needs.
    return layout<Key, Cfg>(nullptr, n, pairs, static_cast<int>(sizeof(Key))).bytes;
}

template <class Key, bool PAIRS, class Cfg>
void launch_pass(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, std::size_t n, int shift,
                 int width, const unsigned* digit_starts, unsigned* tile_counter, unsigned* statuses, unsigned tiles) {
    constexpr std::size_t kShared = sizeof(PassStorage<Key, Cfg>);
    static const bool configured = [] {  // above 48 KiB a kernel must ask for its shared memory
        pmpp::allow_dynamic_shared_memory(onesweep_pass<Key, PAIRS, Cfg>, kShared, "radix_sort_onesweep's pass");
        return true;
    }();
    (void)configured;
    onesweep_pass<Key, PAIRS, Cfg><<<tiles, Cfg::kThreads, kShared>>>(keys_in, keys_out, values_in, values_out,
                                                                      static_cast<unsigned>(n), shift, width,
                                                                      digit_starts, tile_counter, statuses);
    PMPP_CHECK_LAUNCH();
}

// A sort of keys alone (PAIRS false) or of keys and values (PAIRS true, as args says).
template <class Key, bool PAIRS, class Cfg>
void sort(const SortArgs<Key>& a) {
    if (a.pairs() != PAIRS) throw std::logic_error("onesweep::sort: PAIRS does not match the arguments");
    const std::size_t n = a.n;
    if (n == 0) return;
    if (n > kMaxKeys)
        throw std::length_error("radix_sort_onesweep: " + std::to_string(n) + " keys; at most " +
                                std::to_string(kMaxKeys) + " (30-bit look-back counts)");
    const int passes = pass_count(a.begin_bit, a.end_bit, kDigitBits);
    if (passes == 0) {
        PMPP_CUDA_CHECK(cudaMemcpyAsync(a.keys_out, a.keys_in, n * sizeof(Key), cudaMemcpyDeviceToDevice));
        if (a.pairs())
            PMPP_CUDA_CHECK(cudaMemcpyAsync(a.values_out, a.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
        return;
    }
    const Layout<Key, Cfg> w = layout<Key, Cfg>(a.workspace, n, a.pairs(), passes);
    PMPP_CUDA_CHECK(cudaMemsetAsync(w.histograms, 0, w.cleared_bytes));
    a.mark("clear histograms and look-back statuses", static_cast<double>(w.cleared_bytes));

    const unsigned sms = static_cast<unsigned>(pmpp::device_limits().sm_count);
    constexpr std::size_t kRound = static_cast<std::size_t>(kHistogramThreads) * kHistogramItems;
    const std::size_t rounds = (n + kRound - 1) / kRound;
    const unsigned histogram_blocks = static_cast<unsigned>(rounds < 4u * sms ? rounds : 4u * sms);
    histogram_all_digits<Key>
        <<<histogram_blocks, kHistogramThreads>>>(a.keys_in, n, a.begin_bit, a.end_bit, passes, w.histograms);
    PMPP_CHECK_LAUNCH();
    a.mark("histogram of every digit", static_cast<double>(n * sizeof(Key)));
    scan_histograms<<<passes, kDigits>>>(w.histograms);
    PMPP_CHECK_LAUNCH();
    a.mark("scan the histograms");

    const unsigned tiles = static_cast<unsigned>(w.tiles);
    const double pass_bytes = 2.0 * n * (sizeof(Key) + (a.pairs() ? sizeof(Value) : 0));
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = a.begin_bit + pass * kDigitBits;
        const int width = a.end_bit - shift < kDigitBits ? a.end_bit - shift : kDigitBits;
        const auto keys = pass_buffers(pass, passes, a.keys_in, a.keys_out, w.keys);
        const unsigned* starts = w.histograms + static_cast<std::size_t>(pass) * kDigits;
        unsigned* statuses = w.statuses + static_cast<std::size_t>(pass) * w.tiles * kDigits;
        if constexpr (PAIRS) {
            const auto values = pass_buffers(pass, passes, a.values_in, a.values_out, w.values);
            launch_pass<Key, true, Cfg>(keys.src, keys.dst, values.src, values.dst, n, shift, width, starts,
                                        w.tile_counters + pass, statuses, tiles);
        } else {
            launch_pass<Key, false, Cfg>(keys.src, keys.dst, nullptr, nullptr, n, shift, width, starts,
                                         w.tile_counters + pass, statuses, tiles);
        }
        a.mark("pass " + std::to_string(pass + 1) + ": bits " + std::to_string(shift) + "-" +
                   std::to_string(shift + width - 1),
               pass_bytes);
    }
}

// ---- the shipped shapes (variants 5 and 6) -----------------------------------------------------

// By key size and whether values travel along, from the sweep (tune/sweep_onesweep.cu, NOTES.md).
// Registers bound the keys per thread: each thread keeps its keys and their ranks in registers
// through the pass; every shape below compiles without spills within its blocks-per-SM budget (at
// most 85 registers for 2 blocks of 384 or 3 of 256). MATCH: how the ranking finds a key's peers
// (variant 5: Ballots; __match_any_sync made every pass 1.5-1.6x slower on an H200).
// Pairs: `type` keeps the values in shared memory beside the keys (2 x 62 KiB an SM for 4-byte
// keys: an H200's or an A100's SM holds two such blocks, a T4's or a laptop card's does not); where
// two blocks of it do not fit, `fallback`, the same tile with the values after the keys (half the
// shared memory). Keys alone: one shape.
template <std::size_t KEY_BYTES, bool PAIRS, PeerMatch MATCH>
struct ShippedShape;
template <PeerMatch M>
struct ShippedShape<4, false, M> {
    using type = Config<256, 16, 3, M>;
    using fallback = type;
};
template <PeerMatch M>
struct ShippedShape<4, true, M> {
    using type = Config<384, 20, 2, M, 0, /*values beside*/ true>;
    using fallback = Config<384, 20, 2, M>;
};
template <PeerMatch M>
struct ShippedShape<8, false, M> {
    using type = Config<384, 16, 2, M>;
    using fallback = type;
};
template <PeerMatch M>
struct ShippedShape<8, true, M> {
    using type = Config<384, 12, 2, M, 0, /*values beside*/ true>;
    using fallback = Config<384, 12, 2, M>;
};
template <class Key, bool PAIRS, PeerMatch M>
using ShippedConfig = typename ShippedShape<sizeof(Key), PAIRS, M>::type;
template <class Key, bool PAIRS, PeerMatch M>
using FallbackConfig = typename ShippedShape<sizeof(Key), PAIRS, M>::fallback;

template <class Key, class Cfg>
constexpr std::size_t pass_shared_bytes = sizeof(PassStorage<Key, Cfg>);

// Every fallback fits the smallest supported GPU's shared memory per block (on a T4 the 8-byte
// shapes run one block per SM instead of two), and has its shape's tile, so the workspace is the
// same whichever runs.
template <std::size_t KEY_BYTES>
using KeyOfSize = std::conditional_t<KEY_BYTES == 4, std::uint32_t, std::uint64_t>;
template <std::size_t KEY_BYTES, bool PAIRS>
using ShapesOf = ShippedShape<KEY_BYTES, PAIRS, PeerMatch::Ballots>;
template <std::size_t KEY_BYTES, bool PAIRS>
constexpr bool fits_every_gpu =
    pass_shared_bytes<KeyOfSize<KEY_BYTES>, typename ShapesOf<KEY_BYTES, PAIRS>::fallback> <=
    pmpp::kSmallestSharedPerBlock;
template <std::size_t KEY_BYTES, bool PAIRS>
constexpr bool same_tile = ShapesOf<KEY_BYTES, PAIRS>::type::kTile == ShapesOf<KEY_BYTES, PAIRS>::fallback::kTile;
static_assert(fits_every_gpu<4, false> && fits_every_gpu<4, true> && fits_every_gpu<8, false> &&
                  fits_every_gpu<8, true>,
              "a fallback onesweep shape needs more shared memory than an sm_75 GPU has per block");
static_assert(same_tile<4, true> && same_tile<8, true>, "a fallback onesweep shape has another tile than its shape");

// Whether this GPU holds two blocks of the pairs' shape per SM (asked once, reported once).
template <class Key>
bool values_beside_keys_fit() {
    static const bool fits = [] {
        using Beside = ShippedConfig<Key, true, PeerMatch::Ballots>;
        using After = FallbackConfig<Key, true, PeerMatch::Ballots>;
        constexpr std::size_t beside = pass_shared_bytes<Key, Beside>, after = pass_shared_bytes<Key, After>;
        const std::string tile =
            pmpp::format("tiles of %d (%d threads x %d)", Beside::kTile, Beside::kThreads, Beside::kItems);
        return pmpp::shipped_shape_fits(
            "radix_sort_onesweep's pass, " + std::to_string(sizeof(Key)) + "-byte keys with values", beside,
            Beside::kMinBlocks,
            pmpp::format("%s, the values beside the keys: %zu bytes of shared memory per block", tile.c_str(), beside),
            pmpp::format("%s, the values after the keys: %zu bytes of shared memory per block", tile.c_str(), after));
    }();
    return fits;
}

inline std::size_t shipped_tile_keys(std::size_t key_bytes, bool pairs) {
    constexpr auto M = PeerMatch::Ballots;  // the shapes do not depend on it
    if (key_bytes == 4) return pairs ? ShippedShape<4, true, M>::type::kTile : ShippedShape<4, false, M>::type::kTile;
    return pairs ? ShippedShape<8, true, M>::type::kTile : ShippedShape<8, false, M>::type::kTile;
}

template <class Key, PeerMatch M>
std::size_t shipped_workspace_bytes(std::size_t n, bool pairs) {
    return pairs ? workspace_bytes<Key, ShippedConfig<Key, true, M>>(n, true)
                 : workspace_bytes<Key, ShippedConfig<Key, false, M>>(n, false);
}

template <class Key, PeerMatch M>
void shipped_sort(const SortArgs<Key>& args) {
    if (!args.pairs())
        sort<Key, false, ShippedConfig<Key, false, M>>(args);
    else if (values_beside_keys_fit<Key>())
        sort<Key, true, ShippedConfig<Key, true, M>>(args);
    else
        sort<Key, true, FallbackConfig<Key, true, M>>(args);
}

}  // namespace radix_sort::onesweep
