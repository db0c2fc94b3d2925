// Bad submission (issue 15): the scan launched on a non-blocking stream of its own, and the call
// returns before it is done. The harness's events on the default stream do not wait for such a
// stream: the issue's version earned full points at 0.05x the reference's time.
// Expected: every 02_scan part "forbidden API used" (cudaStreamCreateWithFlags: a stream the
// timing's events do not wait for is not the student's to make); 01_saxpy full marks. Were it
// allowed, the timing would still see it: every run ends when the whole device is idle
// (common/tests/test_checked_timing.cu shows it).
#include "scan.h"

#include "common/cuda_check.h"

// One thread, in order: slow but right, so only the stream can be wrong.
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
    static cudaStream_t side = nullptr;
    if (side == nullptr) PMPP_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    serial_exclusive_scan<<<1, 1, 0, side>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}
