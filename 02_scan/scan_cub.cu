// scan_cub.cu: the library baseline, cub::DeviceScan::ExclusiveSum: a single-pass scan with
// decoupled look-back, tuned per architecture. Its temporary storage is sized by a first
// call and allocated by the harness, outside the timed region.
#include "scan.h"

#include "common/cuda_check.h"

#include <cub/device/device_scan.cuh>

namespace scan {

std::size_t scan_cub_workspace_bytes(std::size_t n) {
    std::size_t bytes = 0;
    PMPP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int*>(nullptr),
                                                  static_cast<int*>(nullptr), static_cast<std::int64_t>(n)));
    return bytes;
}

void exclusive_scan_cub(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    std::size_t bytes = scan_cub_workspace_bytes(n);
    PMPP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(workspace, bytes, in, out, static_cast<std::int64_t>(n)));
}

}  // namespace scan
