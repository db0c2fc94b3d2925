// merge_sort_judge.cu: exercise 07's check: names, inputs, the CPU's answers, the judges of an
// output, the check of a co-rank function, and one case's problem and check.
#include "merge_sort_harness.h"

#include "common/check.h"
#include "common/report.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace merge_sort {

using namespace pmpp;

// ---- Names -----------------------------------------------------------------------------------

const char* to_string(KeyType type) {
    switch (type) {
        case KeyType::U32: return "u32";
        case KeyType::I32: return "i32";
        case KeyType::F32: return "f32";
        case KeyType::U64: return "u64";
        case KeyType::Event: return "event";
    }
    return "?";
}

const char* to_string(MergeShape shape) {
    switch (shape) {
        case MergeShape::Halves: return "n/2 + n/2";
        case MergeShape::AEmpty: return "0 + n";
        case MergeShape::BEmpty: return "n + 0";
        case MergeShape::AOne: return "1 + (n-1)";
        case MergeShape::BOne: return "(n-1) + 1";
        case MergeShape::AThird: return "n/3 + 2n/3";
        case MergeShape::AllABeforeB: return "all of A before B";
        case MergeShape::AllBBeforeA: return "all of B before A";
        case MergeShape::Interleaved: return "interleaved";
    }
    return "?";
}

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
            const std::size_t first = shape == MergeShape::AllABeforeB ? na : n - na;
            std::vector<Key>& low = shape == MergeShape::AllABeforeB ? in.a : in.b;
            std::vector<Key>& high = shape == MergeShape::AllABeforeB ? in.b : in.a;
            low.assign(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(first));
            high.assign(keys.begin() + static_cast<std::ptrdiff_t>(first), keys.end());
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

template <class Key>
std::vector<Key> expected_merge(const MergeInputs<Key>& in) {
    std::vector<Key> c(in.a.size() + in.b.size());
    merge_cpu(in.a.data(), in.a.size(), in.b.data(), in.b.size(), c.data(), LessOf<Key>{});
    return c;
}

template <class Key, class Value>
SortInputs<Key, Value> expected_sort(const SortInputs<Key, Value>& in) {
    SortInputs<Key, Value> out = in;
    Value* values = nullptr;
    if constexpr (kHasValues<Value>) values = out.values.data();
    sort_cpu(out.keys.data(), values, out.keys.size(), LessOf<Key>{});
    return out;
}

// ---- Judging ---------------------------------------------------------------------------------

namespace {

template <class T>
std::size_t count_never_written(const std::vector<T>& expected, const std::vector<T>& out) {
    return pmpp::count_never_written(expected.data(), out.data(), out.size());
}

// The report of an output that breaks `first` (the first property that failed, or the comparison
// itself when order and elements hold), with the hints of every check: the comparison's patterns,
// the order's runs, the elements lost and doubled. Each is a fact about the output; together they
// often name the mistake better than the first alone.
CheckResult with_every_hint(CheckResult first, const std::vector<const CheckResult*>& checks) {
    first.hint.clear();
    for (const CheckResult* c : checks) first.add_hint(c->hint);
    return first;
}

}  // namespace

template <class Key>
CheckResult judge_merge(const MergeInputs<Key>& in, const std::vector<Key>& expected, const std::vector<Key>& out,
                        bool explain) {
    CheckResult r = compare_exact(expected, out);
    if (r.ok || !explain || out.size() != expected.size()) return r;
    // Never written: the comparison's hint says how many and where; order and elements would
    // only repeat it (the poison is out of order, and not an element of the input).
    if (count_never_written(expected, out) > 0) return r;
    const CheckResult order = check_sorted(out.data(), out.size(), LessOf<Key>{});
    std::vector<Key> both(in.a);
    both.insert(both.end(), in.b.begin(), in.b.end());
    const CheckResult elements = check_permutation(both.data(), out.data(), out.size());
    if (!order.ok) return with_every_hint(order, {&r, &order, &elements});
    if (!elements.ok) return with_every_hint(elements, {&r, &elements});
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
    std::size_t unwritten = count_never_written(expected.keys, out.keys);
    if constexpr (kHasValues<Value>) unwritten += count_never_written(expected.values, out.values);
    if (unwritten > 0) return wrong;  // its hint says how many and where
    const CheckResult order = check_sorted(out.keys.data(), n, LessOf<Key>{});
    const CheckResult elements = check_permutation(in.keys.data(), out.keys.data(), n);
    if (!order.ok) return with_every_hint(order, {&wrong, &order, &elements});
    if (!elements.ok) return with_every_hint(elements, {&wrong, &elements});
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
            if (take_a)
                ++i;
            else
                ++j;
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

// ---- One case --------------------------------------------------------------------------------

MergeSortCase make_case(const MergeSortSpec& spec, std::size_t n, Distribution dist) {
    MergeSortCase c;
    c.n = n;
    c.dist = dist;
    c.spec = spec;
    return c;
}

MergeSortProblem make_problem(const MergeSortCase& c, std::uint64_t seed) {
    return with_type<Keys>(c.spec.type, [&](auto tag) -> MergeSortProblem {
        using Key = typename decltype(tag)::type;
        if (c.spec.op == Op::Merge) {
            auto p = std::make_shared<MergeProblem<Key>>();
            p->in = merge_inputs<Key>(c.n, c.dist, c.spec.shape, seed);
            p->expected = expected_merge(p->in);
            return {p};
        }
        auto sort = [&](auto value_tag) -> MergeSortProblem {
            using Value = typename decltype(value_tag)::type;
            auto p = std::make_shared<SortProblem<Key, Value>>();
            p->in = sort_inputs<Key, Value>(c.n, c.dist, seed);
            p->expected = expected_sort(p->in);
            return {p};
        };
        return c.spec.pairs ? sort(TypeTag<PairValue>{}) : sort(TypeTag<NoValues>{});
    });
}

namespace {

template <class Key>
CheckResult check_merge_case(const MergeSortFn& fn, const MergeProblem<Key>& p, std::size_t n) {
    const KeyCalls<Key>& calls = fn.of<Key>();
    if (calls.co_rank) {
        const CheckResult r = check_co_rank<Key>(calls.co_rank, p.in);
        if (!r.ok) return fn.student_tasks ? prefixed("task 1, co_rank_student", r) : r;
    }
    for (const auto& merge : calls.merges) {
        CheckResult r = check_merge(merge.run, p.in, p.expected);
        if (r.ok) continue;
        if (!fn.student_tasks) return r;
        return prefixed(merge.label == "basic" ? "task 2, merge_basic_student" : "task 3, merge_tiled_student", r);
    }
    return CheckResult::pass(n);
}

template <class Key, class Value>
CheckResult check_sort_case(const MergeSortFn& fn, const SortProblem<Key, Value>& p) {
    const CheckResult r = check_sort(fn.sort<Key, Value>(), p.in, p.expected, fn.sort_start);
    return fn.student_tasks ? prefixed("task 4, sort_student", r) : r;
}

}  // namespace

CheckResult check(const MergeSortFn& fn, const MergeSortProblem& p, const MergeSortCase& c) {
    return with_type<Keys>(c.spec.type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        const void* typed = p.typed.get();
        if (c.spec.op == Op::Merge) return check_merge_case(fn, *static_cast<const MergeProblem<Key>*>(typed), c.n);
        if (c.spec.pairs) return check_sort_case(fn, *static_cast<const SortProblem<Key, PairValue>*>(typed));
        return check_sort_case(fn, *static_cast<const SortProblem<Key, NoValues>*>(typed));
    });
}

#define INSTANTIATE_JUDGE_SORT(Key, Value)                                                                    \
    template SortInputs<Key, Value> sort_inputs<Key, Value>(std::size_t, Distribution, std::uint64_t);        \
    template SortInputs<Key, Value> expected_sort<Key, Value>(const SortInputs<Key, Value>&);                 \
    template CheckResult judge_sort<Key, Value>(const SortInputs<Key, Value>&, const SortInputs<Key, Value>&, \
                                                const SortInputs<Key, Value>&, bool);
#define INSTANTIATE_JUDGE(Key, Less)                                                                                 \
    template MergeInputs<Key> merge_inputs<Key>(std::size_t, Distribution, MergeShape, std::uint64_t);               \
    template std::vector<Key> expected_merge<Key>(const MergeInputs<Key>&);                                          \
    template CheckResult judge_merge<Key>(const MergeInputs<Key>&, const std::vector<Key>&, const std::vector<Key>&, \
                                          bool);                                                                     \
    template CheckResult check_co_rank<Key>(const CoRankCall<Key>&, const MergeInputs<Key>&);                        \
    INSTANTIATE_JUDGE_SORT(Key, NoValues)                                                                            \
    INSTANTIATE_JUDGE_SORT(Key, PairValue)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_JUDGE)
#undef INSTANTIATE_JUDGE
#undef INSTANTIATE_JUDGE_SORT

}  // namespace merge_sort
