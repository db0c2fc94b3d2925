// host_block.h: the executor that runs variant 4's block-level code (bitonic_4_fused.cuh) on the
// host, for 05's emulation tests and 07's tests of its network tile sort: for_each_thread runs
// every thread in turn; shared memory is refilled with garbage when a window change is over (its
// second barrier), so a thread that reads a slot nobody wrote in this change reads garbage.
#pragma once

#include "../bitonic_4_fused.cuh"

#include <algorithm>
#include <vector>

namespace bitonic_tests {

template <class Shape, bool kValues>
struct HostBlock {
    using u32 = bitonic::fused::u32;
    static constexpr u32 kGarbage = 0xDEADBEEFu;
    std::vector<bitonic::fused::Registers<Shape, kValues>> regs =
        std::vector<bitonic::fused::Registers<Shape, kValues>>(Shape::kThreads);
    std::vector<u32> storage = std::vector<u32>(2 * Shape::kSharedWords, kGarbage);
    u32* shared_keys = storage.data();
    u32* shared_values = storage.data() + Shape::kSharedWords;
    u32 tile = 0;
    int syncs = 0;

    template <class F>
    void for_each_thread(F&& f) {
        for (u32 t = 0; t < static_cast<u32>(Shape::kThreads); ++t) f(t, regs[t]);
    }
    void sync() {
        if (++syncs % 2 == 0) std::fill(storage.begin(), storage.end(), kGarbage);  // a window change is over
    }
};

}  // namespace bitonic_tests
