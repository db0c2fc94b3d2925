// radix_sort_cpu.cpp: the definition of correct. An LSD radix sort with 8-bit digits on the
// host, the same algorithm the GPU variants run, written as plainly as it goes:
//   for each digit, least significant first: count the keys of each digit value, turn the
//   counts into starts (an exclusive scan of 256 numbers), move every key to its digit's next
//   free place, in input order.
// Moving keys in input order makes each pass stable, hence the whole sort (and the values
// travel with their keys). Tests compare it with std::stable_sort by the same key bits.
//
// Large inputs are cut into one contiguous chunk per host thread: each thread counts its chunk,
// the starts are laid out digit by digit and, within a digit, chunk by chunk (so chunk 0's keys
// of a digit come before chunk 1's: still input order), and each thread moves its own chunk.
#include "radix_sort.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>
#include <vector>

namespace radix_sort {

namespace {

constexpr int kDigitBits = 8;
constexpr int kDigits = 1 << kDigitBits;
constexpr std::size_t kKeysPerThread = std::size_t{1} << 16;  // below this, one thread is faster

// Runs body(t) for t in [0, threads) on that many host threads (the caller's thread is one).
template <class Body>
void parallel_for(unsigned threads, const Body& body) {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(body, t);
    body(0u);
    for (auto& th : pool) th.join();
}

}  // namespace

template <class Key>
void radix_sort_cpu(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, std::size_t n,
                    int begin_bit, int end_bit, unsigned threads) {
    using Bits = BitsOf<Key>;
    const bool pairs = values_in != nullptr;
    if (n == 0) return;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, (n + kKeysPerThread - 1) / kKeysPerThread));
    const std::size_t chunk = (n + threads - 1) / threads;

    std::vector<Bits> bits(n), bits_next(n);
    std::vector<Value> values, values_next;
    for (std::size_t i = 0; i < n; ++i) bits[i] = to_bits(keys_in[i]);
    if (pairs) {
        values.assign(values_in, values_in + n);
        values_next.resize(n);
    }
    std::vector<std::array<std::size_t, kDigits>> next(threads);  // per chunk: counts, then next free place

    for (int shift = begin_bit; shift < end_bit; shift += kDigitBits) {
        const int width = std::min(kDigitBits, end_bit - shift);
        parallel_for(threads, [&](unsigned t) {
            next[t].fill(0);
            const std::size_t first = t * chunk, last = std::min(n, first + chunk);
            for (std::size_t i = first; i < last; ++i) ++next[t][digit_of(bits[i], shift, width)];
        });
        std::size_t start = 0;
        for (int d = 0; d < kDigits; ++d)
            for (unsigned t = 0; t < threads; ++t) {
                const std::size_t count = next[t][d];
                next[t][d] = start;
                start += count;
            }
        parallel_for(threads, [&](unsigned t) {
            const std::size_t first = t * chunk, last = std::min(n, first + chunk);
            for (std::size_t i = first; i < last; ++i) {
                const std::size_t dst = next[t][digit_of(bits[i], shift, width)]++;
                bits_next[dst] = bits[i];
                if (pairs) values_next[dst] = values[i];
            }
        });
        bits.swap(bits_next);
        if (pairs) values.swap(values_next);
    }
    for (std::size_t i = 0; i < n; ++i) keys_out[i] = from_bits<Key>(bits[i]);
    if (pairs) std::memcpy(values_out, values.data(), n * sizeof(Value));
}

#define INSTANTIATE_CPU(Key) \
    template void radix_sort_cpu<Key>(const Key*, const Value*, Key*, Value*, std::size_t, int, int, unsigned);
INSTANTIATE_CPU(std::uint32_t)
INSTANTIATE_CPU(std::int32_t)
INSTANTIATE_CPU(float)
INSTANTIATE_CPU(std::uint64_t)
#undef INSTANTIATE_CPU

}  // namespace radix_sort
