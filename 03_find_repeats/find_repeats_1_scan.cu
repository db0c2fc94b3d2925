// find_repeats_1_scan.cu: stream compaction the textbook way (PMPP 11.1's applications):
// mark, scan, scatter.
//  1. flag[i] = (a[i] == a[i + 1]), 0 for the last element;
//  2. the exclusive scan of the flags gives every repeat its place in the output; the last
//     element never starts a repeat, so its place is the count;
//  3. each i that starts a repeat writes i to indices[place[i]].
// Traffic: read a, write flags; read flags, write places (the scan); read a and places: about
// 20 bytes per element against the 4 the fused version (variant 2) needs.
// Any scan fits: the reference runs it on 02's single-pass scan, the solution on the
// student's slot (find_repeats_with_scan).
#include "find_repeats.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

namespace find_repeats {

namespace {

__global__ void mark_repeats(const int* a, std::size_t n, int* flags) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) flags[i] = i + 1 < n && a[i] == a[i + 1];
}

__global__ void scatter_repeats(const int* a, std::size_t n, const int* places, int* indices) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i + 1 < n && a[i] == a[i + 1]) indices[places[i]] = static_cast<int>(i);
}

// The places array, rounded up to 16 bytes so the scan's workspace after it stays aligned.
std::size_t places_bytes(std::size_t n) { return (n * sizeof(int) + 15) / 16 * 16; }

}  // namespace

std::size_t find_repeats_with_scan_workspace_bytes(ScanWorkspaceFn scan_workspace_bytes, std::size_t n) {
    return places_bytes(n) + scan_workspace_bytes(n);
}

std::size_t find_repeats_with_scan(ScanFn scan, const int* a, std::size_t n, int* indices, void* workspace) {
    if (n < 2) return 0;
    int* places = static_cast<int*>(workspace);
    const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    mark_repeats<<<blocks, 256>>>(a, n, places);
    PMPP_CHECK_LAUNCH();
    scan(places, places, n, static_cast<char*>(workspace) + places_bytes(n));  // in place: flags become places
    scatter_repeats<<<blocks, 256>>>(a, n, places, indices);
    PMPP_CHECK_LAUNCH();
    int count = 0;
    PMPP_CUDA_CHECK(cudaMemcpy(&count, places + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return static_cast<std::size_t>(count);
}

std::size_t find_repeats_scan_workspace_bytes(std::size_t n) {
    return find_repeats_with_scan_workspace_bytes(scan::scan_single_pass_workspace_bytes, n);
}

std::size_t find_repeats_scan(const int* a, std::size_t n, int* indices, void* workspace) {
    return find_repeats_with_scan(scan::exclusive_scan_single_pass, a, n, indices, workspace);
}

}  // namespace find_repeats
