// every_kind.h: what the three test files share about the kinds of sort: a seed for a sort of n
// keys of one kind, and the check of a host sort (the CPU network, the emulated fused sort) on
// every kind.
#pragma once

#include "../harness/bitonic_harness.h"

#include "common/testing.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace bitonic_tests {

// A number per kind (the bits the case list once packed its kinds into), so that each kind and
// length draws its own inputs, and the same ones as before.
inline std::uint64_t kind_number(const bitonic::CaseKind& kind) {
    return static_cast<std::uint64_t>(kind.type) | (kind.order == bitonic::SortOrder::Descending ? 4 : 0) |
           (kind.with_values ? 8 : 0) | (kind.specials ? 16 : 0);
}
inline std::uint64_t seed_for(std::size_t n, const bitonic::CaseKind& kind) {
    return pmpp::testing::test_seed(n * 64 + kind_number(kind));
}

// Every kind of sort (bitonic::all_kinds), without and with the special values.
inline std::vector<bitonic::CaseKind> kinds_with_and_without_specials() {
    std::vector<bitonic::CaseKind> kinds;
    for (const bitonic::CaseKind& base : bitonic::all_kinds())
        for (bool specials : {false, true}) {
            bitonic::CaseKind kind = base;
            kind.specials = specials;
            kinds.push_back(kind);
        }
    return kinds;
}

// `sort(keys, values, n, order)` on the host, values null for keys alone, on make_input's n keys
// of `kind` drawn from `seed`: check_sorted_output accepts the result.
template <class K, class HostSort>
void expect_host_sort_sorts(std::size_t n, const bitonic::CaseKind& kind, std::uint64_t seed, HostSort sort) {
    const auto in = bitonic::make_input<K>(n, pmpp::Distribution::Uniform, kind, seed);
    std::vector<K> keys = in.keys, expected = in.keys;
    std::vector<std::uint32_t> values = in.values;
    bitonic::sort_cpu(expected.data(), nullptr, n, kind.order);
    std::uint32_t* values_or_null = kind.with_values ? values.data() : nullptr;
    sort(keys.data(), values_or_null, n, kind.order);
    const pmpp::CheckResult r = bitonic::check_sorted_output(in, expected, keys.data(), values_or_null, kind.order);
    EXPECT_TRUE(r.ok) << "n=" << n << " " << bitonic::describe(kind) << ": " << r.report();
}

// The same on every kind (with and without specials) and every n of `sizes`, seeded by seed_for.
template <class HostSort>
void expect_host_sort_sorts_every_kind(const std::vector<std::size_t>& sizes, HostSort sort) {
    for (const bitonic::CaseKind& kind : kinds_with_and_without_specials())
        for (std::size_t n : sizes)
            pmpp::with_type<bitonic::KeyTypes>(kind.type, [&](auto tag) {
                expect_host_sort_sorts<typename decltype(tag)::type>(n, kind, seed_for(n, kind), sort);
            });
}

}  // namespace bitonic_tests
