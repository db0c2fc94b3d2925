// Forbidden library (cg-scan): cooperative groups' scan, its header named through a macro.
// Must be rejected.
#include "scan.h"
#include <cooperative_groups.h>
#define CG_PART(x) <cooperative_groups/x.h>
#include CG_PART(scan)

namespace scan {

namespace cg = cooperative_groups;
__global__ void k(int* v) {
    v[threadIdx.x] = cg::exclusive_scan(cg::tiled_partition<32>(cg::this_thread_block()), v[threadIdx.x]);
}
std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int* out, std::size_t, void*) { k<<<1, 32>>>(out); }

}  // namespace scan
