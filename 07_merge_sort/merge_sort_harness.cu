// merge_sort_harness.cu: inputs, the check and the benchmark of exercise 07.
#include "merge_sort_harness.h"

#include "merge_core.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <typeinfo>

namespace merge_sort {

using namespace pmpp;

// ---- Names and the case encoding -------------------------------------------------------------

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

bool parse_key_type(const std::string& text, KeyType& out) {
    for (KeyType type : kKeyTypes)
        if (text == to_string(type)) {
            out = type;
            return true;
        }
    return false;
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

int encode(const CaseSpec& spec) {
    return static_cast<int>(spec.op) | static_cast<int>(spec.type) << 1 | static_cast<int>(spec.pairs) << 4 |
           static_cast<int>(spec.shape) << 5;
}

CaseSpec decode(int variant) {
    CaseSpec spec;
    spec.op = static_cast<Op>(variant & 1);
    const int type = (variant >> 1) & 7, shape = (variant >> 5) & 15;
    if (type > static_cast<int>(KeyType::Event) || shape >= kMergeShapes || (variant >> 9) != 0)
        throw std::logic_error("merge_sort: no case encoded as " + std::to_string(variant));
    spec.type = static_cast<KeyType>(type);
    spec.pairs = ((variant >> 4) & 1) != 0;
    spec.shape = static_cast<MergeShape>(shape);
    return spec;
}

// "n=... " first: the harness relabels a case for a --size that is not in the list by
// replacing that first word.
Case make_case(const CaseSpec& spec, std::size_t n, Distribution dist) {
    std::string label = "n=" + format_size(n) + " ";
    if (spec.op == Op::Sort)
        label += std::string("sort ") + to_string(spec.type) + (spec.pairs ? " keys + u32 values" : " keys");
    else
        label += std::string("merge ") + to_string(spec.type) + " [" + to_string(spec.shape) + "]";
    return {label + " " + to_string(dist), n, dist, encode(spec)};
}

namespace {

template <class T>
struct Tag {
    using type = T;
};

// Calls f(Tag<Key>{}) with the key type `type` names.
template <class F>
decltype(auto) with_key_type(KeyType type, F&& f) {
    switch (type) {
        case KeyType::U32: return f(Tag<std::uint32_t>{});
        case KeyType::I32: return f(Tag<std::int32_t>{});
        case KeyType::F32: return f(Tag<float>{});
        case KeyType::U64: return f(Tag<std::uint64_t>{});
        case KeyType::Event: return f(Tag<Event>{});
    }
    throw std::logic_error("merge_sort: unknown key type");
}

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
        const CheckResult pairs = check_pairs_permutation(in.keys.data(), in.values.data(), out.keys.data(),
                                                          out.values.data(), n);
        if (!pairs.ok) return with_every_hint(pairs, {&wrong});
        CheckResult stable = check_stable_sort(in.keys.data(), in.values.data(), out.keys.data(), out.values.data(), n,
                                               LessOf<Key>{});
        // check_stable_sort names the key when the keys are bitwise those of the stable sort; events
        // at one time with their ids in another order are not, and are unstable all the same.
        if (stable.hint.empty()) stable.hint = "the keys are ordered and every (key, value) pair is kept, but " + unstable;
        return stable;
    }
    keys.message = "ordered and a permutation of the input, but " + std::to_string(keys.mismatches) +
                   " position(s) differ from the stable sort";
    keys.hint = "the keys are ordered and a permutation of the input, but " + unstable;
    return keys;
}

// ---- Running on the device -------------------------------------------------------------------

namespace {

// A sort's device arrays: input, output and scratch keys (and values), and the split positions.
// Every array the sort may write is guarded, named as SortArgs names it, so a write outside one
// is reported as "wrote 1 element past the end of keys_scratch".
template <class Key, class Value>
struct DeviceSortArrays {
    static constexpr bool kValues = kHasValues<Value>;
    DeviceBuffer<Key> keys_in;
    DeviceBuffer<Value> values_in;
    GuardedBuffer<Key> keys_out, keys_scratch;
    GuardedBuffer<Value> values_out, values_scratch;
    GuardedBuffer<std::size_t> splits;

    explicit DeviceSortArrays(const SortInputs<Key, Value>& in)
        : keys_out(in.keys.size(), "keys_out"), keys_scratch(in.keys.size(), "keys_scratch"),
          values_out(kValues ? in.keys.size() : 0, "values_out"),
          values_scratch(kValues ? in.keys.size() : 0, "values_scratch"),
          splits(split_capacity(in.keys.size()), "splits") {
        keys_in.upload(in.keys);
        if constexpr (kValues) values_in.upload(in.values);
    }
    // Before every run: 0xFF in every array the sort writes, the guards armed again.
    void poison_outputs() {
        keys_out.poison();
        keys_scratch.poison();
        splits.poison();
        if constexpr (kValues) {
            values_out.poison();
            values_scratch.poison();
        }
    }
    // Before every run of a sort in place (thrust): the outputs hold a copy of the input.
    void start_from_input() {
        poison_outputs();
        keys_out.copy_from_device(keys_in.data());
        if constexpr (kValues) values_out.copy_from_device(values_in.data());
    }
    SortArgs<Key, Value> args() {
        SortArgs<Key, Value> a;
        a.keys_in = keys_in.data();
        a.keys_out = keys_out.data();
        a.keys_scratch = keys_scratch.data();
        a.splits = splits.data();
        if constexpr (kValues) {
            a.values_in = values_in.data();
            a.values_out = values_out.data();
            a.values_scratch = values_scratch.data();
        }
        return a;
    }
    // The guard zones of every array the sort may write: the first one written outside.
    CheckResult check_guards() const {
        for (const CheckResult& r : {keys_out.check_guards(), keys_scratch.check_guards(), splits.check_guards()})
            if (!r.ok) return r;
        if constexpr (kValues)
            for (const CheckResult& r : {values_out.check_guards(), values_scratch.check_guards()})
                if (!r.ok) return r;
        return CheckResult::pass(keys_out.size());
    }
    SortInputs<Key, Value> output() const {
        SortInputs<Key, Value> out;
        out.keys = keys_out.to_host();
        if constexpr (kValues) out.values = values_out.to_host();
        return out;
    }
    bool input_unchanged(const SortInputs<Key, Value>& in) const {
        if (!compare_exact(in.keys, keys_in.to_host()).ok) return false;
        if constexpr (kValues) return compare_exact(in.values, values_in.to_host()).ok;
        return true;
    }
};

// The structure the check names positions by (check_hints.h), as the README's tasks suggest it and
// the references build it: a merge's slices of 8 outputs per thread (task 2, merge_sort_1_basic.cu's
// kOutputsPerThread), tiles of 1024 (task 3's TILE, merge_sort_2_tiled.cu's kTile) and block ranges
// of 4096 outputs (block_merge_passes.cuh's kOutputsPerBlock); a sort's tiles of 1024 (task 4's
// plan, block_merge_passes.cuh's kSortTile); and the fast variant's tiles for these keys.
template <class Key>
HintContext merge_hint_context() {
    HintContext ctx;
    ctx.boundaries = {{8, "basic-merge slice"},
                      {1024, "merge tile"},
                      {4096, "tiled-merge block"},
                      {fast_tiles<Key, NoValues>().merge_tile, "fast-merge tile"}};
    return ctx;
}
template <class Key, class Value>
HintContext sort_hint_context() {
    HintContext ctx;
    ctx.boundaries = {{1024, "sort tile"}, {fast_tiles<Key, Value>().sort_tile, "fast-sort tile"}};
    return ctx;
}

// A sort whose keys_out is wrong may have left the right answer in the scratch arrays: its last
// step wrote there. Empty when they do not hold it either.
template <class Key, class Value>
std::string answer_in_scratch(const DeviceSortArrays<Key, Value>& arrays, const SortInputs<Key, Value>& expected) {
    if (expected.keys.empty() || !compare_exact(expected.keys, arrays.keys_scratch.to_host()).ok) return {};
    if constexpr (kHasValues<Value>) {
        if (!compare_exact(expected.values, arrays.values_scratch.to_host()).ok) return {};
        return "keys_scratch holds exactly the sorted keys, and values_scratch the sorted values: the last step "
               "wrote the scratch arrays, not keys_out and values_out";
    }
    return "keys_scratch holds exactly the sorted keys: the last step wrote the scratch array, not keys_out";
}

const char* const kMergeWroteItsInput = "the merge modified its input A or B: it may only write C (and the splits)";
const char* const kSortWroteItsInput =
    "the sort modified keys_in or values_in: it may only read them (and write the outputs and the scratch arrays)";

}  // namespace

template <class Key>
CheckResult check_merge(const MergeCall<Key>& merge, const MergeInputs<Key>& in, const std::vector<Key>& expected) {
    const HintScope hints(merge_hint_context<Key>());
    const std::size_t na = in.a.size(), nb = in.b.size();
    DeviceBuffer<Key> a, b;
    GuardedBuffer<Key> c(na + nb, "c");
    GuardedBuffer<std::size_t> splits(split_capacity(na + nb), "splits");
    a.upload(in.a);
    b.upload(in.b);
    c.poison();
    splits.poison();
    merge(a.data(), na, b.data(), nb, c.data(), splits.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    for (const CheckResult& guards : {c.check_guards(), splits.check_guards()})
        if (!guards.ok) return guards;
    CheckResult r = judge_merge(in, expected, c.to_host());
    if (!r.ok) return r;
    if (!compare_exact(in.a, a.to_host()).ok || !compare_exact(in.b, b.to_host()).ok)
        return CheckResult::fail(kMergeWroteItsInput);
    return r;
}

template <class Key, class Value>
CheckResult check_sort(const SortCall<Key, Value>& sort, const SortInputs<Key, Value>& in,
                       const SortInputs<Key, Value>& expected) {
    const HintScope hints(sort_hint_context<Key, Value>());
    DeviceSortArrays<Key, Value> arrays(in);
    arrays.poison_outputs();
    sort(arrays.args(), in.keys.size());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    CheckResult r = judge_sort(in, expected, arrays.output());
    if (!r.ok) {
        r.add_hint(answer_in_scratch(arrays, expected));
        return r;
    }
    if (!arrays.input_unchanged(in)) return CheckResult::fail(kSortWroteItsInput);
    return r;
}

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
    for (std::size_t k : ks) {
        const std::size_t want = co_rank(k, in.a.data(), na, in.b.data(), nb, LessOf<Key>{});
        const std::size_t got = co_rank_fn(k, in.a.data(), na, in.b.data(), nb);
        if (got == want) continue;
        CheckResult r = CheckResult::fail(
            format("co-rank of k=%zu with |A|=%zu, |B|=%zu returned %zu; the stable merge takes %zu element(s) of A "
                   "among its first %zu outputs",
                   k, na, nb, got, want, k));
        const std::size_t lo = k > nb ? k - nb : 0, hi = std::min(k, na);
        // The co-rank of the merge that lets B win ties: B's count among the first k of B merged with A.
        const std::size_t ties_to_b = k - co_rank(k, in.b.data(), nb, in.a.data(), na, LessOf<Key>{});
        if (got < lo || got > hi) {
            r.hint = format("the answer must lie in [max(0, k - |B|), min(k, |A|)] = [%zu, %zu]", lo, hi);
            if (static_cast<long long>(got) < 0)
                r.hint += format(" (%zu is %lld as a signed number: a std::size_t subtraction below 0 wraps around)", got,
                                 static_cast<long long>(got));
        } else if (got == ties_to_b) {
            r.hint = format("%zu is the co-rank of a merge that takes B's element on a tie: on equal keys A's element "
                            "goes first (A[i] goes before B[j] unless less(B[j], A[i]))",
                            got);
        } else if (got + 1 == want || got == want + 1) {
            r.hint = "off by one: check the tie rule (A[i] goes before B[j] unless less(B[j], A[i])) and the search's "
                     "bounds";
        }
        return r;
    }
    return CheckResult::pass(ks.size());
}

// ---- The implementations by name -------------------------------------------------------------

template <class Key>
std::vector<NamedMerge<Key>> merges_of(const std::string& impl) {
    using Less = LessOf<Key>;
    using Fn = void (*)(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*, Less);
    auto call = [](Fn fn) {
        return MergeCall<Key>([fn](const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c,
                                   std::size_t* splits) { fn(a, na, b, nb, c, splits, Less{}); });
    };
    if (impl == "student")
        return {{"basic", call(merge_basic_student<Key, Less>)}, {"tiled", call(merge_tiled_student<Key, Less>)}};
    if (impl == "basic") return {{"", call(merge_basic<Key, Less>)}};
    if (impl == "tiled") return {{"", call(merge_tiled<Key, Less>)}};
    if (impl == "circular") return {{"", call(merge_circular<Key, Less>)}};
    if (impl == "fast") return {{"", call(merge_fast<Key, Less>)}};
    if (impl == "cub") return {{"", call(merge_cub<Key, Less>)}};
    if (impl == "thrust") return {{"", call(merge_thrust<Key, Less>)}};
    throw std::logic_error("merge_sort: no merge named " + impl);
}

template <class Key, class Value>
SortCall<Key, Value> sort_of(const std::string& impl) {
    using Less = LessOf<Key>;
    using Fn = void (*)(const SortArgs<Key, Value>&, std::size_t, Less);
    auto call = [](Fn fn) {
        return SortCall<Key, Value>([fn](const SortArgs<Key, Value>& args, std::size_t n) { fn(args, n, Less{}); });
    };
    if (impl == "student") return call(sort_student<Key, Value, Less>);
    if (impl == "basic") return call(sort_basic<Key, Value, Less>);
    if (impl == "tiled") return call(sort_tiled<Key, Value, Less>);
    if (impl == "circular") return call(sort_circular<Key, Value, Less>);
    if (impl == "fast") return call(sort_fast<Key, Value, Less>);
    if (impl == "cub") return call(sort_cub<Key, Value, Less>);
    if (impl == "thrust")  // in place: the copy into the output is part of the call here
        return [](const SortArgs<Key, Value>& args, std::size_t n) {
            if (n == 0) return;
            PMPP_CUDA_CHECK(cudaMemcpyAsync(args.keys_out, args.keys_in, n * sizeof(Key), cudaMemcpyDeviceToDevice));
            if constexpr (kHasValues<Value>)
                PMPP_CUDA_CHECK(
                    cudaMemcpyAsync(args.values_out, args.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice));
            sort_thrust_in_place(args.keys_out, args.values_out, n, Less{});
        };
    throw std::logic_error("merge_sort: no sort named " + impl);
}

// ---- One case --------------------------------------------------------------------------------

namespace {

// "what: message", for a failure.
CheckResult prefixed(const std::string& what, CheckResult r) {
    if (!r.ok) r.message = what + ": " + r.message;
    return r;
}

template <class Key>
CheckResult check_merge_case(const CheckedImpl& impl, const Case& c, MergeShape shape, std::uint64_t seed) {
    const KeyCalls<Key>& calls = impl.of<Key>();
    const MergeInputs<Key> in = merge_inputs<Key>(c.n, c.dist, shape, seed);
    const std::vector<Key> expected = expected_merge(in);
    if (calls.co_rank) {
        const CheckResult r = check_co_rank<Key>(calls.co_rank, in);
        if (!r.ok) return impl.student_tasks ? prefixed("task 1, co_rank_student", r) : r;
    }
    for (const auto& merge : calls.merges) {
        CheckResult r = check_merge(merge.run, in, expected);
        if (r.ok) continue;
        if (!impl.student_tasks) return r;
        return prefixed(merge.label == "basic" ? "task 2, merge_basic_student" : "task 3, merge_tiled_student", r);
    }
    return CheckResult::pass(c.n);
}

template <class Key, class Value>
CheckResult check_sort_case(const CheckedImpl& impl, const Case& c, std::uint64_t seed) {
    const KeyCalls<Key>& calls = impl.of<Key>();
    const SortCall<Key, Value>* sort = nullptr;
    if constexpr (kHasValues<Value>) sort = &calls.sort_pairs;
    else sort = &calls.sort_keys;
    const SortInputs<Key, Value> in = sort_inputs<Key, Value>(c.n, c.dist, seed);
    const CheckResult r = check_sort(*sort, in, expected_sort(in));
    return impl.student_tasks ? prefixed("task 4, sort_student", r) : r;
}

template <class Key>
KeyCalls<Key> key_calls_of(const std::string& impl) {
    KeyCalls<Key> calls;
    if (impl == "student")
        calls.co_rank = [](std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb) {
            return co_rank_student(k, a, na, b, nb, LessOf<Key>{});
        };
    calls.merges = merges_of<Key>(impl);
    calls.sort_keys = sort_of<Key, NoValues>(impl);
    calls.sort_pairs = sort_of<Key, PairValue>(impl);
    return calls;
}

}  // namespace

CheckedImpl checked_impl(const std::string& impl) {
    CheckedImpl checked;
    checked.student_tasks = impl == "student";
    checked.u32 = key_calls_of<std::uint32_t>(impl);
    checked.i32 = key_calls_of<std::int32_t>(impl);
    checked.f32 = key_calls_of<float>(impl);
    checked.u64 = key_calls_of<std::uint64_t>(impl);
    checked.event = key_calls_of<Event>(impl);
    return checked;
}

CheckResult check_case(const CheckedImpl& impl, const Case& c, std::uint64_t seed) {
    const CaseSpec spec = decode(c.variant);
    return with_key_type(spec.type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        if (spec.op == Op::Merge) return check_merge_case<Key>(impl, c, spec.shape, seed);
        if (spec.pairs) return check_sort_case<Key, PairValue>(impl, c, seed);
        return check_sort_case<Key, NoValues>(impl, c, seed);
    });
}

CheckResult check_case(const std::string& impl, const Case& c, std::uint64_t seed) {
    return check_case(checked_impl(impl), c, seed);
}

// ---- The case list ---------------------------------------------------------------------------

namespace {

constexpr std::size_t kLarge = (std::size_t{1} << 26) + 3;
constexpr std::size_t kMedium = (std::size_t{1} << 20) + 5;
constexpr std::size_t p2(int k) { return std::size_t{1} << k; }

// The exercise's own options, with their defaults.
std::vector<ExtraOption> merge_sort_options() {
    return {
        {"op", "OP", "which operation to check and benchmark", "all", {"merge", "sort", "all"}},
        {"type", "TYPE", "key type of the benchmark (event: an 8-byte struct ordered by time)", "u32",
         {"u32", "i32", "f32", "u64", "event"}},
    };
}

// An exercise option's value: the command line's, or the default where the options hold no
// exercise options at all (a bench or cases function called directly, as
// pmpp::testing::expect_memory_estimates calls def.bench with a default pmpp::Options).
std::string option(const Options& opts, const std::string& name) {
    if (opts.extra.count(name)) return opts.get(name);
    for (const ExtraOption& o : merge_sort_options())
        if (o.name == name) return o.default_value;
    return opts.get(name);  // not an option of this exercise: get() says so
}

struct OpChoice {
    bool merge = true, sort = true;
};
OpChoice op_choice(const Options& opts) {
    const std::string op = option(opts, "op");
    if (op == "all") return {};
    if (op == "merge") return {true, false};
    if (op == "sort") return {false, true};
    throw UsageError("option --op: '" + op + "' is not one of merge, sort, all");
}

const std::vector<Distribution> kOtherDistributions = {Distribution::FewDistinct, Distribution::AllEqual,
                                                      Distribution::Sorted, Distribution::Reversed};

std::vector<Case> merge_sort_cases(const Options& opts) {
    const OpChoice op = op_choice(opts);
    std::vector<Case> cases;
    auto add = [&](const CaseSpec& spec, const std::vector<std::size_t>& sizes, Distribution dist) {
        for (std::size_t n : sizes) cases.push_back(make_case(spec, n, dist));
    };
    // The merge first: tasks 1-3 come before task 4, and so do their messages.
    if (op.merge) {
        // u32, A and B halves: every power-of-two edge of the total, and large sizes.
        std::vector<std::size_t> sizes = edge_sizes({1, 2, 5, 8, 10, 12, 16, 20});
        sizes.push_back(kMedium);
        sizes.push_back(kLarge);
        add({Op::Merge, KeyType::U32}, sizes, Distribution::Uniform);
        // u32 and events (whose ids show which side a tie came from): every shape, ties.
        for (KeyType type : {KeyType::U32, KeyType::Event}) {
            for (int s = 1; s < kMergeShapes; ++s)
                add({Op::Merge, type, false, static_cast<MergeShape>(s)}, {1, 2, 1000, 8705, kMedium},
                    Distribution::Uniform);
            for (Distribution d : {Distribution::FewDistinct, Distribution::AllEqual})
                add({Op::Merge, type}, {1000, 8705, kMedium}, d);
            for (MergeShape s : {MergeShape::AOne, MergeShape::BOne, MergeShape::Interleaved})
                add({Op::Merge, type, false, s}, {1000, 8705}, Distribution::AllEqual);
        }
        add({Op::Merge, KeyType::Event}, {0, 1, 3, 1023, 1025, p2(16) + 1}, Distribution::Uniform);
        for (KeyType type : {KeyType::I32, KeyType::F32, KeyType::U64}) {
            add({Op::Merge, type}, {1000, kMedium}, Distribution::Uniform);
            add({Op::Merge, type}, {p2(17) + 1}, Distribution::FewDistinct);
        }
    }
    if (op.sort) {
        // u32 keys: every power-of-two edge, the edges of the fast variant's tiles (merge 4352,
        // sort 17408; 8704 too, the sort tile of other shapes), large sizes; the adversarial
        // distributions at four sizes.
        const CaseSpec keys{Op::Sort, KeyType::U32, false};
        std::vector<std::size_t> sizes = edge_sizes({1, 2, 5, 8, 10, 12, 13, 14, 16, 17, 20});
        for (std::size_t n : {4351, 4352, 4353, 8703, 8704, 8705, 17407, 17408, 17409, 34817}) sizes.push_back(n);
        sizes.push_back(kMedium);
        sizes.push_back(kLarge);
        add(keys, sizes, Distribution::Uniform);
        for (Distribution d : kOtherDistributions) add(keys, {1000, p2(13) + 1, p2(17) + 1, kMedium}, d);
        // u32 keys with values (the fast variant's sort tile: 512 x 11 = 5632)
        const CaseSpec pairs{Op::Sort, KeyType::U32, true};
        add(pairs, {0, 1, 2, 31, 33, 1000, 5631, 5632, 5633, 8705, p2(16) + 1, kMedium, kLarge}, Distribution::Uniform);
        for (Distribution d : kOtherDistributions) add(pairs, {p2(13) + 1, kMedium}, d);
        // every other key type, with and without values
        for (KeyType type : {KeyType::I32, KeyType::F32, KeyType::U64, KeyType::Event})
            for (bool with_values : {false, true}) {
                const CaseSpec spec{Op::Sort, type, with_values};
                add(spec, {0, 1, 33, 4097, p2(17) + 1, kMedium}, Distribution::Uniform);
                for (Distribution d : kOtherDistributions) add(spec, {p2(17) + 1}, d);
            }
    }
    return cases;
}

// ---- The benchmark ---------------------------------------------------------------------------

// Inputs and expected outputs are the same for every implementation at one size: made once.
// An entry is found by its section and its type (the "kernel" section holds each key type's sort).
class BenchCache {
public:
    template <class T, class Make>
    const T& get(const std::string& section, std::size_t n, std::uint64_t seed, Make make) {
        if (n != n_ || seed != seed_) {
            entries_.clear();
            n_ = n;
            seed_ = seed;
        }
        const std::string what = section + " | " + typeid(T).name();
        for (auto& e : entries_)
            if (e.first == what) return *static_cast<const T*>(e.second.get());
        auto made = std::make_shared<T>(make());
        entries_.emplace_back(what, made);
        return *made;
    }
    void clear() {
        entries_.clear();
        n_ = 0;
        seed_ = 0;
    }

private:
    std::size_t n_ = 0;
    std::uint64_t seed_ = 0;
    std::vector<std::pair<std::string, std::shared_ptr<void>>> entries_;
};
BenchCache& bench_cache() {
    static BenchCache cache;
    return cache;
}

// The first run of time_checked's numbering is "timed run 1 of 1": say what that run was.
CheckResult as_probe_run(CheckResult r) {
    const std::string numbered = "timed run 1 of 1: ";
    if (r.message.rfind(numbered, 0) == 0) r.message.erase(0, numbered.size());
    r.message = "first run (timed once, to choose the number of repeats): " + r.message;
    return r;
}

std::string joined(const std::string& first, const std::string& second) {
    return first.empty() ? second : second.empty() ? first : first + "; " + second;
}

// A first timed run says how long a run takes. Variants that need a large part of a second
// (the basic sort at 2^28) get three repeats instead of twenty; one that needs more than a second
// is timed once (and the note says so). Every run, the first one too, is checked by call.verify:
// the first wrong one ends the timing and makes the row WRONG.
TimedResult time_variant(BenchContext& ctx, const TimedCall& call) {
    TimingOptions once = ctx.timing;
    once.warmup = 0;
    once.repeats = 1;
    TimedResult probe = time_checked(once, &ctx.flusher, call);
    if (!probe.check.ok) {
        probe.check = as_probe_run(probe.check);
        return probe;
    }
    if (probe.ms.median > 1000) {
        probe.note = joined("timed once: a run takes over a second", probe.note);
        return probe;
    }
    TimingOptions timing = ctx.timing;
    std::string note;
    if (probe.ms.median > 200 && timing.repeats > 3) {
        timing.repeats = 3;
        timing.warmup = 0;
        note = "timed 3 times: a run takes over 200 ms";
    }
    TimedResult result = time_checked(timing, &ctx.flusher, call);
    result.runs_checked += probe.runs_checked;
    result.note = joined(note, result.note);
    return result;
}

TimingOptions cpu_timing(const BenchContext& ctx, std::size_t n) {
    TimingOptions t = ctx.timing;
    t.repeats = n > p2(24) ? 1 : std::min(t.repeats, 3);
    t.warmup = 0;
    return t;
}

std::string host_threads_note() {
    return format("%u host threads, for scale", std::max(1u, std::thread::hardware_concurrency()));
}

// Every run's output is compared on the device, bit for bit, with the CPU's answer uploaded once
// per size (at 2^28 that saves copying gigabytes back after every run); the inputs are compared
// with a copy kept on the device, so a call cannot sort its input in place for the next one.
template <class Key, class Value>
struct SortBenchData {
    SortInputs<Key, Value> in, expected;
    DeviceBuffer<Key> input_keys, expected_keys;
    DeviceBuffer<Value> input_values, expected_values;
};

template <class Key, class Value>
const SortBenchData<Key, Value>& sort_bench_data(const std::string& section, std::size_t n, std::uint64_t seed) {
    return bench_cache().get<SortBenchData<Key, Value>>(section, n, seed, [&] {
        SortBenchData<Key, Value> d;
        d.in = sort_inputs<Key, Value>(n, Distribution::Uniform, seed);
        d.expected = expected_sort(d.in);
        d.input_keys.upload(d.in.keys);
        d.expected_keys.upload(d.expected.keys);
        if constexpr (kHasValues<Value>) {
            d.input_values.upload(d.in.values);
            d.expected_values.upload(d.expected.values);
        }
        return d;
    });
}

template <class Key, class Value>
Measurement sort_row(const std::string& section, std::size_t n) {
    Measurement m;
    m.section = section;
    m.bytes = 2.0 * static_cast<double>(n) * static_cast<double>(sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0));
    m.items = static_cast<double>(n);
    return m;
}

// The check of one benchmark run of a sort: guards of every array it may write, then keys_out
// (and values_out) against the expected output, then the inputs unchanged; all on the device.
template <class Key, class Value>
CheckResult verify_sort_run(const SortBenchData<Key, Value>& data, const DeviceSortArrays<Key, Value>& arrays) {
    const std::size_t n = arrays.keys_out.size();
    if (CheckResult guards = arrays.check_guards(); !guards.ok) return guards;
    if (CheckResult keys = compare_exact_on_device(data.expected_keys.data(), arrays.keys_out.data(), n); !keys.ok)
        return prefixed("keys_out", keys);
    std::size_t input_changed = count_differences_on_device(data.input_keys.data(), arrays.keys_in.data(), n);
    if constexpr (kHasValues<Value>) {
        CheckResult values = compare_exact_on_device(data.expected_values.data(), arrays.values_out.data(), n);
        if (!values.ok) return prefixed("values_out", values);
        input_changed += count_differences_on_device(data.input_values.data(), arrays.values_in.data(), n);
    }
    if (input_changed != 0) return CheckResult::fail(kSortWroteItsInput);
    return CheckResult::pass(n);
}

template <class Key>
struct MergeBenchData {
    MergeInputs<Key> in;
    std::vector<Key> expected;
    DeviceBuffer<Key> a, b, expected_c;  // a and b: pristine copies, to compare the merge's inputs with
};

template <class Key>
const MergeBenchData<Key>& merge_bench_data(const std::string& section, std::size_t n, std::uint64_t seed) {
    return bench_cache().get<MergeBenchData<Key>>(section, n, seed, [&] {
        MergeBenchData<Key> d;
        d.in = merge_inputs<Key>(n, Distribution::Uniform, MergeShape::Halves, seed);
        d.expected = expected_merge(d.in);
        d.a.upload(d.in.a);
        d.b.upload(d.in.b);
        d.expected_c.upload(d.expected);
        return d;
    });
}

template <class Key>
Measurement merge_row(const std::string& section, const std::string& label, std::size_t n) {
    Measurement m;
    m.section = section;
    m.label = label;
    m.bytes = 2.0 * static_cast<double>(n) * sizeof(Key);
    m.items = static_cast<double>(n);
    return m;
}

}  // namespace

template <class Key, class Value>
Measurement bench_sort_call(const SortCall<Key, Value>& sort, std::size_t n, BenchContext& ctx,
                            const std::string& section, SortStart start) {
    const SortBenchData<Key, Value>& data = sort_bench_data<Key, Value>(section, n, ctx.seed);
    Measurement m = sort_row<Key, Value>(section, n);
    DeviceSortArrays<Key, Value> arrays(data.in);
    const SortArgs<Key, Value> args = arrays.args();
    TimedCall call;
    call.prepare = [&] {
        if (start == SortStart::CopyOfInput)
            arrays.start_from_input();
        else
            arrays.poison_outputs();
    };
    call.run = [&] { sort(args, n); };
    call.verify = [&] {
        const HintScope hints(sort_hint_context<Key, Value>());
        return verify_sort_run(data, arrays);
    };
    m.record(time_variant(ctx, call));
    return m;
}

template <class Key>
Measurement bench_merge_call(const MergeCall<Key>& merge, std::size_t n, BenchContext& ctx,
                             const std::string& section, const std::string& label) {
    const MergeBenchData<Key>& data = merge_bench_data<Key>(section, n, ctx.seed);
    const std::size_t na = data.in.a.size(), nb = data.in.b.size();
    Measurement m = merge_row<Key>(section, label, n);
    DeviceBuffer<Key> a, b;
    a.upload(data.in.a);
    b.upload(data.in.b);
    GuardedBuffer<Key> c(n, "c");
    GuardedBuffer<std::size_t> splits(split_capacity(n), "splits");
    TimedCall call;
    call.prepare = [&] {
        c.poison();
        splits.poison();
    };
    call.run = [&] { merge(a.data(), na, b.data(), nb, c.data(), splits.data()); };
    call.verify = [&]() -> CheckResult {
        const HintScope hints(merge_hint_context<Key>());
        for (const CheckResult& guards : {c.check_guards(), splits.check_guards()})
            if (!guards.ok) return guards;
        if (CheckResult out = compare_exact_on_device(data.expected_c.data(), c.data(), n); !out.ok)
            return prefixed("c", out);
        const std::size_t input_changed = count_differences_on_device(data.a.data(), a.data(), na) +
                                          count_differences_on_device(data.b.data(), b.data(), nb);
        if (input_changed != 0) return CheckResult::fail(kMergeWroteItsInput);
        return CheckResult::pass(n);
    };
    m.record(time_variant(ctx, call));
    return m;
}

namespace {

template <class Key, class Value>
Measurement bench_sort(const Impl& impl, std::size_t n, BenchContext& ctx, const std::string& section) {
    using Less = LessOf<Key>;
    if (impl.kind == ImplKind::Cpu) {
        const SortBenchData<Key, Value>& data = sort_bench_data<Key, Value>(section, n, ctx.seed);
        Measurement m = sort_row<Key, Value>(section, n);
        SortInputs<Key, Value> copy;
        auto values = [&]() -> Value* {
            if constexpr (kHasValues<Value>) return copy.values.data();
            return nullptr;
        };
        m.ms = time_host(cpu_timing(ctx, n), [&] { sort_cpu(copy.keys.data(), values(), n, Less{}); },
                         [&] { copy = data.in; });
        m.record_check(judge_sort(data.in, data.expected, copy, false));
        m.note = host_threads_note();
        return m;
    }
    if (impl.name == "thrust")  // in place: the copy of the input into the outputs is untimed
        return bench_sort_call<Key, Value>(
            [](const SortArgs<Key, Value>& args, std::size_t count) {
                sort_thrust_in_place(args.keys_out, args.values_out, count, Less{});
            },
            n, ctx, section, SortStart::CopyOfInput);
    return bench_sort_call(sort_of<Key, Value>(impl.name), n, ctx, section, SortStart::PoisonedOutputs);
}

template <class Key>
std::vector<Measurement> bench_merge(const Impl& impl, std::size_t n, BenchContext& ctx, const std::string& section) {
    using Less = LessOf<Key>;
    std::vector<Measurement> rows;
    if (impl.kind == ImplKind::Cpu) {
        const MergeBenchData<Key>& data = merge_bench_data<Key>(section, n, ctx.seed);
        const std::size_t na = data.in.a.size(), nb = data.in.b.size();
        Measurement m = merge_row<Key>(section, "", n);
        std::vector<Key> c(n);
        m.ms = time_host(
            cpu_timing(ctx, n), [&] { merge_cpu(data.in.a.data(), na, data.in.b.data(), nb, c.data(), Less{}); },
            [&] { std::memset(static_cast<void*>(c.data()), 0xFF, n * sizeof(Key)); });
        m.record_check(judge_merge(data.in, data.expected, c, false));
        m.note = "one host thread";
        rows.push_back(m);
        return rows;
    }
    for (const auto& merge : merges_of<Key>(impl.name)) {
        const std::string label = merge.label.empty() ? "" : impl.name + " " + merge.label;
        rows.push_back(bench_merge_call<Key>(merge.run, n, ctx, section, label));
    }
    return rows;
}

std::vector<Measurement> merge_sort_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    const OpChoice op = op_choice(ctx.opts);
    KeyType type;
    const std::string type_name = option(ctx.opts, "type");
    if (!parse_key_type(type_name, type))
        throw UsageError("option --type: '" + type_name + "' is not one of u32, i32, f32, u64, event");
    return with_key_type(type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        const std::string name = to_string(type);
        std::vector<Measurement> rows;
        if (op.sort) {
            // "kernel" is the headline section: the sort of keys, whose student row is the key figure.
            rows.push_back(bench_sort<Key, NoValues>(impl, n, ctx, "kernel"));
            rows.push_back(bench_sort<Key, PairValue>(impl, n, ctx, "sort " + name + " keys with u32 values"));
        }
        if (op.merge) {
            for (auto& m : bench_merge<Key>(impl, n, ctx, "merge of two sorted arrays of n/2 " + name + " keys"))
                rows.push_back(m);
        }
        return rows;
    });
}

// ---- Memory of one size ----------------------------------------------------------------------
//
// What fits() compares with the device's free memory and the host's available memory before a
// size runs (ExerciseDef::device_bytes and host_bytes), counted buffer by buffer for the run's
// --type (K bytes a key: 4 for u32, i32 and f32, 8 for u64 and event; values are u32) and --op.
// In bytes a key at large n:
//                      device           host
//   --op all          12 K + 28.25     8 K + 16     (u32: 76.25 and 48; u64, event: 124.25 and 80)
//   --op sort         10 K + 28.25     6 K + 16     (u32: 68.25 and 40; u64, event: 108.25 and 64)
//   --op merge         4 K + 0.25      3 K          (u32: 16.25 and 12; u64, event: 32.25 and 24)
// plus 32 MiB on the device and 16 MiB on the host.
//
// The most alive at once is the benchmark's: with a sort, during thrust's row of the key-value
// sort (the cache of the size, the sort's arrays, and both libraries' temporaries, which they
// keep: CUB ran just before); with the merge alone, during a merge row. Every other row holds
// less, and so does any check case of the same size (the check does not follow --type: its
// largest cases are u32, at 2^26 + 3; its 8-byte keys come at 2^20 + 5 at most, where the event
// key-value sort's 36.25 n and the libraries' 32 n are --type u32 --op sort's 68.25 n, and the
// event merge's 16.25 n is --op merge's, each with 32 MiB to spare).
//
// Memory kept from an earlier size or from the check (thrust's blocks, CUB's block, the bench
// cache until this size's first entry replaces it) is already missing from what fits() finds
// free; the terms count what this size allocates, CUB's growing block at its full size.

constexpr double kValueBytes = sizeof(PairValue);
constexpr double kSplitBytes = sizeof(std::size_t);

// What the estimates depend on: the size of a key (--type) and the operations run (--op).
struct Footprint {
    double key = 4;
    bool sort = true, merge = true;
};

Footprint footprint(const Options& opts) {
    KeyType type;
    const std::string type_name = option(opts, "type");
    if (!parse_key_type(type_name, type))
        throw UsageError("option --type: '" + type_name + "' is not one of u32, i32, f32, u64, event");
    Footprint f;
    f.key = with_key_type(type, [](auto tag) { return static_cast<double>(sizeof(typename decltype(tag)::type)); });
    const OpChoice op = op_choice(opts);
    f.sort = op.sort;
    f.merge = op.merge;
    return f;
}

// The two guard zones of a GuardedBuffer of elements of `bytes` bytes (device_buffer.h's
// guard_bytes: 1024 elements, at least 256 bytes, in whole 256 bytes).
double guard_zones(double bytes) { return 2.0 * std::ceil(std::max(256.0, 1024.0 * bytes) / 256.0) * 256.0; }

// The merge partitions of a library's merge sort of n keys of `key` bytes (CUB's, which
// thrust::sort calls too): one offset of at most 8 bytes per tile of at least 256 x 11 keys of 4
// bytes (fewer keys of 8 bytes: in proportion, at most), and four allocations aligned to 256 bytes.
double library_partitions(double n, double key) { return 8.0 * (n * key / (256.0 * 11.0 * 4.0) + 2.0) + 4.0 * 256.0; }

double merge_sort_device_bytes(std::size_t count, const Options& opts) {
    const Footprint f = footprint(opts);
    const double n = static_cast<double>(count), K = f.key, V = kValueBytes;
    const double splits = kSplitBytes * static_cast<double>(split_capacity(count));  // 8 bytes per 32 keys: 0.25 n
    // The bench cache (BenchCache, one size at a time): each section's inputs and the CPU's answer
    // on the device, every section of --op held while every implementation runs.
    const double cached_keys_sort = f.sort ? 2 * K * n : 0;          // pristine input keys, expected keys: 2 K n
    const double cached_pairs_sort = f.sort ? 2 * (K + V) * n : 0;   // the same with values: 2 (K + V) n
    const double cached_merge = f.merge ? 2 * K * n : 0;             // pristine A and B, expected C: 2 K n
    double row = 0;
    if (f.sort) {
        // The key-value sort's arrays (DeviceSortArrays): keys_in, keys_out, keys_scratch and the
        // values' three, 3 (K + V) n, and the splits. (The keys-only sort's hold 3 K n and the
        // splits, the merge's a, b, c and splits 2 K n + 0.25 n: less.) Their guard zones:
        // keys_out, keys_scratch, values_out, values_scratch and splits.
        const double sort_arrays = 3 * (K + V) * n + splits;
        const double sort_guards = 2 * guard_zones(K) + 2 * guard_zones(V) + guard_zones(kSplitBytes);
        // CUB's temporary storage (merge_sort_cub.cu: one static block, grown when a call needs
        // more, kept to the end): the size's largest request, SortPairsCopy's copy of the keys and
        // of the values and its partitions: (K + V) n.
        const double cub_storage = (K + V) * n + library_partitions(n, K);
        // Thrust's temporaries (thrust::sort runs CUB's merge sort in place), from the course's
        // caching allocator (common/caching_allocator.h), which keeps every block: the keys-only
        // sort's (a copy of the keys, K n), then the key-value sort's ((K + V) n), which the first
        // is too small for. The merge's partitions reuse one of them.
        const double thrust_blocks = K * n + (K + V) * n + 2 * library_partitions(n, K);
        row = sort_arrays + sort_guards + cub_storage + thrust_blocks;  // (6 K + 5 V) n + 0.25 n
    } else {
        // --op merge: a merge row's a and b (K n), c (K n) and splits, with the guard zones of c
        // and the splits; the libraries' temporaries are the merge's partitions only (small).
        row = 2 * K * n + splits + guard_zones(K) + guard_zones(kSplitBytes);
    }
    // Small buffers (the device checks' counters, the empty value arrays' guards, the libraries'
    // merge partitions) and the rounding of the ~20 large ones to cudaMalloc's 2 MiB pages.
    const double small = 32 * kMiB;
    return cached_keys_sort + cached_pairs_sort + cached_merge + row + small;
}

double merge_sort_host_bytes(std::size_t count, const Options& opts) {
    const Footprint f = footprint(opts);
    const double n = static_cast<double>(count), K = f.key, V = kValueBytes;
    // The bench cache's host side: each section's input and the CPU's answer (as on the device:
    // keys-only sort 2 K n, key-value sort 2 (K + V) n, merge 2 K n).
    const double cached = ((f.sort ? 2 * K + 2 * (K + V) : 0) + (f.merge ? 2 * K : 0)) * n;
    // The CPU reference's largest row. With a sort, the key-value sort's: the copy of the input it
    // sorts ((K + V) n) and sort_cpu's scratch keys and values ((K + V) n). With the merge alone,
    // the merge's output (K n). While the cache is made less is held: beside the entries already
    // made, a merge's inputs take at most 2.5 K n (the keys drawn, dealt into A and B, one half
    // sorted with its scratch), the key-value sort's 3 (K + V) n (input, answer, the scratch of
    // the answer's sort; for events 4 n more while their times are drawn, freed before).
    const double cpu_row = f.sort ? 2 * (K + V) * n : K * n;
    // The C++ and CUDA libraries' own, the report's strings, the sort's threads.
    const double small = 16 * kMiB;
    return cached + cpu_row + small;
}

}  // namespace

void clear_bench_cache() { bench_cache().clear(); }

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "07_merge_sort";
    def.title = "parallel merge with co-rank, and a stable merge sort for any key type (PMPP chapters 12-13)";
    def.impls = {
        {"student", ImplKind::Student, "your merge_sort_student.cu: co-rank, basic and tiled merges, the sort"},
        {"basic", ImplKind::Reference, "PMPP 12.5 basic merge; sort: one merge per block per pass (merge_sort_1_basic.cu)"},
        {"tiled", ImplKind::Reference,
         "PMPP 12.6 tiled merge; sort: shared-memory tiles, passes split by co-rank (merge_sort_2_tiled.cu)"},
        {"circular", ImplKind::Reference, "PMPP 12.7 circular-buffer tiles in the same passes (merge_sort_3_circular.cu)"},
        {"fast", ImplKind::Reference,
         "merge path: partition kernel, one tile per block, 17 items per thread, larger sorted tiles "
         "(merge_sort_4_fast.cu)"},
        {"cub", ImplKind::Library, "cub::DeviceMerge (thrust::merge before CUDA 12.8), cub::DeviceMergeSort (merge_sort_cub.cu)"},
        {"thrust", ImplKind::Library, "thrust::merge, thrust::sort with the comparator (merge_sort_thrust.cu)"},
        {"cpu", ImplKind::Cpu, "sequential merge; bottom-up merge sort on every host thread (merge_sort_cpu.cpp)"},
    };
    def.baseline = "cub";
    def.items_unit = "Gkeys/s";
    def.extra_options = merge_sort_options();
    def.max_size = std::size_t{1} << 31;
    def.bench_sizes = {p2(20), p2(24), p2(28)};
    def.cases = merge_sort_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl.name, c, seed);
    };
    def.bench = merge_sort_bench;
    // The benchmark of the run's --type and --op at size n, counted above (--type u32, --op all:
    // 76.25 n + 32 MiB on the device, 48 n + 16 MiB on the host; at 2^28, 19.1 GiB and 12.0 GiB).
    def.device_bytes = [](std::size_t n, const Options& opts) { return merge_sort_device_bytes(n, opts); };
    def.host_bytes = [](std::size_t n, const Options& opts) { return merge_sort_host_bytes(n, opts); };
    return def;
}

// ---- Instantiations for the tests ------------------------------------------------------------

#define INSTANTIATE_HARNESS_KEY(Key, Less)                                                                        \
    template MergeInputs<Key> merge_inputs<Key>(std::size_t, Distribution, MergeShape, std::uint64_t);            \
    template std::vector<Key> expected_merge<Key>(const MergeInputs<Key>&);                                        \
    template CheckResult judge_merge<Key>(const MergeInputs<Key>&, const std::vector<Key>&, const std::vector<Key>&, \
                                          bool);                                                                  \
    template CheckResult check_merge<Key>(const MergeCall<Key>&, const MergeInputs<Key>&, const std::vector<Key>&); \
    template CheckResult check_co_rank<Key>(const CoRankCall<Key>&, const MergeInputs<Key>&);                      \
    template std::vector<NamedMerge<Key>> merges_of<Key>(const std::string&);                                      \
    template Measurement bench_merge_call<Key>(const MergeCall<Key>&, std::size_t, BenchContext&, const std::string&, \
                                               const std::string&);                                               \
    INSTANTIATE_HARNESS_SORT(Key, NoValues)                                                                       \
    INSTANTIATE_HARNESS_SORT(Key, PairValue)
#define INSTANTIATE_HARNESS_SORT(Key, Value)                                                                          \
    template SortInputs<Key, Value> sort_inputs<Key, Value>(std::size_t, Distribution, std::uint64_t);                \
    template SortInputs<Key, Value> expected_sort<Key, Value>(const SortInputs<Key, Value>&);                          \
    template CheckResult judge_sort<Key, Value>(const SortInputs<Key, Value>&, const SortInputs<Key, Value>&,          \
                                                const SortInputs<Key, Value>&, bool);                                 \
    template CheckResult check_sort<Key, Value>(const SortCall<Key, Value>&, const SortInputs<Key, Value>&,            \
                                                const SortInputs<Key, Value>&);                                       \
    template SortCall<Key, Value> sort_of<Key, Value>(const std::string&);                                            \
    template Measurement bench_sort_call<Key, Value>(const SortCall<Key, Value>&, std::size_t, BenchContext&,         \
                                                     const std::string&, SortStart);
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_HARNESS_KEY)
#undef INSTANTIATE_HARNESS_KEY
#undef INSTANTIATE_HARNESS_SORT

}  // namespace merge_sort
