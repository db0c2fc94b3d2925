// scan_4_persistent.h: what the tests and tune/ need of variant 4 beyond scan.h: either of its
// two tile shapes on any GPU, so that the fallback is tested on the GPU that normally runs the
// shipped one. (Course side, like scan_3_lookback.cuh; students do not receive it.)
#pragma once

#include <cstddef>

namespace scan::persistent {

// Shipped: 512 threads x 16 ints, 3 stages (96 KiB a block), where two such blocks fit an SM
// (an H200, an A100 has room for one). Fallback: 256 threads x 16 ints, 3 stages (48 KiB),
// which fits every supported GPU (sm_75: 64 KiB a block and an SM).
enum class TileShape { Shipped, Fallback };

// Whether this GPU holds two blocks of the shipped shape per SM (asked once, reported once).
bool shipped_shape_fits();

// Variant 4 with the given shape (Shipped only where it fits); the workspace is
// scan_persistent_workspace_bytes(n) either way. max_grid > 0 caps the grid (the tests: a few
// blocks, each scanning hundreds of tiles in turn, whatever the GPU's size).
void exclusive_scan_with_shape(TileShape shape, const int* in, int* out, std::size_t n, void* workspace,
                               std::size_t max_grid = 0);

}  // namespace scan::persistent
