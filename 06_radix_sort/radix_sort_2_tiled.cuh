// radix_sort_2_tiled.cuh: one pass of the radix sorts of variants 2-4, which answer PMPP
// chapter 13's exercises 1-3 with the same three steps and different parameters:
//
//   kDigitBits  bits sorted per pass (1: exercise 1; 4: exercises 2 and 3), 2^kDigitBits buckets
//   kThreads    threads per block; kItems keys per thread (1; 8 in exercise 3, thread coarsening)
//
// A pass over one digit, with the keys cut into tiles of kThreads * kItems:
//  1. count_digits: each tile counts its keys of each digit, into a table laid out digit-major:
//     table[d * tiles + t]. Each warp counts with ballots (lane d adds up the keys whose digit
//     is d), so no two threads ever update one counter.
//  2. 02's exclusive scan of the table: entry (d, t) becomes the number of keys that go before
//     tile t's keys of digit d in the output: every key of a smaller digit, and those of digit d
//     in earlier tiles. That is where tile t's run of digit d starts in the output.
//  3. sort_tile_and_scatter: each tile sorts itself by the digit in shared memory (one stable
//     split per bit, least significant first, as PMPP 13.3 describes), then writes its keys in
//     that order: consecutive threads write consecutive addresses within each digit's run, so
//     the writes coalesce (the point of exercise 1). A key's address: the run's start from the
//     table, plus its position in the sorted tile, minus where its digit starts in the tile.
// Traffic per pass: read the keys twice and write them once (12 bytes per 4-byte key), plus
// the table (2^kDigitBits ints per tile, read and written by the scan).
#pragma once

#include "radix_sort.h"

#include "../02_scan/scan.h"
#include "common/primitives/scan.cuh"

#include "common/cuda_check.h"

#include <string>

namespace radix_sort::tiled {

template <int DIGIT_BITS, int THREADS, int ITEMS>
struct Config {
    static_assert(DIGIT_BITS >= 1 && DIGIT_BITS <= 5, "at most 32 buckets: one per lane of a warp");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps");
    static constexpr int kDigitBits = DIGIT_BITS;
    static constexpr int kDigits = 1 << DIGIT_BITS;
    static constexpr int kThreads = THREADS;
    static constexpr int kItems = ITEMS;
    static constexpr int kTile = THREADS * ITEMS;
};

constexpr unsigned kFullMask = 0xFFFFFFFFu;

// Shared-memory index with one spare word every 32: in the blocked order below, thread t reads
// elements t * kItems + i; without padding a warp's 32 reads would share kItems banks.
__host__ __device__ constexpr unsigned padded(unsigned i) { return i + i / 32; }

// Step 1. One block per tile. Lane d of each warp counts the warp's keys whose digit is d:
// a key is counted by lane d when, for every bit b of the digit, its bit b equals d's bit b,
// which the ballots of the digit's bits tell every lane at once.
template <class Key, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
    count_digits(const Key* keys, std::size_t n, int shift, int width, int* table, unsigned tiles) {
    constexpr int kWarps = Cfg::kThreads / 32;
    __shared__ unsigned warp_counts[kWarps][Cfg::kDigits];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const std::size_t tile_first = static_cast<std::size_t>(blockIdx.x) * Cfg::kTile;
    unsigned count = 0;  // lane d: keys of digit d seen by this warp
#pragma unroll
    for (int i = 0; i < Cfg::kItems; ++i) {
        const std::size_t index = tile_first + static_cast<std::size_t>(i) * Cfg::kThreads + threadIdx.x;
        const bool valid = index < n;
        const unsigned digit = valid ? digit_of(to_bits(keys[index]), shift, width) : 0u;
        unsigned match = __ballot_sync(kFullMask, valid);
#pragma unroll
        for (int b = 0; b < Cfg::kDigitBits; ++b) {
            const unsigned ones = __ballot_sync(kFullMask, (digit >> b) & 1u);
            match &= ((lane >> b) & 1u) ? ones : ~ones;
        }
        count += __popc(match);
    }
    if (lane < Cfg::kDigits) warp_counts[warp][lane] = count;
    __syncthreads();
    if (threadIdx.x < Cfg::kDigits) {
        unsigned total = 0;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) total += warp_counts[w][threadIdx.x];
        table[static_cast<std::size_t>(threadIdx.x) * tiles + blockIdx.x] = static_cast<int>(total);
    }
}

template <class Key, bool PAIRS, class Cfg>
struct TileStorage {
    BitsOf<Key> keys[padded(Cfg::kTile)];
    Value values[PAIRS ? padded(Cfg::kTile) : 1];
    unsigned digit_start[Cfg::kDigits];  // where each digit's run starts in the sorted tile
    unsigned run_start[Cfg::kDigits];  // where this tile's run of each digit starts in the output
    scan_primitives::BlockScanStorage<Cfg::kThreads> scan;
};

// Step 3. One block per tile: load the tile (coalesced), sort it by the digit with one stable
// split per bit, then write each key to its run (coalesced within runs).
template <class Key, bool PAIRS, class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
    sort_tile_and_scatter(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, std::size_t n,
                          int shift, int width, const int* run_starts, unsigned tiles) {
    using Bits = BitsOf<Key>;
    constexpr int T = Cfg::kThreads, K = Cfg::kItems, kTile = Cfg::kTile;
    __shared__ TileStorage<Key, PAIRS, Cfg> s;
    const std::size_t tile_first = static_cast<std::size_t>(blockIdx.x) * kTile;
    const unsigned valid = static_cast<unsigned>(n - tile_first < kTile ? n - tile_first : kTile);

    // Load in striped order (consecutive threads, consecutive keys). Past the end: keys of all
    // ones, which have the largest digit and come last in the tile: they sort to its end and
    // are never written.
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const unsigned j = i * T + threadIdx.x;
        s.keys[padded(j)] = j < valid ? to_bits(keys_in[tile_first + j]) : ~Bits{0};
        if constexpr (PAIRS) s.values[padded(j)] = j < valid ? values_in[tile_first + j] : 0u;
    }
    if (threadIdx.x < Cfg::kDigits)
        s.run_start[threadIdx.x] = run_starts[static_cast<std::size_t>(threadIdx.x) * tiles + blockIdx.x];
    __syncthreads();

    // Blocked order for the splits: thread t holds the tile's elements t*K .. t*K + K-1, so a
    // thread's ones-before count is its predecessors' plus its own, in tile order.
    Bits key[K];
    Value value[K];
    const unsigned first = threadIdx.x * K;
#pragma unroll
    for (int i = 0; i < K; ++i) {
        key[i] = s.keys[padded(first + i)];
        if constexpr (PAIRS) value[i] = s.values[padded(first + i)];
    }
    for (int b = 0; b < width; ++b) {
        const int bit = shift + b;
        unsigned ones = 0;
#pragma unroll
        for (int i = 0; i < K; ++i) ones += static_cast<unsigned>(key[i] >> bit) & 1u;
        unsigned ones_in_tile;
        // Ends with a barrier: every thread has read its keys before anyone writes below.
        unsigned ones_before = scan_primitives::block_exclusive_scan<T>(ones, ones_in_tile, s.scan);
        const unsigned zeros_in_tile = kTile - ones_in_tile;
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const unsigned one = static_cast<unsigned>(key[i] >> bit) & 1u;
            const unsigned dst = one ? zeros_in_tile + ones_before : first + i - ones_before;
            ones_before += one;
            s.keys[padded(dst)] = key[i];
            if constexpr (PAIRS) s.values[padded(dst)] = value[i];
        }
        __syncthreads();
        if (b + 1 < width) {
#pragma unroll
            for (int i = 0; i < K; ++i) {
                key[i] = s.keys[padded(first + i)];
                if constexpr (PAIRS) value[i] = s.values[padded(first + i)];
            }
        }
    }

    // The tile is sorted by the digit. Each run of a digit starts where the digit changes.
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const unsigned j = i * T + threadIdx.x;
        const unsigned d = digit_of(s.keys[padded(j)], shift, width);
        if (j == 0 || digit_of(s.keys[padded(j - 1)], shift, width) != d) s.digit_start[d] = j;
    }
    __syncthreads();

    // Striped again for the writes: consecutive threads write consecutive addresses of a run.
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const unsigned j = i * T + threadIdx.x;
        if (j >= valid) continue;
        const Bits bits = s.keys[padded(j)];
        const unsigned d = digit_of(bits, shift, width);
        const std::size_t dst = static_cast<std::size_t>(s.run_start[d]) + (j - s.digit_start[d]);
        keys_out[dst] = from_bits<Key>(bits);
        if constexpr (PAIRS) values_out[dst] = s.values[padded(j)];
    }
}

template <class Key, class Cfg>
struct Layout {
    Key* keys = nullptr;
    Value* values = nullptr;
    int* table = nullptr;
    void* scan_workspace = nullptr;
    std::size_t tiles = 0;
    std::size_t bytes = 0;
};

template <class Key, class Cfg>
Layout<Key, Cfg> layout(void* base, std::size_t n, bool pairs) {
    Workspace w(base);
    Layout<Key, Cfg> l;
    l.tiles = (n + Cfg::kTile - 1) / Cfg::kTile;
    const std::size_t entries = Cfg::kDigits * l.tiles;
    l.keys = w.take<Key>(n);
    l.values = w.take<Value>(pairs ? n : 0);
    l.table = w.take<int>(entries);
    l.scan_workspace = w.take<unsigned char>(scan::scan_single_pass_workspace_bytes(entries));
    l.bytes = w.bytes();
    return l;
}

template <class Key, class Cfg>
std::size_t workspace_bytes(std::size_t n, bool pairs) {
    return layout<Key, Cfg>(nullptr, n, pairs).bytes;
}

template <class Key, class Cfg>
void sort(const SortArgs<Key>& a) {
    const std::size_t n = a.n;
    if (n == 0) return;
    const Layout<Key, Cfg> w = layout<Key, Cfg>(a.workspace, n, a.pairs());
    const int passes = pass_count(a.begin_bit, a.end_bit, Cfg::kDigitBits);
    if (passes == 0) {
        PMPP_CUDA_CHECK(cudaMemcpyAsync(a.keys_out, a.keys_in, n * sizeof(Key), cudaMemcpyDeviceToDevice));
        if (a.pairs())
            PMPP_CUDA_CHECK(cudaMemcpyAsync(a.values_out, a.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
        return;
    }
    const unsigned tiles = static_cast<unsigned>(w.tiles);
    const std::size_t entries = Cfg::kDigits * w.tiles;
    const double key_bytes = static_cast<double>(n * sizeof(Key));
    const double value_bytes = a.pairs() ? 4.0 * n : 0.0;
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = a.begin_bit + pass * Cfg::kDigitBits;
        const int width = a.end_bit - shift < Cfg::kDigitBits ? a.end_bit - shift : Cfg::kDigitBits;
        const auto keys = pass_buffers(pass, passes, a.keys_in, a.keys_out, w.keys);
        count_digits<Key, Cfg><<<tiles, Cfg::kThreads>>>(keys.src, n, shift, width, w.table, tiles);
        PMPP_CHECK_LAUNCH();
        a.mark("count digits per tile", key_bytes);
        scan::exclusive_scan_single_pass(w.table, w.table, entries, w.scan_workspace);
        a.mark("scan the tile counts (02's scan)", 8.0 * entries);
        if (a.pairs()) {
            const auto values = pass_buffers(pass, passes, a.values_in, a.values_out, w.values);
            sort_tile_and_scatter<Key, true, Cfg>
                <<<tiles, Cfg::kThreads>>>(keys.src, keys.dst, values.src, values.dst, n, shift, width, w.table, tiles);
        } else {
            sort_tile_and_scatter<Key, false, Cfg>
                <<<tiles, Cfg::kThreads>>>(keys.src, keys.dst, nullptr, nullptr, n, shift, width, w.table, tiles);
        }
        PMPP_CHECK_LAUNCH();
        a.mark("sort each tile, scatter coalesced", 2 * (key_bytes + value_bytes));
    }
}

}  // namespace radix_sort::tiled
