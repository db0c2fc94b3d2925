// host_block.h: the executor that runs variant 4's block-level code (bitonic_4_fused.cuh) on the
// host, for 05's emulation tests and 07's tests of its network tile sort: for_each_thread runs
// every thread in turn; shared memory is refilled with garbage when a window change is over (its
// second barrier, or window_change_over() in a block with one barrier a change), so a thread that
// reads a slot nobody wrote in this change reads garbage.
#pragma once

#include "../bitonic_4_fused.cuh"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace bitonic_tests {

template <class Shape, bool kValues, bool kStable_ = false, class SharedValue = bitonic::fused::u32,
          bool kOneBarrier_ = false>
struct HostBlock {
    static_assert(kValues || !kStable_, "a stable block carries places in its value registers");
    static_assert(std::is_same_v<SharedValue, bitonic::fused::u32> || (kStable_ && Shape::kTile <= 65536u),
                  "only a stable block's places (below kTile) fit a narrower word");
    static constexpr bool kStable = kStable_;
    static constexpr bool kOneBarrier = kOneBarrier_;  // change_window: poisoned by window_change_over, not sync
    using u32 = bitonic::fused::u32;
    static constexpr u32 kGarbage = 0xDEADBEEFu;
    std::vector<bitonic::fused::Registers<Shape, kValues>> regs =
        std::vector<bitonic::fused::Registers<Shape, kValues>>(Shape::kThreads);
    std::vector<u32> key_storage = std::vector<u32>(Shape::kSharedWords, kGarbage);
    std::vector<SharedValue> value_storage =
        std::vector<SharedValue>(Shape::kSharedWords, static_cast<SharedValue>(kGarbage));
    u32* shared_keys = key_storage.data();
    SharedValue* shared_values = value_storage.data();
    u32 tile = 0;
    int syncs = 0;

    template <class F>
    void for_each_thread(F&& f) {
        for (u32 t = 0; t < static_cast<u32>(Shape::kThreads); ++t) f(t, regs[t]);
    }
    void sync() {
        if (++syncs % 2 == 0 && !kOneBarrier) poison();  // a window change is over
    }
    void window_change_over() { poison(); }  // only a kOneBarrier block calls it
    void poison() {
        std::fill(key_storage.begin(), key_storage.end(), kGarbage);
        std::fill(value_storage.begin(), value_storage.end(), static_cast<SharedValue>(kGarbage));
    }
};

}  // namespace bitonic_tests
