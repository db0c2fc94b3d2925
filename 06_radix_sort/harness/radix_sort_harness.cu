// radix_sort_harness.cu: exercise 06's table of variants and the memory one size holds; the
// cases are in radix_sort_cases.cu, the check in radix_sort_check.cu, the benchmark in
// radix_sort_bench.cu.
#include "radix_sort_harness.h"

#include "common/device_buffer.h"

#include <algorithm>
#include <set>
#include <utility>

namespace radix_sort {

using namespace pmpp;

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

// The kinds the check of this run sorts n keys of (the runner's selected cases): those of the
// list's cases of n keys (none above --max-size); with --size N, those or, when that leaves none,
// every kind at N. Empty when the check sorts no n keys.
std::set<SortKind> kinds_checked_at(std::size_t n, const Options& opts) {
    if (!opts.runs_check() || (opts.size && n != *opts.size)) return {};
    std::set<SortKind> kinds;
    if (!(opts.max_size && n > *opts.max_size))
        for (const SortCase& c : radix_sort_cases())
            if (c.n == n) kinds.insert({c.spec.type, c.spec.pairs});
    if (kinds.empty() && opts.size)
        for (KeyType type : kKeyTypes)
            for (bool pairs : {false, true}) kinds.insert({type, pairs});
    return kinds;
}

// The largest workspace a variant asks for at n: the variants run one at a time, and each one's
// workspace function is what the harness allocates for it (CUB's is CUB's own size query, on
// this GPU; the student's is the student's function). Needs the GPU, as fits() has.
template <class Key>
double largest_workspace(std::size_t n, bool pairs) {
    std::size_t most = 0;
    for (const auto& v : exercise().variants)
        if (v.kind != ImplKind::Cpu) most = std::max(most, v.fn.get<Key>().workspace_bytes(n, pairs));
    return static_cast<double>(most);
}

// One sort's arrays on the device (DeviceSort), what the check of one case holds (check_sort).
template <class Key>
double sort_device_bytes(std::size_t n, bool pairs) {
    const double N = static_cast<double>(n);
    const double keys_in = committed_device_bytes(sizeof(Key) * N);  // the input's keys
    const double values_in = pairs ? committed_device_bytes(sizeof(Value) * N) : 0;  // and values
    // The outputs between guard zones (values_out has its zones even for keys alone), and the
    // largest workspace between its own.
    const double keys_out = committed_device_bytes(sizeof(Key) * N + 2.0 * guard_bytes<Key>());
    const double values_out = committed_device_bytes((pairs ? sizeof(Value) * N : 0) + 2.0 * guard_bytes<Value>());
    const double workspace =
        committed_device_bytes(largest_workspace<Key>(n, pairs) + 2.0 * guard_bytes<unsigned char>());
    return keys_in + values_in + keys_out + values_out + workspace;
}

// The benchmark of one sort (bench_sort): the same arrays, and the expected output and the
// original input on the device, which every run's output and input are compared with.
template <class Key>
double bench_device_bytes(std::size_t n, bool pairs) {
    const double N = static_cast<double>(n);
    const double keys = committed_device_bytes(sizeof(Key) * N);
    const double values = pairs ? committed_device_bytes(sizeof(Value) * N) : 0;
    const double compared_with = 2 * keys + 2 * values;  // expected and original keys (and values)
    return sort_device_bytes<Key>(n, pairs) + compared_with;
}

// The check of one case of n keys on the host: its problem, the input and the CPU's answer, held
// while every variant is checked; beside them, while the answer is made, radix_sort_cpu's own
// arrays (the ordered bits and the values, and their next pass), or in check_sort the device's
// output brought back and the input read back to see it unchanged: 4 arrays of keys (and values).
template <class Key>
double check_host_bytes(std::size_t n, bool pairs) {
    const double P = sizeof(Key) + (pairs ? sizeof(Value) : 0);
    return 4 * P * static_cast<double>(n);
}

// The benchmark on the host (K bytes a key, P = K + 4 a pair), at its peak, the cpu row's last
// sort: the size's problem, each sort's input and its CPU-sorted answer (2K for keys alone, 2P
// with values, both with --pairs both); beside them the cpu row's output and radix_sort_cpu's own
// arrays (the ordered bits and the values, and their next pass), of its last sort (pairs when
// asked): 3P (or 3K). Each sort of the problem is made while the earlier one is held: input,
// answer and radix_sort_cpu's arrays, 4P (or 4K): less. (A wrong output brought back for the
// report is not counted.)
template <class Key>
double bench_host_bytes(std::size_t n, bool keys, bool pairs) {
    const double N = static_cast<double>(n), K = sizeof(Key), P = sizeof(Key) + sizeof(Value);
    const double sorts = (keys ? 2 * K * N : 0) + (pairs ? 2 * P * N : 0);
    const double last_sort = 3 * (pairs ? P : K) * N;
    return sorts + last_sort;
}

// The larger of the check's (where it sorts n keys: check(tag, pairs) for each kind) and the
// benchmark's (wherever it runs, fits() is asked at every size the run benchmarks: bench(tag,
// choice)); 0 with --check alone at a size it does not check.
template <class Check, class Bench>
double most_held(std::size_t n, const Options& opts, Check check, Bench bench) {
    double most = 0;
    for (const SortKind& kind : kinds_checked_at(n, opts))
        most = std::max(most, with_type<KeyTypes>(kind.first, [&](auto tag) { return check(tag, kind.second); }));
    if (opts.runs_bench()) {
        const BenchChoice choice = bench_choice(opts, /*with_bits=*/false);  // --bits changes nothing held
        most = std::max(most, with_type<KeyTypes>(choice.type, [&](auto tag) { return bench(tag, choice); }));
    }
    return most;
}

double device_bytes_at(std::size_t n, const Options& opts) {
    return most_held(
        n, opts, [n](auto tag, bool pairs) { return sort_device_bytes<typename decltype(tag)::type>(n, pairs); },
        [n](auto tag, const BenchChoice& c) {  // one sort at a time: keys alone, then pairs
            using Key = typename decltype(tag)::type;
            return std::max(c.keys ? bench_device_bytes<Key>(n, false) : 0.0,
                            c.pairs ? bench_device_bytes<Key>(n, true) : 0.0);
        });
}

double host_bytes_at(std::size_t n, const Options& opts) {
    return most_held(
        n, opts, [n](auto tag, bool pairs) { return check_host_bytes<typename decltype(tag)::type>(n, pairs); },
        [n](auto tag, const BenchChoice& c) {
            return bench_host_bytes<typename decltype(tag)::type>(n, c.keys, c.pairs);
        });
}

// ---- The exercise -----------------------------------------------------------------------------------

RadixSortExercise make_exercise() {
    RadixSortExercise ex;
    ex.id = "06_radix_sort";
    ex.title = "stable LSD radix sort of u32/i32/f32/u64 keys and key-value pairs (PMPP chapter 13)";
    ex.variants = {
        {"student", ImplKind::Student, "your radix_sort_student.cu (Fig. 13.4 on your 02 scan; tasks 6-8: faster)",
         RADIX_SORT_FN(radix_sort_student_workspace_bytes, radix_sort_student)},
        {"one_bit", ImplKind::Reference,
         "Fig. 13.4: one bit per pass, extract / scan (02 single pass) / scatter (radix_sort_1_one_bit.cu)",
         RADIX_SORT_FN(radix_sort_one_bit_workspace_bytes, radix_sort_one_bit)},
        {"coalesced", ImplKind::Reference,
         "exercise 1: tiles split in shared memory, runs written coalesced (radix_sort_2_coalesced.cu)",
         RADIX_SORT_FN(radix_sort_coalesced_workspace_bytes, radix_sort_coalesced)},
        {"multibit", ImplKind::Reference, "exercise 2: 4-bit digits, 16 buckets, 8 passes (radix_sort_3_multibit.cu)",
         RADIX_SORT_FN(radix_sort_multibit_workspace_bytes, radix_sort_multibit)},
        {"coarsened", ImplKind::Reference, "exercise 3: 8 keys per thread, tiles of 2048 (radix_sort_4_coarsened.cu)",
         RADIX_SORT_FN(radix_sort_coarsened_workspace_bytes, radix_sort_coarsened)},
        {"onesweep", ImplKind::Reference,
         "8-bit digits, one up-front histogram, one pass per digit with decoupled look-back "
         "(radix_sort_5_onesweep.cu)",
         RADIX_SORT_FN(radix_sort_onesweep_workspace_bytes, radix_sort_onesweep)},
        {"cub", ImplKind::Library, "cub::DeviceRadixSort::SortKeys / SortPairs (radix_sort_cub.cu)",
         RADIX_SORT_FN(radix_sort_cub_workspace_bytes, radix_sort_cub)},
        {"cpu",
         ImplKind::Cpu,
         "LSD radix sort on the host threads: the definition of correct (radix_sort_cpu.cpp)",
         {}},
    };
    ex.baseline = "cub";
    ex.items_unit = "Gkeys/s";
    ex.extra_options = {
        {"type", "TYPE", "key type of the benchmark (the check covers all)", "u32", {"u32", "i32", "f32", "u64"}},
        {"pairs", "WHAT", "benchmark keys alone (no), with u32 values (yes), or both", "both", {"no", "yes", "both"}},
        {"bits",
         "RANGE",
         "bit range of the benchmark's sort, BEGIN:END of the ordered key bits",
         "all",
         {"all", "0:8", "0:16", "0:24", "4:21", "16:32", "0:32", "32:64"}},
    };
    ex.max_size = kMaxKeys;
    ex.bench_sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28};
    ex.cases = [](const Options&) { return radix_sort_cases(); };
    ex.describe = [](const SortCase& c) { return describe(c.spec); };
    ex.make_problem = [](const SortCase& c, std::uint64_t seed, const Options&) {
        return with_type<KeyTypes>(c.spec.type, [&](auto tag) -> CaseProblem {
            using Key = typename decltype(tag)::type;
            return make_sort_problem<Key>(c.n, c.spec.kind, c.spec.pairs, bit_span(c.spec.bits, kKeyBits<Key>), seed);
        });
    };
    ex.check = [](const RadixSortExercise::Row& v, const CaseProblem& p, const SortCase&, const Options&) {
        return std::visit(
            [&](const auto& sort) {
                return check_sort(v.fn.get<typename std::decay_t<decltype(sort)>::key_type>(), sort);
            },
            p);
    };
    ex.make_bench_problem = make_bench_problem;
    ex.bench = [](const RadixSortExercise::Row& v, BenchProblem& p, std::size_t, BenchContext& ctx) {
        return bench_variant(v, p, ctx);
    };
    // Counted buffer by buffer in "Memory" above, for what the options ask the check and the
    // benchmark to sort at n.
    ex.device_bytes = device_bytes_at;
    ex.host_bytes = host_bytes_at;
    return ex;
}

}  // namespace

const RadixSortExercise& exercise() {
    static const RadixSortExercise ex = make_exercise();
    return ex;
}

}  // namespace radix_sort
