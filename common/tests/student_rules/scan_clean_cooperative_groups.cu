// Clean: plain cooperative groups (tiles, sync, shuffles) are allowed; only their scan and reduce
// are not. Must be accepted.
#include "scan.h"
#include <cooperative_groups.h>

namespace scan {

namespace cg = cooperative_groups;
__global__ void k(int* v) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    v[threadIdx.x] = warp.shfl_up(v[threadIdx.x], 1);
    warp.sync();
}
std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int* out, std::size_t, void*) { k<<<1, 32>>>(out); }

}  // namespace scan
