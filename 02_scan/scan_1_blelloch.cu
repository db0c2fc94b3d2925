// scan_1_blelloch.cu: the work-efficient scan (Blelloch 1990; PMPP 11.4), in global memory,
// one kernel launch per level of the tree, as the book and the classic assignment start.
//
// Idea: a balanced tree over the array. The up-sweep (reduce) makes each right child hold the
// sum of its subtree; the root is set to 0; the down-sweep hands every left child its
// parent's value and every right child its parent's value plus the left sum. O(n) additions,
// against Kogge-Stone's O(n log n).
// Non-power-of-two n: the tree runs over a workspace padded with zeros to the next power of two.
// Cost: 2 log2(n) launches, most of them tiny, and every level reads and writes global memory
// at a stride that grows, so later levels use one word of every 32-byte sector. Measured on an
// H200 (NOTES.md): about 11x slower than CUB at 2^28.
#include "scan.h"

#include "common/cuda_check.h"

namespace scan {

namespace {

std::size_t next_pow2(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

// Level with pair distance `half` (children half apart, parents 2 * half apart): one thread per parent.
__global__ void up_sweep(unsigned* data, std::size_t parents, std::size_t half) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= parents) return;
    const std::size_t right = (t + 1) * 2 * half - 1;
    data[right] += data[right - half];
}

__global__ void down_sweep(unsigned* data, std::size_t parents, std::size_t half) {
    const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (t >= parents) return;
    const std::size_t right = (t + 1) * 2 * half - 1;
    const unsigned left_sum = data[right - half];
    data[right - half] = data[right];
    data[right] += left_sum;
}

void launch_level(void (*kernel)(unsigned*, std::size_t, std::size_t), unsigned* data, std::size_t parents,
                  std::size_t half) {
    const unsigned threads = 256;
    kernel<<<static_cast<unsigned>((parents + threads - 1) / threads), threads>>>(data, parents, half);
    PMPP_CHECK_LAUNCH();
}

}  // namespace

std::size_t scan_blelloch_workspace_bytes(std::size_t n) { return next_pow2(n) * sizeof(unsigned); }

void exclusive_scan_blelloch(const int* in, int* out, std::size_t n, void* workspace) {
    if (n == 0) return;
    const std::size_t padded = next_pow2(n);
    unsigned* tree = static_cast<unsigned*>(workspace);
    // Copy first (so in == out works), zeros beyond n: they change no sum.
    PMPP_CUDA_CHECK(cudaMemcpyAsync(tree, in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    if (padded > n) PMPP_CUDA_CHECK(cudaMemsetAsync(tree + n, 0, (padded - n) * sizeof(unsigned)));
    for (std::size_t half = 1; half < padded; half *= 2) launch_level(up_sweep, tree, padded / (2 * half), half);
    PMPP_CUDA_CHECK(cudaMemsetAsync(tree + padded - 1, 0, sizeof(unsigned)));
    for (std::size_t half = padded / 2; half >= 1; half /= 2) launch_level(down_sweep, tree, padded / (2 * half), half);
    PMPP_CUDA_CHECK(cudaMemcpyAsync(out, tree, n * sizeof(int), cudaMemcpyDeviceToDevice));
}

}  // namespace scan
