#include "wrong_find_repeats.h"

#include "../find_repeats.h"
#include "../../02_scan/scan.h"

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

// `if (i <= n)` over n / 256 + 1 blocks: thread n exists and clears indices[n] too.
__global__ void clear_through_n(int* indices, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= n) indices[i] = -1;
}

__global__ void mark_repeats(const int* a, std::size_t n, int* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flags[i] = i + 1 < n && a[i] == a[i + 1];
}

// positions: the exclusive scan of the flags, so a repeat's slot is positions[i] itself; the
// "- 1" belongs to an inclusive scan. The first repeat (position 0) is stored at indices[-1].
__global__ void scatter_to_position_minus_one(const int* flags, const int* positions, std::size_t n, int* indices) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && flags[i]) indices[static_cast<long long>(positions[i]) - 1] = static_cast<int>(i);
}

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + 255) / 256); }

std::size_t aligned_ints_bytes(std::size_t n) { return (n * sizeof(int) + 255) / 256 * 256; }

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

namespace wrong {

std::size_t clears_one_past_the_end(const int* a, std::size_t n, int* indices, void* workspace) {
    clear_through_n<<<static_cast<unsigned>(n / 256 + 1), 256>>>(indices, n);
    PMPP_CHECK_LAUNCH();
    return find_repeats_fused(a, n, indices, workspace);
}

std::size_t scatter_workspace_bytes(std::size_t n) { return 2 * aligned_ints_bytes(n) + scan_single_pass_workspace_bytes(n); }

std::size_t scatters_one_slot_early(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n == 0) return 0;
    int* flags = static_cast<int*>(workspace);
    int* positions = reinterpret_cast<int*>(static_cast<char*>(workspace) + aligned_ints_bytes(n));
    void* scan_workspace = static_cast<char*>(workspace) + 2 * aligned_ints_bytes(n);
    mark_repeats<<<blocks_for(n), 256>>>(a, n, flags);
    PMPP_CHECK_LAUNCH();
    exclusive_scan_single_pass(flags, positions, n, scan_workspace);
    scatter_to_position_minus_one<<<blocks_for(n), 256>>>(flags, positions, n, indices);
    PMPP_CHECK_LAUNCH();
    int last_position = 0, last_flag = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&last_position, positions + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(&last_flag, flags + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return static_cast<std::size_t>(last_position + last_flag);
}

std::size_t returns_at_once_on_repeated_arguments(const int* a, std::size_t n, int* indices, void* workspace) {
    static struct {
        const int* a = nullptr;
        int* indices = nullptr;
        std::size_t n = 0, count = 0;
        bool valid = false;
    } last;
    if (last.valid && last.a == a && last.indices == indices && last.n == n) return last.count;
    last.count = find_repeats_fused(a, n, indices, workspace);
    last.a = a, last.indices = indices, last.n = n, last.valid = true;
    return last.count;
}

}  // namespace wrong
