// Clean: a scan with its own helper kernels and host helpers, std::vector, printf, a static
// object, cooperative groups (tiles and shuffles, no scan or reduce) and common/cuda_check.h.
// Links and is clean.
#include "scan.h"

#include "common/cuda_check.h"

#include <cooperative_groups.h>

#include <cstdio>
#include <string>
#include <vector>

namespace scan {

namespace cg = cooperative_groups;

namespace {

__global__ void warp_shift_kernel(int* v, std::size_t n) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    const int mine = i < n ? v[i] : 0;
    const int up = warp.shfl_up(mine, 1);
    warp.sync();
    if (i < n) v[i] = warp.thread_rank() == 0 ? 0 : up;
}

std::vector<std::string> launch_log;

}  // namespace

__global__ void copy_kernel(const int* in, int* out, std::size_t n) {
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < n) out[i] = in[i];
}

std::size_t scan_student_workspace_bytes(std::size_t n) { return n * sizeof(int); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) {
    if (n == 0) return;
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    copy_kernel<<<blocks, 256>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
    warp_shift_kernel<<<blocks, 256>>>(out, n);
    PMPP_CHECK_LAUNCH();
    launch_log.push_back("n=" + std::to_string(n));
    if (launch_log.size() == 1) std::printf("scan_clean: first call, n=%zu\n", n);
}

}  // namespace scan
