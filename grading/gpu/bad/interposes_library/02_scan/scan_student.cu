// Bad submission (issue 15): a correct scan (the reference's) whose file also defines
// clock_gettime, the C library call behind std::chrono::steady_clock: linked into the program
// it would replace the C library's for everyone in the process (the harness's host timings,
// the grader's deadlines inside it). Expected: every 02_scan part "build failed", the message
// naming clock_gettime (a student definition of a symbol a shared library provides).
#include "scan.h"

#include <ctime>

extern "C" int clock_gettime(clockid_t, struct timespec* t) {
    t->tv_sec = 0;
    t->tv_nsec = 0;  // time stands still
    return 0;
}

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_blelloch_workspace_bytes(n); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    exclusive_scan_blelloch(in, out, n, workspace);
}

}  // namespace scan
