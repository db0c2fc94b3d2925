// radix_sort_cases.cu: the names of exercise 06's cases, their inputs and the CPU's answers, and
// the check's case list.
#include "radix_sort_harness.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

// ---- Names and labels -----------------------------------------------------------------------------

const char* to_string(KeyType type) {
    static const char* const names[] = {"u32", "i32", "f32", "u64"};
    return names[static_cast<int>(type)];
}

const char* to_string(InputKind kind) {
    static const char* const names[kInputKinds] = {"uniform",
                                                   "all-equal",
                                                   "sorted",
                                                   "reversed",
                                                   "2-distinct",
                                                   "16-distinct",
                                                   "only-top-byte-differs",
                                                   "only-bottom-byte-differs",
                                                   "special-values"};
    return names[static_cast<int>(kind)];
}

BitSpan bit_span(BitRange range, int w) {
    switch (range) {
        case BitRange::Full: return {0, w};
        case BitRange::Low16: return {0, 16};
        case BitRange::Odd: return {4, w / 2 + 5};
        case BitRange::TopHalf: return {w / 2, w};
        case BitRange::Empty: return {8, 8};
        case BitRange::AllButTopByte: return {0, w - 8};
        case BitRange::AllButBottomByte: return {8, w};
    }
    return {0, w};
}

std::string describe(BitSpan bits) { return "bits " + std::to_string(bits.begin) + ":" + std::to_string(bits.end); }

std::string describe(const CaseSpec& spec) {
    std::string words =
        std::string(to_string(spec.type)) + (spec.pairs ? " keys+values " : " keys ") + to_string(spec.kind);
    if (spec.bits != BitRange::Full) words += " " + describe(bit_span(spec.bits, key_bits_of(spec.type)));
    return words;
}

SortCase make_case(const CaseSpec& spec, std::size_t n) {
    SortCase c;
    c.n = n;
    switch (spec.kind) {  // the runner's nearest distribution, for its patterns over the cases
        case InputKind::AllEqual: c.dist = Distribution::AllEqual; break;
        case InputKind::Sorted: c.dist = Distribution::Sorted; break;
        case InputKind::Reversed: c.dist = Distribution::Reversed; break;
        case InputKind::TwoDistinct:
        case InputKind::SixteenDistinct: c.dist = Distribution::FewDistinct; break;
        default: c.dist = Distribution::Uniform;
    }
    c.spec = spec;
    return c;
}

// ---- Inputs -----------------------------------------------------------------------------------

namespace {

template <class Key>
Key key_from(Rng& rng) {
    using Bits = BitsOf<Key>;
    if constexpr (sizeof(Bits) == 8)
        return from_bits<Key>(rng.next_u64());
    else
        return from_bits<Key>(rng.next_u32());
}

template <class Key>
Key raw_key(std::uint64_t pattern) {
    using Bits = BitsOf<Key>;
    const Bits bits = static_cast<Bits>(pattern);
    Key key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
}

// Special values, as raw bit patterns of the key type.
template <class Key>
std::vector<Key> special_values() {
    std::vector<std::uint64_t> raw;
    if constexpr (std::is_same_v<Key, float>) {
        // -0, +0, +inf, -inf, NaN, -NaN, three NaN payloads, +-smallest denormal, +-max, +-1
        raw = {0x80000000u, 0x00000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu,
               0x7FFFFFFFu, 0x00000001u, 0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u};
    } else if constexpr (std::is_same_v<Key, std::int32_t>) {
        // INT_MIN, INT_MIN + 1, -1000, -2, -1, 0, 1, INT_MAX
        raw = {0x80000000u, 0x80000001u, 0xFFFFFC18u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0u, 1u, 0x7FFFFFFFu};
    } else if constexpr (std::is_same_v<Key, std::uint32_t>) {
        raw = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    } else {
        raw = {0ull, 1ull, 0xFFFFFFFFull, 0x100000000ull, 0x8000000000000000ull, ~0ull};
    }
    std::vector<Key> out;
    for (std::uint64_t r : raw) out.push_back(raw_key<Key>(r));
    return out;
}

template <class Key>
std::vector<Key> make_keys(std::size_t n, InputKind kind, std::uint64_t seed) {
    using Bits = BitsOf<Key>;
    constexpr int kW = kKeyBits<Key>;
    Rng rng(seed);
    std::vector<Key> keys(n);
    switch (kind) {
        case InputKind::Uniform:
            for (auto& k : keys) k = key_from<Key>(rng);
            break;
        case InputKind::AllEqual: {
            const Key k = key_from<Key>(rng);
            std::fill(keys.begin(), keys.end(), k);
            break;
        }
        case InputKind::Sorted:
        case InputKind::Reversed:
            keys = generate<Key>(n, kind == InputKind::Sorted ? Distribution::Sorted : Distribution::Reversed, seed);
            break;
        case InputKind::TwoDistinct:
        case InputKind::SixteenDistinct: {
            std::vector<Key> values(kind == InputKind::TwoDistinct ? 2 : 16);
            for (auto& v : values) v = key_from<Key>(rng);
            for (auto& k : keys) k = values[rng.below(values.size())];
            break;
        }
        case InputKind::TopByteOnly:
        case InputKind::BottomByteOnly: {
            const int shift = kind == InputKind::TopByteOnly ? kW - 8 : 0;
            const Bits base = to_bits(key_from<Key>(rng)) & ~(Bits{0xFF} << shift);
            for (auto& k : keys) k = from_bits<Key>(base | (static_cast<Bits>(rng.below(256)) << shift));
            break;
        }
        case InputKind::Specials: {
            const std::vector<Key> specials = special_values<Key>();
            for (std::size_t i = 0; i < n; ++i) {
                if (i % 2 == 0) {
                    keys[i] = specials[rng.below(specials.size())];
                } else if constexpr (std::is_same_v<Key, std::int32_t>) {
                    keys[i] = -1 - static_cast<std::int32_t>(rng.below(1000));  // small negatives
                } else {
                    keys[i] = key_from<Key>(rng);
                }
            }
            break;
        }
    }
    return keys;
}

}  // namespace

template <class Key>
SortData<Key> make_input(std::size_t n, InputKind kind, bool pairs, std::uint64_t seed) {
    SortData<Key> in;
    in.keys = make_keys<Key>(n, kind, seed);
    in.pairs = pairs;
    if (pairs) {
        // i -> i * odd + c is a bijection of 32-bit words: every value unique, in no order.
        const std::uint32_t c = static_cast<std::uint32_t>(derive_seed(seed, 0x76616C7565ull));
        in.values.resize(n);
        for (std::size_t i = 0; i < n; ++i) in.values[i] = static_cast<std::uint32_t>(i) * 0x9E3779B1u + c;
    }
    return in;
}

template <class Key>
SortData<Key> expected_sort(const SortData<Key>& in, BitSpan bits) {
    SortData<Key> out;
    const std::size_t n = in.keys.size();
    out.pairs = in.pairs;
    out.keys.resize(n);
    if (in.pairs) out.values.resize(n);
    radix_sort_cpu(in.keys.data(), in.pairs ? in.values.data() : nullptr, out.keys.data(),
                   in.pairs ? out.values.data() : nullptr, n, bits.begin, bits.end);
    return out;
}

template <class Key>
SortProblem<Key> make_sort_problem(std::size_t n, InputKind kind, bool pairs, BitSpan bits, std::uint64_t seed) {
    SortProblem<Key> p;
    p.in = make_input<Key>(n, kind, pairs, seed);
    p.expected = expected_sort(p.in, bits);
    p.bits = bits;
    return p;
}

// ---- The case list --------------------------------------------------------------------------------

namespace {
constexpr std::size_t p2(int k) { return std::size_t{1} << k; }
}  // namespace

std::vector<SortCase> radix_sort_cases() {
    std::vector<SortCase> cases;
    auto add = [&cases](const CaseSpec& spec, const std::vector<std::size_t>& sizes) {
        for (std::size_t n : sizes) cases.push_back(make_case(spec, n));
    };
    auto tile_edges = [](const CaseSpec& spec) {  // onesweep's tiles: one key short, one over, two tiles and one
        const std::size_t t = onesweep_tile_keys(spec.type == KeyType::U64 ? 8 : 4, spec.pairs);
        return std::vector<std::size_t>{t - 1, t, t + 1, 2 * t + 1};
    };
    const InputKind kOtherKinds[] = {InputKind::AllEqual,       InputKind::Sorted,          InputKind::Reversed,
                                     InputKind::TwoDistinct,    InputKind::SixteenDistinct, InputKind::TopByteOnly,
                                     InputKind::BottomByteOnly, InputKind::Specials};

    // u32 keys: every power-of-two edge (2^11: a tile of variant 4), onesweep's tile edges,
    // 2^20+5 and 2^26+3; every other input kind at three sizes.
    const CaseSpec u32_keys{KeyType::U32, false, InputKind::Uniform, BitRange::Full};
    std::vector<std::size_t> sizes = edge_sizes({1, 2, 5, 8, 10, 11, 12, 13, 16, 20});
    for (std::size_t n : tile_edges(u32_keys)) sizes.push_back(n);
    sizes.push_back(p2(20) + 5);
    sizes.push_back(p2(26) + 3);
    add(u32_keys, sizes);
    for (InputKind kind : kOtherKinds) add({KeyType::U32, false, kind, BitRange::Full}, {1000, p2(13) + 1, p2(20) + 5});

    // Every other key type, keys alone and with values.
    for (KeyType type : kKeyTypes)
        for (bool pairs : {false, true}) {
            if (type == KeyType::U32 && !pairs) continue;
            const CaseSpec spec{type, pairs, InputKind::Uniform, BitRange::Full};
            std::vector<std::size_t> s = {0,    1,    2,    31,         33,         255,       257,
                                          2047, 2049, 4097, p2(16) + 1, p2(20) - 1, p2(20) + 5};
            for (std::size_t n : tile_edges(spec)) s.push_back(n);
            // 2^26+3 for each key type alone, and for values with the narrow and the wide key.
            if (!pairs || type == KeyType::U32 || type == KeyType::U64) s.push_back(p2(26) + 3);
            add(spec, s);
            for (InputKind kind : kOtherKinds) add({type, pairs, kind, BitRange::Full}, {p2(13) + 1, p2(16) + 3});
            if (type == KeyType::I32 || type == KeyType::F32)
                add({type, pairs, InputKind::Specials, BitRange::Full}, {1, 2, 33, 1000});
        }

    // Bit ranges, for every key type, keys alone and with values. The last two: the keys are
    // equal within the range, so the output must be the input, in order.
    for (KeyType type : kKeyTypes)
        for (bool pairs : {false, true}) {
            for (BitRange bits : {BitRange::Low16, BitRange::Odd, BitRange::TopHalf, BitRange::Empty})
                add({type, pairs, InputKind::Uniform, bits}, {1000, p2(16) + 1});
            add({type, pairs, InputKind::TopByteOnly, BitRange::AllButTopByte}, {p2(13) + 1});
            add({type, pairs, InputKind::BottomByteOnly, BitRange::AllButBottomByte}, {p2(13) + 1});
        }
    return cases;
}

#define INSTANTIATE_CASES(Key)                                                           \
    template SortData<Key> make_input<Key>(std::size_t, InputKind, bool, std::uint64_t); \
    template SortData<Key> expected_sort<Key>(const SortData<Key>&, BitSpan);            \
    template SortProblem<Key> make_sort_problem<Key>(std::size_t, InputKind, bool, BitSpan, std::uint64_t);
INSTANTIATE_CASES(std::uint32_t)
INSTANTIATE_CASES(std::int32_t)
INSTANTIATE_CASES(float)
INSTANTIATE_CASES(std::uint64_t)
#undef INSTANTIATE_CASES

}  // namespace radix_sort
