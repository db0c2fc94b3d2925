// bitonic_4_fused.cuh: the kernels of variant 4 (bitonic_4_fused.cu launches them).
//
// Idea over variant 3: a comparator between two elements that one thread holds in registers
// costs no memory access and no barrier. A thread keeps 2^R elements whose indices differ only
// in R chosen bits (a "window"); every step whose stride is one of those bits is then R
// register-to-register compare-exchanges. So:
//  - inside a tile (kThreads * 2^R elements, one block), a step moves no data; the block
//    changes window through shared memory only every R steps, not every step;
//  - across tiles (strides >= the tile), one launch covers up to R' strides at once: each thread
//    loads 2^R' elements spaced by the smallest stride, does R' steps, and stores them. A stage
//    of m long strides costs ceil(m / R') passes over memory instead of m; a block, which holds a
//    tile's worth, covers more of them at once through shared memory (BlockStrides).
// The order of the passes (plan()): a chunk of the array that fits the L2 goes through all the
// stages up to its own length before the next chunk starts, so most passes hit L2, not DRAM.
// Keys travel as unsigned bit patterns whose plain order is the requested order (keys.h's
// ordered_bits, complemented for descending): one compare for every key type, encoded by the
// first pass and decoded by the last. Elements past n are a padding key that sorts last and,
// by the direction rule of bitonic_network.h, never moves, so nothing past n is ever stored.
//
// The block-level code is written once for an executor `Block`: on the GPU each thread runs the
// per-thread part for itself and sync() is __syncthreads(); the tests run the same code on the
// host for every thread in turn (tests/test_fused_emulated.cu), so the schedule, the windows
// and the index arithmetic are tested without a GPU.
// PMPP chapters 5 (shared memory, registers), 6 (coalescing, bank conflicts), 13 (sorting).
#pragma once

#include "bitonic.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"
#include "common/device_limits.h"
#include "common/keys.h"
#include "common/primitives/dependent_launch.cuh"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// `#pragma unroll` for the device pass only: the host pass (the emulator) would warn about it.
#ifdef __CUDA_ARCH__
#define BITONIC_UNROLL _Pragma("unroll")
#else
#define BITONIC_UNROLL
#endif

namespace bitonic::fused {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- Keys as ordered bits ---------------------------------------------------------------------

constexpr u32 kPadding = 0xFFFFFFFFu;  // sorts after every encoded key; ties never swap

template <typename K>
PMPP_HD u32 bits_of(K key) {
    static_assert(sizeof(K) == 4, "4-byte keys");
    u32 u;
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same_v<K, float>)
        u = __float_as_uint(key);
    else
        u = static_cast<u32>(key);
#else
    std::memcpy(&u, &key, 4);
#endif
    return u;
}

template <typename K>
PMPP_HD K key_from_bits(u32 u) {
    K key;
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same_v<K, float>)
        key = __uint_as_float(u);
    else
        key = static_cast<K>(u);
#else
    std::memcpy(&key, &u, 4);
#endif
    return key;
}

// `flip` is all ones for a descending sort: complemented bits sort ascending in reverse order.
template <typename K>
PMPP_HD u32 encode(K key, u32 flip) {
    return pmpp::ordered_bits(key) ^ flip;
}

template <typename K>
PMPP_HD K decode(u32 bits, u32 flip) {
    bits ^= flip;
    if constexpr (std::is_same_v<K, float>)
        return pmpp::from_ordered_bits(bits);
    else if constexpr (std::is_same_v<K, std::int32_t>)
        return pmpp::from_ordered_bits_i32(bits);
    else
        return bits;
}

// One comparator on registers: the smaller bit pattern first. Every comparator of the network
// runs this way; a block that sorts backward holds its keys complemented (below), so a keys-only
// comparator is a min and a max, with no direction to select between them.
template <bool kValues>
PMPP_HD void order_pair(u32& a, u32& b, u32& value_a, u32& value_b) {
    if constexpr (kValues) {
        const bool swap = b < a;  // a tie never swaps
        const u32 x = a, y = b, vx = value_a, vy = value_b;
        a = swap ? y : x;
        b = swap ? x : y;
        value_a = swap ? vy : vx;
        value_b = swap ? vx : vy;
    } else {
        const u32 lo = a < b ? a : b, hi = a < b ? b : a;
        a = lo;
        b = hi;
    }
}

// The direction as bits: a block of the network that sorts backward holds ~key instead of key.
// Complementing is an order reversal (x < y exactly when ~y < ~x), so sorting the complemented
// keys forward puts the keys where the backward comparators would, ties included, and a pass
// complements a key when it enters a block of the other direction and when it leaves the
// network. Where the direction is one per block or thread (a tile merge, a long pass) that is
// one XOR at the load and one at the store; in the tile sort, one per element a stage. Before,
// every comparator chose between min and max by its direction: 4 instructions instead of 2.
PMPP_HD constexpr u32 direction_bits(bool forward) { return forward ? 0u : ~0u; }

// ---- The tile: which thread holds which element ----------------------------------------------

template <int kLogThreads_, int kLogItems_>
struct TileShape {
    static constexpr int kLogThreads = kLogThreads_;
    static constexpr int kLogItems = kLogItems_;  // R: elements per thread = 2^R
    static_assert(kLogItems_ == 5 && kLogThreads_ >= 5, "smem_slot is conflict-free for R = 5 and full warps");
    static constexpr int kThreads = 1 << kLogThreads;
    static constexpr int kItems = 1 << kLogItems;
    static constexpr int kLogTile = kLogThreads + kLogItems;
    static constexpr u32 kTile = 1u << kLogTile;
    static constexpr u32 kSharedWords = kTile + kTile / 32;  // one array (keys or values), padded
    // Window c: a thread's registers differ in tile-index bits c ... c+R-1; the thread number
    // fills the other bits, in order. The top window is r * kThreads + thread: consecutive
    // threads at consecutive addresses, so loads and stores use it (coalesced).
    static constexpr int kLinearWindow = kLogTile - kLogItems;

    static PMPP_HD constexpr u32 index(u32 thread, int r, int window) {
        return ((thread >> window) << (window + kLogItems)) | (static_cast<u32>(r) << window) |
               (thread & ((1u << window) - 1u));
    }
    // The window in which the step of stride 2^bit runs: groups of R bits from bit 0 up, the
    // top group clamped to the linear window (it may then share bits with the group below).
    static constexpr int window_of(int bit) {
        const int c = bit / kLogItems * kLogItems;
        return c < kLinearWindow ? c : kLinearWindow;
    }
};

// The shared-memory slot of a tile index: one padding word after every 32. With R = 5 a window
// is either c = 0, where the 32 lanes of a warp differ in index bits 5-9 (slots 33 apart: banks
// 0, 1, ..., 31), or c >= 5, where they differ in bits 0-4 (consecutive slots): a warp storing or
// loading one register touches 32 different banks in every window (tests/ check it). And the
// slot is additive, slot(a + b) = slot(a) + slot(b) for indices with disjoint bits, so a thread
// addresses its 32 registers as one base plus constant offsets. (An XOR swizzle, needed for
// R = 4, is not additive: every register then needs its own address register.)
PMPP_HD constexpr u32 smem_slot(u32 index) { return index + (index >> 5); }

template <class Shape, bool kValues>
struct Registers {
    u32 key[Shape::kItems];
    u32 value[kValues ? Shape::kItems : 1];
};

// Calls f(std::integral_constant<int, i>) for i = kBegin ... kEnd - 1: a loop whose counter is a
// compile-time constant, so register indices and windows are constants and nothing spills.
#pragma nv_exec_check_disable
template <int kBegin, int kEnd, class F>
PMPP_HD void static_for(F&& f) {
    if constexpr (kBegin < kEnd) {
        f(std::integral_constant<int, kBegin>{});
        static_for<kBegin + 1, kEnd>(f);
    }
}

// ---- Block-level steps (GPU and host emulator) -----------------------------------------------
// A Block provides: for_each_thread(f) calling f(thread, registers), sync(), shared_keys,
// shared_values (kSharedWords each) and tile (which tile of the array it owns).

// First pass: keys -> encoded bits. Later passes: the stored bits as they are. Loads and stores
// use the linear window: thread t's element r is at tile index t + r * kThreads. Addressing them
// from one per-thread pointer with constant offsets keeps one address register, not 32.
#pragma nv_exec_check_disable
template <class Shape, bool kValues, class K, class Block>
PMPP_HD void load_tile(Block& block, const K* keys, const u32* values, u32 n, u32 flip, bool encode_keys) {
    block.for_each_thread([&](u32 t, auto& regs) {
        const u32 first = block.tile * Shape::kTile + t;
        const u32 left = n > first ? n - first : 0u;  // elements of the array from `first` on
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) {
            constexpr u32 kStride = Shape::kThreads;
            const u32 offset = static_cast<u32>(r) * kStride;
            const K key = offset < left ? keys[first + std::size_t{offset}] : K{};
            regs.key[r] = offset < left ? (encode_keys ? encode(key, flip) : bits_of(key)) : kPadding;
            if constexpr (kValues) regs.value[r] = offset < left ? values[first + std::size_t{offset}] : 0u;
        }
    });
}

// Last pass: encoded bits -> keys. Earlier passes store the bits as they are.
#pragma nv_exec_check_disable
template <class Shape, bool kValues, class K, class Block>
PMPP_HD void store_tile(Block& block, K* keys, u32* values, u32 n, u32 flip, bool decode_keys) {
    block.for_each_thread([&](u32 t, auto& regs) {
        const u32 first = block.tile * Shape::kTile + t;
        const u32 left = n > first ? n - first : 0u;
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) {
            const u32 offset = static_cast<u32>(r) * Shape::kThreads;
            if (offset < left) {
                keys[first + std::size_t{offset}] =
                    decode_keys ? decode<K>(regs.key[r], flip) : key_from_bits<K>(regs.key[r]);
                if constexpr (kValues) values[first + std::size_t{offset}] = regs.value[r];
            }
        }
    });
}

// Moves the tile from window kFrom to window kTo through shared memory. A thread's slots in a
// window are its register-0 slot plus a constant per register (smem_slot is additive).
#pragma nv_exec_check_disable
template <class Shape, bool kValues, int kFrom, int kTo, class Block>
PMPP_HD void change_window(Block& block) {
    if constexpr (kFrom != kTo) {
        block.for_each_thread([&](u32 t, auto& regs) {
            const u32 slot = smem_slot(Shape::index(t, 0, kFrom));
            BITONIC_UNROLL
            for (int r = 0; r < Shape::kItems; ++r) {
                const u32 offset = smem_slot(static_cast<u32>(r) << kFrom);
                block.shared_keys[slot + offset] = regs.key[r];
                if constexpr (kValues) block.shared_values[slot + offset] = regs.value[r];
            }
        });
        block.sync();
        block.for_each_thread([&](u32 t, auto& regs) {
            const u32 slot = smem_slot(Shape::index(t, 0, kTo));
            BITONIC_UNROLL
            for (int r = 0; r < Shape::kItems; ++r) {
                const u32 offset = smem_slot(static_cast<u32>(r) << kTo);
                regs.key[r] = block.shared_keys[slot + offset];
                if constexpr (kValues) regs.value[r] = block.shared_values[slot + offset];
            }
        });
        block.sync();  // before anyone overwrites shared memory again
    }
}

// The step of stride 2^kBit, inside window kWindow: pairs of registers, all forward (the keys of
// backward blocks are complemented: direction_bits).
#pragma nv_exec_check_disable
template <class Shape, bool kValues, int kWindow, int kBit, class Block>
PMPP_HD void exchange_in_registers(Block& block) {
    static_assert(kWindow <= kBit && kBit < kWindow + Shape::kLogItems, "the stride must be a register bit");
    constexpr int kPartner = 1 << (kBit - kWindow);
    block.for_each_thread([&](u32, auto& regs) {
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) {
            if (r & kPartner) continue;
            order_pair<kValues>(regs.key[r], regs.key[r | kPartner], regs.value[kValues ? r : 0],
                                regs.value[kValues ? (r | kPartner) : 0]);
        }
    });
}

// Every key the block holds in window kWindow XORed with bits(tile index): a change of direction.
#pragma nv_exec_check_disable
template <class Shape, int kWindow, class Block, class Bits>
PMPP_HD void complement_where(Block& block, Bits bits) {
    block.for_each_thread([&](u32 t, auto& regs) {
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) regs.key[r] ^= bits(Shape::index(t, r, kWindow));
    });
}

// Pass 1: every stage k = 2 ... kTile of the network on each tile (all of its steps). It reads
// keys_in and writes keys_out (the same array here; 07's network tile sort reads one and writes
// another: a tile alone, tile 0 of an array of its own length, is sorted ascending).
#pragma nv_exec_check_disable
template <class Shape, bool kValues, class K, class Block>
PMPP_HD void sort_tile(Block& block, const K* keys_in, const u32* values_in, K* keys_out, u32* values_out, u32 n,
                       u32 flip, bool last_pass) {
    const u32 base = block.tile * Shape::kTile;
    const u32 last = n - 1;
    // Stage kStage's direction bits of the element at tile index i (0 before the first stage).
    const auto stage_bits = [&](int stage, u32 i) {
        return stage == 0 ? 0u : direction_bits(((((base | i) ^ last) >> stage) & 1u) == 0);
    };
    load_tile<Shape, kValues>(block, keys_in, values_in, n, flip, true);
    static_for<1, Shape::kLogTile + 1>([&](auto stage) {  // k = 2^kStage
        constexpr int kStage = decltype(stage)::value;
        // The keys enter this stage's blocks: complemented where its direction differs from the
        // previous stage's, in the window they are held in (the linear one after the load).
        constexpr int kHeld = kStage == 1 ? Shape::kLinearWindow : Shape::window_of(0);
        complement_where<Shape, kHeld>(block, [&](u32 i) { return stage_bits(kStage - 1, i) ^ stage_bits(kStage, i); });
        static_for<0, kStage>([&](auto step) {  // j = 2^kBit, from k/2 down to 1
            constexpr int kBit = kStage - 1 - decltype(step)::value;
            constexpr int kWindow = Shape::window_of(kBit);
            constexpr int kPrevious = kBit + 1 < kStage ? Shape::window_of(kBit + 1)
                                      : kStage == 1     ? Shape::kLinearWindow
                                                        : Shape::window_of(0);
            change_window<Shape, kValues, kPrevious, kWindow>(block);
            exchange_in_registers<Shape, kValues, kWindow, kBit>(block);
        });
    });
    complement_where<Shape, Shape::window_of(0)>(block, [&](u32 i) { return stage_bits(Shape::kLogTile, i); });
    change_window<Shape, kValues, Shape::window_of(0), Shape::kLinearWindow>(block);
    store_tile<Shape, kValues>(block, keys_out, values_out, n, flip, last_pass);
}

// The steps j = kTile/2 ... 1 of a stage k > kTile on each tile: one direction per tile.
#pragma nv_exec_check_disable
template <class Shape, bool kValues, class K, class Block>
PMPP_HD void merge_tile(Block& block, K* keys, u32* values, u32 n, u32 k, u32 flip, bool last_pass) {
    const u32 direction = direction_bits((((block.tile * Shape::kTile) ^ (n - 1)) & k) == 0);
    load_tile<Shape, kValues>(block, keys, values, n, flip, false);
    complement_where<Shape, Shape::kLinearWindow>(block, [&](u32) { return direction; });
    static_for<0, Shape::kLogTile>([&](auto step) {
        constexpr int kBit = Shape::kLogTile - 1 - decltype(step)::value;
        constexpr int kWindow = Shape::window_of(kBit);
        constexpr int kPrevious = kBit + 1 < Shape::kLogTile ? Shape::window_of(kBit + 1) : Shape::kLinearWindow;
        change_window<Shape, kValues, kPrevious, kWindow>(block);
        exchange_in_registers<Shape, kValues, kWindow, kBit>(block);
    });
    complement_where<Shape, Shape::window_of(0)>(block, [&](u32) { return direction; });
    change_window<Shape, kValues, Shape::window_of(0), Shape::kLinearWindow>(block);
    store_tile<Shape, kValues>(block, keys, values, n, flip, last_pass);
}

// ---- Strides longer than a tile, a block at a time -----------------------------------------------
// One thread's registers hold at most 2^kMaxLogGlobalItems elements, so a long pass covers at
// most that many strides. A block holds a tile's worth: kTile elements that differ in the 5
// lowest index bits (32 consecutive elements, one warp's coalesced access) and in kLogTile - 5
// bits higher up, the pass's strides at the top of them (and below those, bits it does not
// compare on). Its steps run as a tile merge's do, through the windows and shared memory, over
// the tile bits that stand for the strides: up to kLogTile - 5 strides a pass (8 or 9, against 5).
// Tile index i stands for array index first | (i mod 32) | (i / 32) << base_bit.
struct BlockSpan {
    int base_bit;  // tile bit 5 stands for this index bit
    int top_bit;  // base_bit + kLogTile - 5: the lowest index bit above the block's
};
PMPP_HD BlockSpan block_span(int log_tile, int low_bit, int log_items) {
    const int base_bit = low_bit + log_items - (log_tile - 5);
    return {base_bit, base_bit + log_tile - 5};
}

// Stage k's strides 2^low_bit ... 2^(low_bit + log_items - 1), log_items <= kLogTile - 5 and
// low_bit >= kLogTile, on block number block.tile: its bits below base_bit - 5 fill index bits
// 5 ..., the rest go above top_bit. One direction per block: every bit it varies in is below k.
#pragma nv_exec_check_disable
template <class Shape, bool kValues, class K, class Block>
PMPP_HD void block_strides(Block& block, K* keys, u32* values, u32 n, u32 k, int low_bit, int log_items) {
    static_assert(Shape::kLinearWindow <= 2 * Shape::kLogItems,
                  "below the linear window every step's window is window_of(5) = 5, where the steps end");
    const BlockSpan span = block_span(Shape::kLogTile, low_bit, log_items);
    const int low_blocks = span.base_bit - 5;
    const u32 first = ((block.tile >> low_blocks) << span.top_bit) | ((block.tile & ((1u << low_blocks) - 1u)) << 5);
    const u32 direction = direction_bits(((first ^ (n - 1)) & k) == 0);
    const int register_shift = span.base_bit + Shape::kLogThreads - 5;  // tile index t + r * kThreads
    const auto thread_first = [&](u32 t) { return first | (t & 31u) | ((t >> 5) << span.base_bit); };
    block.for_each_thread([&](u32 t, auto& regs) {
        const u32 mine = thread_first(t);
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) {
            const u32 g = mine + (static_cast<u32>(r) << register_shift);
            regs.key[r] = (g < n ? bits_of(keys[g]) : kPadding) ^ direction;
            if constexpr (kValues) regs.value[r] = g < n ? values[g] : 0u;
        }
    });
    const int lowest = Shape::kLogTile - log_items;  // the tile bit of the shortest stride
    static_for<0, Shape::kLogTile - 5>([&](auto step) {
        constexpr int kBit = Shape::kLogTile - 1 - decltype(step)::value;
        constexpr int kWindow = Shape::window_of(kBit);
        constexpr int kPrevious = kBit + 1 < Shape::kLogTile ? Shape::window_of(kBit + 1) : Shape::kLinearWindow;
        if (kBit < lowest) return;  // the same for every thread of the block: no barrier is skipped by some
        change_window<Shape, kValues, kPrevious, kWindow>(block);
        exchange_in_registers<Shape, kValues, kWindow, kBit>(block);
    });
    if (Shape::window_of(lowest) != Shape::kLinearWindow)  // the steps ended in window 5
        change_window<Shape, kValues, Shape::window_of(5), Shape::kLinearWindow>(block);
    block.for_each_thread([&](u32 t, auto& regs) {
        const u32 mine = thread_first(t);
        BITONIC_UNROLL
        for (int r = 0; r < Shape::kItems; ++r) {
            const u32 g = mine + (static_cast<u32>(r) << register_shift);
            if (g < n) {
                keys[g] = key_from_bits<K>(regs.key[r] ^ direction);
                if constexpr (kValues) values[g] = regs.value[r];
            }
        }
    });
}

// ---- Strides longer than a tile: registers only ------------------------------------------------

// Thread t's first element in a pass over strides 2^low_bit ... 2^(low_bit + kLogItems - 1): the
// thread number with kLogItems zero bits inserted at low_bit. Its elements are first + r << low_bit.
PMPP_HD u32 global_pass_first(u32 t, int low_bit, int log_items) {
    return ((t >> low_bit) << (low_bit + log_items)) | (t & ((1u << low_bit) - 1u));
}

// Threads whose first element is below n (the others hold only padding).
PMPP_HD u32 global_pass_threads(u32 n, int low_bit, int log_items) {
    const int span = low_bit + log_items;
    const u32 full_groups = n >> span;
    const u32 rest = n & ((1u << span) - 1u);
    const u32 low_count = 1u << low_bit;
    return (full_groups << low_bit) + (rest < low_count ? rest : low_count);
}

// kLogItems steps of stage k (k above every stride here, so one direction per thread).
template <int kLogItems, bool kValues, class K>
PMPP_HD void global_pass_thread(u32 t, K* keys, u32* values, u32 n, u32 k, int low_bit) {
    constexpr int kItems = 1 << kLogItems;
    const u32 first = global_pass_first(t, low_bit, kLogItems);
    const u32 direction = direction_bits(((first ^ (n - 1)) & k) == 0);  // complemented if backward
    const u32 left = n - first;  // first < n for every thread launched
    K* const thread_keys = keys + first;
    u32* const thread_values = kValues ? values + first : nullptr;
    u32 key[kItems];
    u32 value[kValues ? kItems : 1];
    BITONIC_UNROLL
    for (int r = 0; r < kItems; ++r) {
        const u32 offset = static_cast<u32>(r) << low_bit;
        key[r] = (offset < left ? bits_of(thread_keys[offset]) : kPadding) ^ direction;
        if constexpr (kValues) value[r] = offset < left ? thread_values[offset] : 0u;
    }
    BITONIC_UNROLL
    for (int bit = kLogItems - 1; bit >= 0; --bit) {
        BITONIC_UNROLL
        for (int r = 0; r < kItems; ++r) {
            if ((r >> bit) & 1) continue;
            const int partner = r | (1 << bit);
            order_pair<kValues>(key[r], key[partner], value[kValues ? r : 0], value[kValues ? partner : 0]);
        }
    }
    BITONIC_UNROLL
    for (int r = 0; r < kItems; ++r) {
        const u32 offset = static_cast<u32>(r) << low_bit;
        if (offset < left) {
            thread_keys[offset] = key_from_bits<K>(key[r] ^ direction);
            if constexpr (kValues) thread_values[offset] = value[r];
        }
    }
}

// ---- The plan: which passes sort n elements ------------------------------------------------------

struct Pass {
    enum class Kind { SortTiles, GlobalStrides, BlockStrides, MergeTiles };
    Kind kind = Kind::SortTiles;
    u32 k = 0;  // the stage (GlobalStrides, BlockStrides, MergeTiles)
    int low_bit = 0;  // Global/BlockStrides: strides 2^low_bit ... 2^(low_bit + log_items - 1)
    int log_items = 0;
    bool last = false;  // the last pass decodes the keys
    // The elements [begin, end) the pass covers: the whole array, or one chunk (below).
    u32 begin = 0;
    u32 end = 0;
};

// How the m long strides of a stage split into passes, from the top: as few passes as the
// wider kind allows (at most max_log_items strides in one thread's registers, or
// max_log_block_items in a block, 0: none), and of those as many as possible in registers,
// which cost less (no shared memory, no barrier). A block pass takes more strides than a
// register pass could.
struct StrideGroup {
    Pass::Kind kind;
    int count;
};
inline std::vector<StrideGroup> stride_groups(int m, int max_log_items, int max_log_block_items) {
    std::vector<StrideGroup> groups;
    const int widest = std::max(max_log_items, max_log_block_items);
    const int passes = (m + widest - 1) / widest;
    int blocks = 0;
    if (max_log_block_items > max_log_items && m > passes * max_log_items)
        blocks = (m - passes * max_log_items + (max_log_block_items - max_log_items) - 1) /
                 (max_log_block_items - max_log_items);
    const int registers = passes - blocks;
    while (m > 0) {
        const bool block = blocks > 0;
        const int count =
            block ? std::min(max_log_block_items, m - registers * max_log_items) : std::min(max_log_items, m);
        groups.push_back({block ? Pass::Kind::BlockStrides : Pass::Kind::GlobalStrides, count});
        blocks -= block ? 1 : 0;
        m -= count;
    }
    return groups;
}

// One SortTiles; then for each stage longer than a tile, its long strides from the top in
// groups (stride_groups), and one MergeTiles for the strides below the tile.
//
// Chunks (log_chunk < log2 of the padded length): the stages up to 2^log_chunk compare elements
// only inside aligned chunks of 2^log_chunk, so one chunk can go through all of them before the
// next starts. A chunk that fits the L2 cache is then read from DRAM once and written once for
// those stages, its other passes hitting L2. A longer stage starts with passes over the whole
// array until its strides are shorter than a chunk; what is left of it (`tails_in_chunks`)
// again compares only inside chunks, so it too goes chunk after chunk. The network and its
// comparators are the same; only the order of independent work changes. log_chunk >= log_tile.
inline std::vector<Pass> plan(std::size_t n, int log_tile, int max_log_items, int log_chunk = 31,
                              bool tails_in_chunks = true, int max_log_block_items = 0) {
    std::vector<Pass> passes;
    if (n < 2) return passes;
    const int log_n = log2_exact(padded_length(n));
    const u32 n32 = static_cast<u32>(n);
    const int chunk_stages = std::min(log_n, std::max(log_chunk, log_tile));
    const u64 chunk = u64{1} << chunk_stages;
    const auto for_each_chunk = [&](auto&& add) {
        for (u64 begin = 0; begin < n32; begin += chunk)
            add(static_cast<u32>(begin), static_cast<u32>(std::min<u64>(n32, begin + chunk)));
    };
    // Stage s's passes: its long-stride groups [first, last) (each group's strides start where the
    // group before it ended) over [begin, end), and with `merge` its tile merge.
    const auto add_passes = [&](int s, const std::vector<StrideGroup>& groups, std::size_t first, std::size_t last,
                                u32 begin, u32 end, bool merge) {
        int top = s - 1;
        for (std::size_t j = 0; j < groups.size(); ++j) {
            if (j >= first && j < last)
                passes.push_back(
                    {groups[j].kind, 1u << s, top - groups[j].count + 1, groups[j].count, false, begin, end});
            top -= groups[j].count;
        }
        if (merge) passes.push_back({Pass::Kind::MergeTiles, 1u << s, 0, 0, false, begin, end});
    };
    const auto groups_of = [&](int s) { return stride_groups(s - log_tile, max_log_items, max_log_block_items); };
    for_each_chunk([&](u32 begin, u32 end) {
        passes.push_back({Pass::Kind::SortTiles, 0, 0, 0, false, begin, end});
        for (int s = log_tile + 1; s <= chunk_stages; ++s) {
            const auto groups = groups_of(s);
            add_passes(s, groups, 0, groups.size(), begin, end, true);
        }
    });
    for (int s = chunk_stages + 1; s <= log_n; ++s) {
        const auto groups = groups_of(s);
        if (!tails_in_chunks) {
            add_passes(s, groups, 0, groups.size(), 0, n32, true);
            continue;
        }
        // Groups that reach a stride of a chunk or longer pass over the whole array.
        std::size_t whole = 0;
        for (int top = s - 1; whole < groups.size() && top >= chunk_stages; ++whole) top -= groups[whole].count;
        add_passes(s, groups, 0, whole, 0, n32, false);
        for_each_chunk([&](u32 begin, u32 end) {
            add_passes(s, groups, whole, groups.size(), begin, end, true);
            if (s == log_n) passes.back().last = true;  // each chunk's last pass decodes its keys
        });
    }
    passes.back().last = true;
    return passes;
}

// The tiles [first, last) a tile pass covers, and the threads [first, last) of a long pass (a
// chunk starts on a multiple of 2^(low_bit + log_items), so its threads are consecutive).
struct Range {
    u32 first = 0, last = 0;
    u32 count() const { return last - first; }
};
inline Range tiles_of(const Pass& pass, u32 tile) {
    return {pass.begin / tile, static_cast<u32>((u64{pass.end} + tile - 1) / tile)};
}
// The blocks of a BlockStrides pass: 2^(base_bit - 5) for every aligned 2^top_bit elements
// (block_span); a block past n holds padding only, loads and stores nothing.
inline Range blocks_of(const Pass& pass, int log_tile) {
    const BlockSpan span = block_span(log_tile, pass.low_bit, pass.log_items);
    const int low_blocks = span.base_bit - 5;
    const u64 group = u64{1} << span.top_bit;
    return {static_cast<u32>((pass.begin / group) << low_blocks),
            static_cast<u32>(((pass.end + group - 1) / group) << low_blocks)};
}
inline Range threads_of(const Pass& pass) {
    return {global_pass_threads(pass.begin, pass.low_bit, pass.log_items),
            global_pass_threads(pass.end, pass.low_bit, pass.log_items)};
}

// The chunk (log2 of its elements) whose passes stay in the L2 cache: at most l2_share of the L2
// for the chunk's keys (and values); 31, no chunks, where even a tile would not fit.
inline int log_chunk_for(std::size_t l2_bytes, std::size_t element_bytes, double l2_share, int log_tile) {
    const double budget = l2_share * static_cast<double>(l2_bytes);
    const auto fits = [&](int log_elements) { return static_cast<double>(element_bytes << log_elements) <= budget; };
    if (!fits(log_tile)) return 31;
    int log_chunk = log_tile;
    while (log_chunk < 31 && fits(log_chunk + 1)) ++log_chunk;
    return log_chunk;
}

// ---- GPU kernels and launches -------------------------------------------------------------------

template <class Shape, bool kValues>
struct GpuBlock {
    Registers<Shape, kValues> regs;
    u32* shared_keys;
    u32* shared_values;
    u32 tile;
    template <class F>
    __device__ __forceinline__ void for_each_thread(F&& f) {
        f(threadIdx.x, regs);
    }
    __device__ __forceinline__ void sync() { __syncthreads(); }
};

// Every kernel waits for the one before it first (a no-op unless launched with dependent launch:
// common/primitives/dependent_launch.cuh) and lets the next one launch after its stores. A tile
// pass covers the tiles first_tile + blockIdx.x, a long pass the threads first_thread + ... .
template <class Shape, bool kValues, class K>
__global__ void __launch_bounds__(Shape::kThreads)
    sort_tiles_kernel(K* keys, u32* values, u32 n, u32 flip, bool last_pass, u32 first_tile) {
    pmpp::wait_for_previous_kernel();
    extern __shared__ u32 shared_words[];
    GpuBlock<Shape, kValues> block{{}, shared_words, shared_words + Shape::kSharedWords, first_tile + blockIdx.x};
    sort_tile<Shape, kValues>(block, keys, values, keys, values, n, flip, last_pass);
    pmpp::let_next_kernel_launch();
}

template <class Shape, bool kValues, class K>
__global__ void __launch_bounds__(Shape::kThreads)
    merge_tiles_kernel(K* keys, u32* values, u32 n, u32 k, u32 flip, bool last_pass, u32 first_tile) {
    pmpp::wait_for_previous_kernel();
    extern __shared__ u32 shared_words[];
    GpuBlock<Shape, kValues> block{{}, shared_words, shared_words + Shape::kSharedWords, first_tile + blockIdx.x};
    merge_tile<Shape, kValues>(block, keys, values, n, k, flip, last_pass);
    pmpp::let_next_kernel_launch();
}

template <class Shape, bool kValues, class K>
__global__ void __launch_bounds__(Shape::kThreads)
    block_strides_kernel(K* keys, u32* values, u32 n, u32 k, int low_bit, int log_items, u32 first_block) {
    pmpp::wait_for_previous_kernel();
    extern __shared__ u32 shared_words[];
    GpuBlock<Shape, kValues> block{{}, shared_words, shared_words + Shape::kSharedWords, first_block + blockIdx.x};
    block_strides<Shape, kValues>(block, keys, values, n, k, low_bit, log_items);
    pmpp::let_next_kernel_launch();
}

constexpr int kGlobalThreads = 256;

template <int kLogItems, bool kValues, class K>
__global__ void __launch_bounds__(kGlobalThreads)
    global_pass_kernel(K* keys, u32* values, u32 n, u32 k, int low_bit, u32 first_thread, u32 threads) {
    pmpp::wait_for_previous_kernel();
    const u32 t = blockIdx.x * kGlobalThreads + threadIdx.x;
    if (t < threads) global_pass_thread<kLogItems, kValues>(first_thread + t, keys, values, n, k, low_bit);
    pmpp::let_next_kernel_launch();
}

template <int kLogItems, int kMaxLogItems, bool kValues, class K>
void launch_global_pass(const Pass& pass, K* keys, u32* values, u32 n, bool dependent) {
    if constexpr (kLogItems <= kMaxLogItems) {
        if (pass.log_items != kLogItems) {
            launch_global_pass<kLogItems + 1, kMaxLogItems, kValues>(pass, keys, values, n, dependent);
            return;
        }
        const Range threads = threads_of(pass);
        const u32 blocks = (threads.count() + kGlobalThreads - 1) / kGlobalThreads;
        pmpp::launch_kernel(dependent, global_pass_kernel<kLogItems, kValues, K>, blocks, kGlobalThreads, 0, keys,
                            values, n, pass.k, pass.low_bit, threads.first, threads.count());
    } else {
        throw std::logic_error("bitonic fused: a pass over " + std::to_string(pass.log_items) + " strides");
    }
}

// The tile bitonic_sort_fused uses on this GPU (or the PMPP_DEVICE_PROFILE's), at every n: 8192,
// or 4096 where two blocks of 8192 do not fit an SM; bitonic_4_fused.cu. Needs a GPU.
std::uint32_t fused_tile_for_this_gpu(bool values);
// At most how many strides (log2 of the elements a thread holds) one long pass of
// bitonic_sort_fused covers: 5 for keys alone, 3 with values (bitonic_4_fused.cu).
int long_strides_per_pass(bool values);

// A tile kernel's shared memory: one padded array of keys, and one of values when they travel.
template <class Shape, bool kValues>
constexpr std::size_t tile_shared_bytes() {
    return std::size_t{Shape::kSharedWords} * sizeof(u32) * (kValues ? 2 : 1);
}

// How a sort runs besides its shape: chunks of 2^log_chunk elements go through the stages up to
// their length one after another (31: no chunks; plan()); `dependent`: each kernel launched with
// programmatic dependent launch (where dependent_launch_available()).
struct Schedule {
    int log_chunk = 31;
    bool dependent = false;
    bool tails_in_chunks = true;
    bool block_passes = false;  // long passes of up to kLogTile - 5 strides in a block (BlockStrides)
};

// The schedule bitonic_sort_fused uses on this GPU (or the PMPP_DEVICE_PROFILE's).
Schedule fused_schedule_for_this_gpu(bool values);

// The whole sort with a given tile shape and at most 2^kMaxLogGlobalItems elements per thread
// in the passes over long strides.
template <class Shape, int kMaxLogGlobalItems, bool kValues, class K>
void sort_with(K* keys, u32* values, std::size_t n, SortOrder order, Schedule schedule = {}) {
    if (n < 2) return;
    if (n > kMaxSortLength)
        throw std::length_error("bitonic_sort_fused: n = " + std::to_string(n) + " exceeds 2^31 - 1");
    const u32 n32 = static_cast<u32>(n);
    const u32 flip = order == SortOrder::Descending ? ~0u : 0u;
    constexpr std::size_t shared_bytes = tile_shared_bytes<Shape, kValues>();
    static const bool shared_memory_allowed = [] {  // above 48 KiB a kernel must ask, once
        pmpp::allow_dynamic_shared_memory(sort_tiles_kernel<Shape, kValues, K>, shared_bytes,
                                          "bitonic_sort_fused's tile sort");
        pmpp::allow_dynamic_shared_memory(merge_tiles_kernel<Shape, kValues, K>, shared_bytes,
                                          "bitonic_sort_fused's tile merge");
        pmpp::allow_dynamic_shared_memory(block_strides_kernel<Shape, kValues, K>, shared_bytes,
                                          "bitonic_sort_fused's long pass in blocks");
        return true;
    }();
    (void)shared_memory_allowed;
    const bool dependent = schedule.dependent && pmpp::dependent_launch_available();
    const std::size_t element_bytes = sizeof(K) + (kValues ? sizeof(u32) : 0);
    const int max_log_block_items = schedule.block_passes ? Shape::kLogTile - 5 : 0;
    for (const Pass& pass : plan(n, Shape::kLogTile, kMaxLogGlobalItems, schedule.log_chunk, schedule.tails_in_chunks,
                                 max_log_block_items)) {
        const Range tiles = tiles_of(pass, Shape::kTile);
        switch (pass.kind) {
            case Pass::Kind::SortTiles:
                pmpp::launch_kernel(dependent, sort_tiles_kernel<Shape, kValues, K>, tiles.count(), Shape::kThreads,
                                    shared_bytes, keys, values, n32, flip, pass.last, tiles.first);
                break;
            case Pass::Kind::GlobalStrides:
                launch_global_pass<1, kMaxLogGlobalItems, kValues>(pass, keys, values, n32, dependent);
                break;
            case Pass::Kind::BlockStrides: {
                const Range blocks = blocks_of(pass, Shape::kLogTile);
                pmpp::launch_kernel(dependent, block_strides_kernel<Shape, kValues, K>, blocks.count(), Shape::kThreads,
                                    shared_bytes, keys, values, n32, pass.k, pass.low_bit, pass.log_items,
                                    blocks.first);
                break;
            }
            case Pass::Kind::MergeTiles:
                pmpp::launch_kernel(dependent, merge_tiles_kernel<Shape, kValues, K>, tiles.count(), Shape::kThreads,
                                    shared_bytes, keys, values, n32, pass.k, flip, pass.last, tiles.first);
                break;
        }
        count_launch(pass.end - pass.begin, element_bytes);
    }
}

}  // namespace bitonic::fused
