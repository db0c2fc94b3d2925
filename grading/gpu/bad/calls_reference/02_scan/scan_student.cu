// Bad submission (issue 15): the scan calls the library baseline's wrapper, exclusive_scan_cub,
// declared in scan.h and linked into build/scan. It earned full marks with no finding: the
// forbidden-API check looked for CUB's headers and symbols, and this file has neither.
// Expected: every 02_scan part "forbidden API used", naming exclusive_scan_cub.
#include "scan.h"

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t n) { return scan_cub_workspace_bytes(n); }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void* workspace) {
    exclusive_scan_cub(in, out, n, workspace);
}

}  // namespace scan
