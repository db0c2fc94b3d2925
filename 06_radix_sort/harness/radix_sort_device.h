// radix_sort_device.h: what exercise 06's check and benchmark share on the device: one sort's arrays
// between guard zones, the tiles the hints name, and the input-unchanged rule.
#pragma once

#include "radix_sort_harness.h"

#include "common/check_hints.h"
#include "common/device_buffer.h"

#include <cstddef>

namespace radix_sort {

// Device arrays for one sort: the input uploaded; the outputs and the workspace allocated
// between guard zones (a write past either end of anything the sort may write is caught),
// named as radix_sort.h names them.
template <class Key>
struct DeviceSort {
    pmpp::DeviceBuffer<Key> keys_in;
    pmpp::DeviceBuffer<Value> values_in;
    pmpp::GuardedBuffer<Key> keys_out;
    pmpp::GuardedBuffer<Value> values_out;  // no elements for keys alone (args.values_out is null then)
    pmpp::GuardedBuffer<unsigned char> workspace;
    bool pairs = false;
    SortArgs<Key> args;

    DeviceSort(const SortData<Key>& in, std::size_t workspace_bytes, BitSpan bits)
        : keys_out(in.keys.size(), "keys_out"),
          values_out(in.pairs ? in.keys.size() : 0, "values_out"),
          workspace(workspace_bytes, "the workspace"),
          pairs(in.pairs) {
        const std::size_t n = in.keys.size();
        keys_in.upload(in.keys);
        if (in.pairs) values_in.upload(in.values);
        args.keys_in = keys_in.data();
        args.keys_out = keys_out.data();
        args.values_in = in.pairs ? values_in.data() : nullptr;
        args.values_out = in.pairs ? values_out.data() : nullptr;
        args.n = n;
        args.begin_bit = bits.begin;
        args.end_bit = bits.end;
        args.workspace = workspace.data();
    }
    // Before every run: 0xFF bytes everywhere the sort writes (an element never written cannot
    // pass; no sort may rely on zeroed scratch memory), every guard zone armed again.
    void poison() {
        keys_out.poison();
        values_out.poison();
        workspace.poison();
    }
    // After every run, before anything else: did the sort write outside what it was given?
    pmpp::CheckResult check_guards() const {
        pmpp::CheckResult r = keys_out.check_guards();
        if (r.ok && pairs) r = values_out.check_guards();
        if (r.ok) r = workspace.check_guards();
        return r;
    }
    SortData<Key> output() const {
        SortData<Key> out;
        out.keys = keys_out.to_host();
        out.pairs = pairs;
        if (pairs) out.values = values_out.to_host();
        return out;
    }
};

// The tiles the sorts of this exercise cut the keys into, for the check's hints to name ("from
// index 768, the start of tile 3"): 256 keys (tasks 6-7 and variants 2-3: a block of 256 threads,
// a key each), 2048 (task 8 and variant 4: 8 keys a thread), and variant 5's tile for this key
// size, with values or not.
template <class Key>
pmpp::HintContext tile_boundaries(bool pairs) {
    pmpp::HintContext context;
    context.boundaries = {
        {256, "tile"}, {2048, "coarsened tile"}, {onesweep_tile_keys(sizeof(Key), pairs), "Onesweep tile"}};
    return context;
}

inline pmpp::CheckResult and_input_unchanged(pmpp::CheckResult r, bool unchanged) {
    if (r.ok && !unchanged)
        return pmpp::CheckResult::fail("the input was modified: keys_in and values_in must be left as they were");
    return r;
}

}  // namespace radix_sort
