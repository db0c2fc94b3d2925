// testing.h: what every GoogleTest suite in the course shares.
//  - PMPP_REQUIRE_GPU(): skips a device test on a machine without a usable GPU, saying why.
//  - test_seed(): the suite's seed, fresh per run, printed at start; PMPP_TEST_SEED=S replays it.
//  - a seed per test (derived from the suite seed and the test's name), so one test replays alone.
#pragma once

#include "common/device.h"
#include "common/rng.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace pmpp::testing {

// The suite's seed (PMPP_TEST_SEED or fresh), fixed for the whole run.
std::uint64_t suite_seed();

// A seed for the running test: stable for a given suite seed and test name.
std::uint64_t test_seed(std::uint64_t stream = 0);

// Cached probe of the GPU (probing once keeps the suite fast without one).
const GpuProbe& gpu();

}  // namespace pmpp::testing

#define PMPP_REQUIRE_GPU()                                                          \
    do {                                                                            \
        if (!::pmpp::testing::gpu().available)                                      \
            GTEST_SKIP() << "needs a GPU: " << ::pmpp::testing::gpu().reason;       \
    } while (0)
