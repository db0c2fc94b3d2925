// Exercise 06 on the host: the CPU radix sort against std::stable_sort, the key maps, the
// inputs, the case list, and the judge rejecting every kind of wrong output (built on the CPU).
#include "../harness/radix_sort_harness.h"
#include "check_says.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>

using namespace pmpp;
using namespace radix_sort;

namespace {

template <class Key>
BitsOf<Key> field(Key k, BitSpan bits) {
    const int width = bits.end - bits.begin;
    if (width <= 0) return 0;
    const BitsOf<Key> mask = width >= kKeyBits<Key> ? ~BitsOf<Key>{0} : (BitsOf<Key>{1} << width) - 1;
    return (to_bits(k) >> bits.begin) & mask;
}

// The stable sort by the bit field, the obvious way.
template <class Key>
SortData<Key> stable_sort_by_field(const SortData<Key>& in, BitSpan bits) {
    std::vector<std::size_t> order(in.keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return field(in.keys[a], bits) < field(in.keys[b], bits); });
    SortData<Key> out;
    out.pairs = in.pairs;
    for (std::size_t i : order) {
        out.keys.push_back(in.keys[i]);
        if (in.pairs) out.values.push_back(in.values[i]);
    }
    return out;
}

template <class Key>
bool same_bits(const std::vector<Key>& a, const std::vector<Key>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Key)) == 0);
}

template <class Key>
void expect_cpu_sort_matches_stable_sort() {
    const int w = kKeyBits<Key>;
    const BitSpan ranges[] = {{0, w}, {0, 16}, {4, w / 2 + 5}, {w / 2, w}, {8, 8}, {0, w - 8}, {8, w}, {3, 4}};
    std::uint64_t stream = 0;
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{200001}})
        for (InputKind kind :
             {InputKind::Uniform, InputKind::SixteenDistinct, InputKind::Specials, InputKind::TopByteOnly})
            for (bool pairs : {false, true})
                for (BitSpan bits : ranges) {
                    const SortData<Key> in = make_input<Key>(n, kind, pairs, pmpp::testing::test_seed(++stream));
                    const SortData<Key> want = stable_sort_by_field(in, bits);
                    const SortData<Key> got = expected_sort(in, bits);
                    ASSERT_TRUE(same_bits(want.keys, got.keys) && want.values == got.values)
                        << "n=" << n << " " << to_string(kind) << (pairs ? " pairs" : "") << " bits " << bits.begin
                        << ":" << bits.end;
                }
}

template <class Key>
void expect_one_thread_same_as_many() {
    const std::size_t n = 300007;  // several chunks of 2^16, the last one short
    const SortData<Key> in = make_input<Key>(n, InputKind::SixteenDistinct, true, pmpp::testing::test_seed());
    SortData<Key> one = in, many = in;
    radix_sort_cpu(in.keys.data(), in.values.data(), one.keys.data(), one.values.data(), n, 0, kKeyBits<Key>, 1);
    radix_sort_cpu(in.keys.data(), in.values.data(), many.keys.data(), many.values.data(), n, 0, kKeyBits<Key>, 7);
    EXPECT_TRUE(same_bits(one.keys, many.keys));
    EXPECT_EQ(one.values, many.values);
}

}  // namespace

// ---- the CPU reference ---------------------------------------------------------------------------

TEST(RadixSortCpu, EqualsTheStableSortByTheBitRangeForEveryKeyType) {
    expect_cpu_sort_matches_stable_sort<std::uint32_t>();
    expect_cpu_sort_matches_stable_sort<std::int32_t>();
    expect_cpu_sort_matches_stable_sort<float>();
    expect_cpu_sort_matches_stable_sort<std::uint64_t>();
}

TEST(RadixSortCpu, GivesTheSameResultOnOneThreadAndOnMany) {
    expect_one_thread_same_as_many<std::uint32_t>();
    expect_one_thread_same_as_many<std::uint64_t>();
}

TEST(RadixSortCpu, SortsFloatsByTheCoursesTotalOrder) {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> in = {
        from_stored_bits<float>(0xFFC00000u), 1.0f, -0.0f, inf, -1.0f, 0.0f, from_stored_bits<float>(0x7FC00000u), -inf,
        from_stored_bits<float>(0x00000001u), -2.5f};
    std::vector<float> out(in.size());
    radix_sort_cpu(in.data(), nullptr, out.data(), nullptr, in.size(), 0, 32);
    const std::vector<std::uint32_t> expect = {0xFF800000u /* -inf */,
                                               0xC0200000u /* -2.5 */,
                                               0xBF800000u /* -1 */,
                                               0x80000000u /* -0 */,
                                               0x00000000u /* +0 */,
                                               0x00000001u,
                                               0x3F800000u /* 1 */,
                                               0x7F800000u /* inf */,
                                               0x7FC00000u,
                                               0xFFC00000u /* NaNs last, the sign-set one after */};
    for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(stored_bits(out[i]), expect[i]) << i;
}

// ---- the key maps ---------------------------------------------------------------------------------

TEST(KeyMaps, RoundTripEveryFloatAndSignedBitPatternTried) {
    Rng rng(pmpp::testing::test_seed());
    std::vector<std::uint32_t> patterns = {0u,          0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                           0xFFC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu, 0xFFFFFFFFu,
                                           1u,          0x80000001u, 0x007FFFFFu, 0x807FFFFFu};
    for (int i = 0; i < 1000000; ++i) patterns.push_back(rng.next_u32());
    for (std::uint32_t p : patterns) {
        ASSERT_EQ(stored_bits(from_bits<float>(to_bits(from_stored_bits<float>(p)))), p) << std::hex << p;
        ASSERT_EQ(stored_bits(from_bits<std::int32_t>(to_bits(from_stored_bits<std::int32_t>(p)))), p) << std::hex << p;
        ASSERT_EQ(to_bits(from_bits<float>(p)), p) << std::hex << p;  // both ways: a bijection
    }
}

TEST(KeyMaps, PreserveTheOrderOfSignedIntegers) {
    const std::int32_t ascending[] = {std::numeric_limits<std::int32_t>::min(), -1000000, -2, -1, 0, 1, 2, 1000000,
                                      std::numeric_limits<std::int32_t>::max()};
    for (std::size_t i = 1; i < std::size(ascending); ++i) EXPECT_LT(to_bits(ascending[i - 1]), to_bits(ascending[i]));
    Rng rng(pmpp::testing::test_seed());
    for (int i = 0; i < 1000000; ++i) {
        const auto a = static_cast<std::int32_t>(rng.next_u32()), b = static_cast<std::int32_t>(rng.next_u32());
        ASSERT_EQ(a < b, to_bits(a) < to_bits(b)) << a << " " << b;
    }
}

TEST(KeyMaps, PreserveTheOrderOfFloatsWithEveryNaNLast) {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> ascending = {
        -inf, -std::numeric_limits<float>::max(),       -1.0f, -std::numeric_limits<float>::denorm_min(), -0.0f,
        0.0f, std::numeric_limits<float>::denorm_min(), 1.0f,  std::numeric_limits<float>::max(),         inf};
    for (std::size_t i = 1; i < ascending.size(); ++i) EXPECT_LT(to_bits(ascending[i - 1]), to_bits(ascending[i])) << i;
    for (std::uint32_t nan : {0x7FC00000u, 0x7F800001u, 0x7FFFFFFFu, 0xFFC00000u, 0xFF800001u, 0xFFFFFFFFu})
        EXPECT_GT(to_bits(from_stored_bits<float>(nan)), to_bits(inf)) << std::hex << nan;
    Rng rng(pmpp::testing::test_seed());
    for (int i = 0; i < 1000000; ++i) {  // ordinary numbers: the order of operator<
        const float a = rng.signed_unit_float() * 1e30f, b = rng.signed_unit_float() * 1e-30f;
        ASSERT_EQ(a < b, to_bits(a) < to_bits(b)) << a << " " << b;
    }
}

// ---- the helpers every sort uses ---------------------------------------------------------------------

TEST(PassBuffers, ReadTheInputFirstWriteTheOutputLastAndAlternate) {
    int in = 0, out = 0, alternate = 0;
    for (int passes = 1; passes <= 9; ++passes) {
        for (int p = 0; p < passes; ++p) {
            const auto b = pass_buffers<int>(p, passes, &in, &out, &alternate);
            EXPECT_EQ(b.src == &in, p == 0);
            EXPECT_NE(b.dst, &in);
            EXPECT_NE(static_cast<const int*>(b.dst), b.src);
            if (p + 1 < passes) {
                EXPECT_EQ(b.dst, pass_buffers<int>(p + 1, passes, &in, &out, &alternate).src);
            }
        }
        EXPECT_EQ(pass_buffers<int>(passes - 1, passes, &in, &out, &alternate).dst, &out);
    }
}

TEST(PassCount, CountsAShortLastDigitAndNoPassForAnEmptyRange) {
    EXPECT_EQ(pass_count(0, 32, 8), 4);
    EXPECT_EQ(pass_count(0, 16, 8), 2);
    EXPECT_EQ(pass_count(4, 21, 8), 3);
    EXPECT_EQ(pass_count(4, 21, 4), 5);
    EXPECT_EQ(pass_count(0, 32, 1), 32);
    EXPECT_EQ(pass_count(8, 8, 8), 0);
}

TEST(WorkspaceLayout, AlignsEveryArrayAndSizesWhatItCarves) {
    Workspace sizing;
    sizing.take<char>(3);
    sizing.take<double>(5);
    sizing.take<int>(0);
    sizing.take<std::uint64_t>(7);
    std::vector<unsigned char> memory(sizing.bytes() + 256);
    auto* base = memory.data() + (256 - reinterpret_cast<std::uintptr_t>(memory.data()) % 256) % 256;
    Workspace carving(base);
    char* a = carving.take<char>(3);
    auto* b = carving.take<double>(5);
    carving.take<int>(0);
    auto* d = carving.take<std::uint64_t>(7);
    EXPECT_EQ(reinterpret_cast<unsigned char*>(a), base);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 256, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d) % 256, 0u);
    EXPECT_LE(reinterpret_cast<unsigned char*>(d + 7), base + sizing.bytes());
}

// ---- inputs and cases ---------------------------------------------------------------------------------

TEST(RadixSortInputs, KindsHaveThePropertiesTheirNamesPromise) {
    const std::uint64_t seed = pmpp::testing::test_seed();
    auto distinct = [](const std::vector<std::uint32_t>& v) {
        return std::set<std::uint32_t>(v.begin(), v.end()).size();
    };
    EXPECT_EQ(distinct(make_input<std::uint32_t>(5000, InputKind::AllEqual, false, seed).keys), 1u);
    EXPECT_EQ(distinct(make_input<std::uint32_t>(5000, InputKind::TwoDistinct, false, seed).keys), 2u);
    EXPECT_EQ(distinct(make_input<std::uint32_t>(5000, InputKind::SixteenDistinct, false, seed).keys), 16u);
    const auto sorted = make_input<std::uint64_t>(5000, InputKind::Sorted, false, seed).keys;
    EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
    const auto reversed = make_input<std::int32_t>(5000, InputKind::Reversed, false, seed).keys;
    EXPECT_TRUE(std::is_sorted(reversed.rbegin(), reversed.rend()));
    for (const float k : make_input<float>(5000, InputKind::TopByteOnly, false, seed).keys)
        EXPECT_EQ(to_bits(k) & 0x00FFFFFFu,
                  to_bits(make_input<float>(1, InputKind::TopByteOnly, false, seed).keys[0]) & 0x00FFFFFFu);
    const auto bottom = make_input<std::uint64_t>(5000, InputKind::BottomByteOnly, false, seed).keys;
    for (const auto k : bottom) EXPECT_EQ(k >> 8, bottom[0] >> 8);
    EXPECT_GT(std::set<std::uint64_t>(bottom.begin(), bottom.end()).size(), 200u);
}

TEST(RadixSortInputs, SpecialFloatsIncludeBothZerosBothInfinitiesAndNaNsOfBothSigns) {
    std::set<std::uint32_t> seen;
    for (float k : make_input<float>(20000, InputKind::Specials, false, pmpp::testing::test_seed()).keys)
        seen.insert(stored_bits(k));
    for (std::uint32_t p : {0x80000000u, 0u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x00000001u})
        EXPECT_TRUE(seen.count(p)) << std::hex << p;
    std::size_t negative = 0;
    for (std::int32_t k : make_input<std::int32_t>(20000, InputKind::Specials, false, pmpp::testing::test_seed()).keys)
        negative += k < 0;
    EXPECT_GT(negative, 10000u);  // the small negatives, INT_MIN, -1, ...
}

TEST(RadixSortInputs, ValuesAreUniqueSoEveryReorderingShows) {
    const auto in = make_input<std::uint32_t>(1 << 20, InputKind::AllEqual, true, pmpp::testing::test_seed());
    EXPECT_EQ(std::set<std::uint32_t>(in.values.begin(), in.values.end()).size(), in.values.size());
    EXPECT_FALSE(std::is_sorted(in.values.begin(), in.values.end()));
}

// The runner tells cases apart, and derives their seeds, by their labels: every combination of
// the spec's fields has its own.
TEST(RadixSortCases, LabelEveryCombinationDifferently) {
    std::set<std::string> labels;
    for (KeyType type : kKeyTypes)
        for (bool pairs : {false, true})
            for (int kind = 0; kind < kInputKinds; ++kind)
                for (int bits = 0; bits < kBitRanges; ++bits) {
                    const CaseSpec spec{type, pairs, static_cast<InputKind>(kind), static_cast<BitRange>(bits)};
                    ASSERT_TRUE(labels.insert(exercise().label(make_case(spec, 1000))).second)
                        << exercise().label(make_case(spec, 1000));
                }
    EXPECT_EQ(exercise().label(make_case({KeyType::U64, true, InputKind::Specials, BitRange::Odd}, 1000)),
              "n=" + format_size(1000) + " u64 keys+values special-values bits 4:37");
    EXPECT_EQ(exercise().label(make_case({KeyType::F32, false, InputKind::Uniform, BitRange::Full}, 1000)),
              "n=" + format_size(1000) + " f32 keys uniform");
}

TEST(RadixSortCases, CoverEveryKeyTypeSizeEdgeInputKindAndBitRange) {
    const auto cases = exercise().cases(default_options(exercise().extra_options));
    std::map<std::pair<int, bool>, std::set<std::size_t>> sizes;  // (type, pairs) -> uniform full-range sizes
    std::set<std::pair<int, int>> kinds;  // (type, kind)
    std::set<std::pair<int, int>> ranges;  // (type, bit range)
    for (const auto& c : cases) {
        const CaseSpec& s = c.spec;
        if (s.kind == InputKind::Uniform && s.bits == BitRange::Full)
            sizes[{static_cast<int>(s.type), s.pairs}].insert(c.n);
        kinds.insert({static_cast<int>(s.type), static_cast<int>(s.kind)});
        ranges.insert({static_cast<int>(s.type), static_cast<int>(s.bits)});
        EXPECT_EQ(exercise().label(c).rfind("n=" + format_size(c.n) + " ", 0), 0u) << exercise().label(c);
    }
    auto has_size = [&](KeyType type, bool pairs, std::size_t n) {
        return sizes[std::make_pair(static_cast<int>(type), pairs)].count(n) > 0;
    };
    auto has_kind = [&](KeyType type, int kind) {
        return kinds.count(std::make_pair(static_cast<int>(type), kind)) > 0;
    };
    auto has_range = [&](KeyType type, int bits) {
        return ranges.count(std::make_pair(static_cast<int>(type), bits)) > 0;
    };
    for (KeyType type : kKeyTypes) {
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{2047},
                              std::size_t{2049}, (std::size_t{1} << 20) + 5, (std::size_t{1} << 26) + 3})
            EXPECT_TRUE(has_size(type, false, n)) << to_string(type) << " keys, n=" << n;
        const std::size_t tile = onesweep_tile_keys(type == KeyType::U64 ? 8 : 4, false);
        EXPECT_TRUE(has_size(type, false, tile - 1) && has_size(type, false, tile + 1)) << to_string(type);
        EXPECT_TRUE(has_size(type, true, (std::size_t{1} << 20) + 5)) << to_string(type);
        for (int kind = 0; kind < kInputKinds; ++kind)
            EXPECT_TRUE(has_kind(type, kind)) << to_string(type) << " " << kind;
        for (int bits = 0; bits < kBitRanges; ++bits)
            EXPECT_TRUE(has_range(type, bits)) << to_string(type) << " " << bits;
    }
    EXPECT_TRUE(has_size(KeyType::U32, true, (std::size_t{1} << 26) + 3));
    EXPECT_TRUE(has_size(KeyType::U64, true, (std::size_t{1} << 26) + 3));
}

// ---- the judge rejects every kind of wrong output ------------------------------------------------------

namespace {

struct Judged {
    SortData<std::uint32_t> in, expected, out;
    BitSpan bits{0, 32};
};

Judged judged(std::size_t n, InputKind kind, bool pairs, BitSpan bits = {0, 32}) {
    Judged j;
    j.bits = bits;
    j.in = make_input<std::uint32_t>(n, kind, pairs, pmpp::testing::test_seed(n));
    j.expected = expected_sort(j.in, bits);
    j.out = j.expected;
    return j;
}

CheckResult verdict(const Judged& j) { return judge(j.in, j.expected, j.out, j.bits); }

// The verdict when the output is j's input sorted by `bits` instead of j.bits.
CheckResult verdict_when_sorted_by(Judged j, BitSpan bits) {
    j.out = expected_sort(j.in, bits);
    return verdict(j);
}

}  // namespace

TEST(RadixSortJudge, AcceptsTheStableSort) {
    for (bool pairs : {false, true}) EXPECT_TRUE(verdict(judged(5000, InputKind::SixteenDistinct, pairs)).ok);
}

TEST(RadixSortJudge, RejectsOutputNeverWritten) {
    Judged j = judged(5000, InputKind::Uniform, true);
    j.out.keys[4999] = from_stored_bits<std::uint32_t>(~0u);
    j.out.values[4999] = ~0u;
    EXPECT_TRUE(fails_saying(verdict(j), "never written"));
}

TEST(RadixSortJudge, RejectsOutputWithADigitSkipped) {
    // Keys that differ in the bottom byte only: skipping it leaves them unsorted. (Uniform 32-bit
    // keys would not show it: 5000 of them almost never share their top 24 bits.)
    EXPECT_TRUE(
        fails_saying(verdict_when_sorted_by(judged(5000, InputKind::BottomByteOnly, false), {8, 32}), "not sorted"));
}

TEST(RadixSortJudge, RejectsOutputThatLostAKey) {
    Judged j = judged(5000, InputKind::Uniform, false);
    j.out.keys[2500] = j.out.keys[2499];
    const CheckResult r = verdict(j);
    EXPECT_TRUE(fails_saying(r, "not a permutation"));
    // check_permutation's own hint reaches the report.
    EXPECT_TRUE(says(r, "1 element of the input lost (e.g. "));
    EXPECT_TRUE(says(r, "one element was written over another"));
}

TEST(RadixSortJudge, RejectsValuesThatDidNotTravelWithTheirKeys) {
    Judged j = judged(5000, InputKind::Uniform, true);
    j.out.values = j.in.values;
    EXPECT_TRUE(fails_saying(verdict(j), "did not travel with their keys"));
}

TEST(RadixSortJudge, RejectsUnstablePairs) {
    Judged j = judged(5000, InputKind::TwoDistinct, true);
    std::swap(j.out.values[10], j.out.values[11]);  // two equal keys: their values swapped
    ASSERT_EQ(j.out.keys[10], j.out.keys[11]);
    EXPECT_TRUE(fails_saying(verdict(j), "not stable"));
}

TEST(RadixSortJudge, RejectsKeysReorderedByBitsOutsideTheRange) {
    // Keys differ only in the top byte, the range leaves it out: the output must be the input.
    const Judged j = judged(5000, InputKind::TopByteOnly, false, {0, 24});
    ASSERT_TRUE(same_bits(j.expected.keys, j.in.keys));
    const CheckResult r = verdict_when_sorted_by(j, {0, 32});
    EXPECT_TRUE(fails_saying(r, "not in input order"));
    EXPECT_TRUE(says(r, "ordered by every bit of the keys, not by bits 0:24 alone"));
}

// What an output not ordered by its range is ordered by instead: the pattern of each classic
// mistake, built on the CPU (the GPU's wrong sorts: test_readme_hints.cu).

TEST(RadixSortJudge, SaysWhenOnlyTheLowestBitsAreOrdered) {
    // As the passes from the most significant bit down leave it: the last pass, the lowest, decides.
    const CheckResult r = verdict_when_sorted_by(judged(5000, InputKind::Uniform, false), {0, 8});
    EXPECT_TRUE(says(r,
                     "ordered by the lowest bits of the range only (bits 0:8 of 0:32), not by the bits above "
                     "them (8:32)"));
    EXPECT_FALSE(says(r, "highest"));
}

TEST(RadixSortJudge, SaysWhenOnlyTheHighestBitsAreOrdered) {
    // As an unstable pass leaves it: only the last pass's order survives.
    const CheckResult r = verdict_when_sorted_by(judged(5000, InputKind::Uniform, true), {24, 32});
    EXPECT_TRUE(says(r,
                     "ordered by the highest bits of the range only (bits 24:32 of 0:32), not by the bits below "
                     "them (0:24)"));
    EXPECT_FALSE(says(r, "lowest"));
}

TEST(RadixSortJudge, SaysWhenAllButTheHighestBitsAreOrdered) {
    // As the second-last pass leaves it, when the last one wrote the scratch array.
    const CheckResult r = verdict_when_sorted_by(judged(5000, InputKind::Uniform, false, {4, 21}), {4, 20});
    EXPECT_TRUE(says(r,
                     "ordered by all but the highest bits of the range (bits 4:20 of 4:21), not by the bits "
                     "above them (20:21)"));
}

TEST(RadixSortJudge, SaysWhenAllButTheLowestBitsAreOrdered) {
    // Keys that differ in their low 12 bits, sorted by bits 2:32: 10 of those 12.
    Judged j = judged(5000, InputKind::Uniform, false);
    for (auto& k : j.in.keys) k &= 0xFFFu;
    j.expected = expected_sort(j.in, {0, 32});
    EXPECT_TRUE(says(verdict_when_sorted_by(j, {2, 32}),
                     "ordered by all but the lowest bits of the range (bits 2:32 of 0:32), not by the bits below "
                     "them (0:2)"));
}

TEST(RadixSortJudge, CountsOnlyTheBitsInWhichTheKeysDiffer) {
    // Keys that differ only in their top byte, sorted by the lowest of those bits (as passes from
    // the top bit down leave them): ordered by bits 0:25, but 24 of those are the same in every key.
    EXPECT_TRUE(says(verdict_when_sorted_by(judged(5000, InputKind::TopByteOnly, false), {24, 25}),
                     "ordered by the lowest bits of the range only (bits 0:25 of 0:32)"));
    // Bits that no two keys differ in order nothing: no claim about them.
    Judged k = judged(5000, InputKind::BottomByteOnly, false);
    std::reverse(k.out.keys.begin(), k.out.keys.end());
    EXPECT_FALSE(says(verdict(k), "ordered by"));
}

namespace {

// Sorted by the keys' stored bits, as unsigned integers: what a sort that ignores the ordered
// bits makes of int32 and float keys.
template <class Key>
SortData<Key> sorted_by_raw_bits(const SortData<Key>& in) {
    std::vector<std::uint32_t> raw(in.keys.size()), sorted(in.keys.size());
    std::memcpy(raw.data(), in.keys.data(), raw.size() * sizeof(Key));
    SortData<Key> out = in;
    radix_sort_cpu(raw.data(), in.pairs ? in.values.data() : nullptr, sorted.data(),
                   in.pairs ? out.values.data() : nullptr, raw.size(), 0, 32);
    std::memcpy(out.keys.data(), sorted.data(), sorted.size() * sizeof(Key));
    return out;
}

template <class Key>
CheckResult judged_by_raw_bits(InputKind kind) {
    const SortData<Key> in = make_input<Key>(5000, kind, true, pmpp::testing::test_seed());
    return judge(in, expected_sort(in, {0, 32}), sorted_by_raw_bits(in), {0, 32});
}

}  // namespace

TEST(RadixSortJudge, SaysWhenInt32AndFloatKeysAreOrderedByTheirRawBits) {
    const std::string raw =
        "ordered by the keys' raw bits read as unsigned integers (bits 0:32), not by their "
        "ordered bits: every key with the sign bit set (every negative one) comes after the others";
    for (const CheckResult& r :
         {judged_by_raw_bits<std::int32_t>(InputKind::Uniform), judged_by_raw_bits<std::int32_t>(InputKind::Specials),
          judged_by_raw_bits<float>(InputKind::Uniform), judged_by_raw_bits<float>(InputKind::Specials)})
        EXPECT_TRUE(fails_saying(r, raw));
}

TEST(RadixSortJudge, RejectsALostKeyAboveTheExplanationLimitToo) {
    Judged j = judged(kExplainLimit + 3, InputKind::Uniform, false);
    // A key overwritten by its neighbour: one lost, one twice. The first neighbour that differs
    // (a seeded input may hold a key twice, side by side once sorted: copying it loses nothing).
    std::size_t i = kExplainLimit / 2;
    while (j.out.keys[i] == j.out.keys[i - 1]) ++i;
    j.out.keys[i] = j.out.keys[i - 1];
    EXPECT_TRUE(fails_saying(verdict(j), "different from the CPU's stable sort"));
}
