// rng.h: the course's one random generator, and the input distributions every exercise uses.
//
// Portable by construction: xoshiro256** seeded through SplitMix64, integer arithmetic only,
// and floats built from integers by exact operations, so a seed gives the same inputs on every
// compiler, library and platform (std::uniform_*_distribution does not promise that).
// Every run prints its seed; --seed S replays it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace pmpp {

inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A seed for sub-stream `stream` of `base` (one per test case, so one case replays alone).
inline std::uint64_t derive_seed(std::uint64_t base, std::uint64_t stream) {
    std::uint64_t s = base ^ (stream * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull);
    splitmix64(s);
    return splitmix64(s);
}

// A seed nobody chose: mixes std::random_device and the clock.
std::uint64_t fresh_seed();

class Rng {
public:
    explicit Rng(std::uint64_t seed) {
        std::uint64_t s = seed;
        for (auto& word : state_) word = splitmix64(s);
    }
    std::uint64_t next_u64() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }
    std::uint32_t next_u32() { return static_cast<std::uint32_t>(next_u64() >> 32); }
    // Uniform in [0, bound), unbiased (rejection); bound 0 returns 0.
    std::uint64_t below(std::uint64_t bound) {
        if (bound == 0) return 0;
        const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
        std::uint64_t x;
        do x = next_u64();
        while (x >= limit);
        return x % bound;
    }
    // Uniform on the grid {k * 2^-24 : 0 <= k < 2^24}: exactly representable as float.
    float unit_float() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }
    // Uniform on [-1, 1) in steps of 2^-23: exact in float, no rounding anywhere.
    float signed_unit_float() { return static_cast<float>(next_u64() >> 40) * (1.0f / 8388608.0f) - 1.0f; }
    double unit_double() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t state_[4];
};

enum class Distribution {
    Uniform,  // integers over the whole type; floats on [-1, 1) (times the scale)
    FewDistinct,  // a handful of distinct values (default 16), in random order
    AllEqual,  // one random non-zero value everywhere
    Sorted,  // non-decreasing, random gaps
    Reversed,  // non-increasing
};

const char* to_string(Distribution d);
bool parse_distribution(const std::string& text, Distribution& out);
const std::vector<Distribution>& all_distributions();

struct GenerateOptions {
    std::size_t distinct = 16;  // FewDistinct: how many values
    float float_scale = 1.0f;  // floats: multiply by this (use a power of two to stay exact)
};

// A uniformly random value of T (integers: all bit patterns; floats: [-1, 1) grid).
template <typename T>
T random_value(Rng& rng) {
    if constexpr (std::is_same_v<T, float>) {
        return rng.signed_unit_float();
    } else if constexpr (std::is_same_v<T, double>) {
        return rng.unit_double() * 2.0 - 1.0;
    } else {
        static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "random_value: unsupported type");
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(rng.next_u64() >> (64 - 8 * sizeof(T))));
    }
}

namespace detail {

// Maps the monotone position `num / den` (num <= den < 2^60) to T, monotonically, over the
// same range random_value<T> draws from.
template <typename T>
T monotone_value(std::uint64_t num, std::uint64_t den) {
    using u128 = unsigned __int128;
    if constexpr (std::is_same_v<T, float>) {
        std::uint64_t k = static_cast<std::uint64_t>((static_cast<u128>(num) << 24) / den);
        if (k >= (1u << 24)) k = (1u << 24) - 1;
        return static_cast<float>(k) * (1.0f / 8388608.0f) - 1.0f;
    } else if constexpr (std::is_same_v<T, double>) {
        std::uint64_t k = static_cast<std::uint64_t>((static_cast<u128>(num) << 53) / den);
        if (k >= (1ull << 53)) k = (1ull << 53) - 1;
        return static_cast<double>(k) * (1.0 / 4503599627370496.0) - 1.0;
    } else {
        using U = std::make_unsigned_t<T>;
        const u128 top = static_cast<u128>(static_cast<U>(~U{0}));
        U u = static_cast<U>((static_cast<u128>(num) * top) / den);
        if constexpr (std::is_signed_v<T>) u ^= static_cast<U>(U{1} << (8 * sizeof(T) - 1));  // keep order
        return static_cast<T>(u);
    }
}

template <typename T>
T scaled(T v, const GenerateOptions& opt) {
    if constexpr (std::is_floating_point_v<T>) return v * static_cast<T>(opt.float_scale);
    return v;
}

template <typename T>
bool is_zero(T v) {
    return v == T{};
}

}  // namespace detail

// n values of T drawn from `dist` with `seed`; the same arguments give the same values everywhere.
template <typename T>
std::vector<T> generate(std::size_t n, Distribution dist, std::uint64_t seed, const GenerateOptions& opt = {}) {
    Rng rng(seed);
    std::vector<T> out(n);
    switch (dist) {
        case Distribution::Uniform:
            for (auto& v : out) v = detail::scaled(random_value<T>(rng), opt);
            break;
        case Distribution::FewDistinct: {
            std::vector<T> values(opt.distinct == 0 ? 1 : opt.distinct);
            for (auto& v : values) v = detail::scaled(random_value<T>(rng), opt);
            for (auto& v : out) v = values[rng.below(values.size())];
            break;
        }
        case Distribution::AllEqual: {
            T value;
            do value = detail::scaled(random_value<T>(rng), opt);
            while (detail::is_zero(value));
            for (auto& v : out) v = value;
            break;
        }
        case Distribution::Sorted:
        case Distribution::Reversed: {
            // Cumulative random gaps, normalized to the type's range: O(n), no sort needed.
            std::vector<std::uint32_t> gaps(n);
            std::uint64_t total = 1;
            for (auto& g : gaps) total += (g = static_cast<std::uint32_t>(rng.below(1u << 20)));
            std::uint64_t running = rng.below(total / (n + 1) + 1);  // random start
            const std::uint64_t den = total + running + 1;
            for (std::size_t i = 0; i < n; ++i) {
                running += gaps[i];
                out[i] = detail::scaled(detail::monotone_value<T>(running, den), opt);
            }
            if (dist == Distribution::Reversed) std::reverse(out.begin(), out.end());
            break;
        }
    }
    return out;
}

}  // namespace pmpp
