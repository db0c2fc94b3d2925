#include "common/bits.h"

#include <gtest/gtest.h>

#include <cstdint>

TEST(Log2Exact, IsTheIndexOfThePowerOfTwosOneBit) {
    for (int k = 0; k < 64; ++k) EXPECT_EQ(pmpp::log2_exact(std::uint64_t{1} << k), k) << k;
}
