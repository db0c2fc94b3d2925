// Variant 4 without a GPU: its block-level code (bitonic_4_fused.cuh) runs on the host, one
// thread after another between barriers, with shared memory poisoned after every window change.
// These tests pin the plan of passes, the windows, the shared-memory layout and the index
// arithmetic; the device tests (test_bitonic.cu) then run the same code on the GPU.
#include "../bitonic_4_fused.cuh"
#include "../harness/bitonic_harness.h"
#include "every_kind.h"
#include "host_block.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

using namespace pmpp;
using namespace bitonic;
using namespace bitonic::fused;

namespace {

using bitonic_tests::HostBlock;  // the block-level code on the host, thread after thread (host_block.h)

// bitonic_sort_fused, emulated: the plan's passes, each over the tiles or threads of its range.
template <class Shape, int kMaxLogGlobalItems, bool kValues, class K>
void emulate_fused(K* keys, u32* values, std::size_t n, SortOrder order, int log_chunk, bool block_passes) {
    const u32 flip = order == SortOrder::Descending ? ~0u : 0u;
    const u32 n32 = static_cast<u32>(n);
    const int max_log_block_items = block_passes ? Shape::kLogTile - 5 : 0;
    for (const Pass& pass : plan(n, Shape::kLogTile, kMaxLogGlobalItems, log_chunk, true, max_log_block_items)) {
        if (pass.kind == Pass::Kind::BlockStrides) {
            const Range blocks = blocks_of(pass, Shape::kLogTile);
            for (u32 b = blocks.first; b < blocks.last; ++b) {
                HostBlock<Shape, kValues> block;
                block.tile = b;
                block_strides<Shape, kValues>(block, keys, values, n32, pass.k, pass.low_bit, pass.log_items);
            }
            continue;
        }
        if (pass.kind == Pass::Kind::GlobalStrides) {
            static_for<1, kMaxLogGlobalItems + 1>([&](auto log_items) {
                constexpr int kLogItems = decltype(log_items)::value;
                if (pass.log_items != kLogItems) return;
                const Range threads = threads_of(pass);
                for (u32 t = threads.first; t < threads.last; ++t)
                    global_pass_thread<kLogItems, kValues>(t, keys, values, n32, pass.k, pass.low_bit);
            });
            continue;
        }
        const Range tiles = tiles_of(pass, Shape::kTile);
        for (u32 tile = tiles.first; tile < tiles.last; ++tile) {
            HostBlock<Shape, kValues> block;
            block.tile = tile;
            if (pass.kind == Pass::Kind::SortTiles)
                sort_tile<Shape, kValues>(block, keys, values, keys, values, n32, flip, pass.last);
            else
                merge_tile<Shape, kValues>(block, keys, values, n32, pass.k, flip, pass.last);
        }
    }
}

// emulate_fused as a host sort of any key type (values null for keys alone); LogChunk 31: no chunks.
template <class Shape, int kMaxLogGlobalItems, int kLogChunk = 31, bool kBlockStrides = false>
struct EmulatedFused {
    template <class K>
    void operator()(K* keys, u32* values, std::size_t n, SortOrder order) const {
        if (values != nullptr)
            emulate_fused<Shape, kMaxLogGlobalItems, true>(keys, values, n, order, kLogChunk, kBlockStrides);
        else
            emulate_fused<Shape, kMaxLogGlobalItems, false>(keys, static_cast<u32*>(nullptr), n, order, kLogChunk,
                                                            kBlockStrides);
    }
};

using SmallShape = TileShape<5, 5>;  // 32 threads x 32 = 1024 per tile: many stages past the tile cheaply
using ShippedShape = TileShape<8, 5>;  // what bitonic_4_fused.cu launches

// The steps (log2 k, log2 j) a plan performs, in order.
std::vector<std::pair<int, int>> steps_of(const std::vector<Pass>& passes, int log_tile) {
    std::vector<std::pair<int, int>> steps;
    for (const Pass& p : passes) {
        const int s = bitonic::log2_exact(p.k);
        switch (p.kind) {
            case Pass::Kind::SortTiles:
                for (int stage = 1; stage <= log_tile; ++stage)
                    for (int b = stage - 1; b >= 0; --b) steps.push_back({stage, b});
                break;
            case Pass::Kind::GlobalStrides:
            case Pass::Kind::BlockStrides:
                for (int b = p.low_bit + p.log_items - 1; b >= p.low_bit; --b) steps.push_back({s, b});
                break;
            case Pass::Kind::MergeTiles:
                for (int b = log_tile - 1; b >= 0; --b) steps.push_back({s, b});
                break;
        }
    }
    return steps;
}

}  // namespace

// ---- the sort, emulated -------------------------------------------------------------------------------

TEST(FusedEmulated, SortsEveryKindOnEveryEdgeSizeWithASmallTile) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n <= 40; ++n) sizes.push_back(n);
    for (std::size_t n : {1023, 1024, 1025, 2049, 4097, 16385}) sizes.push_back(n);
    sizes.push_back((std::size_t{1} << 17) + 3);  // stages past the tile need 7 long strides: 3 passes
    bitonic_tests::expect_host_sort_sorts_every_kind(sizes, EmulatedFused<SmallShape, 3>{});
}

TEST(FusedEmulated, SortsInChunksThatGoThroughTheirOwnStagesFirst) {
    // Tiles of 1024, chunks of 4096 (2 stages past the tile inside a chunk) and of 1024 (the
    // tile itself): sizes below, on and across the chunk, with a partial last chunk.
    std::vector<std::size_t> sizes = {2, 1023, 1025, 4095, 4096, 4097, 3 * 4096 + 17, (std::size_t{1} << 15) - 1};
    bitonic_tests::expect_host_sort_sorts_every_kind(sizes, EmulatedFused<SmallShape, 3, 12>{});
    for (std::size_t n : {std::size_t{5000}, std::size_t{1} << 14})
        bitonic_tests::expect_host_sort_sorts<std::uint32_t>(n, CaseKind{}, pmpp::testing::test_seed(n),
                                                             EmulatedFused<SmallShape, 2, 10>{});
}

TEST(FusedEmulated, SortsWithLongPassesInBlocksInAndAcrossWindows) {
    // Tiles of 2048 (64 threads x 32): a block pass covers up to 6 strides, 5 of them in the
    // linear window and the 6th after a change of window; 3 strides in registers. Up to 2^17:
    // stages past the tile with 1 to 6 long strides, in blocks of 4 to 6; chunks of 2^13 too.
    using Shape = TileShape<6, 5>;
    std::vector<std::size_t> sizes = {2047, 2049, 4096, 8193, 3 * 8192 + 17, (std::size_t{1} << 17) - 1};
    bitonic_tests::expect_host_sort_sorts_every_kind(sizes, EmulatedFused<Shape, 3, 31, true>{});
    for (std::size_t n : {std::size_t{40000}, (std::size_t{1} << 17) + 3})
        bitonic_tests::expect_host_sort_sorts<std::uint32_t>(n, CaseKind{}, pmpp::testing::test_seed(n),
                                                             EmulatedFused<Shape, 3, 13, true>{});
}

TEST(FusedEmulated, SortsWithTheShippedShapeAcrossTheTileAndMultiPassStages) {
    // 2^18 + 3: stage 2^19 has 6 strides past the 8192-element tile: 2 passes of at most 5 for
    // keys alone, 2 of at most 3 with values (the pass widths bitonic_4_fused.cu ships).
    const std::vector<std::size_t> sizes = {8191, 8192, 8193, (std::size_t{1} << 14) + 1, (std::size_t{1} << 18) + 3};
    for (std::size_t n : sizes) {
        bitonic_tests::expect_host_sort_sorts<std::uint32_t>(n, CaseKind{}, pmpp::testing::test_seed(n),
                                                             EmulatedFused<ShippedShape, 5>{});
        bitonic_tests::expect_host_sort_sorts<float>(n, CaseKind{KeyType::F32, SortOrder::Descending, true, true},
                                                     pmpp::testing::test_seed(n + 1), EmulatedFused<ShippedShape, 3>{});
    }
}

TEST(FusedEmulated, SortsWithTheShippedScheduleBlockPassesAndStageEndsInChunks) {
    // What bitonic_4_fused.cu ships, with chunks small enough for the host: tiles of 8192, chunks
    // of 2^17 (2^16 with values). 2^19 + 3 is padded to 2^20: stages with 6 and 7 strides past the
    // tile take one block pass for keys alone (4 to 7 with values), stages 18-20 end chunk by chunk.
    const std::size_t n = (std::size_t{1} << 19) + 3;
    bitonic_tests::expect_host_sort_sorts<std::uint32_t>(n, CaseKind{}, pmpp::testing::test_seed(n),
                                                         EmulatedFused<ShippedShape, 5, 17, true>{});
    bitonic_tests::expect_host_sort_sorts<float>(n, CaseKind{KeyType::F32, SortOrder::Descending, true, true},
                                                 pmpp::testing::test_seed(n + 1),
                                                 EmulatedFused<ShippedShape, 3, 16, true>{});
}

// ---- the plan ---------------------------------------------------------------------------------------

TEST(FusedPlan, PerformsEveryStepOfTheNetworkOnceAndInOrder) {
    for (int max_log_block_items : {0, 8})
        for (int max_log_items : {1, 3, 4, 5})
            for (int log_n = 14; log_n <= 27; ++log_n) {
                const std::size_t n = (std::size_t{1} << (log_n - 1)) + 1;  // padded to 2^log_n
                const auto passes = plan(n, ShippedShape::kLogTile, max_log_items, 31, true, max_log_block_items);
                std::vector<std::pair<int, int>> network;
                for (int s = 1; s <= log_n; ++s)
                    for (int b = s - 1; b >= 0; --b) network.push_back({s, b});
                EXPECT_EQ(steps_of(passes, ShippedShape::kLogTile), network) << "n=" << n << " max=" << max_log_items;
                for (const Pass& p : passes)
                    if (p.kind == Pass::Kind::GlobalStrides)
                        EXPECT_LE(p.log_items, max_log_items);
                    else if (p.kind == Pass::Kind::BlockStrides)
                        EXPECT_LE(p.log_items, max_log_block_items);
                EXPECT_EQ(std::count_if(passes.begin(), passes.end(), [](const Pass& p) { return p.last; }), 1);
                EXPECT_TRUE(passes.back().last);
            }
}

// Chunks: every element meets the steps of the network in the network's order, each once, its
// last pass (and only that one) decodes it, and the passes of a chunk cover only its elements
// and compare only inside it: the stages up to the chunk, and with tails_in_chunks the strides
// shorter than a chunk of the longer stages.
TEST(FusedPlan, InChunksEveryElementStillMeetsEveryStepOnceAndInOrder) {
    constexpr int kLogTile = 10;
    for (int max_log_block_items : {0, 5})
        for (bool tails_in_chunks : {false, true})
            for (int log_chunk : {10, 11, 12, 14})
                for (std::size_t n :
                     {std::size_t{1} << 13, (std::size_t{1} << 14) + 5, std::size_t{3000}, std::size_t{1025}}) {
                    const auto passes = plan(n, kLogTile, 3, log_chunk, tails_in_chunks, max_log_block_items);
                    const int log_n = bitonic::log2_exact(bitonic::padded_length(n));
                    std::vector<std::pair<int, int>> network;
                    for (int s = 1; s <= log_n; ++s)
                        for (int b = s - 1; b >= 0; --b) network.push_back({s, b});
                    const std::size_t chunk = std::size_t{1} << std::min(log_chunk, log_n);
                    const std::string where = "n=" + std::to_string(n) + " chunk 2^" + std::to_string(log_chunk) +
                                              (tails_in_chunks ? " tails in chunks" : "");
                    for (std::size_t g = 0; g < n; g += 97) {
                        std::vector<Pass> covering;
                        for (const Pass& p : passes)
                            if (p.begin <= g && g < p.end) covering.push_back(p);
                        EXPECT_EQ(steps_of(covering, kLogTile), network) << where << " g=" << g;
                        ASSERT_FALSE(covering.empty());
                        EXPECT_TRUE(covering.back().last) << where << " g=" << g;
                        EXPECT_EQ(std::count_if(covering.begin(), covering.end(), [](const Pass& p) { return p.last; }),
                                  1)
                            << where << " g=" << g;
                    }
                    std::size_t tail_passes = 0;
                    for (const Pass& p : passes) {
                        EXPECT_LT(p.begin, p.end);
                        EXPECT_LE(p.end, n);
                        if (p.end - p.begin < n) {  // a chunk's pass: inside one chunk, and its strides too
                            EXPECT_EQ(p.begin % chunk, 0u) << where;
                            EXPECT_LE(p.end - p.begin, chunk) << where;
                            if (p.kind != Pass::Kind::MergeTiles &&
                                p.kind != Pass::Kind::SortTiles)  // its longest stride is below the chunk
                                EXPECT_LE(std::size_t{1} << (p.low_bit + p.log_items), chunk) << where;
                            if (p.k > chunk) ++tail_passes;
                        }
                    }
                    if (!tails_in_chunks || chunk >= n)
                        EXPECT_EQ(tail_passes, 0u) << where;
                    else
                        EXPECT_GT(tail_passes, 0u) << where << ": the longer stages end chunk by chunk";
                    EXPECT_TRUE(passes.back().last);
                }
}

TEST(FusedPlan, SplitsLongStridesIntoTheFewestPassesMostOfThemInRegisters) {
    const auto kinds = [](int m, int g, int b) {
        std::string out;
        for (const StrideGroup& group : stride_groups(m, g, b))
            out += (group.kind == Pass::Kind::BlockStrides ? "B" : "R") + std::to_string(group.count) + " ";
        return out;
    };
    EXPECT_EQ(kinds(9, 5, 0), "R5 R4 ");
    EXPECT_EQ(kinds(4, 5, 8), "R4 ");
    EXPECT_EQ(kinds(6, 5, 8), "B6 ") << "one block pass instead of two in registers";
    EXPECT_EQ(kinds(9, 5, 9), "B9 ");
    EXPECT_EQ(kinds(9, 5, 8), "R5 R4 ") << "two passes either way: registers";
    EXPECT_EQ(kinds(12, 5, 8), "B7 R5 ");
    EXPECT_EQ(kinds(14, 5, 8), "B8 B6 ");
    EXPECT_EQ(kinds(7, 3, 8), "B7 ");
    EXPECT_EQ(kinds(7, 5, 4), "R5 R2 ") << "a block no wider than registers is never used";
    for (int g : {1, 3, 5})
        for (int b : {0, 4, 6, 8, 9})
            for (int m = 1; m <= 20; ++m) {
                int total = 0;
                const auto groups = stride_groups(m, g, b);
                for (const StrideGroup& group : groups) {
                    EXPECT_GT(group.count, 0);
                    EXPECT_LE(group.count, group.kind == Pass::Kind::BlockStrides ? b : g);
                    if (group.kind == Pass::Kind::BlockStrides) EXPECT_GT(group.count, g);
                    total += group.count;
                }
                EXPECT_EQ(total, m);
                EXPECT_EQ(static_cast<int>(groups.size()), (m + std::max(g, b) - 1) / std::max(g, b));
            }
}

TEST(FusedPlan, TheChunkIsTheLargestPowerOfTwoInTheL2Share) {
    // 4-byte keys, half of a 50 MB L2 (an H100): 2^22 keys (16 MiB); a T4's 4 MiB: 2^19.
    EXPECT_EQ(log_chunk_for(50u << 20, 4, 0.5, 13), 22);
    EXPECT_EQ(log_chunk_for(4u << 20, 4, 0.5, 13), 19);
    EXPECT_EQ(log_chunk_for(4u << 20, 8, 0.5, 13), 18);
    EXPECT_EQ(log_chunk_for(16u << 10, 4, 0.5, 13), 31) << "no chunks where a tile does not fit";
}

TEST(FusedPlan, LaunchesWhatTheNotesPredict) {
    // 1 tile sort + for each stage past the tile: ceil(m / 4) long passes (m long strides) + 1 merge.
    EXPECT_EQ(plan(std::size_t{1} << 13, 13, 4).size(), 1u);
    EXPECT_EQ(plan(std::size_t{1} << 20, 13, 4).size(), 18u);
    EXPECT_EQ(plan(std::size_t{1} << 24, 13, 4).size(), 33u);
    EXPECT_EQ(plan(std::size_t{1} << 26, 13, 4).size(), 42u);
    EXPECT_EQ(plan(0, 13, 4).size(), 0u);
    EXPECT_EQ(plan(1, 13, 4).size(), 0u);
    // What bitonic_4_fused.cu ships: 5 strides a pass for keys alone, 3 with values.
    EXPECT_EQ(plan(std::size_t{1} << 20, 13, 5).size(), 17u);
    EXPECT_EQ(plan(std::size_t{1} << 24, 13, 5).size(), 30u);
    EXPECT_EQ(plan(std::size_t{1} << 26, 13, 5).size(), 38u);
    EXPECT_EQ(plan(std::size_t{1} << 24, 13, 3).size(), 38u);
    // Chunks of 2^23 with tiles of 16384 (an H100 or H200): 23 passes a chunk; the last stage is
    // 3 passes over the whole array, or 1 and then 2 a chunk.
    EXPECT_EQ(plan(std::size_t{1} << 24, 14, 5, 23, false).size(), 2 * 23u + 3u);
    EXPECT_EQ(plan(std::size_t{1} << 24, 14, 5, 23).size(), 2 * 23u + 1u + 2 * 2u);
}

// ---- layout and index arithmetic ---------------------------------------------------------------------

template <class Shape>
void expect_shared_layout_sound() {
    std::set<int> windows = {Shape::kLinearWindow};
    for (int b = 0; b < Shape::kLogTile; ++b) windows.insert(Shape::window_of(b));
    for (int c : windows) {
        std::set<u32> slots;
        for (u32 t = 0; t < static_cast<u32>(Shape::kThreads); ++t)
            for (int r = 0; r < Shape::kItems; ++r) {
                const u32 index = Shape::index(t, r, c);
                ASSERT_LT(index, Shape::kTile);
                const u32 slot = smem_slot(index);
                ASSERT_LT(slot, Shape::kSharedWords);
                slots.insert(slot);
                ASSERT_EQ(slot, smem_slot(Shape::index(t, 0, c)) + smem_slot(static_cast<u32>(r) << c))
                    << "the code addresses register r as the thread's slot plus a constant";
            }
        EXPECT_EQ(slots.size(), Shape::kTile) << "window " << c << ": every element has its own slot";
        for (u32 warp = 0; warp < static_cast<u32>(Shape::kThreads) / 32; ++warp)
            for (int r = 0; r < Shape::kItems; ++r) {
                std::set<u32> banks;
                for (u32 lane = 0; lane < 32; ++lane)
                    banks.insert(smem_slot(Shape::index(warp * 32 + lane, r, c)) % 32);
                ASSERT_EQ(banks.size(), 32u)
                    << "window " << c << " warp " << warp << " register " << r << ": bank conflict";
            }
    }
}

TEST(FusedTile, SharedMemorySlotsAreOnePerElementAdditiveAndFreeOfBankConflicts) {
    expect_shared_layout_sound<TileShape<5, 5>>();
    expect_shared_layout_sound<TileShape<7, 5>>();
    expect_shared_layout_sound<TileShape<8, 5>>();
    expect_shared_layout_sound<TileShape<9, 5>>();
}

TEST(FusedTile, EveryWindowHoldsEveryElementOnceAndTheStepsBitsInRegisters) {
    using S = ShippedShape;
    for (int b = 0; b < S::kLogTile; ++b) {
        const int c = S::window_of(b);
        EXPECT_LE(c, b);
        EXPECT_LT(b, c + S::kLogItems) << "the stride 2^" << b << " is a register bit of its window";
    }
    for (u32 t = 0; t < static_cast<u32>(S::kThreads); ++t)
        for (int r = 0; r < S::kItems; ++r)
            ASSERT_EQ(S::index(t, r, S::kLinearWindow), t + static_cast<u32>(r) * S::kThreads) << "loads are coalesced";
}

TEST(FusedGlobalPass, ThreadsCoverEachElementBelowNExactlyOnce) {
    Rng rng(pmpp::testing::test_seed());
    for (int trial = 0; trial < 200; ++trial) {
        const int log_items = 1 + static_cast<int>(rng.below(5));
        const int low_bit = static_cast<int>(rng.below(12));
        const u32 n = 1 + static_cast<u32>(rng.below(std::uint64_t{1} << (low_bit + log_items + 3)));
        const u32 threads = global_pass_threads(n, low_bit, log_items);
        std::vector<int> covered(n, 0);
        for (u32 t = 0; t < threads; ++t) {
            const u32 first = global_pass_first(t, low_bit, log_items);
            ASSERT_LT(first, n) << "a launched thread holds at least one real element";
            for (u32 r = 0; r < (1u << log_items); ++r) {
                const u32 g = first + (r << low_bit);
                if (g < n) ++covered[g];
            }
        }
        const u32 next_first = global_pass_first(threads, low_bit, log_items);
        EXPECT_GE(next_first, n) << "the first thread not launched would hold only padding";
        for (u32 g = 0; g < n; ++g) ASSERT_EQ(covered[g], 1) << "n=" << n << " low_bit=" << low_bit << " g=" << g;
    }
}

TEST(FusedKeys, EncodingFollowsTheTotalOrderBothWaysAndRoundTrips) {
    Rng rng(pmpp::testing::test_seed());
    for (int i = 0; i < 100000; ++i) {
        const u32 a = rng.next_u32(), b = rng.next_u32();
        for (u32 flip : {0u, ~0u}) {
            const float fa = key_from_bits<float>(a), fb = key_from_bits<float>(b);
            ASSERT_EQ(bits_of(decode<float>(encode(fa, flip), flip)), a);
            ASSERT_EQ(decode<std::int32_t>(encode(static_cast<std::int32_t>(a), flip), flip),
                      static_cast<std::int32_t>(a));
            ASSERT_EQ(decode<u32>(encode(a, flip), flip), a);
            const bitonic::Before<float> before{flip != 0};
            ASSERT_EQ(before(fa, fb), encode(fa, flip) < encode(fb, flip));
            const bitonic::Before<std::int32_t> before_i{flip != 0};
            ASSERT_EQ(before_i(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)),
                      encode(static_cast<std::int32_t>(a), flip) < encode(static_cast<std::int32_t>(b), flip));
        }
    }
    EXPECT_EQ(encode(key_from_bits<float>(0xFF800001u), 0u), kPadding)
        << "the last key of the order (the negative NaN of smallest payload) ties with the padding: ties never swap";
}
