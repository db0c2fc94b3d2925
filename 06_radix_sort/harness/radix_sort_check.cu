// radix_sort_check.cu: the judge of exercise 06 (an output against the CPU's, and what it is
// ordered by instead when it is wrong) and the check of one sort on the device.
#include "radix_sort_device.h"

#include "common/cuda_check.h"
#include "common/report.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

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
        const bool by_raw = ordered_by(keys, [b, e](const Key& k) {
            BitsOf<Key> raw;
            std::memcpy(&raw, &k, sizeof raw);
            return bit_field(raw, b, e);
        });
        if (by_raw) {
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
    // The longest low part [b, b + k) it is ordered by (not monotone in k: tried from the top).
    for (int k = w - 1; k >= 1 && differing(b, b + k) > 0; --k)
        if (ordered(b, b + k)) {
            const bool few = 2 * differing(b, b + k) <= total;
            out.push_back(std::string(few ? "ordered by the lowest bits of the range only"
                                          : "ordered by all but the highest bits of the range") +
                          " (bits " + bits_text(b, b + k) + " of " + bits_text(b, e) +
                          "), not by the bits above them (" + bits_text(b + k, e) + ")");
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
        if (differing(hi, e) > 0) {
            const bool few = 2 * differing(hi, e) <= total;
            out.push_back(std::string(few ? "ordered by the highest bits of the range only"
                                          : "ordered by all but the lowest bits of the range") +
                          " (bits " + bits_text(hi, e) + " of " + bits_text(b, e) + "), not by the bits below them (" +
                          bits_text(b, hi) + ")");
        }
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
    const BitSpan span = bits;
    auto field = [span](const Key& k) { return bit_field(to_bits(k), span.begin, span.end); };
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

// ---- The check on the device ----------------------------------------------------------------------

template <class Key>
CheckResult check_sort(const SortImpl<Key>& impl, const SortProblem<Key>& p) {
    const SortData<Key>& in = p.in;
    DeviceSort<Key> d(in, impl.workspace_bytes(in.keys.size(), in.pairs), p.bits);
    d.poison();
    impl.run(d.args);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    const CheckResult guards = d.check_guards();
    if (!guards.ok) return guards;
    const SortData<Key> out = d.output();
    const bool unchanged = compare_exact(in.keys, d.keys_in.to_host()).ok &&
                           (!in.pairs || compare_exact(in.values, d.values_in.to_host()).ok);
    const HintScope tiles(tile_boundaries<Key>(in.pairs));
    return and_input_unchanged(judge(in, p.expected, out, p.bits), unchanged);
}

#define INSTANTIATE_CHECK(Key)                                                                                  \
    template CheckResult judge<Key>(const SortData<Key>&, const SortData<Key>&, const SortData<Key>&, BitSpan); \
    template CheckResult check_sort<Key>(const SortImpl<Key>&, const SortProblem<Key>&);
INSTANTIATE_CHECK(std::uint32_t)
INSTANTIATE_CHECK(std::int32_t)
INSTANTIATE_CHECK(float)
INSTANTIATE_CHECK(std::uint64_t)
#undef INSTANTIATE_CHECK

}  // namespace radix_sort
