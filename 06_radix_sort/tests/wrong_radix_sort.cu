// wrong_radix_sort.cu: the deliberately wrong sorts of wrong_radix_sort.h: their kernels, their
// sorts (one template each, for every key type) and the variants made of them.
#include "wrong_radix_sort.h"

#include "../../02_scan/scan.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

#include <cstring>

namespace wrong {

using radix_sort::SortArgs;
using radix_sort::Value;

namespace {

template <class Key>
__global__ void swap_values_of_equal_neighbours(const Key* keys, Value* values, std::size_t n) {
    const std::size_t i = 2 * (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x);
    if (i + 1 < n && radix_sort::to_bits(keys[i]) == radix_sort::to_bits(keys[i + 1])) {
        const Value v = values[i];
        values[i] = values[i + 1];
        values[i + 1] = v;
    }
}

constexpr std::size_t kTile = 1000;

template <class T>
__global__ void copy_through_inclusive_bound(const T* from, T* to, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= n) to[i] = from[i];  // the mistake: i <= n
}

template <class T>
__global__ void scatter_one_position_early(const T* from, T* to, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) to[static_cast<long long>(i) - 1] = from[i];  // the mistake: - 1 on an exclusive position
}

__global__ void write_flags_and_total(int* flags, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n + 1) flags[i] = i < n ? 1 : 0;  // n + 1 flags, right; the workspace holds n
}

// Onesweep's part of the workspace, rounded to 256 bytes; the wrong sorts' own array follows it.
template <class Key>
std::size_t onesweep_part(std::size_t n, bool pairs) {
    return (radix_sort::radix_sort_onesweep_workspace_bytes<Key>(n, pairs) + 255) / 256 * 256;
}
template <class T, class Key>
T* after_onesweep(const SortArgs<Key>& a) {
    return reinterpret_cast<T*>(static_cast<char*>(a.workspace) + onesweep_part<Key>(a.n, a.pairs()));
}

unsigned blocks_of_256(std::size_t threads) { return static_cast<unsigned>((threads + 255) / 256); }

struct LastCall {
    const void* keys_in = nullptr;
    const void* keys_out = nullptr;
    std::size_t n = ~std::size_t{0};
};
LastCall& last_call() {
    static LastCall last;
    return last;
}

// ---- Fig. 13.4 with one mistake ----

enum class Mistake { TopBitFirst, OnesFromTheEnd, ScratchFirst, RawBits };

// The bit the sort goes by: the key's ordered bit, or (the mistake) its stored bit.
template <Mistake M, class Key>
__device__ unsigned bit_used(Key key, int bit) {
    if constexpr (M == Mistake::RawBits) {
        radix_sort::BitsOf<Key> stored;
        memcpy(&stored, &key, sizeof stored);
        return static_cast<unsigned>(stored >> bit) & 1u;
    } else {
        return radix_sort::bit_of(key, bit);
    }
}

template <Mistake M, class Key>
__global__ void extract_the_bit(const Key* keys, std::size_t n, int bit, int* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flags[i] = static_cast<int>(bit_used<M>(keys[i], bit));
    if (i == n) flags[n] = 0;
}

template <Mistake M, class Key>
__global__ void scatter_by_the_bit(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                                   std::size_t n, int bit, const int* ones_before) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const Key key = keys_in[i];
    const std::size_t ones = static_cast<std::size_t>(ones_before[i]);
    const std::size_t zeros_in_all = n - static_cast<std::size_t>(ones_before[n]);
    std::size_t dst = i - ones;
    if (bit_used<M>(key, bit)) dst = M == Mistake::OnesFromTheEnd ? n - 1 - ones : zeros_in_all + ones;
    keys_out[dst] = key;
    if (values_out != nullptr) values_out[dst] = values_in[i];
}

template <class Key>
struct OneBitLayout {
    Key* keys = nullptr;
    Value* values = nullptr;
    int* flags = nullptr;
    void* scan = nullptr;
    std::size_t bytes = 0;
};

template <class Key>
OneBitLayout<Key> one_bit_layout(void* base, std::size_t n, bool pairs) {
    radix_sort::Workspace w(base);
    OneBitLayout<Key> l;
    l.keys = w.take<Key>(n);
    l.values = w.take<Value>(pairs ? n : 0);
    l.flags = w.take<int>(n + 1);
    l.scan = w.take<unsigned char>(scan::scan_single_pass_workspace_bytes(n + 1));
    l.bytes = w.bytes();
    return l;
}

template <Mistake M, class Key>
void one_bit_sort(const SortArgs<Key>& a) {
    const std::size_t n = a.n;
    if (n == 0) return;
    const int passes = radix_sort::pass_count(a.begin_bit, a.end_bit, 1);
    if (passes == 0) {
        PMPP_CUDA_CHECK(cudaMemcpy(a.keys_out, a.keys_in, n * sizeof(Key), cudaMemcpyDeviceToDevice));
        if (a.pairs())
            PMPP_CUDA_CHECK(cudaMemcpy(a.values_out, a.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
        return;
    }
    const OneBitLayout<Key> w = one_bit_layout<Key>(a.workspace, n, a.pairs());
    const Key* keys_src = a.keys_in;
    const Value* values_src = a.values_in;  // null for keys alone
    for (int pass = 0; pass < passes; ++pass) {
        const int bit = M == Mistake::TopBitFirst ? a.end_bit - 1 - pass : a.begin_bit + pass;
        Key* keys_dst = radix_sort::pass_buffers(pass, passes, a.keys_in, a.keys_out, w.keys).dst;
        Value* values_dst =
            a.pairs() ? radix_sort::pass_buffers(pass, passes, a.values_in, a.values_out, w.values).dst : nullptr;
        if constexpr (M == Mistake::ScratchFirst) {  // the mistake: the parity fixed, whatever the passes
            keys_dst = pass % 2 == 0 ? w.keys : a.keys_out;
            if (a.pairs()) values_dst = pass % 2 == 0 ? w.values : a.values_out;
        }
        extract_the_bit<M><<<blocks_of_256(n + 1), 256>>>(keys_src, n, bit, w.flags);
        PMPP_CHECK_LAUNCH();
        scan::exclusive_scan_single_pass(w.flags, w.flags, n + 1, w.scan);
        scatter_by_the_bit<M><<<blocks_of_256(n), 256>>>(keys_src, keys_dst, values_src, values_dst, n, bit, w.flags);
        PMPP_CHECK_LAUNCH();
        keys_src = keys_dst;
        values_src = values_dst;
    }
}

// ---- Onesweep's sort, then one mistake ----

template <class T>
__global__ void copy_elements(const T* from, T* to, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) to[i] = from[i];
}

template <class Key>
struct CopyOutLayout {
    void* onesweep = nullptr;
    Key* keys = nullptr;
    Value* values = nullptr;
    std::size_t bytes = 0;
};

template <class Key>
CopyOutLayout<Key> copy_out_layout(void* base, std::size_t n, bool pairs) {
    radix_sort::Workspace w(base);
    CopyOutLayout<Key> l;
    l.onesweep = w.take<unsigned char>(radix_sort::radix_sort_onesweep_workspace_bytes<Key>(n, pairs));
    l.keys = w.take<Key>(n);
    l.values = w.take<Value>(pairs ? n : 0);
    l.bytes = w.bytes();
    return l;
}

template <class Key>
__global__ void fill_last_slot_of_every_tile_from_the_one_before(Key* keys, Value* values, std::size_t n) {
    const std::size_t tile = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t last = tile * 256 + 255;
    if (last >= n) return;
    keys[last] = keys[last - 1];
    if (values != nullptr) values[last] = values[last - 1];
}

// The wrong sorts, one template each (for every key type), and their workspace functions.
namespace sorts {

template <class Key>
std::size_t one_bit_workspace_bytes(std::size_t n, bool pairs) {
    return one_bit_layout<Key>(nullptr, n, pairs).bytes;
}

template <class Key>
std::size_t copy_out_workspace_bytes(std::size_t n, bool pairs) {
    return copy_out_layout<Key>(nullptr, n, pairs).bytes;
}

template <class Key>
void copies_out_on_a_rounded_down_grid(const SortArgs<Key>& a) {
    const CopyOutLayout<Key> l = copy_out_layout<Key>(a.workspace, a.n, a.pairs());
    SortArgs<Key> into_scratch = a;
    into_scratch.keys_out = l.keys;
    into_scratch.values_out = a.pairs() ? l.values : nullptr;
    into_scratch.workspace = l.onesweep;
    radix_sort::radix_sort_onesweep(into_scratch);
    const unsigned blocks = static_cast<unsigned>(a.n / 256);  // the mistake: rounded down
    if (blocks == 0) return;  // (a launch of no blocks fails: the student's code would stop there)
    copy_elements<<<blocks, 256>>>(l.keys, a.keys_out, a.n);
    PMPP_CHECK_LAUNCH();
    if (a.pairs()) {
        copy_elements<<<blocks, 256>>>(l.values, a.values_out, a.n);
        PMPP_CHECK_LAUNCH();
    }
}

template <class Key>
void loses_the_last_key_of_every_tile(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    const std::size_t full_tiles = a.n / 256;
    if (full_tiles == 0) return;
    fill_last_slot_of_every_tile_from_the_one_before<<<blocks_of_256(full_tiles), 256>>>(a.keys_out, a.values_out, a.n);
    PMPP_CHECK_LAUNCH();
}

template <class Key>
std::size_t no_workspace_bytes(std::size_t, bool) {
    return 0;
}

template <class Key>
void does_nothing(const SortArgs<Key>&) {}

template <class Key>
std::size_t workspace_bytes(std::size_t n, bool pairs) {
    return radix_sort::radix_sort_onesweep_workspace_bytes<Key>(n, pairs);
}

template <class Key>
void unstable_pairs(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    if (!a.pairs() || a.n < 2) return;
    swap_values_of_equal_neighbours<<<static_cast<unsigned>((a.n / 2 + 255) / 256), 256>>>(a.keys_out, a.values_out,
                                                                                           a.n);
    PMPP_CHECK_LAUNCH();
}

template <class Key>
void skips_a_digit(const SortArgs<Key>& a) {
    SortArgs<Key> b = a;
    b.begin_bit = a.begin_bit + 8 < a.end_bit ? a.begin_bit + 8 : a.end_bit;
    radix_sort::radix_sort_onesweep(b);
}

template <class Key>
void loses_a_key(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    if (a.n < 2) return;
    PMPP_CUDA_CHECK(cudaMemcpy(a.keys_out + a.n / 2, a.keys_out + a.n / 2 - 1, sizeof(Key), cudaMemcpyDeviceToDevice));
}

template <class Key>
void leaves_values_behind(const SortArgs<Key>& a) {
    SortArgs<Key> keys_alone = a;
    keys_alone.values_in = nullptr;
    keys_alone.values_out = nullptr;
    radix_sort::radix_sort_onesweep(keys_alone);
    if (a.pairs() && a.n > 0)
        PMPP_CUDA_CHECK(cudaMemcpy(a.values_out, a.values_in, a.n * sizeof(Value), cudaMemcpyDeviceToDevice));
}

template <class Key>
void most_significant_digit_first(const SortArgs<Key>& a) {
    if (a.n == 0) return;
    PMPP_CUDA_CHECK(cudaMemcpy(a.keys_out, a.keys_in, a.n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (a.pairs())
        PMPP_CUDA_CHECK(cudaMemcpy(a.values_out, a.values_in, a.n * sizeof(Value), cudaMemcpyDeviceToDevice));
    pmpp::DeviceBuffer<Key> keys(a.n);
    pmpp::DeviceBuffer<Value> values(a.pairs() ? a.n : 0);
    const int passes = radix_sort::pass_count(a.begin_bit, a.end_bit, 8);
    for (int pass = passes - 1; pass >= 0; --pass) {  // the mistake: the top digit first
        SortArgs<Key> one = a;
        one.begin_bit = a.begin_bit + 8 * pass;
        one.end_bit = one.begin_bit + 8 < a.end_bit ? one.begin_bit + 8 : a.end_bit;
        one.keys_in = a.keys_out;
        one.keys_out = keys.data();
        one.values_in = a.pairs() ? a.values_out : nullptr;
        one.values_out = a.pairs() ? values.data() : nullptr;
        radix_sort::radix_sort_onesweep(one);
        PMPP_CUDA_CHECK(cudaMemcpy(a.keys_out, keys.data(), a.n * sizeof(Key), cudaMemcpyDeviceToDevice));
        if (a.pairs())
            PMPP_CUDA_CHECK(cudaMemcpy(a.values_out, values.data(), a.n * sizeof(Value), cudaMemcpyDeviceToDevice));
    }
}

template <class Key>
void drops_the_last_tile(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    if (a.n == 0) return;
    const std::size_t last = (a.n - 1) / kTile * kTile;  // first element of the last tile
    PMPP_CUDA_CHECK(cudaMemset(a.keys_out + last, 0xFF, (a.n - last) * sizeof(Key)));  // as the harness poisons
    if (a.pairs()) PMPP_CUDA_CHECK(cudaMemset(a.values_out + last, 0xFF, (a.n - last) * sizeof(Value)));
}

template <class Key>
void ignores_the_bit_range(const SortArgs<Key>& a) {
    SortArgs<Key> all = a;
    all.begin_bit = 0;
    all.end_bit = radix_sort::kKeyBits<Key>;
    radix_sort::radix_sort_onesweep(all);
}

template <class Key>
std::size_t one_past_the_end_workspace_bytes(std::size_t n, bool pairs) {
    return onesweep_part<Key>(n, pairs) + (n + 1) * sizeof(Key);
}

template <class Key>
void writes_one_past_the_end(const SortArgs<Key>& a) {
    Key* sorted = after_onesweep<Key>(a);
    SortArgs<Key> b = a;
    b.keys_out = sorted;
    radix_sort::radix_sort_onesweep(b);
    // n / 256 + 1 blocks, so that a thread with i == n exists even when 256 divides n.
    copy_through_inclusive_bound<<<static_cast<unsigned>(a.n / 256 + 1), 256>>>(sorted, a.keys_out, a.n);
    PMPP_CHECK_LAUNCH();
}

template <class Key>
std::size_t one_before_the_start_workspace_bytes(std::size_t n, bool pairs) {
    return onesweep_part<Key>(n, pairs) + n * sizeof(Value);
}

template <class Key>
void writes_one_before_the_start(const SortArgs<Key>& a) {
    if (!a.pairs() || a.n == 0) {
        radix_sort::radix_sort_onesweep(a);
        return;
    }
    Value* sorted = after_onesweep<Value>(a);
    SortArgs<Key> b = a;
    b.values_out = sorted;
    radix_sort::radix_sort_onesweep(b);
    scatter_one_position_early<<<blocks_of_256(a.n), 256>>>(sorted, a.values_out, a.n);
    PMPP_CHECK_LAUNCH();
}

template <class Key>
std::size_t short_flags_workspace_bytes(std::size_t n, bool pairs) {
    return onesweep_part<Key>(n, pairs) + n * sizeof(int);  // the mistake: n, not n + 1
}

template <class Key>
void overruns_its_workspace(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    write_flags_and_total<<<blocks_of_256(a.n + 1), 256>>>(after_onesweep<int>(a), a.n);
    PMPP_CHECK_LAUNCH();
}

template <class Key>
void remembers_its_last_call(const SortArgs<Key>& a) {
    LastCall& last = last_call();
    if (last.keys_in == a.keys_in && last.keys_out == a.keys_out && last.n == a.n) return;  // "already sorted"
    last.keys_in = a.keys_in;
    last.keys_out = a.keys_out;
    last.n = a.n;
    radix_sort::radix_sort_onesweep(a);
}

template <class Key>
void sorts_its_input_in_place(const SortArgs<Key>& a) {
    radix_sort::radix_sort_onesweep(a);
    if (a.n == 0) return;
    PMPP_CUDA_CHECK(cudaMemcpy(const_cast<Key*>(a.keys_in), a.keys_out, a.n * sizeof(Key), cudaMemcpyDeviceToDevice));
    if (a.pairs())
        PMPP_CUDA_CHECK(
            cudaMemcpy(const_cast<Value*>(a.values_in), a.values_out, a.n * sizeof(Value), cudaMemcpyDeviceToDevice));
}

}  // namespace sorts

// Fig. 13.4 with the mistake M, for every key type.
template <Mistake M>
SortFn one_bit_with() {
    return radix_sort::make_sort_fn([](auto tag) {
        using Key = typename decltype(tag)::type;
        return radix_sort::SortImpl<Key>{sorts::one_bit_workspace_bytes<Key>, one_bit_sort<M, Key>};
    });
}

}  // namespace

SortFn unstable_pairs() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::unstable_pairs); }
SortFn skips_a_digit() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::skips_a_digit); }
SortFn loses_a_key() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::loses_a_key); }
SortFn leaves_values_behind() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::leaves_values_behind); }
SortFn most_significant_digit_first() {
    return RADIX_SORT_FN(sorts::workspace_bytes, sorts::most_significant_digit_first);
}
SortFn drops_the_last_tile() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::drops_the_last_tile); }
SortFn ignores_the_bit_range() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::ignores_the_bit_range); }
SortFn writes_one_past_the_end() {
    return RADIX_SORT_FN(sorts::one_past_the_end_workspace_bytes, sorts::writes_one_past_the_end);
}
SortFn writes_one_before_the_start() {
    return RADIX_SORT_FN(sorts::one_before_the_start_workspace_bytes, sorts::writes_one_before_the_start);
}
SortFn overruns_its_workspace() {
    return RADIX_SORT_FN(sorts::short_flags_workspace_bytes, sorts::overruns_its_workspace);
}
SortFn passes_from_the_top_bit_down() { return one_bit_with<Mistake::TopBitFirst>(); }
SortFn fills_the_ones_from_the_end() { return one_bit_with<Mistake::OnesFromTheEnd>(); }
SortFn ping_pongs_from_the_scratch_first() { return one_bit_with<Mistake::ScratchFirst>(); }
SortFn reads_the_raw_bits() { return one_bit_with<Mistake::RawBits>(); }
SortFn copies_out_on_a_rounded_down_grid() {
    return RADIX_SORT_FN(sorts::copy_out_workspace_bytes, sorts::copies_out_on_a_rounded_down_grid);
}
SortFn loses_the_last_key_of_every_tile() {
    return RADIX_SORT_FN(sorts::workspace_bytes, sorts::loses_the_last_key_of_every_tile);
}
SortFn does_nothing() { return RADIX_SORT_FN(sorts::no_workspace_bytes, sorts::does_nothing); }
SortFn remembers_its_last_call() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::remembers_its_last_call); }
void forget_the_last_call() { last_call() = LastCall{}; }
SortFn sorts_its_input_in_place() { return RADIX_SORT_FN(sorts::workspace_bytes, sorts::sorts_its_input_in_place); }

}  // namespace wrong
