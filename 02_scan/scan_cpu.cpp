// scan_cpu.cpp: the definition of correct. One running sum; unsigned so that overflow wraps
// (as int32 addition does on the GPU) instead of being undefined. Works in place.
#include "scan.h"

namespace scan {

void exclusive_scan_cpu(const int* in, int* out, std::size_t n) {
    unsigned running = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned v = static_cast<unsigned>(in[i]);
        out[i] = static_cast<int>(running);
        running += v;
    }
}

}  // namespace scan
