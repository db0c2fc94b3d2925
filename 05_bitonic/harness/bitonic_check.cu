// bitonic_check.cu: exercise 05's inputs, the check of one sorted output on the device (every
// run of the check and of the benchmark) and the report of a wrong one on the host.
#include "bitonic_harness.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/device_tally.cuh"
#include "common/keys.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace bitonic {

using namespace pmpp;
using u32 = std::uint32_t;

namespace {

// The tiles the hints name: bitonic_3_shared.cu's (the starter's kTile too) and
// bitonic_4_fused.cu's shipped one.
constexpr std::size_t kSharedTile = 2048;
constexpr std::size_t kFusedTile = 8192;

using pmpp::detail::bits_of;  // a key's bit pattern (check.h)

template <typename K>
K from_bits(u32 b) {
    K v;
    std::memcpy(&v, &b, 4);
    return v;
}

// The values a sort most easily gets wrong: each type's extremes; for floats the signed zeros,
// infinities, NaNs of both signs and several payloads, subnormals.
template <typename K>
std::vector<K> special_values() {
    std::vector<u32> bits;
    if constexpr (std::is_same_v<K, float>) {
        bits = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u,
                0xFFFFFFFFu, 0x7FFFFFFFu, 0x00000001u, 0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u};
    } else if constexpr (std::is_same_v<K, std::int32_t>) {
        bits = {0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0u, 1u, 0x7FFFFFFFu};
    } else {
        bits = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    }
    std::vector<K> out;
    for (u32 b : bits) out.push_back(from_bits<K>(b));
    return out;
}

template <typename K>
std::string format_key(K v) {
    if constexpr (std::is_same_v<K, float>)
        return format_value(v) + format(" (0x%08x)", bits_of(v));
    else
        return format_value(v);
}

// ---- what a wrong output shows, in the network's terms ---------------------------------------------
// Facts about the keys, each checked on this output (common/check_hints.h's rule: no pattern,
// no hint); check_sorted and check_permutation add their own (runs, lost and doubled keys).

// The length B of the blocks when the output is what the network leaves after its stage k = B:
// every block of B sorted in the direction the network gives it at that stage (the block
// holding n - 1 forward, its neighbours alternating), and some backward block out of the order
// asked (else the keys are simply sorted). 0 when no B < padded_length(n) fits.
template <typename K>
std::size_t alternating_block_length(const K* keys, std::size_t n, SortOrder order) {
    const Before<K> forward_before = before_for<K>(order);
    const Before<K> backward_before{!forward_before.descending};
    for (std::size_t block = padded_length(n) / 2; block >= 2; block /= 2) {
        bool fits = true, reversed_somewhere = false;
        for (std::size_t start = 0; start < n && fits; start += block) {
            const bool forward = sorts_forward(start, block, n);
            const std::size_t end = std::min(n, start + block);
            for (std::size_t i = start + 1; i < end && fits; ++i) {
                fits = !(forward ? forward_before : backward_before)(keys[i], keys[i - 1]);
                reversed_somewhere |= !forward && forward_before(keys[i], keys[i - 1]);
            }
        }
        if (fits && reversed_somewhere) return block;
    }
    return 0;
}

template <typename K>
std::vector<std::string> sorted_output_facts(const SortInput<K>& in, const std::vector<K>& expected, const K* keys,
                                             SortOrder order) {
    std::vector<std::string> facts;
    const std::size_t n = in.keys.size();
    const SortOrder other = order == SortOrder::Ascending ? SortOrder::Descending : SortOrder::Ascending;
    if (check_sorted(keys, n, before_for<K>(other)).ok) {
        facts.push_back("sorted in the opposite order: the direction of the last stage is reversed");
    } else if (const std::size_t block = alternating_block_length(keys, n, order)) {
        const std::size_t padded = padded_length(n);
        facts.push_back(format("sorted in blocks of %zu elements in alternating directions (the block of element "
                               "n - 1 in the order asked, the one before it in the opposite order): the network as "
                               "its stage k = %zu leaves it, never merged by ",
                               block, block) +
                        (2 * block == padded
                             ? format("the last stage, k = %zu = padded_length(n)", padded)
                             : format("the stages k = %zu ... %zu = padded_length(n)", 2 * block, padded)));
    }
    if constexpr (std::is_same_v<K, float>) {
        // A comparison with < or > is false for every NaN: a network that compares so never
        // swaps a NaN, and each stays where the input had it.
        std::size_t nans = 0, moved = 0, misplaced = 0, example = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isnan(in.keys[i])) continue;
            ++nans;
            if (bits_of(keys[i]) != bits_of(in.keys[i]))
                ++moved;
            else if (bits_of(keys[i]) != bits_of(expected[i]) && misplaced++ == 0)
                example = i;
        }
        if (nans > 0 && moved == 0 && misplaced > 0)
            facts.push_back(
                format("every NaN of the input is still at its input position (%zu NaNs; e.g. index %zu, "
                       "where the sorted keys hold %s): a comparison with < or > is false for every NaN, "
                       "so a NaN never swaps, and -0.0 == +0.0; compare with before (the total order)",
                       nans, example, format_key(expected[example]).c_str()));
    }
    return facts;
}

// ---- the check of one run, on the device --------------------------------------------------------
// verify_sorted (bitonic_harness.h says what it checks): one kernel for the keys, one for the
// pairing, a few bytes back; only a wrong run downloads the arrays, for check_sorted_output.

// Values are the input positions XOR a salt (make_input), so value v names input element
// v ^ salt. A position breaks the pairing when its value names no input element, names one that
// another position named already (`named`: one flag per input element, all zero on entry), or
// sits beside a key other than that element's, bit for bit. The network is not stable: equal keys
// may carry their values in any order, and this rule accepts every such order.
struct BrokenPairing {
    const u32* input_key_bits;
    const u32* output_key_bits;
    const u32* values;
    std::size_t n;
    u32 salt;
    u32* named;
    __device__ unsigned operator()(std::size_t i) const {
        const std::size_t from = values[i] ^ salt;
        const bool paired =
            from < n && atomicExch(&named[from], 1u) == 0u && input_key_bits[from] == output_key_bits[i];
        return paired ? 0u : 1u;
    }
};

// Positions of `keys`/`values` that break the pairing (BrokenPairing), counted on the device.
template <typename K>
unsigned long long unpaired_positions(const SortProblem<K>& p, const K* keys, const u32* values) {
    static_assert(sizeof(K) == sizeof(u32), "the pairing rule compares keys as 32-bit patterns");
    if (p.n() == 0) return 0;
    PMPP_CUDA_CHECK(cudaMemset(p.named.data(), 0, p.n() * sizeof(u32)));
    const auto* input_key_bits = reinterpret_cast<const u32*>(p.keys_in.data());
    const auto* output_key_bits = reinterpret_cast<const u32*>(keys);
    const BrokenPairing rule{input_key_bits, output_key_bits, values, p.n(), p.input.salt, p.named.data()};
    return tally_on_device<1>(p.n(), rule)[0];
}

// Runs `sort` once on a copy of the problem's input and checks what it wrote (check()).
template <typename K>
CheckResult check_sort(const SortFn<K>& sort, const SortProblem<K>& p) {
    // A sort that pads in memory writes up to padded_length(n) - n elements past the end:
    // zones that wide keep those writes inside them, reported, instead of in other memory.
    const std::size_t n = p.n();
    const std::size_t padding = padded_length(n) - n;
    GuardedBuffer<K> keys(n, "keys", padding);
    GuardedBuffer<u32> values(p.with_values ? n : 0, "values", padding);
    keys.copy_from_device(p.keys_in.data());
    if (p.with_values) values.copy_from_device(p.values_in.data());
    sort(keys.data(), p.with_values ? values.data() : nullptr, n, p.order);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    return verify_sorted(p, keys, p.with_values ? &values : nullptr);
}

}  // namespace

template <typename K>
CheckResult verify_sorted(const SortProblem<K>& p, const GuardedBuffer<K>& keys, const GuardedBuffer<u32>* values) {
    CheckResult guards = keys.check_guards();
    if (guards.ok && values != nullptr) guards = values->check_guards();
    if (!guards.ok) {
        guards.hint +=
            "; the network pads only virtually: nothing before index 0 or at or past n may be read or "
            "written (bitonic_network.h)";
        return guards;
    }
    const std::size_t n = keys.size();
    bool right = count_differences_on_device(p.expected_keys.data(), keys.data(), n) == 0;
    if (right && values != nullptr) right = unpaired_positions(p, keys.data(), values->data()) == 0;
    if (right) return CheckResult::pass(n);

    // Wrong: the host check of the same output says how (not sorted, not a permutation, ...).
    const std::vector<K> out = keys.to_host();
    const std::vector<u32> out_values = values != nullptr ? values->to_host() : std::vector<u32>{};
    CheckResult report =
        check_sorted_output(p.input, p.expected, out.data(), values != nullptr ? out_values.data() : nullptr, p.order);
    if (report.ok)
        report = CheckResult::fail(
            "the device check rejected this output and the host check accepts it: a bug in "
            "bitonic_check.cu, please report it");
    return report;
}

template <typename K>
SortInput<K> make_input(std::size_t n, Distribution dist, const CaseKind& kind, std::uint64_t seed) {
    SortInput<K> in;
    in.keys = generate<K>(n, dist, derive_seed(seed, 1));
    Rng rng(derive_seed(seed, 2));
    if (kind.specials) {
        const std::vector<K> specials = special_values<K>();
        for (K& key : in.keys)
            if (rng.below(2) == 0) key = specials[rng.below(specials.size())];
    }
    if (kind.with_values) {
        in.salt = rng.next_u32();
        in.values.resize(n);
        for (std::size_t i = 0; i < n; ++i) in.values[i] = static_cast<u32>(i) ^ in.salt;
    }
    return in;
}

template <typename K>
SortProblem<K> make_sort_problem(std::size_t n, Distribution dist, const CaseKind& kind, std::uint64_t seed) {
    SortProblem<K> p;
    p.input = make_input<K>(n, dist, kind, seed);
    p.expected = p.input.keys;
    sort_cpu(p.expected.data(), nullptr, n, kind.order);
    p.order = kind.order;
    p.with_values = kind.with_values;
    p.keys_in.upload(p.input.keys);
    p.expected_keys.upload(p.expected);
    if (!p.input.values.empty()) {
        p.values_in.upload(p.input.values);
        p.named.resize(n);
    }
    return p;
}

BitonicProblem make_problem(std::size_t n, Distribution dist, const CaseKind& kind, std::uint64_t seed) {
    return with_type<KeyTypes>(kind.type, [&](auto tag) -> BitonicProblem {
        return make_sort_problem<typename decltype(tag)::type>(n, dist, kind, seed);
    });
}
template <typename K>
CheckResult check_sorted_output(const SortInput<K>& in, const std::vector<K>& expected, const K* keys,
                                const u32* values, SortOrder order) {
    // The tiles of the shared-memory variant (and the starter's kTile) and of the fused one:
    // "sorted within runs of 2048 elements (one shared-memory tile) ...".
    HintScope hints({{{kSharedTile, "shared-memory tile"}, {kFusedTile, "fused tile"}}, {}});
    const std::size_t n = in.keys.size();
    // Sorted keys are unique bit for bit (the total order tells every bit pattern apart), so
    // equality with the CPU's answer is the whole check of the keys; the rest says why not.
    CheckResult r = compare_exact(expected.data(), keys, n);
    if (!r.ok) {
        // Not in order, not a permutation, or both: the report of the first, the hints of both.
        // (compare_exact's own hints are left out: its "never written" reads a key of all ones,
        // a special value of every type here, as the poison of an output this sort never has.)
        CheckResult sorted = check_sorted(keys, n, before_for<K>(order));
        const CheckResult perm = check_permutation(in.keys.data(), keys, n);
        if (sorted.ok && perm.ok) return r;  // cannot happen: see above
        CheckResult report = sorted.ok ? perm : sorted;
        if (!sorted.ok) report.message += order == SortOrder::Ascending ? " (ascending asked)" : " (descending asked)";
        if (n > 1 && std::memcmp(keys, in.keys.data(), n * sizeof(K)) == 0) {
            // Whatever order the input had (runs, say) is no fact about the sort.
            report.hint = "the keys are exactly the input: nothing was sorted (is the sort launched?)";
            return report;
        }
        for (const std::string& h : sorted_output_facts(in, expected, keys, order)) report.add_hint(h);
        if (!sorted.ok && !perm.ok)
            report.add_hint("not a permutation of the input either: " + std::to_string(perm.mismatches) +
                            " distinct value(s) occur a different number of times");
        if (!sorted.ok) report.add_hint(perm.hint);  // which elements were lost and which doubled
        return report;
    }
    if (values == nullptr) return r;

    // Values: each names the input element it came from; that element's key must be beside it.
    CheckResult v;
    v.checked = n;
    std::vector<char> seen(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t from = values[i] ^ in.salt;
        std::string problem;
        if (from >= n)
            problem = "not an input value";
        else if (seen[from])
            problem = "a second copy of input element " + std::to_string(from) + "'s value";
        else if (bits_of(in.keys[from]) != bits_of(keys[i]))
            problem =
                "the value of input element " + std::to_string(from) + ", whose key is " + format_key(in.keys[from]);
        if (from < n) seen[from] = 1;
        if (problem.empty()) continue;
        ++v.mismatches;
        if (v.first.size() < 5)
            v.first.push_back({i, "the value of an element with key " + format_key(keys[i]), problem});
    }
    v.ok = v.mismatches == 0;
    if (!v.ok) {
        v.message = "values did not travel with their keys: " + std::to_string(v.mismatches) + " of " +
                    std::to_string(n) + " positions";
        v.hint = "every swap of two keys must swap their values too";
    }
    return v;
}

CheckResult check(const BitonicFn& fn, const BitonicProblem& p) {
    return std::visit(
        [&](const auto& problem) {
            using K = typename std::decay_t<decltype(problem)>::key_type;
            return check_sort(fn.sort<K>(), problem);
        },
        p);
}

#define BITONIC_INSTANTIATE_CHECK(K)                                                                              \
    template SortInput<K> make_input<K>(std::size_t, Distribution, const CaseKind&, std::uint64_t);               \
    template SortProblem<K> make_sort_problem<K>(std::size_t, Distribution, const CaseKind&, std::uint64_t);      \
    template CheckResult check_sorted_output<K>(const SortInput<K>&, const std::vector<K>&, const K*, const u32*, \
                                                SortOrder);                                                       \
    template CheckResult verify_sorted<K>(const SortProblem<K>&, const GuardedBuffer<K>&, const GuardedBuffer<u32>*);
BITONIC_INSTANTIATE_CHECK(std::uint32_t)
BITONIC_INSTANTIATE_CHECK(std::int32_t)
BITONIC_INSTANTIATE_CHECK(float)

}  // namespace bitonic
