// kind_seed.h: the tests' seed for a sort of n keys of one kind, shared by the three test files.
#pragma once

#include "../harness/bitonic_harness.h"

#include "common/testing.h"

#include <cstdint>

namespace bitonic_tests {

// A number per kind (the bits the case list once packed its kinds into), so that each kind and
// length draws its own inputs, and the same ones as before.
inline std::uint64_t kind_number(const bitonic::CaseKind& kind) {
    return static_cast<std::uint64_t>(kind.type) | (kind.order == SortOrder::Descending ? 4 : 0) |
           (kind.with_values ? 8 : 0) | (kind.specials ? 16 : 0);
}
inline std::uint64_t seed_for(std::size_t n, const bitonic::CaseKind& kind) {
    return pmpp::testing::test_seed(n * 64 + kind_number(kind));
}

}  // namespace bitonic_tests
