#include "wrong_find_repeats.h"

#include "../find_repeats.h"

#include "common/cuda_check.h"

namespace {

// Reverses every run of 32 outputs in place: the indices a warp would write in reverse lane order.
__global__ void reverse_groups_of_32(int* indices, std::size_t count) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t group = i / 32 * 32, last = group + 31 < count ? group + 31 : count - 1;
    const std::size_t mirror = last - (i - group);
    if (i < count && i < mirror) {
        const int t = indices[i];
        indices[i] = indices[mirror];
        indices[mirror] = t;
    }
}

}  // namespace

namespace wrong {

std::size_t workspace_bytes(std::size_t n) { return find_repeats_fused_workspace_bytes(n); }

std::size_t misses_the_last_pair(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n < 2) return 0;
    // A correct compaction of a[0..n-1): the pair (n-2, n-1) is never seen.
    return find_repeats_fused(a, n - 1, indices, workspace);
}

std::size_t unsorted_output(const int* a, std::size_t n, int* indices, void* workspace) {
    const std::size_t count = find_repeats_fused(a, n, indices, workspace);
    if (count > 1) {
        reverse_groups_of_32<<<static_cast<unsigned>((count + 255) / 256), 256>>>(indices, count);
        PMPP_CHECK_LAUNCH();
    }
    return count;
}

std::size_t count_off_by_one(const int* a, std::size_t n, int* indices, void* workspace) {
    const std::size_t count = find_repeats_fused(a, n, indices, workspace);
    return count == 0 ? 0 : count - 1;
}

std::size_t writes_past_the_count(const int* a, std::size_t n, int* indices, void* workspace) {
    const std::size_t count = find_repeats_fused(a, n, indices, workspace);
    const int terminator = -2;
    if (count < n) PMPP_CUDA_CHECK(cudaMemcpy(indices + count, &terminator, sizeof(int), cudaMemcpyHostToDevice));
    return count;
}

}  // namespace wrong
