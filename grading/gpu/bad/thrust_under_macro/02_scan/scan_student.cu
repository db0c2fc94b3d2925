// Bad submission (issue 15): Thrust, included only when a macro is defined that the real build's
// flags define (--expt-relaxed-constexpr defines __CUDACC_RELAXED_CONSTEXPR__) and a plain
// `nvcc -M` does not. The old check compiled the file on its own, saw no Thrust, and passed it.
// Expected: every 02_scan part "forbidden API used" (the real build's dependency file lists
// Thrust's headers); 01_saxpy full marks.
#include "scan.h"

#ifdef __CUDACC_RELAXED_CONSTEXPR__
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#endif

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }

void exclusive_scan_student(const int* in, int* out, std::size_t n, void*) {
#ifdef __CUDACC_RELAXED_CONSTEXPR__
    thrust::exclusive_scan(thrust::device, in, in + n, out);
#else
    (void)in, (void)out, (void)n;
#endif
}

}  // namespace scan
