#include "wrong_find_repeats.h"

#include "../find_repeats.h"
#include "../../02_scan/scan.h"

#include "common/cuda_check.h"

using namespace find_repeats;

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

// The slot of a repeat is positions[i] + flags[i]: the inclusive scan's value, one too many.
__global__ void scatter_to_inclusive_place(const int* flags, const int* positions, std::size_t n, int* indices) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && flags[i]) indices[positions[i] + flags[i]] = static_cast<int>(i);
}

// flags[i] = (a[i - 1] == a[i]): the pair (i - 1, i) is flagged at its second element.
__global__ void mark_repeats_looking_back(const int* a, std::size_t n, int* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flags[i] = i > 0 && a[i - 1] == a[i];
}

__global__ void scatter_flagged(const int* flags, const int* positions, std::size_t n, int* indices) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n && flags[i]) indices[positions[i]] = static_cast<int>(i);
}

// Variant 1's scatter: the flags were scanned in place, so a repeat is found again from `a`.
__global__ void scatter_repeats_at_places(const int* a, std::size_t n, const int* places, int* indices) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i + 1 < n && a[i] == a[i + 1]) indices[places[i]] = static_cast<int>(i);
}

// One thread per block of 1024 flags scans them serially, from 0: no carry from the blocks before.
constexpr std::size_t kUncarriedBlock = 1024;
__global__ void scan_blocks_without_carry(const int* in, int* out, std::size_t n) {
    const std::size_t first = blockIdx.x * kUncarriedBlock;
    const std::size_t last = first + kUncarriedBlock < n ? first + kUncarriedBlock : n;
    int sum = 0;
    for (std::size_t j = first; j < last; ++j) {
        const int flag = in[j];
        out[j] = sum;
        sum += flag;
    }
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

std::size_t scatter_workspace_bytes(std::size_t n) {
    return 2 * aligned_ints_bytes(n) + scan::scan_single_pass_workspace_bytes(n);
}

std::size_t scatters_one_slot_early(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n == 0) return 0;
    int* flags = static_cast<int*>(workspace);
    int* positions = reinterpret_cast<int*>(static_cast<char*>(workspace) + aligned_ints_bytes(n));
    void* scan_workspace = static_cast<char*>(workspace) + 2 * aligned_ints_bytes(n);
    mark_repeats<<<blocks_for(n), 256>>>(a, n, flags);
    PMPP_CHECK_LAUNCH();
    scan::exclusive_scan_single_pass(flags, positions, n, scan_workspace);
    scatter_to_position_minus_one<<<blocks_for(n), 256>>>(flags, positions, n, indices);
    PMPP_CHECK_LAUNCH();
    int last_position = 0, last_flag = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&last_position, positions + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(&last_flag, flags + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return static_cast<std::size_t>(last_position + last_flag);
}

namespace {

// The flags and positions arrays of the mark-scan-scatter variants here, then the scan's workspace.
struct ScatterWorkspace {
    int* flags;
    int* positions;
    void* scan;
};
ScatterWorkspace split_workspace(void* workspace, std::size_t n) {
    return {static_cast<int*>(workspace), reinterpret_cast<int*>(static_cast<char*>(workspace) + aligned_ints_bytes(n)),
            static_cast<char*>(workspace) + 2 * aligned_ints_bytes(n)};
}

// The count as the last place plus the last flag (right for any flags).
std::size_t count_from(const ScatterWorkspace& w, std::size_t n) {
    int last_position = 0, last_flag = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&last_position, w.positions + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(&last_flag, w.flags + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return static_cast<std::size_t>(last_position + last_flag);
}

}  // namespace

std::size_t scatters_to_the_inclusive_place(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n == 0) return 0;
    const ScatterWorkspace w = split_workspace(workspace, n);
    mark_repeats<<<blocks_for(n), 256>>>(a, n, w.flags);
    PMPP_CHECK_LAUNCH();
    scan::exclusive_scan_single_pass(w.flags, w.positions, n, w.scan);
    scatter_to_inclusive_place<<<blocks_for(n), 256>>>(w.flags, w.positions, n, indices);
    PMPP_CHECK_LAUNCH();
    return count_from(w, n);
}

std::size_t writes_the_second_index(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n == 0) return 0;
    const ScatterWorkspace w = split_workspace(workspace, n);
    mark_repeats_looking_back<<<blocks_for(n), 256>>>(a, n, w.flags);
    PMPP_CHECK_LAUNCH();
    scan::exclusive_scan_single_pass(w.flags, w.positions, n, w.scan);
    scatter_flagged<<<blocks_for(n), 256>>>(w.flags, w.positions, n, indices);
    PMPP_CHECK_LAUNCH();
    return count_from(w, n);
}

std::size_t flags_only_workspace_bytes(std::size_t n) { return n * sizeof(int); }

std::size_t uses_more_workspace_than_it_asks_for(const int* a, std::size_t n, int* indices, void* workspace) {
    return find_repeats_with_scan(scan::exclusive_scan_single_pass, a, n, indices, workspace);
}

std::size_t reads_the_count_before_the_array_at_n_0(const int* a, std::size_t n, int* indices, void* workspace) {
    int* places = static_cast<int*>(workspace);
    const unsigned blocks = blocks_for(n);
    if (blocks > 0) {
        mark_repeats<<<blocks, 256>>>(a, n, places);
        PMPP_CHECK_LAUNCH();
    }
    // In place, the scan's workspace after the places (rounded up to 16 bytes, as variant 1 does).
    scan::exclusive_scan_single_pass(places, places, n,
                                     static_cast<char*>(workspace) + (n * sizeof(int) + 15) / 16 * 16);
    if (blocks > 0) {
        scatter_repeats_at_places<<<blocks, 256>>>(a, n, places, indices);
        PMPP_CHECK_LAUNCH();
    }
    int count = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&count, places + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return static_cast<std::size_t>(count);
}

std::size_t scans_without_a_carry_between_blocks(const int* a, std::size_t n, int* indices, void* workspace) {
    if (n == 0) return 0;
    const ScatterWorkspace w = split_workspace(workspace, n);
    mark_repeats<<<blocks_for(n), 256>>>(a, n, w.flags);
    PMPP_CHECK_LAUNCH();
    scan_blocks_without_carry<<<static_cast<unsigned>((n + kUncarriedBlock - 1) / kUncarriedBlock), 1>>>(
        w.flags, w.positions, n);
    PMPP_CHECK_LAUNCH();
    scatter_flagged<<<blocks_for(n), 256>>>(w.flags, w.positions, n, indices);
    PMPP_CHECK_LAUNCH();
    return count_from(w, n);
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
