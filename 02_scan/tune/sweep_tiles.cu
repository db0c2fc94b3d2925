// tune/sweep_tiles.cu: the sweep behind NOTES.md: threads and rounds (16-byte words per thread) of
// the single-pass scan at 2^20, 2^24, 2^28, against CUB and cudaMemcpy. Built by tune/gpu_run.sh.
#include "../scan_3_single_pass.cu"
#include "scan_sweep.h"

using namespace scan;

int main() {
    return scan_sweep::sweep([](scan_sweep::Size& s) {
        s.row("T= 128 R=2", run_single_pass<128, 2>);
        s.row("T= 128 R=4", run_single_pass<128, 4>);
        s.row("T= 128 R=6", run_single_pass<128, 6>);
        s.row("T= 128 R=8", run_single_pass<128, 8>);
        s.row("T= 256 R=2", run_single_pass<256, 2>);
        s.row("T= 256 R=3", run_single_pass<256, 3>);
        s.row("T= 256 R=4", run_single_pass<256, 4>);
        s.row("T= 256 R=6", run_single_pass<256, 6>);
        s.row("T= 256 R=8", run_single_pass<256, 8>);
        s.row("T= 512 R=2", run_single_pass<512, 2>);
        s.row("T= 512 R=4", run_single_pass<512, 4>);
        s.row("T=1024 R=2", run_single_pass<1024, 2>);
    });
}
