// merge_sort_4_fast_steps.cuh: the tile shapes (Config) of the fast merge and sort and what one
// thread does in each phase of a block (TileSteps), as host-and-device functions: the k-ary
// co-rank search of the partition, the loads and stores, the merges in registers, and where a
// merge tile's pieces of A and B start. merge_sort_4_fast.cuh's kernels call them between
// __syncthreads(); tests/test_fast_steps.cu calls them in a host loop over a block's threads.
#pragma once

#include "merge_sort_1_basic.cuh"

#include "common/bits.h"

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
PMPP_HD std::size_t kary_probe(SearchRange r, int lane, int lanes) {
    const std::size_t span = r.hi - r.lo;
    if (span < (std::size_t{1} << 26))  // the same quotient in 32 bits: a 64-bit division is a long routine
        return r.lo + static_cast<unsigned>(span) * static_cast<unsigned>(lane + 1) / static_cast<unsigned>(lanes + 1);
    return r.lo + span * static_cast<std::size_t>(lane + 1) / static_cast<std::size_t>(lanes + 1);
}
// `before`: how many lanes found their probe p before the answer (i.e. co_rank > p).
PMPP_HD SearchRange kary_narrow(SearchRange r, int lanes, int before) {
    if (before == 0) return {r.lo, kary_probe(r, 0, lanes)};
    const std::size_t lo = kary_probe(r, before - 1, lanes) + 1;
    return {lo, before < lanes ? kary_probe(r, before, lanes) : r.hi};
}
// The co-rank search's test at probe p: true when A[p] is among the first `diag` outputs.
template <class Key, class Value, class Less>
PMPP_HD bool probe_is_before(const RunPair<Key, Value>& pair, std::size_t diag, std::size_t p, Less less) {
    return !less(pair.b[diag - 1 - p], pair.a[p]);
}
template <class Key, class Value>
PMPP_HD SearchRange co_rank_range(const RunPair<Key, Value>& pair, std::size_t diag) {
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
    PMPP_HD static void load(int tid, const Key* a, const Value* av, int na, const Key* b, const Value* bv, int count,
                             Key* s_keys, Value* s_values) {
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
    PMPP_HD static void store(int tid, int count, const Key* s_keys, const Value* s_values, Key* out,
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
    PMPP_HD static void sort_own_items(int tid, int count, Key* s_keys, Value* s_values, Less less) {
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
    PMPP_HD static void transposition_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS], int own, Less less) {
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
    PMPP_HD static void merge_items(const Key* s_keys, const Value* s_values, int a_begin, int na, int b_begin, int nb,
                                    int diag, ThreadItems<ITEMS, Key, Value>& out, Less less) {
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
    PMPP_HD static void merge_round_items(int tid, int run, int count, const Key* s_keys, const Value* s_values,
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
    PMPP_HD static void write_items(const ThreadItems<ITEMS, Key, Value>& items, Key* s_keys, Value* s_values) {
        MERGE_SORT_UNROLL
        for (int j = 0; j < ITEMS; ++j) {
            if (j < items.count) {
                s_keys[items.first + j] = items.keys[j];
                if constexpr (kHasValues<Value>) s_values[items.first + j] = items.values[j];
            }
        }
    }
};

// ---- Which outputs a merge tile covers ---------------------------------------------------------
// Tile t of a pass over SortedRuns (or TwoArrays) covers outputs [t * tile, (t + 1) * tile): no
// tile straddles two pairs of runs, because every pair is a whole number of tiles (the sort's runs
// are kSortTile * 2^p: Config's static_assert). Runs whose pairs are not, such as variant 5's runs
// of 8192 or 16384 keys against merge tiles of 256 x 17 = 4352 (a pair is a power of two, a tile
// has a factor 17), are laid out as PairTiledRuns: the tiles start again at every pair, and the
// last tile of each pair is shorter.
template <class Layout>
PMPP_HD std::size_t tile_start(const Layout&, std::size_t tile, std::size_t t) {
    return t * tile;
}
template <class Layout>
PMPP_HD std::size_t tile_count(const Layout& runs, std::size_t tile) {
    return (runs.size() + tile - 1) / tile;
}

template <class Key, class Value>
struct PairTiledRuns : SortedRuns<Key, Value> {
    std::uint32_t tiles_per_pair;  // ceil(2 width / tile)
};
// Tile t: pair t / tiles_per_pair, and within it tile t % tiles_per_pair. (32-bit division: a
// pass has fewer than 2^32 tiles; a 64-bit division is a long routine on the GPU.)
template <class Key, class Value>
PMPP_HD std::size_t tile_start(const PairTiledRuns<Key, Value>& runs, std::size_t tile, std::size_t t) {
    const auto t32 = static_cast<std::uint32_t>(t);
    const std::uint32_t pair = t32 / runs.tiles_per_pair;
    return pair * 2 * runs.width + static_cast<std::size_t>(t32 - pair * runs.tiles_per_pair) * tile;
}
template <class Key, class Value>
PMPP_HD std::size_t tile_count(const PairTiledRuns<Key, Value>& runs, std::size_t tile) {
    const std::size_t pair = 2 * runs.width;
    return runs.n / pair * runs.tiles_per_pair + (runs.n % pair + tile - 1) / tile;
}

// Merge tile t of `runs`: its pair, and the pieces [a_begin, a_end) of the pair's A and
// [b_begin, b_end) of its B that merge into the tile, from the partition's split positions.
template <class Pair>
struct TileSource {
    Pair pair;
    std::size_t a_begin, a_end, b_begin, b_end;
};
template <class Layout>
PMPP_HD auto tile_source(const Layout& runs, std::size_t tile, std::size_t t, const std::size_t* splits) {
    const std::size_t k = tile_start(runs, tile, t);
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

}  // namespace merge_sort::fast
