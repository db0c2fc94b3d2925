// tune/sweep_instructions.cu: variant 5's pass kernel issues 1.46x CUB's instructions for the same
// shared-memory work (NOTES.md, second H200 run). This sweep times the shipped sort against copies
// of its pass kernel that each cut one source of instructions, alone and together:
//   (a) extract  the digit's shift a template parameter (one instantiation per pass: 0, 8, 16, 24),
//                the digit taken by a BFE of immediate position and width 8, and each ballot's bit
//                tested on the key itself; shipped: a run-time shift and width, in three places
//                per key;
//   (b) index    one 64-bit address per thread for the tile's loads (then immediate offsets
//                k * 32), and a signed 32-bit index in the scatter (i * T as an immediate
//                offset); shipped: an unsigned 32-bit index (may wrap, so no immediate offsets)
//                and a 64-bit multiply-add per key in both;
//   (c) ballots  each bit of the peer mask in CUB's sequence (and, setp, vote, a predicated not,
//                and: inline PTX); shipped: the compiler's, which tests each bit twice;
//   (d) branches the leader's atomicAdd predicated (inline PTX) instead of a branch around it,
//                and the scatter of a full tile without a bounds test (one copy of the loop for
//                full tiles, one for the last).
// Every variant keeps the shipped shape (256 x 16, 3 blocks/SM, u32 keys alone, the full 32 bits;
// other keys go to the shipped sort). Each row: the whole sort and its first pass alone (median of
// 10, L2 flushed), t / CUB (the exercise's wrapper, radix_sort_cub.cu), Gkeys/s, and whether the
// output equals CUB's (and, at the partial-tile size, std::sort's).
//
//   sweep_instructions [log2 n[+extra] ...]      default: 20+13 24 28
//
// Static SASS counts behind the predictions (NOTES.md): compile with -DSWEEP_COUNT_FULL_TILE, which
// adds instantiations that assume a full tile (no partial-tile code: what a full tile executes),
// e.g. nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I. -I06_radix_sort -cubin
//      -DSWEEP_COUNT_FULL_TILE 06_radix_sort/tune/sweep_instructions.cu -o si.cubin && cuobjdump -sass si.cubin
// The shipped sort and the CUB wrapper themselves (the sweeps link no course objects).
#include "../radix_sort_5_onesweep.cu"
#include "../radix_sort_cub.cu"

#include "common/device_buffer.h"
#include "common/rng.h"
#include "common/timing.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace radix_sort;
using pmpp::DeviceBuffer;

// Named, not anonymous: radix_sort_cub.cu's anonymous namespace is in scope (using namespace
// radix_sort), and nvcc's kernel stubs cannot tell two anonymous namespaces apart.
namespace sweep_instructions {

using Key = std::uint32_t;
using onesweep::kDigits;
using onesweep::kFullMask;
using ShippedCfg = onesweep::ShippedConfig<Key, false, onesweep::PeerMatch::Ballots>;  // 256 x 16, 3/SM

// What a variant changes (flags, or-ed; 0 is the shipped kernel, copied).
constexpr unsigned kExtract = 1, kIndex = 2, kBallots = 4, kBranches = 8;

// The digit of `bits`: SHIFT < 0, at a run-time shift and width (shipped); else one bfe.u32 of
// immediate position and width.
template <int SHIFT>
__device__ __forceinline__ unsigned digit(unsigned bits, int shift, int width) {
    if constexpr (SHIFT < 0) {
        return digit_of(bits, shift, width);
    } else {
        unsigned d;
        asm("bfe.u32 %0, %1, %2, 8;" : "=r"(d) : "r"(bits), "n"(SHIFT));
        return d;
    }
}

// Bit b of the digit, as the ballots read it: of the digit (SHIFT < 0) or of the key.
template <int SHIFT>
__device__ __forceinline__ unsigned digit_bit(unsigned bits, unsigned d, int b) {
    if constexpr (SHIFT < 0)
        return (d >> b) & 1u;
    else
        return (bits >> (SHIFT + b)) & 1u;
}

// The lanes whose key has the same digit: eight ballots.
template <bool CUB_SEQUENCE, int SHIFT>
__device__ __forceinline__ unsigned lanes_with_same_digit(unsigned bits, unsigned d) {
    if constexpr (CUB_SEQUENCE) {
        // variant 6's ballots (radix_sort_5_onesweep.cuh), on the digit, or with kExtract on bits
        // SHIFT to SHIFT + 7 of the key itself
        static_assert(onesweep::kDigitBits == 8, "eight bit positions below");
        constexpr int kFirst = SHIFT < 0 ? 0 : SHIFT;
        return onesweep::lanes_agreeing_on_bits(
            SHIFT < 0 ? d : bits, std::integer_sequence<int, kFirst, kFirst + 1, kFirst + 2, kFirst + 3, kFirst + 4,
                                                        kFirst + 5, kFirst + 6, kFirst + 7>{});
    } else {  // the shipped code
        unsigned peers = kFullMask;
#pragma unroll
        for (int b = 0; b < onesweep::kDigitBits; ++b) {
            const unsigned ones = __ballot_sync(kFullMask, digit_bit<SHIFT>(bits, d, b));
            peers &= digit_bit<SHIFT>(bits, d, b) ? ones : ~ones;
        }
        return peers;
    }
}

// The leader's atomicAdd, predicated rather than branched around. Only the leader's result is
// read (the shuffle that follows), so the other lanes' `old` may stay unwritten.
__device__ __forceinline__ unsigned leader_add(unsigned* counter, unsigned count, bool leader) {
    unsigned old;
    const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(counter));
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "setp.ne.u32 p, %2, 0;\n\t"
        "@p atom.shared.add.u32 %0, [%1], %3;\n\t}"
        : "=r"(old)
        : "r"(address), "r"(static_cast<unsigned>(leader)), "r"(count)
        : "memory");
    return old;
}

// onesweep::onesweep_pass for u32 keys alone, with the knobs K. SHIFT: the digit's bit offset (kExtract),
// else -1. ASSUME_FULL: only for counting instructions (-DSWEEP_COUNT_FULL_TILE); never launched.
template <class Cfg, unsigned K, int SHIFT, bool ASSUME_FULL = false>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    pass(const Key* __restrict__ keys_in, Key* __restrict__ keys_out, unsigned n, int shift, int width,
         const unsigned* __restrict__ digit_starts, unsigned* tile_counter, unsigned* statuses) {
    static_assert(((K & kExtract) != 0) == (SHIFT >= 0), "a compile-time shift exactly with kExtract");
    constexpr int T = Cfg::kThreads, ITEMS = Cfg::kItems, kTile = Cfg::kTile;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    auto& s = *reinterpret_cast<onesweep::PassStorage<Key, Cfg>*>(shared_bytes);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned my_digit = threadIdx.x;

    // a. The tile number, and the per-warp counters cleared.
    if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
    for (int i = threadIdx.x; i < Cfg::kWarps * kDigits; i += T) (&s.warp_offsets[0][0])[i] = 0;
    __syncthreads();
    const unsigned tile = s.tile;
    const unsigned tile_first = tile * kTile;
    const bool full = ASSUME_FULL || tile_first + kTile <= n;
    const unsigned valid = full ? kTile : n - tile_first;

    // b. Keys, warp-striped; past the end all ones.
    unsigned bits[ITEMS];
    if constexpr ((K & kIndex) == 0) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            const unsigned index = tile_first + onesweep::striped_position<Cfg>(warp, k, lane);
            bits[k] = (full || index < n) ? keys_in[index] : ~0u;
        }
    } else {
        const unsigned first = tile_first + onesweep::striped_position<Cfg>(warp, 0, lane);
        const Key* src = keys_in + first;  // one 64-bit address; the items at immediate offsets
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) bits[k] = (full || first + k * 32u < n) ? src[k * 32] : ~0u;
    }

    // c. Early counts.
    unsigned* warp_counts = s.warp_offsets[warp];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) atomicAdd(&warp_counts[digit<SHIFT>(bits[k], shift, width)], 1u);
    __syncthreads();
    unsigned tile_count = 0;
    if (my_digit < kDigits) {
#pragma unroll
        for (int w = 0; w < Cfg::kWarps; ++w) {
            const unsigned c = s.warp_offsets[w][my_digit];
            s.warp_offsets[w][my_digit] = tile_count;
            tile_count += c;
        }
        onesweep::publish(&statuses[tile * kDigits + my_digit],
                          tile == 0 ? onesweep::kStatusPrefix : onesweep::kStatusAggregate, tile_count);
    }

    // d. Rank.
    unsigned tile_total;
    const unsigned digit_start =
        scan_primitives::block_exclusive_scan<T>(my_digit < kDigits ? tile_count : 0u, tile_total, s.scan);
    if (my_digit < kDigits) {
#pragma unroll
        for (int w = 0; w < Cfg::kWarps; ++w) s.warp_offsets[w][my_digit] += digit_start;
    }
    __syncthreads();
    unsigned rank[ITEMS];
    const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const unsigned d = digit<SHIFT>(bits[k], shift, width);
        const unsigned peers = lanes_with_same_digit<(K & kBallots) != 0, SHIFT>(bits[k], d);
        const unsigned leader = 31u - __clz(peers);
        unsigned base = 0;
        if constexpr ((K & kBranches) != 0) {
            base = leader_add(&warp_counts[d], __popc(peers), lane == leader);
        } else {
            if (lane == leader) base = atomicAdd(&warp_counts[d], __popc(peers));
        }
        base = __shfl_sync(kFullMask, base, leader);
        rank[k] = base + __popc(peers & lanes_below);
    }
    __syncthreads();

    // e. Sorted in shared memory; the look-back meanwhile.
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) s.keys[rank[k]] = bits[k];
    if (my_digit < kDigits) {
        const unsigned before = tile == 0 ? 0u : onesweep::look_back<Cfg>(statuses, tile, my_digit, tile_count);
        s.run_offset[my_digit] = digit_starts[my_digit] + before - digit_start;
    }
    __syncthreads();

    // f. Out, striped: position j of the sorted tile goes to run_offset[digit] + j. With kIndex,
    // the index is the signed run_offset + threadIdx.x (>= -kTile; + i * T it is below n < 2^31),
    // plus i * T: signed, it cannot wrap, so i * T becomes the store's immediate offset. (Adding
    // run_offset to a pointer keys_out + threadIdx.x instead costs 4 instructions a key.)
    const auto write = [&](int i, bool check) {
        const unsigned j = i * T + threadIdx.x;
        const unsigned b = s.keys[j];
        const unsigned offset = s.run_offset[digit<SHIFT>(b, shift, width)];
        if (check && j >= valid) return;
        if constexpr ((K & kIndex) != 0)
            keys_out[static_cast<int>(offset + threadIdx.x) + i * T] = b;
        else
            keys_out[offset + j] = b;
    };
    if constexpr ((K & kBranches) != 0) {
        if (full) {
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) write(i, false);
        } else {
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) write(i, true);
        }
    } else {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) write(i, true);
    }
}

template <class Cfg, unsigned K, int SHIFT>
void launch_pass(const Key* in, Key* out, std::size_t n, int shift, int width, const unsigned* starts,
                 unsigned* tile_counter, unsigned* statuses, unsigned tiles) {
    constexpr std::size_t kShared = sizeof(onesweep::PassStorage<Key, Cfg>);
    static const bool configured = [] {
        pmpp::allow_dynamic_shared_memory(pass<Cfg, K, SHIFT>, kShared, "sweep_instructions's pass");
        return true;
    }();
    (void)configured;
    pass<Cfg, K, SHIFT><<<tiles, Cfg::kThreads, kShared>>>(in, out, static_cast<unsigned>(n), shift, width, starts,
                                                           tile_counter, statuses);
    PMPP_CHECK_LAUNCH();
}

// Pass `pass` of 4 (u32 keys, all 32 bits): the instantiation of its shift.
template <class Cfg, unsigned K>
void run_pass(int pass, const Key* in, Key* out, std::size_t n, const unsigned* starts, unsigned* tile_counter,
              unsigned* statuses, unsigned tiles) {
    const int shift = pass * onesweep::kDigitBits;
    if constexpr ((K & kExtract) == 0) {
        launch_pass<Cfg, K, -1>(in, out, n, shift, 8, starts, tile_counter, statuses, tiles);
    } else {
        switch (pass) {
            case 0: launch_pass<Cfg, K, 0>(in, out, n, shift, 8, starts, tile_counter, statuses, tiles); break;
            case 1: launch_pass<Cfg, K, 8>(in, out, n, shift, 8, starts, tile_counter, statuses, tiles); break;
            case 2: launch_pass<Cfg, K, 16>(in, out, n, shift, 8, starts, tile_counter, statuses, tiles); break;
            default: launch_pass<Cfg, K, 24>(in, out, n, shift, 8, starts, tile_counter, statuses, tiles); break;
        }
    }
}

constexpr int kPasses = 4;

// onesweep::sort for u32 keys alone over all 32 bits, with the variant's pass. Keys the variant's
// signed offsets cannot address (n >= 2^31 - a tile; more than kMaxKeys anyway) go to the shipped
// sort, which throws.
template <class Cfg, unsigned K>
void sort(const Key* keys_in, Key* keys_out, std::size_t n, void* workspace) {
    if (n == 0) return;
    if (n > kMaxKeys || n > static_cast<std::size_t>(INT_MAX) - Cfg::kTile) {
        SortArgs<Key> a;
        a.keys_in = keys_in;
        a.keys_out = keys_out;
        a.n = n;
        a.workspace = workspace;
        onesweep::sort<Key, false, ShippedCfg>(a);
        return;
    }
    const auto w = onesweep::layout<Key, Cfg>(workspace, n, false, kPasses);
    PMPP_CUDA_CHECK(cudaMemsetAsync(w.histograms, 0, w.cleared_bytes));
    const unsigned sms = static_cast<unsigned>(pmpp::device_limits().sm_count);
    constexpr std::size_t kRound = static_cast<std::size_t>(onesweep::kHistogramThreads) * onesweep::kHistogramItems;
    const std::size_t rounds = (n + kRound - 1) / kRound;
    const unsigned histogram_blocks = static_cast<unsigned>(rounds < 4u * sms ? rounds : 4u * sms);
    onesweep::histogram_all_digits<Key>
        <<<histogram_blocks, onesweep::kHistogramThreads>>>(keys_in, n, 0, 32, kPasses, w.histograms);
    PMPP_CHECK_LAUNCH();
    onesweep::scan_histograms<<<kPasses, kDigits>>>(w.histograms);
    PMPP_CHECK_LAUNCH();
    for (int p = 0; p < kPasses; ++p) {
        const auto keys = pass_buffers(p, kPasses, keys_in, keys_out, w.keys);
        run_pass<Cfg, K>(p, keys.src, keys.dst, n, w.histograms + static_cast<std::size_t>(p) * kDigits,
                         w.tile_counters + p, w.statuses + static_cast<std::size_t>(p) * w.tiles * kDigits,
                         static_cast<unsigned>(w.tiles));
    }
}

template <class T>
__global__ void count_differences(const T* a, const T* b, std::size_t n, unsigned long long* count) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += a[i] != b[i];
    if (local != 0) atomicAdd(count, local);
}

unsigned long long differences(const Key* a, const Key* b, std::size_t n) {
    DeviceBuffer<unsigned long long> count(1);
    PMPP_CUDA_CHECK(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
    count_differences<<<1024, 256>>>(a, b, n, count.data());
    PMPP_CHECK_LAUNCH();
    return count.to_host()[0];
}

// One size: CUB (the wrapper), the shipped sort, then each variant.
class Sweep {
public:
    Sweep(std::size_t n, pmpp::L2Flusher& flusher) : n_(n), flusher_(flusher) {
        pmpp::Rng rng(42);
        std::vector<Key> keys(n);
        for (auto& k : keys) k = rng.next_u32();
        keys_in_.upload(keys);
        keys_out_.resize(n);
        cub_keys_.resize(n);
        timing_.repeats = 10;
        timing_.warmup = 2;
        DeviceBuffer<unsigned char> cub_workspace(radix_sort_cub_workspace_bytes<Key>(n, false));
        SortArgs<Key> a;
        a.keys_in = keys_in_.data();
        a.keys_out = cub_keys_.data();
        a.n = n;
        a.workspace = cub_workspace.data();
        cub_ms_ = pmpp::time_device(timing_, &flusher_, [&] { radix_sort_cub<Key>(a); }).median;
        if (n <= (std::size_t{1} << 22)) {  // the partial-tile size: CUB checked against std::sort too
            std::sort(keys.begin(), keys.end());
            cpu_wrong_ = 0;
            const std::vector<Key> cub = cub_keys_.to_host();
            for (std::size_t i = 0; i < n; ++i) cpu_wrong_ += cub[i] != keys[i];
        }
        std::printf("\nu32 keys, n = %zu (%zu full tiles of %d and %zu keys): CUB %.3f ms (%.1f Gkeys/s)%s\n", n,
                    n / ShippedCfg::kTile, ShippedCfg::kTile, n % ShippedCfg::kTile, cub_ms_, n / (cub_ms_ * 1e6),
                    cpu_wrong_ < 0    ? ""
                    : cpu_wrong_ == 0 ? ", = std::sort"
                                      : (", WRONG against std::sort: " + std::to_string(cpu_wrong_)).c_str());
        std::printf("  %-40s %9s %9s %9s %8s  %s\n", "variant", "sort ms", "Gkeys/s", "t/CUB", "pass1 ms", "output");
    }

    // The shipped sort, through its own entry point.
    void run_shipped() {
        DeviceBuffer<unsigned char> workspace(radix_sort_onesweep_workspace_bytes<Key>(n_, false));
        SortArgs<Key> a;
        a.keys_in = keys_in_.data();
        a.keys_out = keys_out_.data();
        a.n = n_;
        a.workspace = workspace.data();
        const double ms = pmpp::time_device(
                              timing_, &flusher_, [&] { radix_sort_onesweep<Key>(a); }, [&] { poison(); })
                              .median;
        report("shipped (radix_sort_onesweep)", ms, -1);
    }

    template <unsigned K>
    void run(const char* name) {
        using Cfg = ShippedCfg;
        DeviceBuffer<unsigned char> workspace(onesweep::workspace_bytes<Key, Cfg>(n_, false));
        const double ms =
            pmpp::time_device(
                timing_, &flusher_, [&] { sort<Cfg, K>(keys_in_.data(), keys_out_.data(), n_, workspace.data()); },
                [&] { poison(); })
                .median;
        const unsigned long long wrong = differences(keys_out_.data(), cub_keys_.data(), n_);
        // The first pass alone, on the histograms the sorts left: its tile counter and statuses
        // cleared before each run, untimed.
        const auto w = onesweep::layout<Key, Cfg>(workspace.data(), n_, false, kPasses);
        const auto keys = pass_buffers(0, kPasses, static_cast<const Key*>(keys_in_.data()), keys_out_.data(), w.keys);
        const std::size_t clear =
            static_cast<std::size_t>(reinterpret_cast<char*>(w.statuses + kPasses * w.tiles * kDigits) -
                                     reinterpret_cast<char*>(w.tile_counters));
        double pass_ms = -1;
        if (n_ <= kMaxKeys && n_ <= static_cast<std::size_t>(INT_MAX) - Cfg::kTile)
            pass_ms = pmpp::time_device(
                          timing_, &flusher_,
                          [&] {
                              run_pass<Cfg, K>(0, keys.src, keys.dst, n_, w.histograms, w.tile_counters, w.statuses,
                                               static_cast<unsigned>(w.tiles));
                          },
                          [&] { PMPP_CUDA_CHECK(cudaMemsetAsync(w.tile_counters, 0, clear)); })
                          .median;
        report(name, ms, pass_ms, wrong);
    }

private:
    // Before every run, untimed: a key the sort never writes is caught, not left from the last row.
    void poison() { keys_out_.poison(0x5A); }

    void report(const char* name, double ms, double pass_ms, long long wrong = -1) {
        if (wrong < 0) wrong = static_cast<long long>(differences(keys_out_.data(), cub_keys_.data(), n_));
        char pass_text[32] = "-";
        if (pass_ms >= 0) std::snprintf(pass_text, sizeof pass_text, "%.3f", pass_ms);
        std::printf("  %-40s %9.3f %9.1f %9.3f %8s  %s\n", name, ms, n_ / (ms * 1e6), ms / cub_ms_, pass_text,
                    wrong == 0 ? "ok" : ("WRONG: " + std::to_string(wrong) + " differ from CUB").c_str());
    }

    std::size_t n_;
    pmpp::L2Flusher& flusher_;
    pmpp::TimingOptions timing_;
    DeviceBuffer<Key> keys_in_, keys_out_, cub_keys_;
    double cub_ms_ = 0;
    long long cpu_wrong_ = -1;
};

constexpr unsigned kCopy = 0, kA = kExtract, kB = kIndex, kC = kBallots, kD = kBranches;
constexpr unsigned kAB = kA | kB, kABC = kAB | kC, kABCD = kABC | kD;

void sweep_size(std::size_t n, pmpp::L2Flusher& flusher) {
    Sweep s(n, flusher);
    s.run_shipped();
    s.run<kCopy>("copy of the shipped pass");
    s.run<kA>("(a) compile-time shift, bfe");
    s.run<kB>("(b) 32-bit offsets, one address");
    s.run<kC>("(c) CUB's ballot sequence");
    s.run<kD>("(d) predicated leader, full-tile scatter");
    s.run<kAB>("(a)+(b)");
    s.run<kABC>("(a)+(b)+(c)");
    s.run<kABCD>("(a)+(b)+(c)+(d)");
}

#ifdef SWEEP_COUNT_FULL_TILE
// For cuobjdump only: each variant's pass (bits 8-15) as a full tile runs it.
#define SWEEP_FULL_TILE(K, SHIFT)                                                                                    \
    template __global__ void pass<ShippedCfg, K, SHIFT, true>(const Key*, Key*, unsigned, int, int, const unsigned*, \
                                                              unsigned*, unsigned*);
SWEEP_FULL_TILE(kCopy, -1)
SWEEP_FULL_TILE(kA, 8)
SWEEP_FULL_TILE(kB, -1)
SWEEP_FULL_TILE(kC, -1)
SWEEP_FULL_TILE(kD, -1)
SWEEP_FULL_TILE(kAB, 8)
SWEEP_FULL_TILE(kABC, 8)
SWEEP_FULL_TILE(kABCD, 8)
template __global__ void pass<onesweep::Config<384, 20, 2, onesweep::PeerMatch::Ballots>, kCopy, -1, true>(
    const Key*, Key*, unsigned, int, int, const unsigned*, unsigned*, unsigned*);  // the shape ncu profiled
#endif

}  // namespace sweep_instructions

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes;
    for (int i = 1; i < argc; ++i) {
        char* rest = nullptr;
        const long lg = std::strtol(argv[i], &rest, 10);
        const long extra = (rest != nullptr && *rest == '+') ? std::strtol(rest + 1, nullptr, 10) : 0;
        sizes.push_back((std::size_t{1} << lg) + static_cast<std::size_t>(extra));
    }
    if (sizes.empty()) sizes = {(std::size_t{1} << 20) + 13, std::size_t{1} << 24, std::size_t{1} << 28};
    try {
        pmpp::L2Flusher flusher;
        for (std::size_t n : sizes) sweep_instructions::sweep_size(n, flusher);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const pmpp::CudaError& e) {
        std::fprintf(stderr, "sweep_instructions: %s\n", e.what());
        return 3;
    }
    return 0;
}
