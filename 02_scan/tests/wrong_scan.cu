#include "wrong_scan.h"

#include "../scan.h"

#include "common/cuda_check.h"

namespace {

constexpr std::size_t kBlock = 256;

__global__ void add_input(const int* in, int* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = static_cast<int>(static_cast<unsigned>(out[i]) + static_cast<unsigned>(in[i]));
}

__global__ void subtract_previous_at_block_starts(const int* in, int* out, std::size_t n) {
    const std::size_t i = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x + 1) * kBlock;
    if (i < n) out[i] = static_cast<int>(static_cast<unsigned>(out[i]) - static_cast<unsigned>(in[i - 1]));
}

// An exclusive scan from the inclusive sums, out[i] = incl[i - 1] = out[i - 1] + in[i - 1]: out
// of place every store rewrites the value already there, but the classic bound `if (i <= n)`
// over n / 256 + 1 blocks lets thread n store the total at out[n], past the end.
__global__ void shift_inclusive_through_n(const int* in, int* out, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= n && i > 0) out[i] = static_cast<int>(static_cast<unsigned>(out[i - 1]) + static_cast<unsigned>(in[i - 1]));
}

// One Blelloch up-sweep level over `count` words with the right node one off: thread 0's right
// node is -1 (and its left node -1 - stride), before the start of the tree.
__global__ void up_sweep_level_index_off_by_one(unsigned* tree, long long count, long long stride) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long right = i * 2 * stride - 1, left = right - stride;
    if (right < count) tree[right] += tree[left];
}

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + 255) / 256); }

}  // namespace

namespace wrong {

std::size_t workspace_bytes(std::size_t n) { return scan_single_pass_workspace_bytes(n); }

void inclusive_instead_of_exclusive(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    add_input<<<blocks_for(n), 256>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}

void drops_the_last_block(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    const std::size_t last = (n - 1) / kBlock * kBlock;  // first element of the last block
    PMPP_CUDA_CHECK(cudaMemset(out + last, 0xFF, (n - last) * sizeof(int)));  // as the harness poisons it
}

void off_by_one_at_block_boundaries(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    subtract_previous_at_block_starts<<<blocks_for(n / kBlock + 1), 256>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}

}  // namespace wrong

namespace wrong {

void stores_the_total_past_the_end(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    shift_inclusive_through_n<<<static_cast<unsigned>(n / kBlock + 1), 256>>>(in, out, n);
    PMPP_CHECK_LAUNCH();
}

void up_sweep_writes_before_the_workspace(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    const long long words = static_cast<long long>(workspace_bytes(n) / sizeof(unsigned));
    up_sweep_level_index_off_by_one<<<blocks_for(static_cast<std::size_t>(words / 2 + 1)), 256>>>(
        static_cast<unsigned*>(workspace), words, 1);
    PMPP_CHECK_LAUNCH();
}

void returns_at_once_on_repeated_arguments(const int* in, int* out, std::size_t n, void* workspace) {
    static struct {
        const int* in = nullptr;
        int* out = nullptr;
        std::size_t n = 0;
        bool valid = false;
    } last;
    if (last.valid && last.in == in && last.out == out && last.n == n) return;
    exclusive_scan_single_pass(in, out, n, workspace);
    last.in = in, last.out = out, last.n = n, last.valid = true;
}

}  // namespace wrong
