// 02_scan answered right in a student's own code: one thread scans in order (slow, but a student
// may call none of the course's scans). Not graded as it is: each bad/CASE/02_scan/scan_student.cu.diff
// plants one mistake in it (make_submissions.py applies them).
#include "scan.h"

#include "common/cuda_check.h"

namespace scan {

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
    serial_exclusive_scan<<<1, 1>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}

}  // namespace scan
