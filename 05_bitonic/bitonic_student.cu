// bitonic_student.cu: YOUR FILE. Complete tasks 1 and 2 (README.md), inside namespace bitonic,
// then run `make run`.
//
// The harness calls bitonic_sort_student (bottom) for uint32, int32 and float keys, ascending and
// descending, with and without values, on lengths from 0 to 2^20+5. Until you write it, the check
// rejects this file: "nothing was sorted". bitonic_network.h has the comparator Before<K> (the
// total order of floats, and the requested direction) and padded_length(n).
#include "bitonic.h"
#include "bitonic_network.h"

#include "common/cuda_check.h"

namespace bitonic {

// Task 1a: one step (k, j) of the network, one thread per element i.
//  - Its partner is i ^ j. Only the lower of the two works (partner > i), and a partner at or
//    past n does not exist: skip the pair (README, "Any n").
//  - The block of k elements that holds i sorts forward when bit k of i equals bit k of n - 1.
//    (The seed tests bit k of i alone: right only when n is a power of two. Why? README.)
//  - Forward, the key that comes first, before(a, b), goes to the lower index; backward, to the
//    higher one. A tie never swaps. When values != nullptr, swap the values with their keys.
// Index with std::size_t: an int overflows for arrays of 2^31 elements.
template <typename K>
__global__ void step_kernel(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k,
                            Before<K> before) {
    // TODO(task 1a)
}

// Task 2: every step with j < kTile inside shared memory. Block b owns the tile of kTile
// elements starting at b * kTile (the last tile may be shorter than kTile: check n).
//  - Load the tile into __shared__ arrays (keys, and values when present); __syncthreads().
//  - For each stage k from k_first to k_last, each step j from min(k, kTile) / 2 down to 1:
//    thread t handles one pair (kTile / 2 pairs, kTileThreads threads); the direction comes
//    from the element's index in the whole array, not in the tile; __syncthreads() after each
//    step, because the next step reads what other threads wrote.
//  - Store the tile back.
constexpr unsigned kTileThreads = 1024;
constexpr unsigned kTile = 2 * kTileThreads;

template <typename K>
__global__ void tile_kernel(K* keys, std::uint32_t* values, std::size_t n, std::size_t k_first, std::size_t k_last,
                            Before<K> before) {
    // TODO(task 2)
}

template <typename K>
void bitonic_sort_student(K* keys, std::uint32_t* values, std::size_t n, SortOrder order) {
    const Before<K> before = before_for<K>(order);
    // TODO(task 1b): for k = 2, 4, ..., padded_length(n), and for j = k/2, ..., 2, 1: launch
    // step_kernel with one thread per element, then PMPP_CHECK_LAUNCH(). n < 2 needs nothing.
    //
    // TODO(task 2): replace the launches whose j is below kTile: one tile_kernel launch for all
    // of stages 2 ... kTile, then, for each longer stage k, step_kernel for j = k/2 ... kTile
    // and one tile_kernel launch (k_first = k_last = k) for the rest.
    (void)keys, (void)values, (void)n, (void)before, (void)kTile;  // delete this line when you use them
}

BITONIC_INSTANTIATE_SORT(bitonic_sort_student)

}  // namespace bitonic
