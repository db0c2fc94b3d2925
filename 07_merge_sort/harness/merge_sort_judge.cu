// merge_sort_judge.cu: exercise 07's check on the host: names, inputs, the CPU's answers, the
// judges of an output, and the check of a co-rank function.
#include "merge_sort_harness.h"

#include "common/check.h"
#include "common/report.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace merge_sort {

using namespace pmpp;

// ---- Names -----------------------------------------------------------------------------------

// In the enum's order.
constexpr const char* kMergeShapeNames[kMergeShapes] = {
    "n/2 + n/2",         "0 + n",      "n + 0", "1 + (n-1)", "(n-1) + 1", "n/3 + 2n/3", "all of A before B",
    "all of B before A", "interleaved"};
const char* to_string(MergeShape shape) { return kMergeShapeNames[static_cast<int>(shape)]; }

namespace {

// ---- Inputs ----------------------------------------------------------------------------------

// Uniform float keys get the special values of the total order mixed in: both zeros, both
// infinities, NaNs of both signs, the smallest denormals and the largest finite values.
constexpr std::uint32_t kSpecialFloatBits[] = {0x80000000u, 0x00000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                               0xFFC00000u, 0x00000001u, 0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu};
constexpr std::size_t kSpecialEvery = 61;

template <class Key>
std::vector<Key> draw_keys(std::size_t n, Distribution dist, std::uint64_t seed) {
    if constexpr (std::is_same_v<Key, Event>) {
        const std::vector<float> times = draw_keys<float>(n, dist, seed);
        std::vector<Event> events(n);
        for (std::size_t i = 0; i < n; ++i) events[i] = {times[i], static_cast<std::uint32_t>(i)};
        return events;
    } else {
        std::vector<Key> keys = generate<Key>(n, dist, seed);
        if constexpr (std::is_same_v<Key, float>) {
            if (dist == Distribution::Uniform)
                for (std::size_t i = 7; i < n; i += kSpecialEvery)
                    std::memcpy(&keys[i], &kSpecialFloatBits[(i / kSpecialEvery) % std::size(kSpecialFloatBits)],
                                sizeof(float));
        }
        return keys;
    }
}

template <class Key>
void sort_keys_on_host(std::vector<Key>& keys) {
    sort_cpu(keys.data(), static_cast<NoValues*>(nullptr), keys.size(), LessOf<Key>{});
}

}  // namespace

template <class Key>
MergeInputs<Key> merge_inputs(std::size_t n, Distribution dist, MergeShape shape, std::uint64_t seed) {
    std::vector<Key> keys = draw_keys<Key>(n, dist, seed);
    const std::size_t one = std::min<std::size_t>(1, n);
    std::size_t na = n / 2;
    switch (shape) {
        case MergeShape::AEmpty: na = 0; break;
        case MergeShape::BEmpty: na = n; break;
        case MergeShape::AOne: na = one; break;
        case MergeShape::BOne: na = n - one; break;
        case MergeShape::AThird: na = n / 3; break;
        case MergeShape::Interleaved: na = (n + 1) / 2; break;
        default: break;
    }
    MergeInputs<Key> in;
    if (shape == MergeShape::AllABeforeB || shape == MergeShape::AllBBeforeA || shape == MergeShape::Interleaved) {
        sort_keys_on_host(keys);
        if (shape == MergeShape::Interleaved) {
            for (std::size_t i = 0; i < n; ++i) (i % 2 == 0 ? in.a : in.b).push_back(keys[i]);
        } else {
            const bool a_first = shape == MergeShape::AllABeforeB;
            const auto split = keys.begin() + static_cast<std::ptrdiff_t>(a_first ? na : n - na);
            (a_first ? in.a : in.b).assign(keys.begin(), split);
            (a_first ? in.b : in.a).assign(split, keys.end());
        }
    } else {
        in.a.assign(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(na));
        in.b.assign(keys.begin() + static_cast<std::ptrdiff_t>(na), keys.end());
        sort_keys_on_host(in.a);
        sort_keys_on_host(in.b);
    }
    if constexpr (std::is_same_v<Key, Event>) {
        for (std::size_t i = 0; i < in.a.size(); ++i) in.a[i].id = static_cast<std::uint32_t>(i);
        for (std::size_t j = 0; j < in.b.size(); ++j) in.b[j].id = kFirstIdOfB + static_cast<std::uint32_t>(j);
    }
    return in;
}

template <class Key, class Value>
SortInputs<Key, Value> sort_inputs(std::size_t n, Distribution dist, std::uint64_t seed) {
    SortInputs<Key, Value> in;
    in.keys = draw_keys<Key>(n, dist, seed);
    if constexpr (kHasValues<Value>) {
        Rng rng(derive_seed(seed, 0x76616C7565ull));
        in.values.resize(n);
        for (auto& v : in.values) v = rng.next_u32();
    }
    return in;
}

// ---- Judging ---------------------------------------------------------------------------------

namespace {

// The report of an output that breaks `first`, with the hints of every check: the comparison's
// patterns, the order's runs, the elements lost and doubled. Each is a fact about the output;
// together they often name the mistake better than the first alone.
CheckResult with_every_hint(CheckResult first, const std::vector<const CheckResult*>& checks) {
    first.hint.clear();
    for (const CheckResult* c : checks) first.add_hint(c->hint);
    return first;
}

// A wrong output (`wrong`: its comparison with the expected one) that is out of order or not a
// permutation of `input`: the first of those two that failed, with every hint; else a pass.
template <class Key>
CheckResult order_or_elements(const CheckResult& wrong, const Key* input, const Key* out, std::size_t n) {
    const CheckResult order = check_sorted(out, n, LessOf<Key>{});
    const CheckResult elements = check_permutation(input, out, n);
    if (order.ok && elements.ok) return order;
    return with_every_hint(order.ok ? elements : order, {&wrong, &order, &elements});
}

}  // namespace

template <class Key>
CheckResult judge_merge(const MergeInputs<Key>& in, const std::vector<Key>& expected, const std::vector<Key>& out,
                        bool explain) {
    CheckResult r = compare_exact(expected, out);
    if (r.ok || !explain || out.size() != expected.size()) return r;
    // Never written: the comparison's hint says how many and where; order and elements would
    // only repeat it (the poison is out of order, and not an element of the input).
    if (count_never_written(expected.data(), out.data(), out.size()) > 0) return r;
    std::vector<Key> both(in.a);
    both.insert(both.end(), in.b.begin(), in.b.end());
    if (CheckResult broken = order_or_elements(r, both.data(), out.data(), out.size()); !broken.ok) return broken;
    // Ordered and holding exactly A and B: only equal keys can be in another place than the
    // stable merge puts them.
    r.message = "ordered and holding exactly the elements of A and B, but " + std::to_string(r.mismatches) +
                " position(s) differ from the stable merge";
    r.hint = "equal keys in the wrong order: on a tie the merge must take A's element first";
    return r;
}

template <class Key, class Value>
CheckResult judge_sort(const SortInputs<Key, Value>& in, const SortInputs<Key, Value>& expected,
                       const SortInputs<Key, Value>& out, bool explain) {
    const std::size_t n = expected.keys.size();
    CheckResult keys = compare_exact(expected.keys, out.keys);
    CheckResult values = CheckResult::pass(n);
    if constexpr (kHasValues<Value>) values = compare_exact(expected.values, out.values);
    if (keys.ok && values.ok) return keys;
    if (out.keys.size() != n) return keys;
    if (keys.ok) values.message = "keys right, but the values: " + values.message;
    CheckResult& wrong = keys.ok ? values : keys;
    if (!explain) return wrong;
    std::size_t unwritten = count_never_written(expected.keys.data(), out.keys.data(), n);
    if constexpr (kHasValues<Value>)
        unwritten += count_never_written(expected.values.data(), out.values.data(), out.values.size());
    if (unwritten > 0) return wrong;  // its hint says how many and where
    if (CheckResult broken = order_or_elements(wrong, in.keys.data(), out.keys.data(), n); !broken.ok) return broken;
    // Ordered and a permutation of the input: only keys that compare equal (events at the same
    // time) can stand in another order than the stable sort's.
    const std::string unstable = "equal keys (for events: equal times) are out of input order: the sort is not stable";
    if constexpr (kHasValues<Value>) {
        const CheckResult pairs =
            check_pairs_permutation(in.keys.data(), in.values.data(), out.keys.data(), out.values.data(), n);
        if (!pairs.ok) return with_every_hint(pairs, {&wrong});
        CheckResult stable =
            check_stable_sort(in.keys.data(), in.values.data(), out.keys.data(), out.values.data(), n, LessOf<Key>{});
        // check_stable_sort names the key when the keys are bitwise those of the stable sort; events
        // at one time with their ids in another order are not, and are unstable all the same.
        if (stable.hint.empty())
            stable.hint = "the keys are ordered and every (key, value) pair is kept, but " + unstable;
        return stable;
    }
    keys.message = "ordered and a permutation of the input, but " + std::to_string(keys.mismatches) +
                   " position(s) differ from the stable sort";
    keys.hint = "the keys are ordered and a permutation of the input, but " + unstable;
    return keys;
}

// ---- The co-rank -----------------------------------------------------------------------------

namespace {

// For each k of `ks` (ascending): how many of A's elements are among the first k outputs of the
// merge of A and B, by one walk of that merge (the co-rank's definition, not its search). On equal
// keys A's element goes first (the stable merge), or with ties_to_b B's.
template <class Key>
std::vector<std::size_t> counts_of_a(const MergeInputs<Key>& in, const std::vector<std::size_t>& ks, bool ties_to_b) {
    const LessOf<Key> less;
    const std::size_t na = in.a.size(), nb = in.b.size();
    std::vector<std::size_t> counts;
    std::size_t i = 0, j = 0;
    for (std::size_t k : ks) {
        while (i + j < k) {
            const bool take_a = j == nb || (i < na && (ties_to_b ? less(in.a[i], in.b[j]) : !less(in.b[j], in.a[i])));
            ++(take_a ? i : j);
        }
        counts.push_back(i);
    }
    return counts;
}

}  // namespace

template <class Key>
CheckResult check_co_rank(const CoRankCall<Key>& co_rank_fn, const MergeInputs<Key>& in) {
    const std::size_t na = in.a.size(), nb = in.b.size(), n = na + nb;
    std::vector<std::size_t> ks;
    if (n <= 4096) {
        for (std::size_t k = 0; k <= n; ++k) ks.push_back(k);
    } else {  // both ends, around the end of A, and 2048 points in between
        for (std::size_t d = 0; d <= 64; ++d) {
            ks.push_back(d);
            ks.push_back(n - d);
            ks.push_back(std::min(n, na + d));
            ks.push_back(na > d ? na - d : 0);
        }
        for (std::size_t i = 0; i < 2048; ++i) ks.push_back(n * i / 2048);
    }
    std::vector<std::size_t> sorted = ks;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    const std::vector<std::size_t> right = counts_of_a(in, sorted, false), b_first = counts_of_a(in, sorted, true);
    auto at = [&](const std::vector<std::size_t>& counts, std::size_t k) {
        return counts[static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), k) - sorted.begin())];
    };
    for (std::size_t k : ks) {
        const std::size_t want = at(right, k);
        const std::size_t got = co_rank_fn(k, in.a.data(), na, in.b.data(), nb);
        if (got == want) continue;
        CheckResult r = CheckResult::fail(
            format("co-rank of k=%zu with |A|=%zu, |B|=%zu returned %zu; the stable merge takes %zu element(s) of A "
                   "among its first %zu outputs",
                   k, na, nb, got, want, k));
        const std::size_t lo = k > nb ? k - nb : 0, hi = std::min(k, na);
        const std::size_t ties_to_b = at(b_first, k);  // the co-rank of the merge that lets B win ties
        if (got < lo || got > hi) {
            r.hint = format("the answer must lie in [max(0, k - |B|), min(k, |A|)] = [%zu, %zu]", lo, hi);
            if (static_cast<long long>(got) < 0)
                r.hint += format(" (%zu is %lld as a signed number: a std::size_t subtraction below 0 wraps around)",
                                 got, static_cast<long long>(got));
        } else if (got == ties_to_b) {
            r.hint = format(
                "%zu is the co-rank of a merge that takes B's element on a tie: on equal keys A's element "
                "goes first (A[i] goes before B[j] unless less(B[j], A[i]))",
                got);
        } else if (got + 1 == want || got == want + 1) {
            r.hint =
                "off by one: check the tie rule (A[i] goes before B[j] unless less(B[j], A[i])) and the search's "
                "bounds";
        }
        return r;
    }
    return CheckResult::pass(ks.size());
}

#define INSTANTIATE_JUDGE_SORT(Key, Value)                                                                    \
    template SortInputs<Key, Value> sort_inputs<Key, Value>(std::size_t, Distribution, std::uint64_t);        \
    template CheckResult judge_sort<Key, Value>(const SortInputs<Key, Value>&, const SortInputs<Key, Value>&, \
                                                const SortInputs<Key, Value>&, bool);
#define INSTANTIATE_JUDGE(Key, Less)                                                                                 \
    template MergeInputs<Key> merge_inputs<Key>(std::size_t, Distribution, MergeShape, std::uint64_t);               \
    template CheckResult judge_merge<Key>(const MergeInputs<Key>&, const std::vector<Key>&, const std::vector<Key>&, \
                                          bool);                                                                     \
    template CheckResult check_co_rank<Key>(const CoRankCall<Key>&, const MergeInputs<Key>&);                        \
    INSTANTIATE_JUDGE_SORT(Key, NoValues)                                                                            \
    INSTANTIATE_JUDGE_SORT(Key, PairValue)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_JUDGE)
#undef INSTANTIATE_JUDGE
#undef INSTANTIATE_JUDGE_SORT

}  // namespace merge_sort
