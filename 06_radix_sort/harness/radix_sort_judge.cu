// radix_sort_judge.cu: exercise 06's inputs and the CPU's answers, and the judge of an output
// against the CPU's (and, when it is wrong, what it is ordered by instead). All on the host.
#include "radix_sort_harness.h"

#include <algorithm>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

// ---- Inputs -----------------------------------------------------------------------------------

namespace {

// A key of uniformly random ordered bits.
template <class Key>
Key key_from(Rng& rng) {
    return from_bits<Key>(static_cast<BitsOf<Key>>(sizeof(BitsOf<Key>) == 8 ? rng.next_u64() : rng.next_u32()));
}

// Special values, as the bits memory holds them.
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
    for (std::uint64_t r : raw) out.push_back(from_stored_bits<Key>(static_cast<BitsOf<Key>>(r)));
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
        case InputKind::AllEqual: std::fill(keys.begin(), keys.end(), key_from<Key>(rng)); break;
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
    SortData<Key> out = in;  // of the input's sizes; radix_sort_cpu writes every element
    radix_sort_cpu(in.keys.data(), in.pairs ? in.values.data() : nullptr, out.keys.data(),
                   in.pairs ? out.values.data() : nullptr, in.keys.size(), bits.begin, bits.end);
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

// ---- The judgement ------------------------------------------------------------------------------

namespace {

// Bits [begin, end) of an unsigned word, shifted down.
template <class Bits>
Bits bit_field(Bits bits, int begin, int end) {
    const int width = end - begin;
    if (width <= 0) return Bits{0};
    const Bits mask = width >= 8 * static_cast<int>(sizeof(Bits)) ? ~Bits{0} : (Bits{1} << width) - 1;
    return static_cast<Bits>((bits >> begin) & mask);
}

// Whether field(keys[i]) never decreases; stops at the first descent.
template <class Key, class Field>
bool ordered_by(const std::vector<Key>& keys, Field field) {
    for (std::size_t i = 1; i < keys.size(); ++i)
        if (field(keys[i]) < field(keys[i - 1])) return false;
    return true;
}

constexpr std::size_t kFewestToExplainOrder = 32;

std::string bits_text(int begin, int end) { return std::to_string(begin) + ":" + std::to_string(end); }

// What an output that is not ordered by its bit range is ordered by instead, as facts: by the
// keys' raw bits (not their ordered bits); by the range's lowest bits, or its highest, and no
// more ("only" when the part holds at most half the bits in which the keys differ, "all but"
// when more). Each names the part it is ordered by and the part it is not. None when no such
// order holds (an output in no order gets no hint).
template <class Key>
std::vector<std::string> explain_unordered(const std::vector<Key>& keys, BitSpan bits) {
    std::vector<std::string> out;
    const int b = bits.begin, e = bits.end, w = e - b;
    auto ordered = [&keys](int begin, int end) {
        return ordered_by(keys, [begin, end](const Key& k) { return bit_field(to_bits(k), begin, end); });
    };
    if constexpr (!std::is_same_v<Key, std::uint32_t> && !std::is_same_v<Key, std::uint64_t>) {
        // int32 and float: the raw bits order differently from the ordered bits.
        if (ordered_by(keys, [b, e](const Key& k) { return bit_field(stored_bits(k), b, e); })) {
            out.push_back("ordered by the keys' raw bits read as unsigned integers (bits " + bits_text(b, e) +
                          "), not by their ordered bits" +
                          (e == kKeyBits<Key> ? ": every key with the sign bit set (every negative one) comes after "
                                                "the others"
                                              : ""));
            return out;
        }
    }
    if (w < 2 || keys.empty()) return out;
    // Only the bits in which the keys differ count: a bit that every key shares orders nothing
    // (keys that differ only in their top byte are "ordered" by all the others).
    BitsOf<Key> differ = 0;
    for (const Key& k : keys) differ |= to_bits(k) ^ to_bits(keys.front());
    auto differing = [differ](int begin, int end) {
        return __builtin_popcountll(static_cast<unsigned long long>(bit_field(differ, begin, end)));
    };
    const int total = differing(b, e);
    // Ordered by the low part [b, m) (`low`) or the high part [m, e) of the range, not by the rest.
    auto ordered_by_part = [&](int m, bool low) {
        const bool few = 2 * (low ? differing(b, m) : differing(m, e)) <= total;
        const char* part = low ? (few ? "the lowest bits of the range only" : "all but the highest bits of the range")
                               : (few ? "the highest bits of the range only" : "all but the lowest bits of the range");
        out.push_back(std::string("ordered by ") + part + " (bits " + (low ? bits_text(b, m) : bits_text(m, e)) +
                      " of " + bits_text(b, e) + "), not by the bits " + (low ? "above" : "below") + " them (" +
                      (low ? bits_text(m, e) : bits_text(b, m)) + ")");
    };
    // The longest low part [b, b + k) it is ordered by (not monotone in k: tried from the top).
    for (int k = w - 1; k >= 1 && differing(b, b + k) > 0; --k)
        if (ordered(b, b + k)) {
            ordered_by_part(b + k, true);
            break;
        }
    // The longest high part [m, e): ordered by [m, e) implies ordered by [m + 1, e), so the
    // smallest such m is found by bisection.
    if (ordered(e - 1, e)) {
        int lo = b + 1, hi = e - 1;  // ordered by [hi, e); the answer lies in [lo, hi]
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (ordered(mid, e))
                hi = mid;
            else
                lo = mid + 1;
        }
        if (differing(hi, e) > 0) ordered_by_part(hi, false);
    }
    return out;
}

// Sorted by every bit of the key when the range is only part of it: keys equal in the range were
// ordered by bits outside it.
template <class Key>
std::string explain_sorted_by_whole_key(const std::vector<Key>& keys, BitSpan bits) {
    if (bits.end - bits.begin >= kKeyBits<Key> || bits.end <= bits.begin) return {};
    if (!ordered_by(keys, [](const Key& k) { return to_bits(k); })) return {};
    return "ordered by every bit of the keys, not by bits " + bits_text(bits.begin, bits.end) +
           " alone: keys equal in those bits must keep their input order";
}

}  // namespace

template <class Key>
CheckResult judge(const SortData<Key>& in, const SortData<Key>& expected, const SortData<Key>& out, BitSpan bits) {
    const std::size_t n = in.keys.size();
    if (out.keys.size() != n || out.values.size() != in.values.size())
        return CheckResult::fail("the output has the wrong size");
    CheckResult keys = compare_exact(expected.keys, out.keys);
    CheckResult values = in.pairs ? compare_exact(expected.values, out.values) : CheckResult::pass(n);
    if (keys.ok && values.ok) return CheckResult::pass(n);

    // Never written: more elements hold the poison than the right output does (compare_exact's
    // hint says where). An input may hold keys whose bits are the poison's (int32 -1, a NaN,
    // the largest unsigned key): moved to the wrong place, such a key is no proof of a write
    // missed, nor are the comparison's hints that say so.
    auto poisoned = [](const auto& v) {
        return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](const auto& x) { return is_poison(x); }));
    };
    auto excess = [](std::size_t actual, std::size_t right) { return actual > right ? actual - right : 0; };
    const std::size_t poison_in_expected = poisoned(expected.keys) + poisoned(expected.values);
    const std::size_t never =
        excess(poisoned(out.keys), poisoned(expected.keys)) + excess(poisoned(out.values), poisoned(expected.values));
    auto add_comparison_hints = [poison_in_expected](CheckResult& r, const CheckResult& comparison) {
        if (poison_in_expected == 0) r.add_hint(comparison.hint);
    };
    if (never > 0) {
        CheckResult r = keys.ok ? values : keys;
        r.message = std::to_string(never) + " output element(s) never written (" + r.message + ")";
        return r;
    }
    // Not ordered by the bits it was asked to sort by.
    auto field = [bits](const Key& k) { return bit_field(to_bits(k), bits.begin, bits.end); };
    auto field_less = [field](const Key& a, const Key& b) { return field(a) < field(b); };
    CheckResult sorted = check_sorted(out.keys.data(), n, field_less);
    if (!sorted.ok) {
        sorted.message += " (by " + describe(bits) + " of the keys' ordered bits)";
        // What it is ordered by instead first, then check_sorted's own (runs that were not merged).
        const std::string runs = sorted.hint;
        sorted.hint.clear();
        // (Only from a few dozen keys on: three keys are ordered by some of their bits by chance.)
        if (n >= kFewestToExplainOrder && n <= kExplainLimit) {
            for (const std::string& h : explain_unordered(out.keys, bits)) sorted.add_hint(h);
            sorted.add_hint(explain_sorted_by_whole_key(out.keys, bits));
        }
        sorted.add_hint(runs);
        add_comparison_hints(sorted, keys);
        return sorted;
    }
    if (n > kExplainLimit) {
        CheckResult r = keys.ok ? values : keys;
        r.message = "ordered, but different from the CPU's stable sort: " + r.message +
                    " (a permutation or stability problem; not looked into above " + format_size(kExplainLimit) +
                    " keys)";
        return r;
    }
    // check_permutation's own hints say which keys were lost and which doubled; the comparison's
    // (where the differences lie) follow every sub-check's.
    CheckResult permutation = check_permutation(in.keys.data(), out.keys.data(), n);
    if (!permutation.ok) {
        add_comparison_hints(permutation, keys);
        return permutation;
    }
    if (in.pairs) {
        CheckResult with_keys =
            check_pairs_permutation(in.keys.data(), in.values.data(), out.keys.data(), out.values.data(), n);
        if (!with_keys.ok) {
            add_comparison_hints(with_keys, values);
            return with_keys;
        }
        CheckResult stable =
            check_stable_sort(in.keys.data(), in.values.data(), out.keys.data(), out.values.data(), n, field_less);
        if (!stable.ok) {
            stable.add_hint(explain_sorted_by_whole_key(out.keys, bits));
            add_comparison_hints(stable, keys.ok ? values : keys);
            return stable;
        }
    }
    // Keys alone, ordered and a permutation, yet not the CPU's: keys with equal bits in the
    // range (differing outside it) are out of input order.
    keys.message = "keys with equal " + describe(bits) + " are not in input order: " + keys.message;
    const CheckResult comparison = keys;
    keys.hint = explain_sorted_by_whole_key(out.keys, bits);
    add_comparison_hints(keys, comparison);
    return keys;
}

#define INSTANTIATE_JUDGE(Key)                                                                              \
    template SortData<Key> make_input<Key>(std::size_t, InputKind, bool, std::uint64_t);                    \
    template SortData<Key> expected_sort<Key>(const SortData<Key>&, BitSpan);                               \
    template SortProblem<Key> make_sort_problem<Key>(std::size_t, InputKind, bool, BitSpan, std::uint64_t); \
    template CheckResult judge<Key>(const SortData<Key>&, const SortData<Key>&, const SortData<Key>&, BitSpan);
INSTANTIATE_JUDGE(std::uint32_t)
INSTANTIATE_JUDGE(std::int32_t)
INSTANTIATE_JUDGE(float)
INSTANTIATE_JUDGE(std::uint64_t)
#undef INSTANTIATE_JUDGE

}  // namespace radix_sort
