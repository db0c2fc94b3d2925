// Bad submission (issue 15): the scan remembers its last call (pointers, n and the first input
// values) and returns at once when they repeat, as they do in every run of a benchmark. 02
// used to poison its output once, before the timed runs: this earned full points at 0.009x.
// Expected: 02_scan correctness "passed" (every case has new inputs), both performance parts
// "wrong result" (the poison written before each run is still there).
#include "scan.h"

#include "common/cuda_check.h"

#include <cstring>

// A scan of its own, one thread in order: slow, right, and calling no course code.
__global__ void serial_exclusive_scan(const int* in, int* out, std::size_t n) {
    unsigned sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned v = static_cast<unsigned>(in[i]);
        out[i] = static_cast<int>(sum);
        sum += v;
    }
}

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) {
    static const int* last_in = nullptr;
    static int* last_out = nullptr;
    static std::size_t last_n = 0;
    static int last_head[4] = {0, 0, 0, 0};
    int head[4] = {0, 0, 0, 0};
    if (n >= 4 && in != out) PMPP_CUDA_CHECK(cudaMemcpy(head, in, sizeof head, cudaMemcpyDeviceToHost));
    if (in == last_in && out == last_out && n == last_n && n >= 4 && std::memcmp(head, last_head, sizeof head) == 0)
        return;
    last_in = in, last_out = out, last_n = n;
    std::memcpy(last_head, head, sizeof head);
    serial_exclusive_scan<<<1, 1>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}
