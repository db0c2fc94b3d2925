// bitonic.h: the functions of exercise 05. Every sort reorders keys[0, n) in place into
// `order`; when `values` is not null, values[i] travels with keys[i] (key-value pairs).
//
// Device pointers and the default stream, unless a function says otherwise. Any n >= 0 up to
// kMaxSortLength. K is std::uint32_t, std::int32_t or float; floats follow the total order of
// common/keys.h (-inf < ... < -0.0 < +0.0 < ... < +inf < NaNs, every NaN last), so every bit pattern,
// NaNs included, has one place, and "sorted" has exactly one answer.
// Everything here is in namespace bitonic, as each exercise's functions are in the namespace its
// header is named after (saxpy.h: saxpy, ..., mandelbrot.h: mandelbrot).
#pragma once

#include "common/device_buffer.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace bitonic {

enum class SortOrder { Ascending, Descending };

// 2^31 - 1: every index, and the padded length 2^31, fits in 32 bits (variant 4 relies on it),
// and CUB takes an int count.
constexpr std::size_t kMaxSortLength = (std::size_t{1} << 31) - 1;

// ---- Your part: bitonic_student.cu ----------------------------------------------------------
// Task 1: the compare-exchange step kernel and the host loop over (k, j).
// Task 2: shared memory for every step whose stride j fits in a tile.
template <typename K>
void bitonic_sort_student(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// ---- Reference variants, one idea per file ------------------------------------------------
template <typename K>  // (1) one launch per (k, j), n threads, half idle
void bitonic_sort_seed(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // (2) n/2 threads: the lower index of a pair from bit arithmetic
void bitonic_sort_half_threads(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // (3) shared-memory tiles: every step with j below the tile in one launch
void bitonic_sort_shared(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);
template <typename K>  // (4) registers: several strides per pass over memory
void bitonic_sort_fused(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// One step (k, j) of the network over the whole array with n/2 threads: variant 2's kernel,
// which variant 3 reuses for the strides too long for its tiles.
template <typename K>
void bitonic_global_step(K* keys, std::uint32_t* values, std::size_t n, std::size_t j, std::size_t k, SortOrder order);

// ---- Library baselines ----------------------------------------------------------------------
// thrust::sort / thrust::sort_by_key, in place (bitonic_thrust.cu). Its temporary storage comes
// from a cache that keeps what it allocated, so repeated calls allocate nothing.
template <typename K>
void thrust_sort(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// cub::DeviceRadixSort, out of place, with its temporary storage allocated once, in the
// constructor (bitonic_cub.cu). Float keys are sorted as their ordered bits (keys.h): CUB
// treats -0.0 and +0.0 as equal, the course's total order does not.
template <typename K>
class CubRadixSort {
public:
    CubRadixSort(std::size_t max_n, bool with_values, SortOrder order);
    // keys_in -> keys_out, values_in -> values_out (when the sorter was built with values).
    // The inputs are left unchanged.
    void sort(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out, std::size_t n,
              cudaStream_t stream = 0);
    // Kernels one sort of n elements launches, counted from a CUDA graph captured on a stream.
    std::size_t count_kernel_launches(const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                                      std::uint32_t* values_out, std::size_t n);

private:
    std::size_t max_n_;
    bool with_values_;
    SortOrder order_;
    pmpp::DeviceBuffer<unsigned char> temp_;
    pmpp::DeviceBuffer<std::uint32_t> ordered_bits_;  // float keys only
};

// ---- CPU (bitonic_cpu.cpp) --------------------------------------------------------------------
// The definition of correct: std::sort under the total order (host arrays).
template <typename K>
void sort_cpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// The network itself on the CPU, counting what it does: the tests hold it against std::sort
// (every 0-1 input up to length 16, random inputs of every length) and against the formulas.
struct NetworkCounts {
    std::size_t steps = 0;  // (k, j) pairs: L(L+1)/2 for n = 2^L
    std::size_t comparators = 0;  // compare-exchanges: (n/4) L(L+1) for n = 2^L
};
template <typename K>
NetworkCounts bitonic_network_cpu(K* keys, std::uint32_t* values, std::size_t n, SortOrder order);

// ---- What the references launch ---------------------------------------------------------------
// Each reference counts its kernel launches and the bytes they move (every launch reads and
// writes each element it covers once), so the benchmark can print them beside the time and
// NOTES.md can compare them with the prediction. One sort at a time (not thread-safe).
struct LaunchTally {
    std::size_t launches = 0;
    double bytes = 0;
};
inline LaunchTally& launch_tally() {
    static LaunchTally tally;
    return tally;
}
inline void count_launch(std::size_t elements_covered, std::size_t bytes_per_element) {
    ++launch_tally().launches;
    launch_tally().bytes += 2.0 * static_cast<double>(elements_covered) * static_cast<double>(bytes_per_element);
}

}  // namespace bitonic

// Explicit instantiations for the three key types: every sort file ends with one of these, in
// the namespace of `fn` (bitonic's own sorts: inside namespace bitonic).
#define BITONIC_INSTANTIATE_SORT(fn)                                                                    \
    template void fn<std::uint32_t>(std::uint32_t*, std::uint32_t*, std::size_t, ::bitonic::SortOrder); \
    template void fn<std::int32_t>(std::int32_t*, std::uint32_t*, std::size_t, ::bitonic::SortOrder);   \
    template void fn<float>(float*, std::uint32_t*, std::size_t, ::bitonic::SortOrder);
