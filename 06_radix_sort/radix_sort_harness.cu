// radix_sort_harness.cu: inputs, the check and the benchmark of exercise 06.
#include "radix_sort_harness.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <type_traits>

namespace radix_sort {

using namespace pmpp;

// ---- Names and the case encoding ---------------------------------------------------------------

const char* to_string(KeyType type) {
    switch (type) {
        case KeyType::U32:
            return "u32";
        case KeyType::I32:
            return "i32";
        case KeyType::F32:
            return "f32";
        case KeyType::U64:
            return "u64";
    }
    return "?";
}

bool parse_key_type(const std::string& text, KeyType& out) {
    for (KeyType type : kKeyTypes)
        if (text == to_string(type)) {
            out = type;
            return true;
        }
    return false;
}

const char* to_string(InputKind kind) {
    switch (kind) {
        case InputKind::Uniform:
            return "uniform";
        case InputKind::AllEqual:
            return "all-equal";
        case InputKind::Sorted:
            return "sorted";
        case InputKind::Reversed:
            return "reversed";
        case InputKind::TwoDistinct:
            return "2-distinct";
        case InputKind::SixteenDistinct:
            return "16-distinct";
        case InputKind::TopByteOnly:
            return "only-top-byte-differs";
        case InputKind::BottomByteOnly:
            return "only-bottom-byte-differs";
        case InputKind::Specials:
            return "special-values";
    }
    return "?";
}

BitSpan bit_span(BitRange range, int w) {
    switch (range) {
        case BitRange::Full:
            return {0, w};
        case BitRange::Low16:
            return {0, 16};
        case BitRange::Odd:
            return {4, w / 2 + 5};
        case BitRange::TopHalf:
            return {w / 2, w};
        case BitRange::Empty:
            return {8, 8};
        case BitRange::AllButTopByte:
            return {0, w - 8};
        case BitRange::AllButBottomByte:
            return {8, w};
    }
    return {0, w};
}

int encode(const CaseSpec& spec) {
    return static_cast<int>(spec.type) | static_cast<int>(spec.pairs) << 2 | static_cast<int>(spec.kind) << 3 |
           static_cast<int>(spec.bits) << 7;
}

CaseSpec decode(int variant) {
    const int kind = (variant >> 3) & 15, bits = (variant >> 7) & 7;
    if (kind >= kInputKinds || bits >= kBitRanges || (variant >> 10) != 0)
        throw std::logic_error("radix_sort: no case encoded as " + std::to_string(variant));
    CaseSpec spec;
    spec.type = static_cast<KeyType>(variant & 3);
    spec.pairs = ((variant >> 2) & 1) != 0;
    spec.kind = static_cast<InputKind>(kind);
    spec.bits = static_cast<BitRange>(bits);
    return spec;
}

namespace {

Distribution nearest_distribution(InputKind kind) {
    switch (kind) {
        case InputKind::AllEqual:
            return Distribution::AllEqual;
        case InputKind::Sorted:
            return Distribution::Sorted;
        case InputKind::Reversed:
            return Distribution::Reversed;
        case InputKind::TwoDistinct:
        case InputKind::SixteenDistinct:
            return Distribution::FewDistinct;
        default:
            return Distribution::Uniform;
    }
}

int key_bits_of(KeyType type) { return type == KeyType::U64 ? 64 : 32; }

std::string describe(BitSpan bits) { return "bits " + std::to_string(bits.begin) + ":" + std::to_string(bits.end); }

template <class T>
struct Tag {
    using type = T;
};

// Calls f(Tag<Key>{}) with the key type `type` names.
template <class F>
decltype(auto) with_key_type(KeyType type, F&& f) {
    switch (type) {
        case KeyType::U32:
            return f(Tag<std::uint32_t>{});
        case KeyType::I32:
            return f(Tag<std::int32_t>{});
        case KeyType::F32:
            return f(Tag<float>{});
        case KeyType::U64:
            return f(Tag<std::uint64_t>{});
    }
    throw std::logic_error("radix_sort: unknown key type");
}

}  // namespace

// "n=..." first: the harness relabels a case for a --size that is not in the list by replacing it.
Case make_case(const CaseSpec& spec, std::size_t n) {
    std::string label = "n=" + format_size(n) + " " + to_string(spec.type) + (spec.pairs ? " keys+values " : " keys ") +
                        to_string(spec.kind);
    if (spec.bits != BitRange::Full) label += " " + describe(bit_span(spec.bits, key_bits_of(spec.type)));
    return {label, n, nearest_distribution(spec.kind), encode(spec)};
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
        raw = {0x80000000u /* -0 */,
               0x00000000u /* +0 */,
               0x7F800000u /* +inf */,
               0xFF800000u /* -inf */,
               0x7FC00000u /* NaN */,
               0xFFC00000u /* -NaN */,
               0x7F800001u,
               0xFFFFFFFFu,
               0x7FFFFFFFu /* NaN payloads */,
               0x00000001u,
               0x80000001u /* +-smallest denormal */,
               0x7F7FFFFFu,
               0xFF7FFFFFu /* +-max */,
               0x3F800000u,
               0xBF800000u /* +-1 */};
    } else if constexpr (std::is_same_v<Key, std::int32_t>) {
        raw = {0x80000000u /* INT_MIN */,
               0x80000001u,
               0xFFFFFC18u /* -1000 */,
               0xFFFFFFFEu,
               0xFFFFFFFFu /* -1 */,
               0u,
               1u,
               0x7FFFFFFFu /* INT_MAX */};
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

namespace {
std::uint64_t mix(std::uint64_t x) {  // MurmurHash3's finalizer
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    return x ^ (x >> 33);
}
}  // namespace

// A sum of mixed (position, word) terms: no chain from one element to the next, so it runs at
// memory speed.
template <class Key>
std::uint64_t output_digest(const SortData<Key>& d) {
    std::uint64_t h = mix(d.keys.size() * 2 + (d.pairs ? 1 : 0));
    for (std::size_t i = 0; i < d.keys.size(); ++i) {
        BitsOf<Key> bits;
        std::memcpy(&bits, &d.keys[i], sizeof bits);
        h += mix(static_cast<std::uint64_t>(bits) ^ (i * 0x9E3779B97F4A7C15ull));
    }
    for (std::size_t i = 0; i < d.values.size(); ++i) h += mix(d.values[i] ^ (~i * 0xD1B54A32D192ED03ull));
    return h;
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
    const std::size_t never = excess(poisoned(out.keys), poisoned(expected.keys)) +
                              excess(poisoned(out.values), poisoned(expected.values));
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

// ---- Implementations and the device check ---------------------------------------------------------

template <class Key>
SortImpl<Key> impl_by_name(const std::string& name) {
    if (name == "student") return {radix_sort_student_workspace_bytes<Key>, radix_sort_student<Key>};
    if (name == "one_bit") return {radix_sort_one_bit_workspace_bytes<Key>, radix_sort_one_bit<Key>};
    if (name == "coalesced") return {radix_sort_coalesced_workspace_bytes<Key>, radix_sort_coalesced<Key>};
    if (name == "multibit") return {radix_sort_multibit_workspace_bytes<Key>, radix_sort_multibit<Key>};
    if (name == "coarsened") return {radix_sort_coarsened_workspace_bytes<Key>, radix_sort_coarsened<Key>};
    if (name == "onesweep") return {radix_sort_onesweep_workspace_bytes<Key>, radix_sort_onesweep<Key>};
    if (name == "cub") return {radix_sort_cub_workspace_bytes<Key>, radix_sort_cub<Key>};
    throw std::logic_error("radix_sort: no implementation named " + name);
}

namespace {

// Device arrays for one sort: the input uploaded; the outputs and the workspace allocated
// between guard zones (a write past either end of anything the sort may write is caught),
// named as radix_sort.h names them.
template <class Key>
struct DeviceSort {
    DeviceBuffer<Key> keys_in;
    DeviceBuffer<Value> values_in;
    GuardedBuffer<Key> keys_out;
    GuardedBuffer<Value> values_out;  // no elements for keys alone (args.values_out is null then)
    GuardedBuffer<unsigned char> workspace;
    bool pairs = false;
    SortArgs<Key> args;

    DeviceSort(const SortData<Key>& in, std::size_t workspace_bytes, BitSpan bits)
        : keys_out(in.keys.size(), "keys_out"),
          values_out(in.pairs ? in.keys.size() : 0, "values_out"),
          workspace(workspace_bytes, "the workspace"),
          pairs(in.pairs) {
        const std::size_t n = in.keys.size();
        keys_in.upload(in.keys);
        if (in.pairs) values_in.upload(in.values);
        args.keys_in = keys_in.data();
        args.keys_out = keys_out.data();
        args.values_in = in.pairs ? values_in.data() : nullptr;
        args.values_out = in.pairs ? values_out.data() : nullptr;
        args.n = n;
        args.begin_bit = bits.begin;
        args.end_bit = bits.end;
        args.workspace = workspace.data();
    }
    // Before every run: 0xFF bytes everywhere the sort writes (an element never written cannot
    // pass; no sort may rely on zeroed scratch memory), every guard zone armed again.
    void poison() {
        keys_out.poison();
        values_out.poison();
        workspace.poison();
    }
    // After every run, before anything else: did the sort write outside what it was given?
    CheckResult check_guards() const {
        CheckResult r = keys_out.check_guards();
        if (r.ok && pairs) r = values_out.check_guards();
        if (r.ok) r = workspace.check_guards();
        return r;
    }
    SortData<Key> output() const {
        SortData<Key> out;
        out.keys = keys_out.to_host();
        out.pairs = pairs;
        if (pairs) out.values = values_out.to_host();
        return out;
    }
};

}  // namespace

namespace {

// What the device made of an input: whether it wrote only inside its arrays, its output, and
// whether it left the input alone.
template <class Key>
struct DeviceRun {
    CheckResult guards = CheckResult::pass(0);
    SortData<Key> out;
    bool input_unchanged = true;
};

template <class Key>
DeviceRun<Key> run_on_device(const SortImpl<Key>& impl, const SortData<Key>& in, BitSpan bits) {
    DeviceSort<Key> d(in, impl.workspace_bytes(in.keys.size(), in.pairs), bits);
    d.poison();
    impl.run(d.args);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    DeviceRun<Key> run;
    run.guards = d.check_guards();
    if (!run.guards.ok) return run;
    run.out = d.output();
    run.input_unchanged = compare_exact(in.keys, d.keys_in.to_host()).ok &&
                          (!in.pairs || compare_exact(in.values, d.values_in.to_host()).ok);
    return run;
}

// The tiles the sorts of this exercise cut the keys into, for the check's hints to name ("from
// index 768, the start of tile 3"): 256 keys (tasks 6-7 and variants 2-3: a block of 256 threads,
// a key each), 2048 (task 8 and variant 4: 8 keys a thread), and variant 5's tile for this key
// size, with values or not.
template <class Key>
HintContext tile_boundaries(bool pairs) {
    HintContext context;
    context.boundaries = {
        {256, "tile"}, {2048, "coarsened tile"}, {onesweep_tile_keys(sizeof(Key), pairs), "Onesweep tile"}};
    return context;
}

CheckResult and_input_unchanged(CheckResult r, bool unchanged) {
    if (r.ok && !unchanged)
        return CheckResult::fail("the input was modified: keys_in and values_in must be left as they were");
    return r;
}

// The CPU's answers to the large cases, remembered as digests: every implementation checked in
// one process sees the same inputs (the case's seed), and the CPU sorts each large one once.
constexpr std::size_t kRememberFrom = std::size_t{1} << 22;
std::map<std::tuple<int, std::size_t, std::uint64_t>, std::uint64_t>& expected_digests() {
    static std::map<std::tuple<int, std::size_t, std::uint64_t>, std::uint64_t> digests;
    return digests;
}

}  // namespace

template <class Key>
CheckResult check_sort(const SortImpl<Key>& impl, const SortData<Key>& in, const SortData<Key>& expected,
                       BitSpan bits) {
    const DeviceRun<Key> run = run_on_device(impl, in, bits);
    if (!run.guards.ok) return run.guards;
    const HintScope tiles(tile_boundaries<Key>(in.pairs));
    return and_input_unchanged(judge(in, expected, run.out, bits), run.input_unchanged);
}

template <class Key>
CheckResult check_case_with(const SortImpl<Key>& impl, const CaseSpec& spec, std::size_t n, std::uint64_t seed) {
    const BitSpan bits = bit_span(spec.bits, kKeyBits<Key>);
    const SortData<Key> in = make_input<Key>(n, spec.kind, spec.pairs, seed);
    const DeviceRun<Key> run = run_on_device(impl, in, bits);
    if (!run.guards.ok) return run.guards;
    const auto key = std::make_tuple(encode(spec), n, seed);
    auto& digests = expected_digests();
    const auto known = digests.find(key);
    if (known != digests.end() && known->second == output_digest(run.out))
        return and_input_unchanged(CheckResult::pass(n), run.input_unchanged);
    // Not known, or different: the CPU's answer, and the judge's explanation.
    const SortData<Key> expected = expected_sort(in, bits);
    if (n >= kRememberFrom) digests[key] = output_digest(expected);
    const HintScope tiles(tile_boundaries<Key>(spec.pairs));
    return and_input_unchanged(judge(in, expected, run.out, bits), run.input_unchanged);
}

CheckResult check_case(const std::string& impl, const Case& c, std::uint64_t seed) {
    const CaseSpec spec = decode(c.variant);
    return with_key_type(spec.type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        return check_case_with(impl_by_name<Key>(impl), spec, c.n, seed);
    });
}

// ---- The case list --------------------------------------------------------------------------------

namespace {

constexpr std::size_t p2(int k) { return std::size_t{1} << k; }

std::vector<Case> radix_sort_cases(const Options&) {
    std::vector<Case> cases;
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

// ---- The benchmark ------------------------------------------------------------------------------

// Times each stage a sort marks with events, between its kernels (no flush inside a sort).
class EventStageTimer : public StageTimer {
public:
    struct Stage {
        std::string name;
        double ms = 0;
        double bytes = 0;
        int count = 0;
    };
    ~EventStageTimer() override {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }
    void start() {
        names_.clear();
        bytes_.clear();
        used_ = 0;
        record();
    }
    void mark(const std::string& stage, double bytes) override {
        names_.push_back(stage);
        bytes_.push_back(bytes);
        record();
    }
    // After the sort: each stage's time, summed over its repeats within the sort, in first-seen order.
    std::vector<Stage> stages() {
        PMPP_CUDA_CHECK(cudaEventSynchronize(events_[used_ - 1]));
        std::vector<Stage> out;
        for (std::size_t i = 0; i < names_.size(); ++i) {
            float ms = 0;
            PMPP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
            auto it = std::find_if(out.begin(), out.end(), [&](const Stage& s) { return s.name == names_[i]; });
            if (it == out.end()) it = out.insert(out.end(), Stage{names_[i]});
            it->ms += ms;
            it->bytes += bytes_[i];
            ++it->count;
        }
        return out;
    }

private:
    void record() {
        if (used_ == events_.size()) {
            cudaEvent_t e;
            PMPP_CUDA_CHECK(cudaEventCreate(&e));
            events_.push_back(e);
        }
        PMPP_CUDA_CHECK(cudaEventRecord(events_[used_++]));
    }
    std::vector<cudaEvent_t> events_;
    std::size_t used_ = 0;
    std::vector<std::string> names_;
    std::vector<double> bytes_;
};

struct BenchChoice {
    KeyType type = KeyType::U32;
    bool keys = true;
    bool pairs = true;
    BitSpan bits;
};

// The sorts the options ask for (--type, --pairs), bits left at the whole key.
BenchChoice bench_sorts(const Options& opts) {
    BenchChoice c;
    if (!parse_key_type(opts.get("type"), c.type)) throw UsageError("option --type: '" + opts.get("type") + "'");
    const std::string& pairs = opts.get("pairs");
    c.keys = pairs != "yes";
    c.pairs = pairs != "no";
    c.bits = {0, key_bits_of(c.type)};
    return c;
}

BenchChoice bench_choice(const Options& opts) {
    BenchChoice c = bench_sorts(opts);
    const int w = key_bits_of(c.type);
    const std::string& bits = opts.get("bits");
    if (bits == "all") {
        c.bits = {0, w};
    } else {
        const auto colon = bits.find(':');
        c.bits = {std::stoi(bits.substr(0, colon)), std::stoi(bits.substr(colon + 1))};
        if (c.bits.end > w)
            throw UsageError("option --bits " + bits + ": " + to_string(c.type) + " keys have " + std::to_string(w) +
                             " bits");
    }
    return c;
}

constexpr double kSlowRunMs = 100;

std::string sort_name(KeyType type, bool pairs) {
    return std::string(to_string(type)) + (pairs ? " keys + u32 values" : " keys");
}

// Inputs and right answers are the same for every implementation at one size: made once.
template <class Key>
struct BenchData {
    SortData<Key> in, expected;
};
class BenchCache {
public:
    template <class Key>
    const BenchData<Key>& get(KeyType type, std::size_t n, std::uint64_t seed, bool pairs, BitSpan bits) {
        const std::string key = sort_name(type, pairs) + " " + describe(bits);
        if (n != n_ || seed != seed_) {
            entries_.clear();
            n_ = n;
            seed_ = seed;
        }
        auto it = entries_.find(key);
        if (it == entries_.end()) {
            auto data = std::make_shared<BenchData<Key>>();
            data->in = make_input<Key>(n, InputKind::Uniform, pairs, seed);
            data->expected = expected_sort(data->in, bits);
            it = entries_.emplace(key, data).first;
        }
        return *static_cast<const BenchData<Key>*>(it->second.get());
    }

    void clear() { entries_.clear(); }

private:
    std::size_t n_ = 0;
    std::uint64_t seed_ = 0;
    std::map<std::string, std::shared_ptr<void>> entries_;
};
BenchCache& bench_cache() {
    static BenchCache cache;
    return cache;
}

template <class Key>
constexpr KeyType key_type_of() {
    if constexpr (std::is_same_v<Key, std::uint32_t>)
        return KeyType::U32;
    else if constexpr (std::is_same_v<Key, std::int32_t>)
        return KeyType::I32;
    else if constexpr (std::is_same_v<Key, float>)
        return KeyType::F32;
    else
        return KeyType::U64;
}

template <class Key>
const BenchData<Key>& bench_data(std::size_t n, const BenchContext& ctx, bool pairs, BitSpan bits) {
    return bench_cache().get<Key>(key_type_of<Key>(), n, ctx.seed, pairs, bits);
}

// "u32 keys + u32 values, bits 0:16": the section of a sort that is not the headline.
template <class Key>
std::string bench_what(bool pairs, BitSpan bits) {
    return sort_name(key_type_of<Key>(), pairs) + (bits.end - bits.begin != kKeyBits<Key> ? ", " + describe(bits) : "");
}

template <class Key>
Measurement bench_row(std::size_t n, bool pairs, BitSpan bits, bool headline) {
    Measurement m;
    m.section = headline ? "kernel" : bench_what<Key>(pairs, bits);
    m.bytes = 2.0 * static_cast<double>(n) * static_cast<double>(sizeof(Key) + (pairs ? sizeof(Value) : 0));
    m.items = static_cast<double>(n);
    return m;
}

// The CPU reference on the host threads, for scale: its output poisoned before each run (as the
// device outputs are) and judged after the timing.
template <class Key>
Measurement bench_cpu(std::size_t n, BenchContext& ctx, bool pairs, BitSpan bits, bool headline) {
    const BenchData<Key>& data = bench_data<Key>(n, ctx, pairs, bits);
    Measurement m = bench_row<Key>(n, pairs, bits, headline);
    SortData<Key> out;
    out.pairs = pairs;
    out.keys.resize(n);
    if (pairs) out.values.resize(n);
    auto poison = [&] {
        if (n == 0) return;
        std::memset(static_cast<void*>(out.keys.data()), 0xFF, n * sizeof(Key));
        if (pairs) std::memset(out.values.data(), 0xFF, n * sizeof(Value));
    };
    TimingOptions t = ctx.timing;
    t.warmup = 0;
    t.repeats = n > p2(24) ? 1 : std::min(t.repeats, 3);
    m.ms = time_host(
        t,
        [&] {
            radix_sort_cpu(data.in.keys.data(), pairs ? data.in.values.data() : nullptr, out.keys.data(),
                           pairs ? out.values.data() : nullptr, n, bits.begin, bits.end);
        },
        poison);
    m.record_check(judge(data.in, data.expected, out, bits));
    m.note = format("%u host threads, for scale", std::max(1u, std::thread::hardware_concurrency()));
    return m;
}

}  // namespace

// Every run of the implementation, warm-ups, the slow-run probe and the stage breakdown's runs
// included, is prepared (outputs and workspace poisoned, guards armed) and verified once the
// device is idle: guard zones, the input unchanged, the output equal to the CPU's bit for bit.
// The comparisons run on the device against copies uploaded once; only a wrong run brings its
// output back, for the judge to say how it is wrong.
template <class Key>
std::vector<Measurement> bench_sort_with(const SortImpl<Key>& fn, const Impl& impl, std::size_t n, BenchContext& ctx,
                                         bool pairs, BitSpan bits, bool headline) {
    const BenchData<Key>& data = bench_data<Key>(n, ctx, pairs, bits);
    Measurement m = bench_row<Key>(n, pairs, bits, headline);
    DeviceSort<Key> d(data.in, fn.workspace_bytes(n, pairs), bits);
    DeviceBuffer<Key> expected_keys, original_keys;
    DeviceBuffer<Value> expected_values, original_values;
    expected_keys.upload(data.expected.keys);
    original_keys.upload(data.in.keys);
    if (pairs) {
        expected_values.upload(data.expected.values);
        original_values.upload(data.in.values);
    }
    auto differs = [n](const auto& expected, const auto* actual) {
        return count_differences_on_device(expected.data(), actual, n) != 0;
    };
    TimedCall call;
    call.prepare = [&] { d.poison(); };
    call.run = [&] { fn.run(d.args); };
    call.verify = [&]() -> CheckResult {
        const CheckResult guards = d.check_guards();
        if (!guards.ok) return guards;
        const bool right = !differs(expected_keys, d.keys_out.data()) &&
                           (!pairs || !differs(expected_values, d.values_out.data()));
        if (!right) {
            const HintScope tiles(tile_boundaries<Key>(pairs));
            return judge(data.in, data.expected, d.output(), bits);
        }
        const bool unchanged = !differs(original_keys, d.keys_in.data()) &&
                               (!pairs || !differs(original_values, d.values_in.data()));
        return and_input_unchanged(CheckResult::pass(n), unchanged);
    };

    // One run first says how long a run takes: slow ones (the one-bit sort on a Blelloch scan
    // at 2^28: over half a second) are timed 3 times, not 20. Its runs are checked like the others.
    TimingOptions timing = ctx.timing;
    TimingOptions once = timing;
    once.warmup = 1;
    once.repeats = 1;
    TimedResult probe = time_checked(once, &ctx.flusher, call);
    if (!probe.check.ok) {
        probe.check.message = "the probe of how long a run takes, " + probe.check.message;
        m.record(probe);
        return {m};
    }
    if (probe.ms.median > kSlowRunMs) {
        timing.warmup = 0;
        timing.repeats = std::min(timing.repeats, 3);
        m.note = format("timed %d times: a run takes over %.0f ms", timing.repeats, kSlowRunMs);
    }
    m.record(time_checked(timing, &ctx.flusher, call));
    if (impl.kind != ImplKind::Reference || !m.correct) return {m};

    // Where the time goes: each stage the sort marks, timed with events; medians over the
    // repeats. These runs are checked too: one wrong one makes the implementation's row wrong.
    EventStageTimer timer;
    d.args.stages = &timer;
    std::vector<std::vector<EventStageTimer::Stage>> runs;
    const int stage_runs = timing.warmup + timing.repeats;
    for (int r = 0; r < stage_runs; ++r) {
        call.prepare();
        ctx.flusher.flush();
        timer.start();
        fn.run(d.args);
        if (r >= timing.warmup) runs.push_back(timer.stages());
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        CheckResult check = call.verify();
        if (!check.ok) {
            check.message = format("run %d of %d timed by stage: ", r + 1, stage_runs) + check.message;
            m.record_check(check);
            return {m};
        }
    }
    const std::string what = bench_what<Key>(pairs, bits);
    std::vector<Measurement> rows = {m};
    for (std::size_t s = 0; s < runs.front().size(); ++s) {
        std::vector<double> ms;
        for (const auto& one : runs) ms.push_back(one[s].ms);
        const EventStageTimer::Stage& stage = runs.front()[s];
        Measurement row;
        row.section = "stages: " + what;
        row.label = impl.name + ": " + stage.name + (stage.count > 1 ? format(" (x%d)", stage.count) : "");
        row.ms = summarize(ms);
        row.bytes = stage.bytes;
        row.items = static_cast<double>(n);
        rows.push_back(row);
    }
    return rows;
}

namespace {

template <class Key>
std::vector<Measurement> bench_sort(const Impl& impl, std::size_t n, BenchContext& ctx, bool pairs, BitSpan bits,
                                    bool headline) {
    if (impl.kind == ImplKind::Cpu) return {bench_cpu<Key>(n, ctx, pairs, bits, headline)};
    return bench_sort_with(impl_by_name<Key>(impl.name), impl, n, ctx, pairs, bits, headline);
}

std::vector<Measurement> radix_sort_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    const BenchChoice choice = bench_choice(ctx.opts);
    return with_key_type(choice.type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        std::vector<Measurement> rows;
        // The first sort benchmarked is the headline ("kernel": the student's key figure).
        if (choice.keys)
            for (auto& m : bench_sort<Key>(impl, n, ctx, false, choice.bits, true)) rows.push_back(m);
        if (choice.pairs)
            for (auto& m : bench_sort<Key>(impl, n, ctx, true, choice.bits, !choice.keys))
                rows.push_back(m);
        return rows;
    });
}

}  // namespace

// ---- Memory: what the check and the benchmark of one size hold at once --------------------------
// Both follow the options. The benchmark sorts --type's keys alone, with values, or both, one
// sort after the other (--pairs no, yes, both; --bits changes nothing that is held), every
// implementation in turn with its own workspace. The check sorts what its cases of n keys ask,
// whatever the options: every key type, keys alone and with values, at the sizes of its list
// (2^26+3 the largest), or every kind at --size N.
//
// Per key at a power of two n, K the key's bytes (4: u32, i32, f32; 8: u64), in the test build,
// where the largest workspace is the reference answer's (the one-bit sort on 02's Blelloch scan:
// a second array of keys, and of values, n+1 flags, the scan's tree of next_pow2(n+1) words):
//   device: keys alone 5K + 12 bytes (u32 32, u64 52), with values 5K + 32 (u32 52, u64 72);
//   host:   --pairs no 5K (u32 20, u64 40), yes 5(K+4) (u32 40, u64 60), both 2K + 5(K+4)
//           (u32 48, the defaults; u64 76).
// At 2^26: u32 both (the defaults) about 3330 MiB on the device, 3072 on the host; u64 both about
// 4614 and 4864. In a student's build the student's workspace replaces the reference answer's
// (the starter asks for none: the largest is then the one-bit sort's on 02's single-pass scan,
// 8 bytes a key less).

namespace {

// One kind of sort as far as memory goes: the key type, and values or not.
using SortKind = std::pair<KeyType, bool>;

// The kinds the check's cases sort at each of their sizes (radix_sort_cases).
const std::map<std::size_t, std::set<SortKind>>& check_kinds() {
    static const std::map<std::size_t, std::set<SortKind>> kinds = [] {
        std::map<std::size_t, std::set<SortKind>> k;
        for (const Case& c : radix_sort_cases(Options{})) {
            const CaseSpec spec = decode(c.variant);
            k[c.n].insert({spec.type, spec.pairs});
        }
        return k;
    }();
    return kinds;
}

// The kinds the check of this run sorts n keys of (exercise.cpp's selected_cases): those of the
// list's cases of n keys (none above --max-size); with --size N, those or, when that leaves none,
// every kind at N. Empty when the check sorts no n keys.
std::set<SortKind> kinds_checked_at(std::size_t n, const Options& opts) {
    if (!opts.runs_check() || (opts.size && n != *opts.size)) return {};
    const auto listed = check_kinds().find(n);
    if (listed != check_kinds().end() && !(opts.max_size && n > *opts.max_size)) return listed->second;
    std::set<SortKind> every;
    if (opts.size)
        for (KeyType type : kKeyTypes)
            for (bool pairs : {false, true}) every.insert({type, pairs});
    return every;
}

// The largest workspace an implementation asks for at n: the implementations run one at a time,
// and each one's workspace function is what the harness allocates for it (CUB's is CUB's own
// size query, on this GPU; the student's is the student's function). Needs the GPU, as fits() has.
// Remembered for the one list of implementations exercise() passes: fits() asks for every case
// of every implementation, and the workspaces do not change within a process.
template <class Key>
double largest_workspace(const std::vector<std::string>& impls, std::size_t n, bool pairs) {
    static std::map<std::pair<std::size_t, bool>, double> known;
    const auto it = known.find({n, pairs});
    if (it != known.end()) return it->second;
    std::size_t most = 0;
    for (const auto& name : impls) most = std::max(most, impl_by_name<Key>(name).workspace_bytes(n, pairs));
    return known[{n, pairs}] = static_cast<double>(most);
}

// One sort's arrays on the device (DeviceSort), what the check of one case holds (run_on_device).
template <class Key>
double sort_device_bytes(const std::vector<std::string>& impls, std::size_t n, bool pairs) {
    const double N = static_cast<double>(n);
    const double keys_in = committed_device_bytes(sizeof(Key) * N);                       // the input's keys
    const double values_in = pairs ? committed_device_bytes(sizeof(Value) * N) : 0;      // and values
    // The outputs between guard zones (values_out has its zones even for keys alone), and the
    // largest workspace between its own.
    const double keys_out = committed_device_bytes(sizeof(Key) * N + 2.0 * guard_bytes<Key>());
    const double values_out = committed_device_bytes((pairs ? sizeof(Value) * N : 0) + 2.0 * guard_bytes<Value>());
    const double workspace = committed_device_bytes(largest_workspace<Key>(impls, n, pairs) + 2.0 * guard_bytes<unsigned char>());
    return keys_in + values_in + keys_out + values_out + workspace;
}

// The benchmark of one sort (bench_sort_with): the same arrays, and the expected output and the
// original input on the device, which every run's output and input are compared with.
template <class Key>
double bench_device_bytes(const std::vector<std::string>& impls, std::size_t n, bool pairs) {
    const double N = static_cast<double>(n);
    const double keys = committed_device_bytes(sizeof(Key) * N);
    const double values = pairs ? committed_device_bytes(sizeof(Value) * N) : 0;
    const double compared_with = 2 * keys + 2 * values;  // expected and original keys (and values)
    return sort_device_bytes<Key>(impls, n, pairs) + compared_with;
}

// The check of one case of n keys on the host (check_case_with), at its peak, the CPU's sort: the
// input, the device's output brought back, the CPU's answer, and radix_sort_cpu's own arrays
// (the ordered bits and the values, and their next pass): 5 arrays of keys (and values). (The
// input read back to see it unchanged is gone by then; a case whose answer is remembered is not
// sorted on the CPU again.)
template <class Key>
double check_host_bytes(std::size_t n, bool pairs) {
    const double P = sizeof(Key) + (pairs ? sizeof(Value) : 0);
    return 5 * P * static_cast<double>(n);
}

// The benchmark on the host (K bytes a key, P = K + 4 a pair), at its peak, the cpu row's last
// sort: the cache's entries, each an input and its CPU-sorted answer (2K for keys alone, 2P with
// values, both with --pairs both); beside them the cpu row's output and radix_sort_cpu's own
// arrays (the ordered bits and the values, and their next pass), of its last sort (pairs when
// asked): 3P (or 3K). Each entry is made while the earlier one is held: input, answer and
// radix_sort_cpu's arrays, 4P (or 4K): less. (A wrong output brought back for the report is not
// counted.)
template <class Key>
double bench_host_bytes(std::size_t n, bool keys, bool pairs) {
    const double N = static_cast<double>(n), K = sizeof(Key), P = sizeof(Key) + sizeof(Value);
    const double entries = (keys ? 2 * K * N : 0) + (pairs ? 2 * P * N : 0);
    const double last_sort = 3 * (pairs ? P : K) * N;
    return entries + last_sort;
}

// The larger of the check's (where it sorts n keys) and the benchmark's (wherever it runs: fits()
// is asked at every size the run benchmarks); 0 with --check alone at a size it does not check.
double device_bytes_at(const std::vector<std::string>& impls, std::size_t n, const Options& opts) {
    double most = 0;
    for (const SortKind& kind : kinds_checked_at(n, opts))
        with_key_type(kind.first, [&](auto tag) {
            most = std::max(most, sort_device_bytes<typename decltype(tag)::type>(impls, n, kind.second));
            return 0;
        });
    if (opts.runs_bench()) {
        const BenchChoice sorts = bench_sorts(opts);
        with_key_type(sorts.type, [&](auto tag) {
            using Key = typename decltype(tag)::type;
            // One sort at a time: keys alone, then pairs.
            if (sorts.keys) most = std::max(most, bench_device_bytes<Key>(impls, n, false));
            if (sorts.pairs) most = std::max(most, bench_device_bytes<Key>(impls, n, true));
            return 0;
        });
    }
    return most;
}

double host_bytes_at(std::size_t n, const Options& opts) {
    double most = 0;
    for (const SortKind& kind : kinds_checked_at(n, opts))
        with_key_type(kind.first, [&](auto tag) {
            most = std::max(most, check_host_bytes<typename decltype(tag)::type>(n, kind.second));
            return 0;
        });
    if (opts.runs_bench()) {
        const BenchChoice sorts = bench_sorts(opts);
        with_key_type(sorts.type, [&](auto tag) {
            most = std::max(most, bench_host_bytes<typename decltype(tag)::type>(n, sorts.keys, sorts.pairs));
            return 0;
        });
    }
    return most;
}

}  // namespace

void release_bench_inputs() { bench_cache().clear(); }

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "06_radix_sort";
    def.title = "stable LSD radix sort of u32/i32/f32/u64 keys and key-value pairs (PMPP chapter 13)";
    def.impls = {
        {"student", ImplKind::Student, "your radix_sort_student.cu (Fig. 13.4 on your 02 scan; tasks 6-8: faster)"},
        {"one_bit", ImplKind::Reference,
         "Fig. 13.4: one bit per pass, extract / scan (02 single pass) / scatter (radix_sort_1_one_bit.cu)"},
        {"coalesced", ImplKind::Reference,
         "exercise 1: tiles split in shared memory, runs written coalesced (radix_sort_2_coalesced.cu)"},
        {"multibit", ImplKind::Reference, "exercise 2: 4-bit digits, 16 buckets, 8 passes (radix_sort_3_multibit.cu)"},
        {"coarsened", ImplKind::Reference, "exercise 3: 8 keys per thread, tiles of 2048 (radix_sort_4_coarsened.cu)"},
        {"onesweep", ImplKind::Reference,
         "8-bit digits, one up-front histogram, one pass per digit with decoupled look-back "
         "(radix_sort_5_onesweep.cu)"},
        {"cub", ImplKind::Library, "cub::DeviceRadixSort::SortKeys / SortPairs (radix_sort_cub.cu)"},
        {"cpu", ImplKind::Cpu, "LSD radix sort on the host threads: the definition of correct (radix_sort_cpu.cpp)"},
    };
    def.baseline = "cub";
    def.items_unit = "Gkeys/s";
    def.extra_options = {
        {"type", "TYPE", "key type of the benchmark (the check covers all)", "u32", {"u32", "i32", "f32", "u64"}},
        {"pairs", "WHAT", "benchmark keys alone (no), with u32 values (yes), or both", "both", {"no", "yes", "both"}},
        {"bits",
         "RANGE",
         "bit range of the benchmark's sort, BEGIN:END of the ordered key bits",
         "all",
         {"all", "0:8", "0:16", "0:24", "4:21", "16:32", "0:32", "32:64"}},
    };
    def.max_size = kMaxKeys;
    def.bench_sizes = {p2(20), p2(24), p2(28)};
    def.cases = radix_sort_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl.name, c, seed);
    };
    def.bench = radix_sort_bench;
    // Counted buffer by buffer in "Memory" above, for what the options ask the check and the
    // benchmark to sort at n.
    std::vector<std::string> device_impls;
    for (const Impl& impl : def.impls)
        if (impl.kind != ImplKind::Cpu) device_impls.push_back(impl.name);
    def.device_bytes = [device_impls](std::size_t n, const Options& opts) {
        return device_bytes_at(device_impls, n, opts);
    };
    def.host_bytes = [](std::size_t n, const Options& opts) { return host_bytes_at(n, opts); };
    return def;
}

// ---- Instantiations for the tests -----------------------------------------------------------------

#define INSTANTIATE_HARNESS(Key)                                                                                     \
    template SortData<Key> make_input<Key>(std::size_t, InputKind, bool, std::uint64_t);                             \
    template SortData<Key> expected_sort<Key>(const SortData<Key>&, BitSpan);                                        \
    template CheckResult judge<Key>(const SortData<Key>&, const SortData<Key>&, const SortData<Key>&, BitSpan);      \
    template std::uint64_t output_digest<Key>(const SortData<Key>&);                                                 \
    template SortImpl<Key> impl_by_name<Key>(const std::string&);                                                    \
    template CheckResult check_sort<Key>(const SortImpl<Key>&, const SortData<Key>&, const SortData<Key>&, BitSpan); \
    template CheckResult check_case_with<Key>(const SortImpl<Key>&, const CaseSpec&, std::size_t, std::uint64_t);    \
    template std::vector<Measurement> bench_sort_with<Key>(const SortImpl<Key>&, const Impl&, std::size_t,           \
                                                           BenchContext&, bool, BitSpan, bool);
INSTANTIATE_HARNESS(std::uint32_t)
INSTANTIATE_HARNESS(std::int32_t)
INSTANTIATE_HARNESS(float)
INSTANTIATE_HARNESS(std::uint64_t)
#undef INSTANTIATE_HARNESS

}  // namespace radix_sort
