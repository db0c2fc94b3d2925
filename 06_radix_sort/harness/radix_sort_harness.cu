// radix_sort_harness.cu: exercise 06's cases and their labels, what the benchmark sorts, the
// memory one size holds and the table of variants. The inputs and the judge are in
// radix_sort_judge.cu, the check and the benchmark on the device in radix_sort_runs.cu.
#include "radix_sort_harness.h"

#include "common/device_buffer.h"

#include <algorithm>
#include <set>
#include <utility>

namespace radix_sort {

using namespace pmpp;

// ---- Names and labels -----------------------------------------------------------------------------

const char* to_string(KeyType type) {
    static const char* const names[] = {"u32", "i32", "f32", "u64"};
    return names[static_cast<int>(type)];
}

namespace {

// Each input kind's name and the runner's nearest distribution (for its patterns over the
// cases), in InputKind's order.
struct InputKindRow {
    const char* name;
    Distribution nearest;
};
constexpr InputKindRow kInputKindRows[kInputKinds] = {
    {"uniform", Distribution::Uniform},
    {"all-equal", Distribution::AllEqual},
    {"sorted", Distribution::Sorted},
    {"reversed", Distribution::Reversed},
    {"2-distinct", Distribution::FewDistinct},
    {"16-distinct", Distribution::FewDistinct},
    {"only-top-byte-differs", Distribution::Uniform},
    {"only-bottom-byte-differs", Distribution::Uniform},
    {"special-values", Distribution::Uniform},
};

int key_bits_of(KeyType type) { return type == KeyType::U64 ? 64 : 32; }

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

// The words of a case's label after its size: "u32 keys+values uniform bits 4:21".
std::string describe(const CaseSpec& spec) {
    std::string words =
        std::string(to_string(spec.type)) + (spec.pairs ? " keys+values " : " keys ") + to_string(spec.kind);
    if (spec.bits != BitRange::Full) words += " " + describe(bit_span(spec.bits, key_bits_of(spec.type)));
    return words;
}

}  // namespace

const char* to_string(InputKind kind) { return kInputKindRows[static_cast<int>(kind)].name; }

SortCase make_case(const CaseSpec& spec, std::size_t n) {
    SortCase c;
    c.n = n;
    c.dist = kInputKindRows[static_cast<int>(spec.kind)].nearest;
    c.spec = spec;
    return c;
}

namespace {

// ---- The case list (the same whatever the options) -----------------------------------------------

constexpr std::size_t p2(int k) { return std::size_t{1} << k; }

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

// ---- What the benchmark sorts ------------------------------------------------------------------------

// --type's keys alone, with values, or both, one sort after the other (--pairs); by --bits
// unless `with_bits` is false (the bits are then the whole key).
struct BenchChoice {
    KeyType type = KeyType::U32;
    bool keys = true;
    bool pairs = true;
    BitSpan bits;
};

BenchChoice bench_choice(const Options& opts, bool with_bits = true) {
    BenchChoice c;
    if (!parse_named(opts.get("type"), kKeyTypes, c.type))
        throw UsageError("option --type: '" + opts.get("type") + "'");
    const std::string& pairs = opts.get("pairs");
    c.keys = pairs != "yes";
    c.pairs = pairs != "no";
    const int w = key_bits_of(c.type);
    c.bits = {0, w};
    const std::string& bits = opts.get("bits");
    if (with_bits && bits != "all") {
        const auto colon = bits.find(':');
        c.bits = {std::stoi(bits.substr(0, colon)), std::stoi(bits.substr(colon + 1))};
        if (c.bits.end > w)
            throw UsageError("option --bits " + bits + ": " + to_string(c.type) + " keys have " + std::to_string(w) +
                             " bits");
    }
    return c;
}

// The same inputs and right answers for every variant at one size: uniform keys from ctx.seed.
BenchProblem make_bench_problem(std::size_t n, BenchContext& ctx) {
    const BenchChoice choice = bench_choice(ctx.opts);
    return with_type<KeyTypes>(choice.type, [&](auto tag) -> BenchProblem {
        using Key = typename decltype(tag)::type;
        SortProblems<Key> sorts;
        for (bool pairs : {false, true})
            if (pairs ? choice.pairs : choice.keys)
                sorts.push_back(make_sort_problem<Key>(n, InputKind::Uniform, pairs, choice.bits, ctx.seed));
        return sorts;
    });
}

// ---- Memory: what the check and the benchmark of one size hold at once --------------------------
// Both follow the options. The check sorts what its cases of n keys ask, whatever the options
// (every key type, keys alone and with values, up to 2^26+3 keys), or every kind at --size N.
// The benchmark sorts --type's keys alone, with values, or both, one sort after the other (--bits
// changes nothing that is held), every implementation in turn with its own workspace.
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

// One sort on the device (DeviceSort): the input, the outputs between guard zones (values_out
// has its zones even for keys alone) and the largest workspace between its own; the benchmark
// adds the expected output and the original input, which every run is compared with.
template <class Key>
double device_bytes_of(std::size_t n, bool pairs, bool benchmark) {
    const double keys = sizeof(Key) * static_cast<double>(n);
    const double values = pairs ? sizeof(Value) * static_cast<double>(n) : 0;
    const double sort = committed_device_bytes(keys) + committed_device_bytes(values) +
                        committed_device_bytes(keys + 2.0 * guard_bytes<Key>()) +
                        committed_device_bytes(values + 2.0 * guard_bytes<Value>()) +
                        committed_device_bytes(largest_workspace<Key>(n, pairs) + 2.0 * guard_bytes<unsigned char>());
    return sort + (benchmark ? 2 * committed_device_bytes(keys) + 2 * committed_device_bytes(values) : 0);
}

// On the host, P bytes a key (and its value, for pairs). The check of a case: its input and the
// CPU's answer, and beside them, while the answer is made, radix_sort_cpu's own arrays (the
// ordered bits and the values, and their next pass) or, in check_sort, the output brought back
// and the input read back: 4P a key.
template <class Key>
double check_host_bytes(std::size_t n, bool pairs) {
    const double P = sizeof(Key) + (pairs ? sizeof(Value) : 0);
    return 4 * P * static_cast<double>(n);
}

// The benchmark on the host, at its peak the cpu row's last sort: each sort's input and answer
// (2K a key alone, 2P with values), and beside them the cpu row's output and radix_sort_cpu's own
// arrays of its last sort: 3P (or 3K). (Each sort is made while the earlier one is held, 4P at
// most: less. A wrong output brought back for the report is not counted.)
template <class Key>
double bench_host_bytes(std::size_t n, const BenchChoice& c) {
    const double N = static_cast<double>(n), K = sizeof(Key), P = sizeof(Key) + sizeof(Value);
    const double sorts = (c.keys ? 2 * K * N : 0) + (c.pairs ? 2 * P * N : 0);
    const double last_sort = 3 * (c.pairs ? P : K) * N;
    return sorts + last_sort;
}

enum class Memory { Device, Host };

// The larger of the check's (where it sorts n keys, each kind) and the benchmark's (wherever it
// runs, fits() is asked at every size the run benchmarks; on the device one sort at a time, keys
// alone and then pairs); 0 with --check alone at a size it does not check.
double most_held(Memory memory, std::size_t n, const Options& opts) {
    double most = 0;
    for (const auto& [type, pairs] : kinds_checked_at(n, opts))
        most = std::max(most, with_type<KeyTypes>(type, [&, pairs = pairs](auto tag) {
                            using Key = typename decltype(tag)::type;
                            return memory == Memory::Device ? device_bytes_of<Key>(n, pairs, false)
                                                            : check_host_bytes<Key>(n, pairs);
                        }));
    if (opts.runs_bench()) {
        const BenchChoice c = bench_choice(opts, /*with_bits=*/false);  // --bits changes nothing held
        most = std::max(most, with_type<KeyTypes>(c.type, [&](auto tag) {
                            using Key = typename decltype(tag)::type;
                            if (memory == Memory::Host) return bench_host_bytes<Key>(n, c);
                            return std::max(c.keys ? device_bytes_of<Key>(n, false, true) : 0.0,
                                            c.pairs ? device_bytes_of<Key>(n, true, true) : 0.0);
                        }));
    }
    return most;
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
        {"onesweep_ptx", ImplKind::Reference,
         "variant 5 with the ranking's ballots in CUB's PTX sequence: fewer instructions per key "
         "(radix_sort_6_onesweep_ptx.cu)",
         RADIX_SORT_FN(radix_sort_onesweep_ptx_workspace_bytes, radix_sort_onesweep_ptx)},
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
    ex.bench = bench_variant;
    ex.device_bytes = [](std::size_t n, const Options& opts) { return most_held(Memory::Device, n, opts); };
    ex.host_bytes = [](std::size_t n, const Options& opts) { return most_held(Memory::Host, n, opts); };
    return ex;
}

}  // namespace

const RadixSortExercise& exercise() {
    static const RadixSortExercise ex = make_exercise();
    return ex;
}

}  // namespace radix_sort
