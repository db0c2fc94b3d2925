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
