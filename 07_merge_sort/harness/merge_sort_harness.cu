// merge_sort_harness.cu: exercise 07's options, cases, the check of one case, the memory of one size
// and the table of variants (merge_sort_judge.cu and merge_sort_runs.cu do the work).
#include "merge_sort_harness.h"

#include "common/check.h"
#include "common/device_buffer.h"
#include "common/type_dispatch.h"

namespace merge_sort {

using namespace pmpp;

// ---- The options -----------------------------------------------------------------------------

// The key types in KeyType's order, for with_type<Keys>(type, ...), and their names.
using Keys = TypeList<std::uint32_t, std::int32_t, float, std::uint64_t, Event>;
constexpr KeyType kKeyTypes[] = {KeyType::U32, KeyType::I32, KeyType::F32, KeyType::U64, KeyType::Event};
constexpr const char* kKeyTypeNames[] = {"u32", "i32", "f32", "u64", "event"};
const char* to_string(KeyType type) { return kKeyTypeNames[static_cast<int>(type)]; }

namespace {

constexpr std::size_t kLarge = (std::size_t{1} << 26) + 3;
constexpr std::size_t kMedium = (std::size_t{1} << 20) + 5;
constexpr std::size_t p2(int k) { return std::size_t{1} << k; }

const std::vector<ExtraOption> kOptions = {
    {"op", "OP", "which operation to check and benchmark", "all", {"merge", "sort", "all"}},
    {"type",
     "TYPE",
     "key type of the benchmark (event: an 8-byte struct ordered by time)",
     "u32",
     {"u32", "i32", "f32", "u64", "event"}},
};

// An exercise option's value: the command line's, or the default where the options hold no
// exercise options at all (a bench or cases function called directly, as
// pmpp::testing::expect_memory_estimates calls def.bench with a default pmpp::Options).
std::string option(const Options& opts, const std::string& name) {
    if (opts.extra.count(name)) return opts.get(name);
    for (const ExtraOption& o : kOptions)
        if (o.name == name) return o.default_value;
    return opts.get(name);  // not an option of this exercise: get() says so
}

struct OpChoice {
    bool merge = true, sort = true;
};
OpChoice op_choice(const Options& opts) {
    const std::string op = option(opts, "op");
    if (op != "all" && op != "merge" && op != "sort")
        throw UsageError("option --op: '" + op + "' is not one of merge, sort, all");
    return {op != "sort", op != "merge"};
}

KeyType key_type(const Options& opts) {
    KeyType type;
    const std::string name = option(opts, "type");
    if (!parse_named(name, kKeyTypes, type))
        throw UsageError("option --type: '" + name + "' is not one of u32, i32, f32, u64, event");
    return type;
}

// ---- The case list ---------------------------------------------------------------------------

const std::vector<Distribution> kOtherDistributions = {Distribution::FewDistinct, Distribution::AllEqual,
                                                       Distribution::Sorted, Distribution::Reversed};

std::vector<MergeSortCase> merge_sort_cases(const Options& opts) {
    const OpChoice op = op_choice(opts);
    std::vector<MergeSortCase> cases;
    auto add = [&](const MergeSortSpec& spec, const std::vector<std::size_t>& sizes, Distribution dist) {
        for (std::size_t n : sizes) cases.push_back({n, dist, spec});
    };
    // The merge first: tasks 1-3 come before task 4, and so do their messages.
    if (op.merge) {
        // u32, A and B halves: every power-of-two edge of the total, and large sizes.
        std::vector<std::size_t> sizes = edge_sizes({1, 2, 5, 8, 10, 12, 16, 20});
        sizes.insert(sizes.end(), {kMedium, kLarge});
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
        // u32 keys: every power-of-two edge (among them the network variant's tiles, 8192 and
        // 16384), the edges of the fast variant's tiles (merge 4352, sort 17408; 8704 too, the
        // sort tile of other shapes), large sizes; the adversarial distributions at four sizes.
        const MergeSortSpec keys{Op::Sort, KeyType::U32, false};
        std::vector<std::size_t> sizes = edge_sizes({1, 2, 5, 8, 10, 12, 13, 14, 16, 17, 20});
        sizes.insert(sizes.end(), {4351, 4352, 4353, 8703, 8704, 8705, 17407, 17408, 17409, 34817, kMedium, kLarge});
        add(keys, sizes, Distribution::Uniform);
        for (Distribution d : kOtherDistributions) add(keys, {1000, p2(13) + 1, p2(17) + 1, kMedium}, d);
        // u32 keys with values (the fast variant's sort tile: 512 x 11 = 5632)
        const MergeSortSpec pairs{Op::Sort, KeyType::U32, true};
        add(pairs, {0, 1, 2, 31, 33, 1000, 5631, 5632, 5633, 8705, p2(16) + 1, kMedium, kLarge}, Distribution::Uniform);
        for (Distribution d : kOtherDistributions) add(pairs, {p2(13) + 1, kMedium}, d);
        // every other key type, with and without values
        for (KeyType type : {KeyType::I32, KeyType::F32, KeyType::U64, KeyType::Event})
            for (bool with_values : {false, true}) {
                const MergeSortSpec spec{Op::Sort, type, with_values};
                add(spec, {0, 1, 33, 4097, p2(17) + 1, kMedium}, Distribution::Uniform);
                for (Distribution d : kOtherDistributions) add(spec, {p2(17) + 1}, d);
            }
    }
    return cases;
}

// ---- The check of one case ------------------------------------------------------------------

// One case's problem (MergeSortProblem::typed): its inputs and the CPU's answer.
template <class Key>
struct MergeProblem {
    MergeInputs<Key> in;
    std::vector<Key> expected;
};
template <class Key, class Value>
struct SortProblem {
    SortInputs<Key, Value> in, expected;
};

MergeSortProblem make_problem(const MergeSortCase& c, std::uint64_t seed, const Options&) {
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

// A merge case checks the co-rank first (the student's), then each merge; a sort case the sort of
// its value type. The student's messages name the task.
CheckResult check(const MergeSortExercise::Row& v, const MergeSortProblem& p, const MergeSortCase& c, const Options&) {
    const MergeSortFn& fn = v.fn;
    auto task = [&](const char* name, const CheckResult& r) { return fn.student_tasks ? prefixed(name, r) : r; };
    return with_type<Keys>(c.spec.type, [&](auto tag) {
        using Key = typename decltype(tag)::type;
        if (c.spec.op == Op::Sort) {
            auto sort = [&](auto value_tag) {
                using Value = typename decltype(value_tag)::type;
                const auto& problem = *static_cast<const SortProblem<Key, Value>*>(p.typed.get());
                return task("task 4, sort_student",
                            check_sort(fn.sort<Key, Value>(), problem.in, problem.expected, fn.sort_start));
            };
            return c.spec.pairs ? sort(TypeTag<PairValue>{}) : sort(TypeTag<NoValues>{});
        }
        const auto& problem = *static_cast<const MergeProblem<Key>*>(p.typed.get());
        const KeyCalls<Key>& calls = fn.of<Key>();
        if (calls.co_rank) {
            const CheckResult r = check_co_rank<Key>(calls.co_rank, problem.in);
            if (!r.ok) return task("task 1, co_rank_student", r);
        }
        for (const auto& merge : calls.merges)
            if (CheckResult r = check_merge(merge.run, problem.in, problem.expected); !r.ok)
                return task(merge.label == "basic" ? "task 2, merge_basic_student" : "task 3, merge_tiled_student", r);
        return CheckResult::pass(c.n);
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
// sort (the size's problem, the sort's arrays, and both libraries' temporaries, which they
// keep: CUB ran just before); with the merge alone, during a merge row. Every other row holds
// less, and so does any check case of the same size (the check does not follow --type: its
// largest cases are u32, at 2^26 + 3; its 8-byte keys come at 2^20 + 5 at most, where the event
// key-value sort's 36.25 n and the libraries' 32 n are --type u32 --op sort's 68.25 n, and the
// event merge's 16.25 n is --op merge's, each with 32 MiB to spare).
//
// Memory kept from an earlier size or from the check (thrust's blocks, CUB's block) is already
// missing from what fits() finds free; the terms count what this size allocates (its problem,
// freed before the next size's is made), CUB's growing block at its full size.

// What the estimates depend on: a key's bytes and its guard zones' (--type), the operations (--op).
struct Footprint {
    double key, key_guards;
    OpChoice op;
};
Footprint footprint(const Options& opts) {
    return with_type<Keys>(key_type(opts), [&](auto tag) {
        using Key = typename decltype(tag)::type;
        return Footprint{static_cast<double>(sizeof(Key)), 2.0 * guard_bytes<Key>(), op_choice(opts)};
    });
}
constexpr double kValueBytes = sizeof(PairValue);
constexpr double kValueGuards = 2.0 * guard_bytes<PairValue>(), kSplitGuards = 2.0 * guard_bytes<std::size_t>();

// The merge partitions of a library's merge sort of n keys of `key` bytes (CUB's, which
// thrust::sort calls too): one offset of at most 8 bytes per tile of at least 256 x 11 keys of 4
// bytes (fewer keys of 8 bytes: in proportion, at most), and four allocations aligned to 256 bytes.
double library_partitions(double n, double key) { return 8.0 * (n * key / (256.0 * 11.0 * 4.0) + 2.0) + 4.0 * 256.0; }

double merge_sort_device_bytes(std::size_t count, const Options& opts) {
    const Footprint f = footprint(opts);
    const double n = static_cast<double>(count), K = f.key, V = kValueBytes;
    const double splits =
        sizeof(std::size_t) * static_cast<double>(split_capacity(count));  // 8 bytes per 32 keys: 0.25 n
    // The size's problem (MergeSortBenchProblem): each section's inputs and the CPU's answer on
    // the device, every section of --op held while every implementation runs.
    const double cached_keys_sort = f.op.sort ? 2 * K * n : 0;  // pristine input keys, expected keys: 2 K n
    const double cached_pairs_sort = f.op.sort ? 2 * (K + V) * n : 0;  // the same with values: 2 (K + V) n
    const double cached_merge = f.op.merge ? 2 * K * n : 0;  // pristine A and B, expected C: 2 K n
    double row = 0;
    if (f.op.sort) {
        // The key-value sort's arrays (DeviceSortArrays): keys_in, keys_out, keys_scratch and the
        // values' three, 3 (K + V) n, and the splits. (The keys-only sort's hold 3 K n and the
        // splits, the merge's a, b, c and splits 2 K n + 0.25 n: less.) Their guard zones:
        // keys_out, keys_scratch, values_out, values_scratch and splits.
        const double sort_arrays = 3 * (K + V) * n + splits;
        const double sort_guards = 2 * f.key_guards + 2 * kValueGuards + kSplitGuards;
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
        row = 2 * K * n + splits + f.key_guards + kSplitGuards;
    }
    // Small buffers (the device checks' counters, the empty value arrays' guards, the libraries'
    // merge partitions) and the rounding of the ~20 large ones to cudaMalloc's 2 MiB pages.
    const double small = 32 * kMiB;
    return cached_keys_sort + cached_pairs_sort + cached_merge + row + small;
}

double merge_sort_host_bytes(std::size_t count, const Options& opts) {
    const Footprint f = footprint(opts);
    const double n = static_cast<double>(count), K = f.key, V = kValueBytes;
    // The problem's host side: each section's input and the CPU's answer (as on the device:
    // keys-only sort 2 K n, key-value sort 2 (K + V) n, merge 2 K n).
    const double cached = ((f.op.sort ? 2 * K + 2 * (K + V) : 0) + (f.op.merge ? 2 * K : 0)) * n;
    // The CPU reference's largest row. With a sort, the key-value sort's: the copy of the input it
    // sorts ((K + V) n) and sort_cpu's scratch keys and values ((K + V) n). With the merge alone,
    // the merge's output (K n). While the problem is made less is held: beside the entries already
    // made, a merge's inputs take at most 2.5 K n (the keys drawn, dealt into A and B, one half
    // sorted with its scratch), the key-value sort's 3 (K + V) n (input, answer, the scratch of
    // the answer's sort; for events 4 n more while their times are drawn, freed before).
    const double cpu_row = f.op.sort ? 2 * (K + V) * n : K * n;
    // The C++ and CUDA libraries' own, the report's strings, the sort's threads.
    const double small = 16 * kMiB;
    return cached + cpu_row + small;
}

// ---- The variants ----------------------------------------------------------------------------

// A variant's calls for every key type, make(TypeTag<Key>{}) giving each type's.
template <class Make>
MergeSortFn calls_for_every_key(Make make, SortStart start = SortStart::PoisonedOutputs) {
    MergeSortFn fn;
    fn.sort_start = start;
    fn.for_each_key([&](auto& calls) { calls = make(TypeTag<typename std::decay_t<decltype(calls)>::KeyType>{}); });
    return fn;
}

// The calls of merge_sort.h's functions: fn(..., LessOf<Key>{}).
template <class Key>
NamedMerge<Key> merge_call(void (*fn)(const Key*, std::size_t, const Key*, std::size_t, Key*, std::size_t*,
                                      LessOf<Key>),
                           const std::string& label = "") {
    return {label, [fn](const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t* splits) {
                fn(a, na, b, nb, c, splits, LessOf<Key>{});
            }};
}
template <class Key, class Value>
SortCall<Key, Value> sort_call(void (*fn)(const SortArgs<Key, Value>&, std::size_t, LessOf<Key>)) {
    return [fn](const SortArgs<Key, Value>& args, std::size_t n) { fn(args, n, LessOf<Key>{}); };
}
// A variant whose merge and sort are the function templates merge_fn<Key, Less> and
// sort_fn<Key, Value, Less>.
#define MERGE_SORT_CALLS(merge_fn, sort_fn)                                             \
    calls_for_every_key([](auto tag) {                                                  \
        using Key = typename decltype(tag)::type;                                       \
        using Less = LessOf<Key>;                                                       \
        return KeyCalls<Key>{{},                                                        \
                             {merge_call<Key>(merge_fn<Key, Less>)},                    \
                             sort_call<Key, NoValues>(sort_fn<Key, NoValues, Less>),    \
                             sort_call<Key, PairValue>(sort_fn<Key, PairValue, Less>)}; \
    })

// The student's: the co-rank, two merges ("basic", then "tiled") and the sort.
MergeSortFn student_calls() {
    MergeSortFn fn = calls_for_every_key([](auto tag) {
        using Key = typename decltype(tag)::type;
        using Less = LessOf<Key>;
        return KeyCalls<Key>{[](std::size_t k, const Key* a, std::size_t na, const Key* b, std::size_t nb) {
                                 return co_rank_student(k, a, na, b, nb, Less{});
                             },
                             {merge_call<Key>(merge_basic_student<Key, Less>, "basic"),
                              merge_call<Key>(merge_tiled_student<Key, Less>, "tiled")},
                             sort_call<Key, NoValues>(sort_student<Key, NoValues, Less>),
                             sort_call<Key, PairValue>(sort_student<Key, PairValue, Less>)};
    });
    fn.student_tasks = true;
    return fn;
}

// Thrust's sort works in place: it sorts keys_out (and values_out), which hold a copy of the input.
MergeSortFn thrust_calls() {
    return calls_for_every_key(
        [](auto tag) {
            using Key = typename decltype(tag)::type;
            auto in_place = [](const auto& args, std::size_t n) {
                sort_thrust_in_place(args.keys_out, args.values_out, n, LessOf<Key>{});
            };
            return KeyCalls<Key>{{}, {merge_call<Key>(merge_thrust<Key, LessOf<Key>>)}, in_place, in_place};
        },
        SortStart::CopyOfInput);
}

MergeSortExercise make_exercise() {
    MergeSortExercise ex;
    ex.id = "07_merge_sort";
    ex.title = "parallel merge with co-rank, and a stable merge sort for any key type (PMPP chapters 12-13)";
    ex.variants = {
        {"student", ImplKind::Student, "your merge_sort_student.cu: co-rank, basic and tiled merges, the sort",
         student_calls()},
        {"basic", ImplKind::Reference,
         "PMPP 12.5 basic merge; sort: one merge per block per pass (merge_sort_1_basic.cu)",
         MERGE_SORT_CALLS(merge_basic, sort_basic)},
        {"tiled", ImplKind::Reference,
         "PMPP 12.6 tiled merge; sort: shared-memory tiles, passes split by co-rank (merge_sort_2_tiled.cu)",
         MERGE_SORT_CALLS(merge_tiled, sort_tiled)},
        {"circular", ImplKind::Reference,
         "PMPP 12.7 circular-buffer tiles in the same passes (merge_sort_3_circular.cu)",
         MERGE_SORT_CALLS(merge_circular, sort_circular)},
        {"fast", ImplKind::Reference,
         "merge path: partition kernel, one tile per block, 17 items per thread, larger sorted tiles "
         "(merge_sort_4_fast.cu)",
         MERGE_SORT_CALLS(merge_fast, sort_fast)},
        {"network", ImplKind::Reference,
         "network tile sort for 4-byte keys (05's bitonic network in registers); merge passes of variant 4 "
         "(merge_sort_5_network.cu)",
         MERGE_SORT_CALLS(merge_network, sort_network)},
        {"cub", ImplKind::Library,
         "cub::DeviceMerge (thrust::merge before CUDA 12.8), cub::DeviceMergeSort (merge_sort_cub.cu)",
         MERGE_SORT_CALLS(merge_cub, sort_cub)},
        {"thrust", ImplKind::Library, "thrust::merge, thrust::sort with the comparator (merge_sort_thrust.cu)",
         thrust_calls()},
        {"cpu",
         ImplKind::Cpu,
         "sequential merge; bottom-up merge sort on every host thread (harness/merge_sort_cpu.cpp)",
         {}},
    };
    ex.baseline = "cub";
    ex.items_unit = "Gkeys/s";
    ex.extra_options = kOptions;
    ex.max_size = std::size_t{1} << 31;
    ex.bench_sizes = {p2(20), p2(24), p2(28)};
    ex.cases = merge_sort_cases;
    // "merge u32 [n/2 + n/2] uniform", "sort event keys + u32 values few-distinct"
    ex.describe = [](const MergeSortCase& c) {
        const MergeSortSpec& s = c.spec;
        const std::string what =
            s.op == Op::Sort ? std::string("sort ") + to_string(s.type) + (s.pairs ? " keys + u32 values" : " keys")
                             : std::string("merge ") + to_string(s.type) + " [" + to_string(s.shape) + "]";
        return what + " " + to_string(c.dist);
    };
    ex.make_problem = make_problem;
    ex.check = check;
    ex.make_bench_problem = [](std::size_t, BenchContext&) { return MergeSortBenchProblem{}; };
    ex.bench = [](const MergeSortExercise::Row& v, MergeSortBenchProblem& problem, std::size_t n, BenchContext& ctx) {
        const OpChoice op = op_choice(ctx.opts);
        const KeyType type = key_type(ctx.opts);
        return with_type<Keys>(type, [&](auto tag) {
            return bench_variant<typename decltype(tag)::type>(v, problem, n, ctx, to_string(type), op.sort, op.merge);
        });
    };
    // The benchmark of the run's --type and --op at size n, counted above (--type u32, --op all:
    // 76.25 n + 32 MiB on the device, 48 n + 16 MiB on the host; at 2^28, 19.1 GiB and 12.0 GiB).
    ex.device_bytes = merge_sort_device_bytes;
    ex.host_bytes = merge_sort_host_bytes;
    return ex;
}

#undef MERGE_SORT_CALLS

}  // namespace

const MergeSortExercise& exercise() {
    static const MergeSortExercise ex = make_exercise();
    return ex;
}

}  // namespace merge_sort
