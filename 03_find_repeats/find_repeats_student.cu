// find_repeats_student.cu: YOUR FILE. Find the repeats with your own scan from 02_scan
// (README.md, tasks 1-4), inside namespace find_repeats. Then run `make run`.
//
// Rules: no Thrust, no CUB, no cooperative-groups scan or reduce (`make forbidden` checks).
// Your scan is the one in ../02_scan/scan_student.cu (scan::exclusive_scan_student): finish
// exercise 02 first. The harness fills `indices` with 0xFF bytes (-1) before each run, and
// checks that nothing past the count is written.
#include "find_repeats.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

namespace find_repeats {

// Task 1: scratch memory: an array of n flags that the scan turns into places, then your
// scan's own workspace (scan::scan_student_workspace_bytes). Keep the second part 16-byte
// aligned.
std::size_t find_repeats_student_workspace_bytes(std::size_t n) {
    // TODO(task 1)
    (void)n;  // delete this line when you use n
    return 0;
}

// Task 2: flags[i] = 1 if a[i] == a[i + 1], else 0 (the last element has no successor: 0).
__global__ void mark_repeats_kernel(const int* a, std::size_t n, int* flags) {
    // TODO(task 2)
}

// Task 3: after the exclusive scan, places[i] is the number of repeats before i: every i that
// starts a repeat writes i to indices[places[i]].
__global__ void scatter_repeats_kernel(const int* a, std::size_t n, const int* places, int* indices) {
    // TODO(task 3)
}

// Task 4: mark, scan (scan::exclusive_scan_student, in place on the flags is fine), scatter,
// and return the count (how do you get it from the places and the last flag?) to the host.
std::size_t find_repeats_student(const int* a, std::size_t n, int* indices, void* workspace) {
    // TODO(task 4)
    (void)a, (void)n, (void)indices, (void)workspace;  // delete this line when you use them
    return 0;
}

}  // namespace find_repeats
