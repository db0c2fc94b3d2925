// bitonic_harness.cu: inputs, the check and the benchmark of exercise 05.
#include "bitonic_harness.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_check.cuh"
#include "common/keys.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <type_traits>

namespace bitonic {

using namespace pmpp;
using u32 = std::uint32_t;

namespace {

constexpr std::size_t kCpuBenchMax = std::size_t{1} << 24;      // std::sort of 2^26 keys: seconds
constexpr std::size_t kOddEvenBenchMax = std::size_t{1} << 16;  // n launches
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
    if constexpr (std::is_same_v<K, float>) return format_value(v) + format(" (0x%08x)", bits_of(v));
    else return format_value(v);
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
                        (2 * block == padded ? format("the last stage, k = %zu = padded_length(n)", padded)
                                             : format("the stages k = %zu ... %zu = padded_length(n)", 2 * block, padded)));
    }
    if constexpr (std::is_same_v<K, float>) {
        // A comparison with < or > is false for every NaN: a network that compares so never
        // swaps a NaN, and each stays where the input had it.
        std::size_t nans = 0, moved = 0, misplaced = 0, example = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isnan(in.keys[i])) continue;
            ++nans;
            if (bits_of(keys[i]) != bits_of(in.keys[i])) ++moved;
            else if (bits_of(keys[i]) != bits_of(expected[i]) && misplaced++ == 0) example = i;
        }
        if (nans > 0 && moved == 0 && misplaced > 0)
            facts.push_back(format("every NaN of the input is still at its input position (%zu NaNs; e.g. index %zu, "
                                   "where the sorted keys hold %s): a comparison with < or > is false for every NaN, "
                                   "so a NaN never swaps, and -0.0 == +0.0; compare with before (the total order)",
                                   nans, example, format_key(expected[example]).c_str()));
    }
    return facts;
}

// ---- the check of one run, on the device --------------------------------------------------------
// Every checked run, in the check and in every warm-up and timed run of the benchmark, goes
// through verify_sorted: the guard zones of every array the sort writes, then the keys equal to
// the expected ones and the values a valid pairing, both decided on the device (one kernel each
// and a few bytes back); only a wrong run downloads the arrays, for check_sorted_output's report.

// Values are the input positions XOR a salt (make_input), so value v names input element
// v ^ salt. A pairing is valid when every value names an input element, no element is named
// twice, and the key beside it is that element's key, bit for bit. The network is not stable:
// equal keys may carry their values in any order, and this rule accepts every such order.
// Adds the number of positions that break it to *unpaired; `named` holds n zeros on entry (one
// flag per input element).
__global__ void count_unpaired_values(const u32* input_key_bits, const u32* output_key_bits, const u32* values,
                                      std::size_t n, u32 salt, u32* named, unsigned long long* unpaired) {
    unsigned long long count = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::size_t from = values[i] ^ salt;
        const bool paired =
            from < n && atomicExch(&named[from], 1u) == 0u && input_key_bits[from] == output_key_bits[i];
        count += paired ? 0 : 1;
    }
    if (count > 0) atomicAdd(unpaired, count);
}

// One input and its expected output, on the device for the check of every run and on the host
// for the report of a wrong one. Built once per check case or benchmark row, outside any timing.
// keys_in and values_in are also the pristine copies an in-place sort's input is restored from.
template <typename K>
struct SortReference {
    static_assert(sizeof(K) == sizeof(u32), "the pairing kernel compares keys as 32-bit patterns");
    const SortInput<K>& input;
    const std::vector<K>& expected;  // sort_cpu of the input keys
    SortOrder order;
    DeviceBuffer<K> keys_in, expected_keys;
    DeviceBuffer<u32> values_in, named;
    DeviceBuffer<unsigned long long> unpaired;

    SortReference(const SortInput<K>& in, const std::vector<K>& sorted_keys, SortOrder sort_order)
        : input(in), expected(sorted_keys), order(sort_order), unpaired(1) {
        keys_in.upload(in.keys);
        expected_keys.upload(sorted_keys);
        if (with_values()) {
            values_in.upload(in.values);
            named.resize(in.keys.size());
        }
    }
    bool with_values() const { return !input.values.empty(); }
    std::size_t n() const { return input.keys.size(); }

    // Positions of `keys`/`values` that break the pairing rule (count_unpaired_values).
    unsigned long long unpaired_positions(const K* keys, const u32* values) {
        const std::size_t count = n();
        if (count == 0) return 0;
        PMPP_CUDA_CHECK(cudaMemset(named.data(), 0, count * sizeof(u32)));
        PMPP_CUDA_CHECK(cudaMemset(unpaired.data(), 0, sizeof(unsigned long long)));
        const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
        count_unpaired_values<<<blocks, 256>>>(reinterpret_cast<const u32*>(keys_in.data()),
                                               reinterpret_cast<const u32*>(keys), values, count, input.salt,
                                               named.data(), unpaired.data());
        PMPP_CHECK_LAUNCH();
        unsigned long long result = 0;
        PMPP_CUDA_CHECK(cudaMemcpy(&result, unpaired.data(), sizeof result, cudaMemcpyDeviceToHost));
        return result;
    }
};

// The check of one run of a sort that wrote `keys` (and `values`, null for keys only).
template <typename K>
CheckResult verify_sorted(SortReference<K>& ref, const GuardedBuffer<K>& keys, const GuardedBuffer<u32>* values) {
    CheckResult guards = keys.check_guards();
    if (guards.ok && values != nullptr) guards = values->check_guards();
    if (!guards.ok) {
        guards.hint += "; the network pads only virtually: nothing before index 0 or at or past n may be read or "
                       "written (bitonic_network.h)";
        return guards;
    }
    const std::size_t n = keys.size();
    bool right = count_differences_on_device(ref.expected_keys.data(), keys.data(), n) == 0;
    if (right && values != nullptr) right = ref.unpaired_positions(keys.data(), values->data()) == 0;
    if (right) return CheckResult::pass(n);

    // Wrong: the host check of the same output says how (not sorted, not a permutation, ...).
    const std::vector<K> out = keys.to_host();
    const std::vector<u32> out_values = values != nullptr ? values->to_host() : std::vector<u32>{};
    CheckResult report = check_sorted_output(ref.input, ref.expected, out.data(),
                                             values != nullptr ? out_values.data() : nullptr, ref.order);
    if (report.ok)
        report = CheckResult::fail("the device check rejected this output and the host check accepts it: a bug in "
                                   "bitonic_harness.cu, please report it");
    return report;
}

std::vector<Case> bitonic_cases(const Options&) {
    // Every power-of-two edge around the tile sizes (2048 for shared, 8192 for fused, 2^14: the
    // first stage longer than a fused tile, 2^17: several long strides per pass), and 2^20+5.
    std::vector<std::size_t> sizes = edge_sizes({1, 4, 5, 10, 11, 12, 13, 14, 17});
    sizes.push_back((std::size_t{1} << 20) + 5);
    const std::vector<std::size_t> adversarial_sizes = {1000, 8193, (std::size_t{1} << 17) + 1};
    const std::vector<std::size_t> special_sizes = {3, 100, 4097, 65537};
    std::vector<Case> cases;
    auto add = [&](std::size_t n, Distribution d, const CaseKind& kind) {
        // Every sort here is in place: the keys (and values) are sorted where they lie.
        cases.push_back({"n=" + format_size(n) + " " + pmpp::to_string(d) + " " + describe(kind), n, d, to_variant(kind),
                         /*in_place=*/true});
    };
    for (const CaseKind& kind : all_kinds()) {
        for (std::size_t n : sizes) add(n, Distribution::Uniform, kind);
        for (Distribution d : {Distribution::FewDistinct, Distribution::AllEqual, Distribution::Sorted, Distribution::Reversed})
            for (std::size_t n : adversarial_sizes) add(n, d, kind);
        CaseKind special = kind;
        special.specials = true;
        for (std::size_t n : special_sizes) add(n, Distribution::Uniform, special);
    }
    return cases;
}

// The benchmark sorts what the options ask: --type, --descending, --pairs.
CaseKind bench_kind(const Options& opts) {
    CaseKind kind;
    const std::string& type = opts.get("type");
    if (type == "u32") kind.type = KeyType::U32;
    else if (type == "i32") kind.type = KeyType::I32;
    else if (type == "f32") kind.type = KeyType::F32;
    else throw UsageError("option --type: '" + type + "' is not one of u32, i32, f32");
    kind.order = opts.flag("descending") ? SortOrder::Descending : SortOrder::Ascending;
    kind.with_values = opts.flag("pairs");
    return kind;
}

// One input and its sorted keys per (n, kind, seed): every implementation at a size sorts the
// same input, generated and sorted on the CPU once.
template <typename K>
struct BenchData {
    bool ready = false;
    std::size_t n = 0;
    int variant = -1;
    std::uint64_t seed = 0;
    SortInput<K> input;
    std::vector<K> expected;
};

template <typename K>
const BenchData<K>& bench_data(std::size_t n, const CaseKind& kind, std::uint64_t seed) {
    static BenchData<K> data;
    if (!data.ready || data.n != n || data.variant != to_variant(kind) || data.seed != seed) {
        data = BenchData<K>{};  // the previous size's arrays go before the new ones are made
        data.input = make_input<K>(n, Distribution::Uniform, kind, seed);
        data.expected = data.input.keys;
        sort_cpu(data.expected.data(), nullptr, n, kind.order);
        data.n = n;
        data.variant = to_variant(kind);
        data.seed = seed;
        data.ready = true;
    }
    return data;
}

std::string launches_note(const LaunchTally& tally, double ms) {
    return format("%zu launches, %.2f GB moved (each launch reads and writes the array once), %.0f GB/s",
                  tally.launches, tally.bytes / 1e9, gigabytes_per_second(tally.bytes, ms));
}

template <typename K>
std::vector<Measurement> bench_typed(const Impl& impl, std::size_t n, BenchContext& ctx, const CaseKind& kind) {
    std::vector<Measurement> rows;
    if (impl.kind == ImplKind::Cpu && n > kCpuBenchMax) return rows;
    const BenchData<K>& data = bench_data<K>(n, kind, ctx.seed);
    const bool with_values = kind.with_values;
    const double bytes = 2.0 * static_cast<double>(n) * static_cast<double>(sizeof(K) + (with_values ? 4 : 0));

    if (impl.kind == ImplKind::Cpu) {
        // Not student code, and std::sort on the host: timed on the host, its output checked
        // after the timing (the last run's).
        std::vector<K> keys;
        std::vector<u32> values;
        TimingOptions t = ctx.timing;
        t.repeats = n <= (std::size_t{1} << 20) ? std::min(t.repeats, 5) : 1;
        t.warmup = n <= (std::size_t{1} << 20) ? 1 : 0;
        Measurement m;
        m.bytes = bytes;
        m.items = static_cast<double>(n);
        m.ms = time_host(
            t, [&] { sort_cpu(keys.data(), with_values ? values.data() : nullptr, n, kind.order); },
            [&] {
                keys = data.input.keys;
                values = data.input.values;
            });
        m.record_check(check_sorted_output(data.input, data.expected, keys.data(),
                                           with_values ? values.data() : nullptr, kind.order));
        m.note = "one CPU thread (std::sort), for scale; not timed above 2^24";
        rows.push_back(m);
        return rows;
    }

    if (impl.name == "cub") {
        // Out of place: inputs of its own (the reference keeps the pristine copy the pairing check
        // reads), outputs between guard zones, poisoned before every run; every run checked.
        SortReference<K> ref(data.input, data.expected, kind.order);
        DeviceBuffer<K> keys_in;
        DeviceBuffer<u32> values_in;
        keys_in.upload(data.input.keys);
        if (with_values) values_in.upload(data.input.values);
        GuardedBuffer<K> keys_out(n, "keys_out");
        GuardedBuffer<u32> values_out(with_values ? n : 0, "values_out");
        const u32* vin = with_values ? values_in.data() : nullptr;
        u32* vout = with_values ? values_out.data() : nullptr;
        CubRadixSort<K> cub(n, with_values, kind.order);
        const std::size_t launches = cub.count_kernel_launches(keys_in.data(), keys_out.data(), vin, vout, n);
        Measurement m;
        m.bytes = bytes;
        m.items = static_cast<double>(n);
        m.note = format("%zu kernel launches (counted in a CUDA graph): a histogram, then one pass per 8-bit digit", launches);
        m.record(time_checked(ctx.timing, &ctx.flusher,
                              TimedCall{[&] {
                                            keys_out.poison();
                                            values_out.poison();
                                        },
                                        [&] { cub.sort(keys_in.data(), keys_out.data(), vin, vout, n); },
                                        [&] { return verify_sorted(ref, keys_out, with_values ? &values_out : nullptr); }}));
        rows.push_back(m);
        return rows;
    }

    rows.push_back(bench_in_place<K>(impl.name, sort_by_name<K>(impl.name), n, kind, ctx));
    rows.back().label.clear();  // the implementation's own row
    // The seed's one-launch-per-step neighbour: n launches instead of L(L+1)/2.
    if (impl.name == "seed" && n <= kOddEvenBenchMax)
        rows.push_back(bench_in_place<K>("odd_even", odd_even_transposition_sort<K>, n, kind, ctx));
    return rows;
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

// The sizes of the check's cases (bitonic_cases): each size with every kind of sort.
const std::set<std::size_t>& check_sizes() {
    static const std::set<std::size_t> sizes = [] {
        std::set<std::size_t> s;
        for (const Case& c : bitonic_cases(Options{})) s.insert(c.n);
        return s;
    }();
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
    const std::size_t largest = *check_sizes().rbegin();  // 2^20+5
    return thrust_block_bytes(largest, false) + thrust_block_bytes(largest, true) + 2 * kMiB;
}

// Thrust's pool during the check of a case of n keys: with --size, the blocks for keys and for
// pairs the thrust row's cases at n made; else what the list's cases make (check_leftover_bytes).
double check_pool_bytes(std::size_t n, const Options& opts) {
    if (opts.size) return thrust_block_bytes(n, false) + thrust_block_bytes(n, true);
    return check_leftover_bytes();
}

// Thrust's pool while the benchmark of n keys runs its cub row (after the thrust row).
double bench_pool_bytes(std::size_t n, bool pairs, const Options& opts, const std::vector<std::size_t>& bench_sizes) {
    // --size N with the check: the check at N made a block for keys and one for pairs; the
    // thrust row takes one of them again.
    if (opts.size && opts.runs_check()) return thrust_block_bytes(n, false) + thrust_block_bytes(n, true);
    double pool = thrust_block_bytes(n, pairs);  // the thrust row's block at n
    if (!opts.size) {
        // One block for each smaller benchmark size: they run first, in increasing order.
        for (std::size_t s : bench_sizes)
            if (s < n) pool += thrust_block_bytes(s, pairs);
        if (opts.runs_check()) pool += check_leftover_bytes();  // what the check left
    }
    return pool;
}

// The check of one case at n (check_sort), of the kind that holds the most (float keys with
// values), the cub row.
double check_device_bytes(std::size_t n, const Options& opts) {
    const double N = static_cast<double>(n);
    const double array = committed_device_bytes(4.0 * N);  // n keys, or n values
    // SortReference: the pristine keys and values the input is restored from, the expected keys,
    // one pairing flag per element, the count.
    const double reference = 4 * array + 8;
    // The sorted keys and values between guard zones as wide as the padding to a power of two
    // (at least 1024 elements).
    const double padding = static_cast<double>(padded_length(n) - n);
    const double guard = std::max(4096.0, std::ceil(4.0 * padding / 256) * 256);
    const double sorted = 2 * committed_device_bytes(4.0 * N + 2 * guard);
    // sort_by_name("cub"): its copies of the input keys and values (CUB sorts out of place).
    const double cub_input = 2 * array;
    // CubRadixSort: its temporary storage (a second array of keys and one of values, CUB's
    // state) and the ordered bits it sorts float keys as.
    const double cub = committed_device_bytes(8.0 * N + cub_state_bytes(n)) + array;
    return reference + sorted + cub_input + cub + check_pool_bytes(n, opts);
}

// The benchmark at n (bench_typed) of what the options ask, the cub row.
double bench_device_bytes(std::size_t n, const CaseKind& kind, const Options& opts,
                          const std::vector<std::size_t>& bench_sizes) {
    const double N = static_cast<double>(n);
    const bool pairs = kind.with_values;
    const double keys = committed_device_bytes(4.0 * N);            // n keys (every key type is 4 bytes)
    const double values = pairs ? committed_device_bytes(4.0 * N) : 0;  // n values, with --pairs
    // SortReference: the pristine keys (and values) the input is restored from, the expected
    // keys, with values one pairing flag per element; the count.
    const double reference = 2 * keys + 2 * values + 8;
    // The cub row's own copy of the input, its keys (and values) out of place.
    const double cub_input = keys + values;
    // The outputs between guard zones of 1024 elements (values_out keeps its zones for keys alone).
    const double outputs = committed_device_bytes(4.0 * N + 2 * 4096) + committed_device_bytes((pairs ? 4.0 * N : 0) + 2 * 4096);
    // CubRadixSort: its temporary storage, a second array of keys (and of values) and CUB's state.
    const double cub_temp = committed_device_bytes((pairs ? 8.0 : 4.0) * N + cub_state_bytes(n));
    // The ordered bits CubRadixSort sorts float keys as (--type f32).
    const double ordered_bits = kind.type == KeyType::F32 ? keys : 0;
    return reference + cub_input + outputs + cub_temp + ordered_bits + bench_pool_bytes(n, pairs, opts, bench_sizes);
}

// The larger of the check's (where it sorts n keys) and the benchmark's (wherever it runs: fits()
// is asked at every size the run benchmarks); 0 with --check alone at a size it does not check.
double device_bytes_at(std::size_t n, const Options& opts, const std::vector<std::size_t>& bench_sizes) {
    double most = 0;
    if (checks_size(n, opts)) most = check_device_bytes(n, opts);
    if (opts.runs_bench()) most = std::max(most, bench_device_bytes(n, bench_kind(opts), opts, bench_sizes));
    return most;
}

double host_bytes_at(std::size_t n, const Options& opts) {
    const double N = static_cast<double>(n);
    double most = 0;
    // The check of one case (check_sort), with values: the input's keys and values, its sorted
    // keys. (Only a wrong output is downloaded: not counted.)
    if (checks_size(n, opts)) most = 3 * 4.0 * N;
    if (opts.runs_bench()) {
        const bool pairs = bench_kind(opts).with_values;
        // The benchmark's input, keys (and values), and its sorted keys (bench_data: once per
        // size, for every row).
        const double data = (pairs ? 3 : 2) * 4.0 * N;
        // The cpu row (up to kCpuBenchMax): its copy of the input and, with values, one byte per
        // element for the pairing check (check_sorted_output).
        const double cpu_row = n <= kCpuBenchMax ? (pairs ? 2 * 4.0 * N + N : 4.0 * N) : 0;
        most = std::max(most, data + cpu_row);
    }
    return most;
}

}  // namespace

const char* to_string(KeyType type) {
    switch (type) {
        case KeyType::U32: return "u32";
        case KeyType::I32: return "i32";
        case KeyType::F32: return "f32";
    }
    return "?";
}

int to_variant(const CaseKind& kind) {
    return static_cast<int>(kind.type) | (kind.order == SortOrder::Descending ? 4 : 0) | (kind.with_values ? 8 : 0) |
           (kind.specials ? 16 : 0);
}

CaseKind from_variant(int variant) {
    CaseKind kind;
    kind.type = static_cast<KeyType>(variant & 3);
    kind.order = (variant & 4) ? SortOrder::Descending : SortOrder::Ascending;
    kind.with_values = (variant & 8) != 0;
    kind.specials = (variant & 16) != 0;
    return kind;
}

std::string describe(const CaseKind& kind) {
    return std::string(to_string(kind.type)) + (kind.order == SortOrder::Descending ? " desc" : " asc") +
           (kind.with_values ? " pairs" : " keys") + (kind.specials ? " specials" : "");
}

std::vector<CaseKind> all_kinds() {
    std::vector<CaseKind> kinds;
    for (KeyType type : {KeyType::U32, KeyType::I32, KeyType::F32})
        for (SortOrder order : {SortOrder::Ascending, SortOrder::Descending})
            for (bool with_values : {false, true}) kinds.push_back({type, order, with_values, false});
    return kinds;
}

template <typename K>
SortFn<K> sort_by_name(const std::string& name) {
    if (name == "student") return bitonic_sort_student<K>;
    if (name == "seed") return bitonic_sort_seed<K>;
    if (name == "half_threads") return bitonic_sort_half_threads<K>;
    if (name == "shared") return bitonic_sort_shared<K>;
    if (name == "fused") return bitonic_sort_fused<K>;
    if (name == "thrust") return thrust_sort<K>;
    if (name == "cub") {
        return [](K* keys, u32* values, std::size_t n, SortOrder order) {
            DeviceBuffer<K> keys_in(n);
            DeviceBuffer<u32> values_in(values != nullptr ? n : 0);
            if (n == 0) return;
            PMPP_CUDA_CHECK(cudaMemcpy(keys_in.data(), keys, n * sizeof(K), cudaMemcpyDeviceToDevice));
            if (values != nullptr)
                PMPP_CUDA_CHECK(cudaMemcpy(values_in.data(), values, n * sizeof(u32), cudaMemcpyDeviceToDevice));
            CubRadixSort<K> cub(n, values != nullptr, order);
            cub.sort(keys_in.data(), keys, values != nullptr ? values_in.data() : nullptr, values, n);
        };
    }
    throw std::logic_error("bitonic: no sort named " + name);
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
        if (from >= n) problem = "not an input value";
        else if (seen[from]) problem = "a second copy of input element " + std::to_string(from) + "'s value";
        else if (bits_of(in.keys[from]) != bits_of(keys[i]))
            problem = "the value of input element " + std::to_string(from) + ", whose key is " + format_key(in.keys[from]);
        if (from < n) seen[from] = 1;
        if (problem.empty()) continue;
        ++v.mismatches;
        if (v.first.size() < 5) v.first.push_back({i, "the value of an element with key " + format_key(keys[i]), problem});
    }
    v.ok = v.mismatches == 0;
    if (!v.ok) {
        v.message = "values did not travel with their keys: " + std::to_string(v.mismatches) + " of " +
                    std::to_string(n) + " positions";
        v.hint = "every swap of two keys must swap their values too";
    }
    return v;
}

template <typename K>
CheckResult check_sort(const SortFn<K>& sort, std::size_t n, Distribution dist, const CaseKind& kind,
                       std::uint64_t seed) {
    const SortInput<K> in = make_input<K>(n, dist, kind, seed);
    std::vector<K> expected = in.keys;
    sort_cpu(expected.data(), nullptr, n, kind.order);

    SortReference<K> ref(in, expected, kind.order);
    // A sort that pads in memory writes up to padded_length(n) - n elements past the end:
    // zones that wide keep those writes inside them, reported, instead of in other memory.
    const std::size_t padding = padded_length(n) - n;
    GuardedBuffer<K> keys(n, "keys", padding);
    GuardedBuffer<u32> values(kind.with_values ? n : 0, "values", padding);
    keys.copy_from_device(ref.keys_in.data());
    if (kind.with_values) values.copy_from_device(ref.values_in.data());
    sort(keys.data(), kind.with_values ? values.data() : nullptr, n, kind.order);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    return verify_sorted(ref, keys, kind.with_values ? &values : nullptr);
}

template <typename K>
Measurement bench_in_place(const std::string& label, const SortFn<K>& sort, std::size_t n, const CaseKind& kind,
                           BenchContext& ctx) {
    const BenchData<K>& data = bench_data<K>(n, kind, ctx.seed);
    const bool with_values = kind.with_values;
    SortReference<K> ref(data.input, data.expected, kind.order);
    GuardedBuffer<K> keys(n, "keys");
    GuardedBuffer<u32> values(with_values ? n : 0, "values");
    u32* values_ptr = with_values ? values.data() : nullptr;
    // Before every run, untimed: the input restored from the pristine copy, the guards re-armed,
    // the launch tally reset (so after the timing it holds what the last run launched).
    auto prepare = [&] {
        keys.copy_from_device(ref.keys_in.data());
        keys.arm_guards();
        if (with_values) {
            values.copy_from_device(ref.values_in.data());
            values.arm_guards();
        }
        launch_tally() = {};
    };

    Measurement m;
    m.label = label;
    m.bytes = 2.0 * static_cast<double>(n) * static_cast<double>(sizeof(K) + (with_values ? 4 : 0));
    m.items = static_cast<double>(n);
    m.record(time_checked(ctx.timing, &ctx.flusher,
                          TimedCall{prepare, [&] { sort(keys.data(), values_ptr, n, kind.order); },
                                    [&] { return verify_sorted(ref, keys, with_values ? &values : nullptr); }}));
    const LaunchTally tally = launch_tally();
    if (tally.launches > 0) m.note = launches_note(tally, m.ms.median) + (m.note.empty() ? "" : "; " + m.note);
    return m;
}

CheckResult check_case(const std::string& impl, const Case& c, std::uint64_t seed) {
    const CaseKind kind = from_variant(c.variant);
    switch (kind.type) {
        case KeyType::U32: return check_sort<u32>(sort_by_name<u32>(impl), c.n, c.dist, kind, seed);
        case KeyType::I32: return check_sort<std::int32_t>(sort_by_name<std::int32_t>(impl), c.n, c.dist, kind, seed);
        case KeyType::F32: return check_sort<float>(sort_by_name<float>(impl), c.n, c.dist, kind, seed);
    }
    throw std::logic_error("bitonic: unknown key type");
}

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "05_bitonic";
    def.title = "bitonic sort, from one launch per step to fused register passes (PMPP chapter 13)";
    def.impls = {
        {"student", ImplKind::Student, "your bitonic_student.cu (tasks 1-2)"},
        {"seed", ImplKind::Reference,
         "(1) one launch per step (k, j), n threads, half idle; at n <= 2^16 also times odd-even transposition"},
        {"half_threads", ImplKind::Reference, "(2) n/2 threads: the lower index of a pair from bit arithmetic"},
        {"shared", ImplKind::Reference, "(3) 2048-element tiles in shared memory: every step with j < 2048 in one launch"},
        {"fused", ImplKind::Reference,
         "(4) 32 elements per thread in registers: 8192-element tiles, 4 long strides per pass over memory"},
        {"thrust", ImplKind::Library, "thrust::sort / thrust::sort_by_key, in place (a radix sort)"},
        {"cub", ImplKind::Library, "cub::DeviceRadixSort, out of place, temporary storage allocated once"},
        {"cpu", ImplKind::Cpu, "std::sort on the total order of keys.h: the definition of correct"},
    };
    def.baseline = "cub";
    def.items_unit = "Gkeys/s";
    def.extra_options = {
        {"type", "TYPE", "key type the benchmark sorts (the check covers all three)", "u32", {"u32", "i32", "f32"}},
        {"descending", "", "benchmark a descending sort (the check covers both orders)", ""},
        {"pairs", "", "benchmark key-value pairs, uint32 values (the check covers keys and pairs)", ""},
    };
    def.max_size = kMaxSortLength;
    def.bench_sizes = {std::size_t{1} << 14, std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26};
    def.cases = [](const Options& opts) {
        bench_kind(opts);  // a bad --type is a usage error before any case runs
        return bitonic_cases(opts);
    };
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options&) {
        return check_case(impl.name, c, seed);
    };
    def.bench = [](const Impl& impl, std::size_t n, BenchContext& ctx) {
        const CaseKind kind = bench_kind(ctx.opts);
        switch (kind.type) {
            case KeyType::U32: return bench_typed<u32>(impl, n, ctx, kind);
            case KeyType::I32: return bench_typed<std::int32_t>(impl, n, ctx, kind);
            case KeyType::F32: return bench_typed<float>(impl, n, ctx, kind);
        }
        throw std::logic_error("bitonic: unknown key type");
    };
    // Counted buffer by buffer in "Memory" above, for what the options ask the check and the
    // benchmark to sort at n.
    def.device_bytes = [sizes = def.bench_sizes](std::size_t n, const Options& opts) {
        return device_bytes_at(n, opts, sizes);
    };
    def.host_bytes = [](std::size_t n, const Options& opts) { return host_bytes_at(n, opts); };
    return def;
}

template SortFn<u32> sort_by_name<u32>(const std::string&);
template SortFn<std::int32_t> sort_by_name<std::int32_t>(const std::string&);
template SortFn<float> sort_by_name<float>(const std::string&);
template SortInput<u32> make_input<u32>(std::size_t, Distribution, const CaseKind&, std::uint64_t);
template SortInput<std::int32_t> make_input<std::int32_t>(std::size_t, Distribution, const CaseKind&, std::uint64_t);
template SortInput<float> make_input<float>(std::size_t, Distribution, const CaseKind&, std::uint64_t);
template CheckResult check_sorted_output<u32>(const SortInput<u32>&, const std::vector<u32>&, const u32*, const u32*,
                                              SortOrder);
template CheckResult check_sorted_output<std::int32_t>(const SortInput<std::int32_t>&, const std::vector<std::int32_t>&,
                                                       const std::int32_t*, const u32*, SortOrder);
template CheckResult check_sorted_output<float>(const SortInput<float>&, const std::vector<float>&, const float*,
                                                const u32*, SortOrder);
template CheckResult check_sort<u32>(const SortFn<u32>&, std::size_t, Distribution, const CaseKind&, std::uint64_t);
template CheckResult check_sort<std::int32_t>(const SortFn<std::int32_t>&, std::size_t, Distribution, const CaseKind&,
                                              std::uint64_t);
template CheckResult check_sort<float>(const SortFn<float>&, std::size_t, Distribution, const CaseKind&, std::uint64_t);
template Measurement bench_in_place<u32>(const std::string&, const SortFn<u32>&, std::size_t, const CaseKind&,
                                         BenchContext&);
template Measurement bench_in_place<std::int32_t>(const std::string&, const SortFn<std::int32_t>&, std::size_t,
                                                  const CaseKind&, BenchContext&);
template Measurement bench_in_place<float>(const std::string&, const SortFn<float>&, std::size_t, const CaseKind&,
                                           BenchContext&);

}  // namespace bitonic
