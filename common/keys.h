// keys.h: sort keys. The course's total order for floats, and the order-preserving maps from
// signed and float keys to unsigned ones that radix sorts use. Host and device.
//
// Float order: -inf < ... < -0.0 < +0.0 < ... < +inf < NaNs. Every bit pattern has a place,
// -0.0 sorts before +0.0, and every NaN sorts last (those with the sign bit clear first, then
// those with it set): a sort never mixes NaNs into the numbers, whatever their sign (x86's
// 0.0f/0.0f is a NaN with the sign bit set).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/bits.h"  // PMPP_HD

namespace pmpp {

// Maps a key to an unsigned integer whose ordinary order is the key's total order.
// float: flip all bits of negatives and only the sign bit of positives (IEEE 754 totalOrder:
// negative NaNs lowest, positive NaNs highest), then subtract 2^23 - 1 modulo 2^32: the 2^23 - 1
// negative NaNs, now at the bottom, wrap around to the top, and everything else keeps its order.
// A bijection, so the key comes back exactly.
// Signed integers: flip the sign bit. Unsigned integers: unchanged.
constexpr std::uint32_t kNegativeNaNCount = 0x007FFFFFu;
PMPP_HD std::uint32_t ordered_bits(float f) {
    std::uint32_t u;
#ifdef __CUDA_ARCH__
    u = __float_as_uint(f);
#else
    std::memcpy(&u, &f, sizeof u);
#endif
    return ((u & 0x80000000u) ? ~u : (u | 0x80000000u)) - kNegativeNaNCount;
}
PMPP_HD float from_ordered_bits(std::uint32_t u) {
    u += kNegativeNaNCount;
    u = (u & 0x80000000u) ? (u & 0x7FFFFFFFu) : ~u;
    float f;
#ifdef __CUDA_ARCH__
    f = __uint_as_float(u);
#else
    std::memcpy(&f, &u, sizeof f);
#endif
    return f;
}
PMPP_HD std::uint32_t ordered_bits(std::int32_t v) { return static_cast<std::uint32_t>(v) ^ 0x80000000u; }
PMPP_HD std::int32_t from_ordered_bits_i32(std::uint32_t u) { return static_cast<std::int32_t>(u ^ 0x80000000u); }
PMPP_HD std::uint32_t ordered_bits(std::uint32_t v) { return v; }
PMPP_HD std::uint64_t ordered_bits(std::uint64_t v) { return v; }
PMPP_HD std::uint64_t ordered_bits(std::int64_t v) { return static_cast<std::uint64_t>(v) ^ 0x8000000000000000ull; }

// The total order as a comparator: for floats it differs from operator< (which leaves NaN
// unordered and calls -0.0 equal to +0.0); for integers it is operator<.
struct TotalOrderLess {
    template <typename T>
    PMPP_HD bool operator()(const T& a, const T& b) const {
        return ordered_bits(a) < ordered_bits(b);
    }
};
struct TotalOrderGreater {
    template <typename T>
    PMPP_HD bool operator()(const T& a, const T& b) const {
        return ordered_bits(b) < ordered_bits(a);
    }
};

}  // namespace pmpp
