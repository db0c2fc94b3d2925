// bits.h: bit arithmetic shared by the exercises, on the host and on the device.
#pragma once

#include <cstdint>

#include "common/host_device.h"  // PMPP_HD

namespace pmpp {

// log2 of a power of two (> 0): the index of its one set bit, in one instruction.
PMPP_HD int log2_exact(std::uint64_t power_of_two) {
#ifdef __CUDA_ARCH__
    return __ffsll(static_cast<long long>(power_of_two)) - 1;
#else
    return __builtin_ctzll(power_of_two);
#endif
}

}  // namespace pmpp
