// Bad submission for the grader's GPU check: the classic off-by-one, an inclusive scan where
// the exclusive one is asked (the reference scan, then each input added back).
// Expected: 02_scan correctness "wrong result" with credit only for the cases it passes (n = 0),
// its performance parts "skipped"; 01_saxpy full marks.
#include "scan.h"

#include "common/cuda_check.h"

__global__ void add_input(const int* in, int* out, std::size_t n) {
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < n) out[i] += in[i];
}

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_blelloch_workspace_bytes(n) + n * sizeof(int); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    // Keep the input: the scan may run in place.
    int* saved = reinterpret_cast<int*>(static_cast<char*>(workspace) + scan_blelloch_workspace_bytes(n));
    PMPP_CUDA_CHECK(cudaMemcpyAsync(saved, in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    exclusive_scan_blelloch(in, out, n, workspace);
    add_input<<<static_cast<unsigned>((n + 255) / 256), 256>>>(saved, out, n);
    PMPP_CHECK_LAUNCH();
}
