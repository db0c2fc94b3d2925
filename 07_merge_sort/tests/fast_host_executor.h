// tests/fast_host_executor.h: the fast variant's kernels emulated on the host, for the drivers of
// merge_sort_4_fast.cuh (an executor: sort_tiles, partition, merge_tiles). It plays each block's
// threads one after another between the kernels' barriers, calling the same TileSteps the kernels
// call. tests/test_fast_steps.cu runs variant 4's sort and merge on it; tests/test_network_tiles.cu
// runs variant 5's merge passes on it. judge_host_sort: a host sort judged as the harness judges
// a GPU run.
#pragma once

#include "../merge_sort_4_fast.cuh"
#include "../harness/merge_sort_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace merge_sort::fast {
namespace {

// What a block's kernel does, thread by thread; `lanes` is the partition's group size.
template <int Lanes>
struct HostExecutor {
    template <class Cfg, class Key, class Value, class Less>
    static void sort_tiles(const Key* in, const Value* in_values, Key* out, Value* out_values, std::size_t n,
                           Less less) {
        using Steps = TileSteps<Cfg::kSortThreads, Cfg::kItems>;
        std::vector<Key> s_keys(Cfg::kSortTile + 1);  // a spare slot, as shared_bytes
        std::vector<Value> s_values(Cfg::kSortTile);
        for (std::size_t base = 0; base < n; base += Cfg::kSortTile) {
            const int count = static_cast<int>(std::min<std::size_t>(Cfg::kSortTile, n - base));
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::load(tid, in + base, offset(in_values, base), count, in + base, offset(in_values, base), count,
                            s_keys.data(), s_values.data());
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::sort_own_items(tid, count, s_keys.data(), s_values.data(), less);
            for (int run = Cfg::kItems; run < count; run *= 2) {
                std::vector<ThreadItems<Cfg::kItems, Key, Value>> items(Cfg::kSortThreads);
                for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                    Steps::merge_round_items(tid, run, count, s_keys.data(), s_values.data(), items[tid], less);
                for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                    Steps::write_items(items[tid], s_keys.data(), s_values.data());
            }
            for (int tid = 0; tid < Cfg::kSortThreads; ++tid)
                Steps::store(tid, count, s_keys.data(), s_values.data(), out + base, offset(out_values, base));
        }
    }

    template <class Layout, class Less>
    static void partition(const Layout& runs, std::size_t tile, std::size_t tiles, std::size_t* splits, Less less) {
        for (std::size_t t = 0; t < tiles; ++t) {
            const std::size_t k = tile_start(runs, tile, t);
            const auto pair = runs.pair_containing(k);
            const std::size_t diag = k - pair.first;
            SearchRange r = co_rank_range(pair, diag);
            while (r.lo < r.hi) {  // what the ballot counts: lanes whose probe lies before the answer
                int before = 0;
                for (int lane = 0; lane < Lanes; ++lane)
                    before += probe_is_before(pair, diag, kary_probe(r, lane, Lanes), less);
                r = kary_narrow(r, Lanes, before);
            }
            splits[t] = r.lo;
        }
    }

    template <class Cfg, class Layout, class Key, class Value, class Less>
    static void merge_tiles(const Layout& runs, std::size_t tiles, const std::size_t* splits, Key* out,
                            Value* out_values, Less less) {
        using Steps = TileSteps<Cfg::kMergeThreads, Cfg::kItems>;
        std::vector<Key> s_keys(Cfg::kMergeTile + 1);  // a spare slot, as shared_bytes
        std::vector<Value> s_values(Cfg::kMergeTile);
        for (std::size_t t = 0; t < tiles; ++t) {
            const auto src = tile_source(runs, Cfg::kMergeTile, t, splits);
            const auto& pair = src.pair;
            const int na = static_cast<int>(src.a_end - src.a_begin), nb = static_cast<int>(src.b_end - src.b_begin);
            ASSERT_LE(na + nb, Cfg::kMergeTile);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::load(tid, pair.a + src.a_begin, offset(pair.av, src.a_begin), na, pair.b + src.b_begin,
                            offset(pair.bv, src.b_begin), na + nb, s_keys.data(), s_values.data());
            std::vector<ThreadItems<Cfg::kItems, Key, Value>> items(Cfg::kMergeThreads);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::merge_items(s_keys.data(), s_values.data(), 0, na, na, nb, std::min(tid * Cfg::kItems, na + nb),
                                   items[tid], less);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::write_items(items[tid], s_keys.data(), s_values.data());
            const std::size_t k = tile_start(runs, Cfg::kMergeTile, t);
            for (int tid = 0; tid < Cfg::kMergeThreads; ++tid)
                Steps::store(tid, na + nb, s_keys.data(), s_values.data(), out + k, offset(out_values, k));
        }
    }
};

// sort(args, n) on host arrays: the input drawn as the harness draws it, the outputs poisoned as
// on the device; the result judged as the harness judges a GPU run (the output, and the input
// left unchanged).
template <class Key, class Value, class Sort>
pmpp::CheckResult judge_host_sort(std::size_t n, pmpp::Distribution dist, std::uint64_t seed, Sort sort) {
    const SortInputs<Key, Value> in = sort_inputs<Key, Value>(n, dist, seed);
    const SortInputs<Key, Value> pristine = in;
    SortInputs<Key, Value> out;
    out.keys.assign(n, Key{});
    std::vector<Key> keys_scratch(n);
    std::vector<Value> values_out(kHasValues<Value> ? n : 0), values_scratch(kHasValues<Value> ? n : 0);
    std::vector<std::size_t> splits(split_capacity(n));
    std::memset(static_cast<void*>(out.keys.data()), 0xFF, n * sizeof(Key));  // poisoned, as on the device
    std::memset(static_cast<void*>(keys_scratch.data()), 0xFF, n * sizeof(Key));
    SortArgs<Key, Value> args;
    args.keys_in = in.keys.data();
    args.keys_out = out.keys.data();
    args.keys_scratch = keys_scratch.data();
    args.splits = splits.data();
    if constexpr (kHasValues<Value>) {
        args.values_in = in.values.data();
        args.values_out = values_out.data();
        args.values_scratch = values_scratch.data();
    }
    sort(args, n);
    if constexpr (kHasValues<Value>) out.values = values_out;
    if (n > 0 && std::memcmp(pristine.keys.data(), in.keys.data(), n * sizeof(Key)) != 0)
        return pmpp::CheckResult::fail("the sort modified keys_in");
    if constexpr (kHasValues<Value>)
        if (n > 0 && std::memcmp(pristine.values.data(), in.values.data(), n * sizeof(Value)) != 0)
            return pmpp::CheckResult::fail("the sort modified values_in");
    return judge_sort(in, expected_sort(in), out);
}

}  // namespace
}  // namespace merge_sort::fast
