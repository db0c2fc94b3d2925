// bitonic_harness.cu: exercise 05's case list, benchmark, memory of one size and table of
// variants (the check itself: bitonic_check.cu).
#include "bitonic_harness.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace bitonic {

using namespace pmpp;
using u32 = std::uint32_t;

namespace {

constexpr std::size_t kCpuBenchMax = std::size_t{1} << 24;  // std::sort of 2^26 keys: seconds
constexpr std::size_t kOddEvenBenchMax = std::size_t{1} << 16;  // n launches
constexpr KeyType kKeyTypes[] = {KeyType::U32, KeyType::I32, KeyType::F32};
constexpr const char* kKeyTypeNames[] = {"u32", "i32", "f32"};  // in KeyType's order
const std::vector<std::size_t> kBenchSizes = {std::size_t{1} << 14, std::size_t{1} << 20, std::size_t{1} << 24,
                                              std::size_t{1} << 26};

std::vector<SortCase> bitonic_cases() {
    // Every power-of-two edge around the tile sizes (2048 for shared, 8192 for fused, 2^14: the
    // first stage longer than a fused tile, 2^17: several long strides per pass), and 2^20+5.
    std::vector<std::size_t> sizes = edge_sizes({1, 4, 5, 10, 11, 12, 13, 14, 17});
    sizes.push_back((std::size_t{1} << 20) + 5);
    const std::vector<std::size_t> adversarial_sizes = {1000, 8193, (std::size_t{1} << 17) + 1};
    const std::vector<std::size_t> special_sizes = {3, 100, 4097, 65537};
    std::vector<SortCase> cases;
    for (const CaseKind& kind : all_kinds()) {
        for (std::size_t n : sizes) cases.push_back({n, Distribution::Uniform, kind, /*in_place=*/true});
        for (Distribution d :
             {Distribution::FewDistinct, Distribution::AllEqual, Distribution::Sorted, Distribution::Reversed})
            for (std::size_t n : adversarial_sizes) cases.push_back({n, d, kind, true});
        CaseKind special = kind;
        special.specials = true;
        for (std::size_t n : special_sizes) cases.push_back({n, Distribution::Uniform, special, true});
    }
    return cases;
}

// The benchmark sorts what the options ask: --type, --descending, --pairs.
CaseKind bench_kind(const Options& opts) {
    CaseKind kind;
    if (!parse_named(opts.get("type"), kKeyTypes, kind.type))
        throw UsageError("option --type: '" + opts.get("type") + "' is not one of u32, i32, f32");
    kind.order = opts.flag("descending") ? SortOrder::Descending : SortOrder::Ascending;
    kind.with_values = opts.flag("pairs");
    return kind;
}

// A row of the sort of `p`: every key (and value) read and written once.
template <typename K>
Measurement row_of(const SortProblem<K>& p) {
    Measurement m;
    m.bytes = 2.0 * static_cast<double>(p.n()) * static_cast<double>(sizeof(K) + (p.with_values ? 4 : 0));
    m.items = static_cast<double>(p.n());
    return m;
}

// The CPU's row: not student code, and std::sort on the host: timed on the host, its output
// checked after the timing (the last run's).
template <typename K>
Measurement bench_cpu(const SortProblem<K>& p, BenchContext& ctx) {
    const std::size_t n = p.n();
    std::vector<K> keys;
    std::vector<u32> values;
    TimingOptions t = ctx.timing;
    t.repeats = n <= (std::size_t{1} << 20) ? std::min(t.repeats, 5) : 1;
    t.warmup = n <= (std::size_t{1} << 20) ? 1 : 0;
    Measurement m = row_of(p);
    m.ms = time_host(
        t, [&] { sort_cpu(keys.data(), p.with_values ? values.data() : nullptr, n, p.order); },
        [&] {
            keys = p.input.keys;
            values = p.input.values;
        });
    m.record_check(
        check_sorted_output(p.input, p.expected, keys.data(), p.with_values ? values.data() : nullptr, p.order));
    m.note = "one CPU thread (std::sort), for scale; not timed above 2^24";
    return m;
}

// CUB's row: out of place, so inputs of its own (the problem keeps the pristine copy the pairing
// check reads), outputs between guard zones, poisoned before every run; every run checked.
template <typename K>
Measurement bench_cub(const SortProblem<K>& p, BenchContext& ctx) {
    const std::size_t n = p.n();
    const bool with_values = p.with_values;
    DeviceBuffer<K> keys_in;
    DeviceBuffer<u32> values_in;
    keys_in.upload(p.input.keys);
    if (with_values) values_in.upload(p.input.values);
    GuardedBuffer<K> keys_out(n, "keys_out");
    GuardedBuffer<u32> values_out(with_values ? n : 0, "values_out");
    const u32* vin = with_values ? values_in.data() : nullptr;
    u32* vout = with_values ? values_out.data() : nullptr;
    CubRadixSort<K> cub(n, with_values, p.order);
    const std::size_t launches = cub.count_kernel_launches(keys_in.data(), keys_out.data(), vin, vout, n);
    Measurement m = row_of(p);
    m.note =
        format("%zu kernel launches (counted in a CUDA graph): a histogram, then one pass per 8-bit digit", launches);
    m.record(time_checked(ctx.timing, &ctx.flusher,
                          TimedCall{[&] {
                                        keys_out.poison();
                                        values_out.poison();
                                    },
                                    [&] { cub.sort(keys_in.data(), keys_out.data(), vin, vout, n); },
                                    [&] { return verify_sorted(p, keys_out, with_values ? &values_out : nullptr); }}));
    return m;
}

// The rows of one variant at one benchmark size.
template <typename K>
std::vector<Measurement> bench_rows(const BitonicExercise::Row& v, const SortProblem<K>& p, BenchContext& ctx) {
    const std::size_t n = p.n();
    if (v.kind == ImplKind::Cpu) {
        if (n > kCpuBenchMax) return {};
        return {bench_cpu(p, ctx)};
    }
    if (v.fn.timed_out_of_place) return {bench_cub(p, ctx)};
    std::vector<Measurement> rows = {bench_in_place<K>("", v.fn.sort<K>(), p, ctx)};  // the variant's own row
    // The seed's one-launch-per-step neighbour: n launches instead of L(L+1)/2.
    if (v.fn.with_odd_even && n <= kOddEvenBenchMax)
        rows.push_back(bench_in_place<K>("odd_even", odd_even_transposition_sort<K>, p, ctx));
    return rows;
}

// The check's sort of the cub variant: in place, through a copy (CUB sorts out of place).
template <typename K>
void cub_through_a_copy(K* keys, u32* values, std::size_t n, SortOrder order) {
    DeviceBuffer<K> keys_in(n);
    DeviceBuffer<u32> values_in(values != nullptr ? n : 0);
    if (n == 0) return;
    PMPP_CUDA_CHECK(cudaMemcpy(keys_in.data(), keys, n * sizeof(K), cudaMemcpyDeviceToDevice));
    if (values != nullptr)
        PMPP_CUDA_CHECK(cudaMemcpy(values_in.data(), values, n * sizeof(u32), cudaMemcpyDeviceToDevice));
    CubRadixSort<K> cub(n, values != nullptr, order);
    cub.sort(keys_in.data(), keys, values != nullptr ? values_in.data() : nullptr, values, n);
}

// ---- Memory: what the check and the benchmark of one size hold at once --------------------------
// Both follow the options. The benchmark sorts what --type and --pairs ask (bench_kind;
// --descending changes nothing): values add their arrays, 4 bytes a key each, and float keys the
// array of ordered bits CUB sorts them as; every key is 4 bytes, so the type changes nothing else.
// The check sorts every kind whatever the options (all_kinds), so it holds what float keys with
// values hold, but only at the sizes of its cases (at most 2^20+5, or --size). Above a few
// thousand keys the largest set on the device is the cub row's, in the check (one case at a time)
// and in the benchmark alike; on the host, the input and its sorted keys, and the cpu row's copy.
//
// Per key at large n, the benchmark of one size (Thrust's pool holding this size's block only):
//   device: u32 or i32 keys 24 bytes, f32 keys 28, u32 or i32 pairs 48, f32 pairs 52;
//   host:   keys 8 bytes (12 up to 2^24: the cpu row), pairs 12 (21 up to 2^24).
// Without --size the device estimate adds what `make run` also keeps in that pool: the blocks of
// the smaller benchmark sizes (at 2^26 about 1 byte a key for keys, 2 for pairs: 2^24's block is
// a quarter of 2^26's) and what the check left (18 MiB). At 2^26: 1654 MiB for u32 keys (the
// defaults), 3516 MiB for f32 pairs; host 512 and 768 MiB.

double rounded_to_128(double bytes) { return std::ceil(bytes / 128) * 128; }

// What CUB's onesweep radix sort of 32-bit keys holds besides arrays of keys and values
// (dispatch_radix_sort.cuh): 1 KiB of look-back counters (256 digits x 4 bytes) per tile of the
// largest portion (2^28 keys), a tile being at least 5888 keys on every supported GPU (sm_75:
// 256 threads x 23 keys; sm_80 and later: 384 x 17 or more), the bins and counters of its 4
// passes per portion (at most 8 KiB and 32 bytes, with 64-bit offsets), each part rounded up to
// 256 bytes.
double cub_state_bytes(std::size_t n) {
    const double keys = static_cast<double>(n);
    const double tiles = std::ceil(std::min(keys, 268435456.0) / 5888.0);
    const double portions = std::max(1.0, std::ceil(keys / 268435456.0));
    return 1024 * tiles + portions * (8192 + 32) + 5 * 256;
}

// One block of Thrust's temporary storage for a sort of s keys (and values): thrust::sort runs
// CUB's radix sort in place through a second array of keys (and of values) and CUB's state
// (thrust/system/cuda/detail/sort.h). bitonic_thrust.cu takes it from common/
// caching_allocator.h's pool, which keeps every block it ever handed out for the whole process
// and hands out the smallest free one that is large enough: a block made for one size stays, and
// is counted, at every later size.
double thrust_block_bytes(std::size_t s, bool pairs) {
    const double array = rounded_to_128(4.0 * static_cast<double>(s));
    return committed_device_bytes(array + (pairs ? array : 0) + cub_state_bytes(s));
}
// The blocks the thrust row's check cases at s leave in the pool: one for keys, one for pairs.
double keys_and_pairs_blocks(std::size_t s) { return thrust_block_bytes(s, false) + thrust_block_bytes(s, true); }

// The sizes of the check's cases (bitonic_cases): each size with every kind of sort.
std::set<std::size_t> check_sizes() {
    std::set<std::size_t> sizes;
    for (const SortCase& c : bitonic_cases()) sizes.insert(c.n);
    return sizes;
}

// Whether the check of this run sorts n keys: n is a size of its list (at most --max-size), or
// --size N, at which it runs every kind (exercise.cpp's selected_cases).
bool checks_size(std::size_t n, const Options& opts) {
    if (!opts.runs_check()) return false;
    if (opts.size) return n == *opts.size;
    return check_sizes().count(n) > 0 && (!opts.max_size || n <= *opts.max_size);
}

// What the check of the whole list leaves in Thrust's pool: its largest case's blocks for keys
// and for pairs, and at most 2 MiB of smaller ones. Also what the pool holds during the check.
double check_leftover_bytes() {
    return keys_and_pairs_blocks(*check_sizes().rbegin()) + 2 * kMiB;  // the largest: 2^20+5
}

// Thrust's pool while the benchmark of n keys runs its cub row (after the thrust row).
double bench_pool_bytes(std::size_t n, bool pairs, const Options& opts) {
    // --size N with the check: the check at N made a block for keys and one for pairs; the
    // thrust row takes one of them again.
    if (opts.size && opts.runs_check()) return keys_and_pairs_blocks(n);
    double pool = thrust_block_bytes(n, pairs);  // the thrust row's block at n
    if (!opts.size) {
        // One block for each smaller benchmark size: they run first, in increasing order.
        for (std::size_t s : kBenchSizes)
            if (s < n) pool += thrust_block_bytes(s, pairs);
        if (opts.runs_check()) pool += check_leftover_bytes();  // what the check left
    }
    return pool;
}

// One sort of n keys at its peak, the cub row's, in the check (check_sort's arrays, then
// cub_through_a_copy) and in the benchmark (bench_cub) alike; `guard` bytes of zone each side.
double cub_row_device_bytes(std::size_t n, bool pairs, bool float_keys, double guard) {
    const double N = static_cast<double>(n);
    const double keys = committed_device_bytes(4.0 * N);  // n keys (every key type is 4 bytes)
    const double values = pairs ? keys : 0;  // n values
    // The problem (SortProblem): the pristine keys (and values) the input is restored from, the
    // expected keys, with values one pairing flag per element; 8 bytes for the checks' counts.
    const double problem = 2 * keys + 2 * values + 8;
    // CUB's own copy of the input, its keys (and values): it sorts out of place.
    const double cub_input = keys + values;
    // The sorted keys and values between guard zones (values keep their zones with keys alone).
    const double outputs =
        committed_device_bytes(4.0 * N + 2 * guard) + committed_device_bytes((pairs ? 4.0 * N : 0) + 2 * guard);
    // CubRadixSort: its temporary storage (a second array of keys, and of values, CUB's state)
    // and the ordered bits it sorts float keys as.
    const double cub_temp = committed_device_bytes((pairs ? 8.0 : 4.0) * N + cub_state_bytes(n));
    const double ordered_bits = float_keys ? keys : 0;
    return problem + cub_input + outputs + cub_temp + ordered_bits;
}

// The larger of the check's (where it sorts n keys) and the benchmark's (wherever it runs: fits()
// is asked at every size the run benchmarks); 0 with --check alone at a size it does not check.
double device_bytes_at(std::size_t n, const Options& opts) {
    double most = 0;
    if (checks_size(n, opts)) {
        // The kind that holds the most, float keys with values; check_sort's zones as wide as the
        // padding to a power of two (at least 1024 elements).
        const double guard = static_cast<double>(guard_zone_bytes<float>(padded_length(n) - n));
        // Thrust's pool: with --size, the blocks its cases at n made; else what the list's cases make.
        const double pool = opts.size ? keys_and_pairs_blocks(n) : check_leftover_bytes();
        most = cub_row_device_bytes(n, true, true, guard) + pool;
    }
    if (opts.runs_bench()) {
        // What the options ask, bench_cub's outputs between zones of 1024 elements.
        const CaseKind kind = bench_kind(opts);
        most = std::max(most, cub_row_device_bytes(n, kind.with_values, kind.type == KeyType::F32,
                                                   static_cast<double>(guard_bytes<float>())) +
                                  bench_pool_bytes(n, kind.with_values, opts));
    }
    return most;
}

double host_bytes_at(std::size_t n, const Options& opts) {
    const double N = static_cast<double>(n);
    double most = 0;
    // The check of one case (its problem), with values: the input's keys and values, its sorted
    // keys. (Only a wrong output is downloaded: not counted.)
    if (checks_size(n, opts)) most = 3 * 4.0 * N;
    if (opts.runs_bench()) {
        const bool pairs = bench_kind(opts).with_values;
        // The benchmark's input, keys (and values), and its sorted keys (the size's problem: made
        // once, for every row).
        const double data = (pairs ? 3 : 2) * 4.0 * N;
        // The cpu row (up to kCpuBenchMax): its copy of the input and, with values, one byte per
        // element for the pairing check (check_sorted_output).
        const double cpu_row = n <= kCpuBenchMax ? (pairs ? 2 * 4.0 * N + N : 4.0 * N) : 0;
        most = std::max(most, data + cpu_row);
    }
    return most;
}

BitonicExercise make_exercise() {
    BitonicExercise ex;
    ex.id = "05_bitonic";
    ex.title = "bitonic sort, from one launch per step to fused register passes (PMPP chapter 13)";
    BitonicFn seed = BITONIC_FN(bitonic_sort_seed), cub = BITONIC_FN(cub_through_a_copy);
    seed.with_odd_even = true;
    cub.timed_out_of_place = true;
    ex.variants = {
        {"student", ImplKind::Student, "your bitonic_student.cu (tasks 1-2)", BITONIC_FN(bitonic_sort_student)},
        {"seed", ImplKind::Reference,
         "(1) one launch per step (k, j), n threads, half idle; at n <= 2^16 also times odd-even transposition", seed},
        {"half_threads", ImplKind::Reference, "(2) n/2 threads: the lower index of a pair from bit arithmetic",
         BITONIC_FN(bitonic_sort_half_threads)},
        {"shared", ImplKind::Reference,
         "(3) 2048-element tiles in shared memory: every step with j < 2048 in one launch",
         BITONIC_FN(bitonic_sort_shared)},
        {"fused", ImplKind::Reference,
         "(4) 32 elements per thread in registers: 8192-element tiles, 5 long strides per pass over memory (3 with "
         "values)",
         BITONIC_FN(bitonic_sort_fused)},
        {"thrust", ImplKind::Library, "thrust::sort / thrust::sort_by_key, in place (a radix sort)",
         BITONIC_FN(thrust_sort)},
        {"cub", ImplKind::Library, "cub::DeviceRadixSort, out of place, temporary storage allocated once", cub},
        {"cpu", ImplKind::Cpu, "std::sort on the total order of keys.h: the definition of correct", {}},
    };
    ex.baseline = "cub";
    ex.items_unit = "Gkeys/s";
    ex.extra_options = {
        {"type", "TYPE", "key type the benchmark sorts (the check covers all three)", "u32", {"u32", "i32", "f32"}},
        {"descending", "", "benchmark a descending sort (the check covers both orders)", ""},
        {"pairs", "", "benchmark key-value pairs, uint32 values (the check covers keys and pairs)", ""},
    };
    ex.max_size = kMaxSortLength;
    ex.bench_sizes = kBenchSizes;
    ex.cases = [](const Options& opts) {
        bench_kind(opts);  // a bad --type is a usage error before any case runs
        return bitonic_cases();
    };
    ex.describe = [](const SortCase& c) { return std::string(pmpp::to_string(c.dist)) + " " + describe(c.spec); };
    ex.make_problem = [](const SortCase& c, std::uint64_t seed, const Options&) {
        return make_problem(c.n, c.dist, c.spec, seed);
    };
    ex.check = [](const BitonicExercise::Row& v, const BitonicProblem& p, const SortCase&, const Options&) {
        return check(v.fn, p);
    };
    ex.make_bench_problem = [](std::size_t n, BenchContext& ctx) {
        return make_problem(n, Distribution::Uniform, bench_kind(ctx.opts), ctx.seed);
    };
    ex.bench = [](const BitonicExercise::Row& v, BitonicProblem& p, std::size_t, BenchContext& ctx) {
        return std::visit([&](const auto& problem) { return bench_rows(v, problem, ctx); }, p);
    };
    // Counted buffer by buffer in "Memory" above, for what the options ask the check and the
    // benchmark to sort at n.
    ex.device_bytes = device_bytes_at;
    ex.host_bytes = host_bytes_at;
    return ex;
}

}  // namespace

const char* to_string(KeyType type) { return kKeyTypeNames[static_cast<int>(type)]; }

std::string describe(const CaseKind& kind) {
    return std::string(to_string(kind.type)) + (kind.order == SortOrder::Descending ? " desc" : " asc") +
           (kind.with_values ? " pairs" : " keys") + (kind.specials ? " specials" : "");
}

std::vector<CaseKind> all_kinds() {
    std::vector<CaseKind> kinds;
    for (KeyType type : kKeyTypes)
        for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending})
            for (bool with_values : {false, true}) kinds.push_back({type, order, with_values, false});
    return kinds;
}

template <typename K>
Measurement bench_in_place(const std::string& label, const SortFn<K>& sort, const SortProblem<K>& p,
                           BenchContext& ctx) {
    const std::size_t n = p.n();
    const bool with_values = p.with_values;
    GuardedBuffer<K> keys(n, "keys");
    GuardedBuffer<u32> values(with_values ? n : 0, "values");
    u32* values_ptr = with_values ? values.data() : nullptr;
    // Before every run, untimed: the input restored from the pristine copy, the guards re-armed,
    // the launch tally reset (so after the timing it holds what the last run launched).
    auto prepare = [&] {
        keys.copy_from_device(p.keys_in.data());
        keys.arm_guards();
        if (with_values) {
            values.copy_from_device(p.values_in.data());
            values.arm_guards();
        }
        launch_tally() = {};
    };

    Measurement m = row_of(p);
    m.label = label;
    m.record(time_checked(ctx.timing, &ctx.flusher,
                          TimedCall{prepare, [&] { sort(keys.data(), values_ptr, n, p.order); },
                                    [&] { return verify_sorted(p, keys, with_values ? &values : nullptr); }}));
    const LaunchTally tally = launch_tally();
    if (tally.launches > 0)
        m.note = format("%zu launches, %.2f GB moved (each launch reads and writes the array once), %.0f GB/s",
                        tally.launches, tally.bytes / 1e9, gigabytes_per_second(tally.bytes, m.ms.median)) +
                 (m.note.empty() ? "" : "; " + m.note);
    return m;
}

#define BITONIC_INSTANTIATE_BENCH(K) \
    template Measurement bench_in_place<K>(const std::string&, const SortFn<K>&, const SortProblem<K>&, BenchContext&);
BITONIC_INSTANTIATE_BENCH(std::uint32_t)
BITONIC_INSTANTIATE_BENCH(std::int32_t)
BITONIC_INSTANTIATE_BENCH(float)

const BitonicExercise& exercise() {
    static const BitonicExercise ex = make_exercise();
    return ex;
}

}  // namespace bitonic
