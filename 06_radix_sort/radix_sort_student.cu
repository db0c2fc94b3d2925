// radix_sort_student.cu: YOUR FILE. The radix sort of PMPP Fig. 13.4: one bit per pass,
// extract the bit, scan (with your scan from 02_scan), scatter (README.md, tasks 1-5). Then run
// `make run`. Tasks 6-8 (the chapter's exercises) make it fast, in this same file.
//
// Rules: no Thrust, no CUB (`make forbidden` checks this file and your scan). The harness fills
// keys_out and values_out with 0xFF bytes before each run, and the workspace too: a key you
// never write, or scratch memory you expect to be zero, cannot pass by accident.
//
// The functions are templates: one code for all four key types. Sort by the key's *ordered
// bits* (radix_sort.h): bit_of(key, b) is bit b of them, so int32 and float keys need nothing
// special from you. Move the keys themselves, never their bits.
#include "radix_sort.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

namespace radix_sort {

// Task 1: the bytes of scratch memory your sort needs for n keys (and n values if `pairs`):
// a second array of keys and one of values to ping-pong between passes, n + 1 ints of flags
// (the scan runs over n + 1 of them: Fig. 13.4's trick, see task 3), and your scan's own
// workspace, scan::scan_student_workspace_bytes(n + 1). Lay them out with radix_sort.h's
// Workspace: the same code then sizes the workspace here and carves it in task 5.
template <class Key>
std::size_t radix_sort_student_workspace_bytes(std::size_t n, bool pairs) {
    // TODO(task 1)
    (void)n, (void)pairs;  // delete this line when you use them
    return 0;
}

// Task 2: one thread per key: flags[i] = bit `bit` of keys[i]. One more thread (i == n) writes
// flags[n] = 0, so that after the exclusive scan flags[n] holds the number of ones in all.
template <class Key>
__global__ void extract_bit_kernel(const Key* keys, std::size_t n, int bit, int* flags) {
    // TODO(task 2)
}

// Task 4: one thread per key. After the scan, ones_before[i] counts the ones before key i and
// ones_before[n] all of them. A zero goes to i - ones_before[i]; a one to (the number of zeros)
// + ones_before[i]. Move the value with its key when values_in is not null.
template <class Key>
__global__ void scatter_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                               std::size_t n, int bit, const int* ones_before) {
    // TODO(task 4)
}

// Tasks 3 and 5: the host loop. For each bit b from args.begin_bit to args.end_bit - 1:
// extract_bit_kernel, scan::exclusive_scan_student(flags, flags, n + 1, ...) (in place is fine:
// task 3), scatter_kernel. The first pass reads args.keys_in (which you must not modify), each pass
// writes the array the previous one did not, and the last pass must write args.keys_out:
// pass_buffers() in radix_sort.h picks them. Handle n == 0 and begin_bit == end_bit (no pass:
// the output is a copy of the input). PMPP_CHECK_LAUNCH() after every launch,
// PMPP_CUDA_CHECK(...) around every runtime call.
template <class Key>
void radix_sort_student(const SortArgs<Key>& args) {
    // TODO(tasks 3 and 5)
    (void)args;  // delete this line when you use it
}

// Tasks 6-8 (optional, PMPP chapter 13's exercises 1-3): once the sort above passes, make it
// fast, one step at a time, keeping `make run` green after each:
//  6. coalesced scatter: sort each tile by the bit in shared memory, count zeros and ones per
//     tile, scan the counts, write each tile's zeros and ones as two contiguous runs;
//  7. multibit radix: 4 bits per pass, 16 buckets, 8 passes for 32-bit keys;
//  8. thread coarsening: several keys per thread.
// Compare your row with the references coalesced, multibit and coarsened (make run).

RADIX_SORT_INSTANTIATE(radix_sort_student)

}  // namespace radix_sort
