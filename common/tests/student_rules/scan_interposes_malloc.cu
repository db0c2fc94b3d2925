// Link rule: a scan that defines malloc, interposing the C library's for the whole program (every
// allocation of the harness would go through it). Its link must fail, naming malloc.
// (CUDA declares malloc __host__ __device__, so this definition is both; the body does not matter.)
#include "scan.h"

#include <cstddef>

extern "C" void* malloc(std::size_t) noexcept { return nullptr; }

namespace scan {

std::size_t scan_student_workspace_bytes(std::size_t) { return 0; }
void exclusive_scan_student(const int*, int*, std::size_t, void*) {}

}  // namespace scan
