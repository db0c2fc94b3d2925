// radix_sort_1_one_bit.cu: PMPP Fig. 13.4, the radix sort the chapter starts from: one bit per
// pass, three steps per pass.
//  1. extract: flags[i] = bit b of key i, and flags[n] = 0;
//  2. scan: the exclusive scan of the n + 1 flags gives every key the number of ones before
//     it, and flags[n] the number of ones in all (the book's trick: scan one element more);
//  3. scatter: a zero goes to i - (ones before i), a one to (zeros in all) + (ones before i).
// Both destinations keep the input order within their half: each pass is stable, so after
// the pass over bit b the keys are sorted by bits [begin, b] (LSD order).
// Cost per pass, in bytes per key (4-byte keys): extract 4 + 4, scan 4 + 4 (02's single-pass
// scan), scatter 4 + 4 + 4, its writes split between two places per warp: 28 bytes and 4
// launches per bit, 32 passes for 32-bit keys. The variants after this one cut both.
// The scan is 02_scan's (linked, not copied): the reference runs it on 02's single-pass scan,
// the reference answer (harness/radix_sort_solution.cu) on the student's scan slot.
// Measured (H200, 2026-11-30): 2^28 u32 keys in 77.5 ms (3.46 Gkeys/s, 12x CUB's time); the
// 32 passes' scatters are the largest stage (30.8 ms) (NOTES.md).
#include "radix_sort.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

namespace radix_sort {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

template <class Key>
__global__ void extract_bit(const Key* keys, std::size_t n, int bit, int* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flags[i] = static_cast<int>(bit_of(keys[i], bit));
    if (i == n) flags[n] = 0;  // after the scan: the number of ones in all
}

template <class Key, bool kPairs>
__global__ void scatter_by_bit(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                               std::size_t n, int bit, const int* ones_before) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const Key key = keys_in[i];
    const std::size_t ones = static_cast<std::size_t>(ones_before[i]);
    const std::size_t zeros_in_all = n - static_cast<std::size_t>(ones_before[n]);
    const std::size_t dst = bit_of(key, bit) ? zeros_in_all + ones : i - ones;
    keys_out[dst] = key;
    if constexpr (kPairs) values_out[dst] = values_in[i];
}

template <class Key>
struct Layout {
    Key* keys = nullptr;
    Value* values = nullptr;
    int* flags = nullptr;
    void* scan_workspace = nullptr;
    std::size_t bytes = 0;
};

template <class Key>
Layout<Key> layout(void* base, ScanWorkspaceFn scan_workspace, std::size_t n, bool pairs) {
    Workspace w(base);
    Layout<Key> l;
    l.keys = w.take<Key>(n);
    l.values = w.take<Value>(pairs ? n : 0);
    l.flags = w.take<int>(n + 1);
    l.scan_workspace = w.take<unsigned char>(scan_workspace(n + 1));
    l.bytes = w.bytes();
    return l;
}

}  // namespace

template <class Key>
std::size_t radix_sort_one_bit_with_scan_workspace_bytes(ScanWorkspaceFn scan_workspace, std::size_t n, bool pairs) {
    return layout<Key>(nullptr, scan_workspace, n, pairs).bytes;
}

template <class Key>
void radix_sort_one_bit_with_scan(ScanFn scan, ScanWorkspaceFn scan_workspace, const SortArgs<Key>& a) {
    const std::size_t n = a.n;
    if (n == 0) return;
    const Layout<Key> w = layout<Key>(a.workspace, scan_workspace, n, a.pairs());
    const int passes = pass_count(a.begin_bit, a.end_bit, 1);
    if (passes == 0) {  // no bits to sort by: the output is the input
        PMPP_CUDA_CHECK(cudaMemcpyAsync(a.keys_out, a.keys_in, n * sizeof(Key), cudaMemcpyDeviceToDevice));
        if (a.pairs())
            PMPP_CUDA_CHECK(cudaMemcpyAsync(a.values_out, a.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
        return;
    }
    const double key_bytes = static_cast<double>(n * sizeof(Key));
    for (int pass = 0; pass < passes; ++pass) {
        const int bit = a.begin_bit + pass;
        const auto keys = pass_buffers(pass, passes, a.keys_in, a.keys_out, w.keys);
        extract_bit<<<blocks_for(n + 1), kThreads>>>(keys.src, n, bit, w.flags);
        PMPP_CHECK_LAUNCH();
        a.mark("extract the bit", key_bytes + 4.0 * n);
        scan(w.flags, w.flags, n + 1, w.scan_workspace);  // in place: flags become ones-before counts
        a.mark("scan the flags (02's scan)", 8.0 * n);
        if (a.pairs()) {
            const auto values = pass_buffers(pass, passes, a.values_in, a.values_out, w.values);
            scatter_by_bit<Key, true>
                <<<blocks_for(n), kThreads>>>(keys.src, keys.dst, values.src, values.dst, n, bit, w.flags);
        } else {
            scatter_by_bit<Key, false>
                <<<blocks_for(n), kThreads>>>(keys.src, keys.dst, nullptr, nullptr, n, bit, w.flags);
        }
        PMPP_CHECK_LAUNCH();
        a.mark("scatter", 2 * key_bytes + 4.0 * n + (a.pairs() ? 8.0 * n : 0));
    }
}

template <class Key>
std::size_t radix_sort_one_bit_workspace_bytes(std::size_t n, bool pairs) {
    return radix_sort_one_bit_with_scan_workspace_bytes<Key>(scan::scan_single_pass_workspace_bytes, n, pairs);
}

template <class Key>
void radix_sort_one_bit(const SortArgs<Key>& args) {
    radix_sort_one_bit_with_scan(scan::exclusive_scan_single_pass, scan::scan_single_pass_workspace_bytes, args);
}

RADIX_SORT_INSTANTIATE(radix_sort_one_bit)

#define INSTANTIATE_WITH_SCAN(Key)                                                                              \
    template std::size_t radix_sort_one_bit_with_scan_workspace_bytes<Key>(ScanWorkspaceFn, std::size_t, bool); \
    template void radix_sort_one_bit_with_scan<Key>(ScanFn, ScanWorkspaceFn, const SortArgs<Key>&);
INSTANTIATE_WITH_SCAN(std::uint32_t)
INSTANTIATE_WITH_SCAN(std::int32_t)
INSTANTIATE_WITH_SCAN(float)
INSTANTIATE_WITH_SCAN(std::uint64_t)
#undef INSTANTIATE_WITH_SCAN

}  // namespace radix_sort
