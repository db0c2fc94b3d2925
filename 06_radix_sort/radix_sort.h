// radix_sort.h: the functions of exercise 06. A stable least-significant-digit radix sort of
// uint32, int32, float or uint64 keys, alone or with uint32 values, by a range of key bits.
//
// What a sort is given (SortArgs): device arrays keys_in (and values_in), which it must leave
// unchanged, and keys_out (and values_out), which it fills; n; the bit range [begin_bit,
// end_bit); and a workspace of the size its *_workspace_bytes function asked for, allocated
// once by the harness outside the timed region, with undefined contents on entry.
//
// What "sorted" means: keys in the order of their ordered bits (to_bits below, from
// common/keys.h) restricted to [begin_bit, end_bit); equal fields keep their input order
// (stable), values travel with their keys. For the full range that is:
//   uint32, uint64  ascending;      int32  ascending, negatives first;
//   float           -inf < ... < -0.0 < +0.0 < ... < +inf < every NaN (keys.h's total order).
// A range of 16 bits sorts 16-bit keys held in 32-bit words in 2 passes of 8 bits, not 4.
//
// Every sort here runs on the default stream and may return before the GPU is done.
#pragma once

#include "common/keys.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace radix_sort {

using Value = std::uint32_t;

// The most keys one sort takes: the look-back of variant 5 keeps counts in 30 bits.
constexpr std::size_t kMaxKeys = (std::size_t{1} << 30) - 1;

// ---- Keys as unsigned integers ---------------------------------------------------------------

// The unsigned integer a key is sorted by, and back. A bijection (every bit pattern, NaNs
// included, comes back exactly), and order-preserving: a < b in the key's order exactly when
// to_bits(a) < to_bits(b).
template <class Key>
struct KeyTraits;
template <>
struct KeyTraits<std::uint32_t> {
    using Bits = std::uint32_t;
    static PMPP_HD Bits to_bits(std::uint32_t k) { return k; }
    static PMPP_HD std::uint32_t from_bits(Bits b) { return b; }
};
template <>
struct KeyTraits<std::int32_t> {
    using Bits = std::uint32_t;  // the sign bit flipped: negatives below positives
    static PMPP_HD Bits to_bits(std::int32_t k) { return pmpp::ordered_bits(k); }
    static PMPP_HD std::int32_t from_bits(Bits b) { return pmpp::from_ordered_bits_i32(b); }
};
template <>
struct KeyTraits<float> {
    using Bits = std::uint32_t;  // keys.h's total order: every NaN last
    static PMPP_HD Bits to_bits(float k) { return pmpp::ordered_bits(k); }
    static PMPP_HD float from_bits(Bits b) { return pmpp::from_ordered_bits(b); }
};
template <>
struct KeyTraits<std::uint64_t> {
    using Bits = std::uint64_t;
    static PMPP_HD Bits to_bits(std::uint64_t k) { return k; }
    static PMPP_HD std::uint64_t from_bits(Bits b) { return b; }
};

template <class Key>
using BitsOf = typename KeyTraits<Key>::Bits;
template <class Key>
inline constexpr int kKeyBits = 8 * static_cast<int>(sizeof(Key));

template <class Key>
PMPP_HD BitsOf<Key> to_bits(Key key) {
    return KeyTraits<Key>::to_bits(key);
}
template <class Key>
PMPP_HD Key from_bits(BitsOf<Key> bits) {
    return KeyTraits<Key>::from_bits(bits);
}

// Bit `bit` of a key's ordered bits (0 is the least significant).
template <class Key>
PMPP_HD unsigned bit_of(Key key, int bit) {
    return static_cast<unsigned>(to_bits(key) >> bit) & 1u;
}

// The digit of `width` bits (1..8) starting at bit `shift`.
template <class Bits>
PMPP_HD unsigned digit_of(Bits bits, int shift, int width) {
    return static_cast<unsigned>(bits >> shift) & ((1u << width) - 1u);
}

// ---- What a sort is given ---------------------------------------------------------------------

// Optional: a sort tells the harness where each of its stages ends, so the benchmark can show
// where the time goes (the per-pass breakdown). Called on the host, right after the stage's
// work is launched; `bytes`: the fewest bytes the stage must move (0 if not meaningful).
class StageTimer {
public:
    virtual ~StageTimer() = default;
    virtual void mark(const std::string& stage, double bytes = 0) = 0;
};

template <class Key>
struct SortArgs {
    const Key* keys_in = nullptr;
    Key* keys_out = nullptr;
    const Value* values_in = nullptr;  // both null: a sort of keys alone
    Value* values_out = nullptr;
    std::size_t n = 0;
    int begin_bit = 0;
    int end_bit = kKeyBits<Key>;
    void* workspace = nullptr;
    StageTimer* stages = nullptr;  // may be null

    bool pairs() const { return values_in != nullptr; }
    void mark(const std::string& stage, double bytes = 0) const {
        if (stages != nullptr) stages->mark(stage, bytes);
    }
};

// ---- Helpers every sort uses ---------------------------------------------------------------

// Carves arrays out of one workspace, each 256-byte aligned. With no base it only adds up the
// sizes, so one function can both size a workspace and lay it out:
//   Workspace w;           Key* alt = w.take<Key>(n);  ...  return w.bytes();     (sizing)
//   Workspace w(args.workspace);  Key* alt = w.take<Key>(n);  ...                  (using)
class Workspace {
public:
    explicit Workspace(void* base = nullptr) : base_(static_cast<char*>(base)) {}
    template <class T>
    T* take(std::size_t count) {
        offset_ = (offset_ + 255) / 256 * 256;
        T* p = base_ != nullptr ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
        offset_ += count * sizeof(T);
        return p;
    }
    std::size_t bytes() const { return offset_ + 256; }  // room to spare for the last alignment

private:
    char* base_;
    std::size_t offset_ = 0;
};

// Passes of `digit_bits` bits over [begin_bit, end_bit); the last may be narrower.
inline int pass_count(int begin_bit, int end_bit, int digit_bits) {
    return end_bit > begin_bit ? (end_bit - begin_bit + digit_bits - 1) / digit_bits : 0;
}

// Where pass `pass` of `passes` reads and writes: the first reads the input, each pass writes
// the buffer the previous one did not, and the last writes the output.
template <class T>
struct PassBuffers {
    const T* src;
    T* dst;
};
template <class T>
PassBuffers<T> pass_buffers(int pass, int passes, const T* in, T* out, T* alternate) {
    T* dst = (passes - 1 - pass) % 2 == 0 ? out : alternate;
    const T* src = pass == 0 ? in : ((passes - pass) % 2 == 0 ? out : alternate);
    return {src, dst};
}

// ---- Your part: radix_sort_student.cu (README.md, tasks 1-5) ---------------------------------
template <class Key>
std::size_t radix_sort_student_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_student(const SortArgs<Key>& args);

// ---- Reference variants, one file each, from the book's kernel to a CUB-class sort -----------
// 1. PMPP Fig. 13.4: one bit per pass; extract the bit, scan (02's single-pass scan), scatter.
template <class Key>
std::size_t radix_sort_one_bit_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_one_bit(const SortArgs<Key>& args);
// 2. Exercise 1: one bit per pass, each tile split in shared memory, written coalesced.
template <class Key>
std::size_t radix_sort_coalesced_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_coalesced(const SortArgs<Key>& args);
// 3. Exercise 2: the same with 4-bit digits (16 buckets): 8 passes for 32-bit keys.
template <class Key>
std::size_t radix_sort_multibit_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_multibit(const SortArgs<Key>& args);
// 4. Exercise 3: the same with 8 keys per thread (thread coarsening).
template <class Key>
std::size_t radix_sort_coarsened_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_coarsened(const SortArgs<Key>& args);
// 5. Onesweep: 8-bit digits, one histogram of every digit up front, then one kernel per digit
//    that ranks, finds its offsets by decoupled look-back and scatters.
template <class Key>
std::size_t radix_sort_onesweep_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_onesweep(const SortArgs<Key>& args);
// Keys per tile of variants 5 and 6 (for the case list: sizes on its tile edges).
std::size_t onesweep_tile_keys(std::size_t key_bytes, bool pairs);
// 6. Variant 5 with each ballot of the ranking written in PTX as CUB writes it (fewer
//    instructions per key; the same tiles and bytes).
template <class Key>
std::size_t radix_sort_onesweep_ptx_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_onesweep_ptx(const SortArgs<Key>& args);

// The library baseline: cub::DeviceRadixSort::SortKeys / SortPairs (radix_sort_cub.cu). CUB's
// own float order differs from the course's (-0.0 equals +0.0, negative NaNs first), so float
// keys go through the course's ordered bits around a uint32 sort.
template <class Key>
std::size_t radix_sort_cub_workspace_bytes(std::size_t n, bool pairs);
template <class Key>
void radix_sort_cub(const SortArgs<Key>& args);

// Fig. 13.4 on any exclusive scan of int32 (02_scan's interface): variant 1 runs it on 02's
// single-pass scan, the reference answer on the student's scan slot.
using ScanFn = void (*)(const int* in, int* out, std::size_t n, void* workspace);
using ScanWorkspaceFn = std::size_t (*)(std::size_t n);
template <class Key>
std::size_t radix_sort_one_bit_with_scan_workspace_bytes(ScanWorkspaceFn scan_workspace, std::size_t n, bool pairs);
template <class Key>
void radix_sort_one_bit_with_scan(ScanFn scan, ScanWorkspaceFn scan_workspace, const SortArgs<Key>& args);

// The definition of correct (host arrays): an LSD radix sort with 8-bit digits on `threads`
// host threads (0: all of them). values_in and values_out null for keys alone.
template <class Key>
void radix_sort_cpu(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, std::size_t n,
                    int begin_bit, int end_bit, unsigned threads = 0);

// Explicit instantiations of a sort and its workspace function for the four key types. Used
// at the end of each file, inside namespace radix_sort.
#define RADIX_SORT_INSTANTIATE_KEY(name, Key)                                    \
    template std::size_t name##_workspace_bytes<Key>(std::size_t n, bool pairs); \
    template void name<Key>(const ::radix_sort::SortArgs<Key>& args);
#define RADIX_SORT_INSTANTIATE(name)                \
    RADIX_SORT_INSTANTIATE_KEY(name, std::uint32_t) \
    RADIX_SORT_INSTANTIATE_KEY(name, std::int32_t)  \
    RADIX_SORT_INSTANTIATE_KEY(name, float)         \
    RADIX_SORT_INSTANTIATE_KEY(name, std::uint64_t)

}  // namespace radix_sort
