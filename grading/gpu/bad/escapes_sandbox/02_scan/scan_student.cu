// Bad submission (issue 15): a scan that reads the environment (to behave differently when it
// believes it is being graded) and runs its work on a host thread of its own. Expected: every
// 02_scan part "forbidden API used", naming getenv and std::thread.
#include "scan.h"

#include "common/cuda_check.h"

#include <cstdlib>
#include <thread>

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_blelloch_workspace_bytes(n); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    const bool graded = std::getenv("CUDA_VISIBLE_DEVICES") != nullptr;
    std::thread worker([=] { exclusive_scan_blelloch(in, out, n, workspace); });
    if (graded)
        worker.join();
    else
        worker.detach();
}

}  // namespace scan
