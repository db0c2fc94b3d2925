// merge_sort_1_basic.cu: the textbook versions, straight from global memory.
//
// merge (PMPP 12.5, the basic merge kernel): every thread owns kOutputsPerThread consecutive
//   outputs. It finds where they start and end in A and B with two co-ranks (binary searches in
//   global memory) and merges them with merge_sequential, reading A and B and writing C directly.
//   Neighbouring threads touch addresses kOutputsPerThread elements apart, so a warp's accesses
//   do not coalesce, and every thread repeats a log2(n)-step search through global memory.
// sort (seed 002's exercise 4): bottom-up from runs of one element, ceil(log2 n) passes. In each
//   pass one block merges one pair of runs, its threads splitting the pair's output evenly by
//   co-rank as the basic kernel does. The first passes give a block two elements to merge with
//   256 threads; the last gives one block all n: at both ends most of the GPU waits.
// Measured (H200, 2026-11-30): sort 0.20 Gkeys/s at 2^24 (82 ms); merge 0.13 of the copy bandwidth.
#include "merge_sort_1_basic.cuh"

#include "common/cuda_check.h"

namespace merge_sort {

namespace {

constexpr int kThreads = 256;
constexpr std::size_t kOutputsPerThread = 8;
constexpr std::size_t kMaxBlocks = std::size_t{1} << 16;  // sort passes: a block loops over further pairs

template <class Key, class Less>
__global__ void merge_basic_kernel(TwoArrays<Key, NoValues> in, Key* c, Less less) {
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t k_begin = min_of(thread * kOutputsPerThread, in.size());
    const std::size_t k_end = min_of(k_begin + kOutputsPerThread, in.size());
    merge_slice(in, k_begin, k_end, c, static_cast<NoValues*>(nullptr), less);
}

// One block per pair of runs; the block's threads share the pair's output evenly.
template <class Key, class Value, class Less>
__global__ void merge_pairs_one_block_each(SortedRuns<Key, Value> pass, Key* out, Value* out_values, Less less) {
    const std::size_t pair_size = 2 * pass.width;
    for (std::size_t first = blockIdx.x * pair_size; first < pass.n; first += gridDim.x * pair_size) {
        const std::size_t length = min_of(pair_size, pass.n - first);
        const std::size_t per_thread = (length + blockDim.x - 1) / blockDim.x;
        const std::size_t k_begin = first + min_of(threadIdx.x * per_thread, length);
        const std::size_t k_end = first + min_of((threadIdx.x + 1) * per_thread, length);
        merge_slice(pass, k_begin, k_end, out, out_values, less);
    }
}

}  // namespace

template <class Key, class Less>
void merge_basic(const Key* a, std::size_t na, const Key* b, std::size_t nb, Key* c, std::size_t*, Less less) {
    const std::size_t total = na + nb;
    if (total == 0) return;
    const std::size_t threads = (total + kOutputsPerThread - 1) / kOutputsPerThread;
    const std::size_t blocks = (threads + kThreads - 1) / kThreads;
    merge_basic_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(two_arrays(a, na, b, nb), c, less);
    PMPP_CHECK_LAUNCH();
}

template <class Key, class Value, class Less>
void sort_basic(const SortArgs<Key, Value>& args, std::size_t n, Less less) {
    const int passes = merge_passes(n, 1);
    if (passes == 0) {  // n is 0 or 1: nothing to merge
        if (n == 1) {
            PMPP_CUDA_CHECK(cudaMemcpyAsync(args.keys_out, args.keys_in, sizeof(Key), cudaMemcpyDeviceToDevice));
            if constexpr (kHasValues<Value>)
                PMPP_CUDA_CHECK(
                    cudaMemcpyAsync(args.values_out, args.values_in, sizeof(Value), cudaMemcpyDeviceToDevice));
        }
        return;
    }
    const Key* src = args.keys_in;
    const Value* src_values = args.values_in;
    std::size_t width = 1;
    for (int pass = 1; pass <= passes; ++pass, width *= 2) {
        const PassOutput<Key, Value> dst = pass_output(args, pass, passes);
        const std::size_t pairs = (n + 2 * width - 1) / (2 * width);
        merge_pairs_one_block_each<<<static_cast<unsigned>(min_of(pairs, kMaxBlocks)), kThreads>>>(
            SortedRuns<Key, Value>{src, src_values, n, width}, dst.keys, dst.values, less);
        PMPP_CHECK_LAUNCH();
        src = dst.keys;
        src_values = dst.values;
    }
}

#define INSTANTIATE_BASIC(Key, Less)                     \
    MERGE_SORT_INSTANTIATE_MERGE(merge_basic, Key, Less) \
    MERGE_SORT_INSTANTIATE_SORT(sort_basic, Key, Less)
MERGE_SORT_FOR_EACH_KEY(INSTANTIATE_BASIC)
#undef INSTANTIATE_BASIC

}  // namespace merge_sort
