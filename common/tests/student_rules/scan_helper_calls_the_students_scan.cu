// A second student file that calls the scan another student file defines (as 03 and 06 call the
// scan of 02_scan/scan_student.cu): clean when that file is among the student's files, or when
// STUDENT_MAY_CALL names the function; forbidden otherwise.
#include "scan.h"

namespace scan {

void exclusive_scan_twice(const int* in, int* out, std::size_t n, void* workspace) {
    exclusive_scan_student(in, out, n, workspace);
    exclusive_scan_student(out, out, n, workspace);
}

}  // namespace scan
