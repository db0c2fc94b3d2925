// scan_student.cu: YOUR FILE. The work-efficient (Blelloch) exclusive scan, one kernel launch
// per level of the tree (README.md, tasks 1-4), inside namespace scan. Then run `make run`.
//
// Rules: no Thrust, no CUB, no cooperative-groups scan or reduce (`make forbidden` checks).
// The harness fills `out` with 0xFF bytes (-1) before each run, so an element you never write
// cannot pass by accident.
#include "scan.h"

#include "common/cuda_check.h"

namespace scan {

// Task 1: how many bytes of scratch memory your scan needs for n elements. The harness
// allocates them once, outside the timed region, and passes them as `workspace`. A Blelloch
// tree over n elements needs room for the next power of two at or above n.
std::size_t scan_student_workspace_bytes(std::size_t n) {
    // TODO(task 1)
    (void)n;  // delete this line when you use n
    return 0;
}

// Task 2: the up-sweep. At the level where children are `half` apart, one thread per parent:
// the parent (the right child's slot) adds the left child's sum. Only threads with work may write.
__global__ void up_sweep_kernel(int* tree, std::size_t parents, std::size_t half) {
    // TODO(task 2)
}

// Task 3: the down-sweep. One thread per parent: the left child gets the parent's value, the
// parent's slot (the right child) gets the parent's value plus the old left value.
__global__ void down_sweep_kernel(int* tree, std::size_t parents, std::size_t half) {
    // TODO(task 3)
}

// Task 4: the host loop. Copy `in` to the workspace (so in == out works), run the tree over the
// next power of two at or above n (what the padding holds never reaches the first n results),
// up-sweep level by level, set the root to 0, down-sweep level by level, copy the first n
// results to `out`. Check every launch with PMPP_CHECK_LAUNCH() and every runtime
// call with PMPP_CUDA_CHECK(...). n may be 0 or not a power of two.
void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    // TODO(task 4)
    (void)in, (void)out, (void)n, (void)workspace;  // delete this line when you use them
}

}  // namespace scan
