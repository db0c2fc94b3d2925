// Bad submission for the grader's GPU check: the classic off-by-one, an inclusive scan where
// the exclusive one is asked (a serial scan of its own that adds each element before writing).
// Expected: 02_scan correctness "wrong result" with credit only for the cases it passes (n = 0),
// its performance parts "skipped"; 01_saxpy full marks.
#include "scan.h"

#include "common/cuda_check.h"

__global__ void serial_inclusive_scan(const int* in, int* out, std::size_t n) {
    unsigned sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum += static_cast<unsigned>(in[i]);
        out[i] = static_cast<int>(sum);
    }
}

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) {
    serial_inclusive_scan<<<1, 1>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}
