#include "wrong_scan.h"

#include "../scan.h"

#include "common/cuda_check.h"

using namespace scan;

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
    if (i <= n && i > 0)
        out[i] = static_cast<int>(static_cast<unsigned>(out[i - 1]) + static_cast<unsigned>(in[i - 1]));
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

// ---- the Blelloch scan, one mistake at a time ------------------------------------------------

namespace {

struct BlellochMistakes {
    bool keeps_the_root = false;
    bool tree_rounded_down = false;
    bool leaves_the_padding = false;
    bool copies_back_bytes = false;
    bool overwrites_the_left_first = false;
};

std::size_t next_power_of_two(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

std::size_t power_of_two_at_or_below(std::size_t n) {
    std::size_t p = 1;
    while (p * 2 <= n) p <<= 1;
    return p;
}

__global__ void blelloch_up_level(unsigned* tree, std::size_t parents, std::size_t half) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= parents) return;
    const std::size_t right = (t + 1) * 2 * half - 1;
    tree[right] += tree[right - half];
}

__global__ void blelloch_down_level(unsigned* tree, std::size_t parents, std::size_t half,
                                    bool overwrites_the_left_first) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= parents) return;
    const std::size_t right = (t + 1) * 2 * half - 1, left = right - half;
    if (overwrites_the_left_first) {
        tree[left] = tree[right];
        tree[right] += tree[left];  // the parent's value twice: 0 + 0 from the root down
        return;
    }
    const unsigned left_sum = tree[left];
    tree[left] = tree[right];
    tree[right] += left_sum;
}

void blelloch(const int* in, int* out, std::size_t n, void* workspace, BlellochMistakes mistake) {
    if (n == 0) return;
    const std::size_t padded = mistake.tree_rounded_down ? power_of_two_at_or_below(n) : next_power_of_two(n);
    unsigned* tree = static_cast<unsigned*>(workspace);
    PMPP_CUDA_CHECK(cudaMemcpyAsync(tree, in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    if (!mistake.leaves_the_padding && padded > n)
        PMPP_CUDA_CHECK(cudaMemsetAsync(tree + n, 0, (padded - n) * sizeof(unsigned)));
    for (std::size_t half = 1; half < padded; half *= 2) {
        const std::size_t parents = padded / (2 * half);
        blelloch_up_level<<<blocks_for(parents), 256>>>(tree, parents, half);
        PMPP_CHECK_LAUNCH();
    }
    if (!mistake.keeps_the_root) PMPP_CUDA_CHECK(cudaMemsetAsync(tree + padded - 1, 0, sizeof(unsigned)));
    for (std::size_t half = padded / 2; half >= 1; half /= 2) {
        const std::size_t parents = padded / (2 * half);
        blelloch_down_level<<<blocks_for(parents), 256>>>(tree, parents, half, mistake.overwrites_the_left_first);
        PMPP_CHECK_LAUNCH();
    }
    const std::size_t bytes = mistake.copies_back_bytes ? n : n * sizeof(int);
    PMPP_CUDA_CHECK(cudaMemcpyAsync(out, tree, bytes, cudaMemcpyDeviceToDevice));
}

}  // namespace

namespace wrong {

std::size_t blelloch_workspace_bytes(std::size_t n) { return next_power_of_two(n) * sizeof(unsigned); }

std::size_t undersized_workspace_bytes(std::size_t n) { return n * sizeof(int); }

void blelloch_keeps_the_root(const int* in, int* out, std::size_t n, void* workspace) {
    BlellochMistakes mistake;
    mistake.keeps_the_root = true;
    blelloch(in, out, n, workspace, mistake);
}

void blelloch_tree_over_n_rounded_down(const int* in, int* out, std::size_t n, void* workspace) {
    BlellochMistakes mistake;
    mistake.tree_rounded_down = true;
    blelloch(in, out, n, workspace, mistake);
}

void blelloch_in_an_undersized_workspace(const int* in, int* out, std::size_t n, void* workspace) {
    blelloch(in, out, n, workspace, BlellochMistakes{});  // the scan is right; its workspace is not
}

void blelloch_copies_back_n_bytes(const int* in, int* out, std::size_t n, void* workspace) {
    BlellochMistakes mistake;
    mistake.copies_back_bytes = true;
    blelloch(in, out, n, workspace, mistake);
}

void blelloch_down_sweep_overwrites_the_left_first(const int* in, int* out, std::size_t n, void* workspace) {
    BlellochMistakes mistake;
    mistake.overwrites_the_left_first = true;
    blelloch(in, out, n, workspace, mistake);
}

}  // namespace wrong

namespace looks_wrong {

void blelloch_leaves_the_padding_unzeroed(const int* in, int* out, std::size_t n, void* workspace) {
    BlellochMistakes choice;
    choice.leaves_the_padding = true;
    blelloch(in, out, n, workspace, choice);
}

}  // namespace looks_wrong
