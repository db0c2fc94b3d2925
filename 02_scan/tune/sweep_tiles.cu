// tune/sweep_tiles.cu: the sweep behind NOTES.md: threads and rounds (16-byte words per thread) of
// the single-pass scan at 2^20, 2^24, 2^28, against CUB and cudaMemcpy. Built by tune/gpu_run.sh.
#include "../scan_3_single_pass.cu"
#include "common/timing.h"
#include "common/device_buffer.h"
#include "common/rng.h"
#include <cstdio>
#include <vector>
using namespace pmpp;
using namespace scan;

int main() {
    L2Flusher fl;
    TimingOptions t;
    t.repeats = 20;
    t.warmup = 3;
    for (int lg : {20, 24, 28}) {
        const std::size_t n = std::size_t{1} << lg;
        std::vector<int> h = generate<int>(n, Distribution::Uniform, 1);
        std::vector<int> expect(n);
        exclusive_scan_cpu(h.data(), expect.data(), n);
        DeviceBuffer<int> in, out(n);
        in.upload(h);
        DeviceBuffer<unsigned char> ws(std::max(scan_cub_workspace_bytes(n), workspace_bytes<128, 1>(n)) + 1024);
        CopyBandwidth cb = measure_copy_bandwidth(n * 4, t, &fl);
        Stats cub = time_device(t, &fl, [&] { exclusive_scan_cub(in.data(), out.data(), n, ws.data()); });
        std::printf("n=2^%d memcpy %.4f ms (%.0f GB/s)  cub %.4f ms = %.2f of copy\n", lg, cb.ms.median, cb.gbs,
                    cub.median, cb.ms.median / cub.median);
#define RUN(T, R)                                                                                                  \
    {                                                                                                              \
        Stats s = time_device(t, &fl, [&] { run_single_pass<T, R>(in.data(), out.data(), n, ws.data()); });        \
        bool ok = out.to_host() == expect;                                                                         \
        std::printf("  T=%4d R=%d: %.4f ms  t/cub %.3f  of copy %.2f %s\n", T, R, s.median, s.median / cub.median, \
                    cb.ms.median / s.median, ok ? "" : "WRONG");                                                   \
    }
        RUN(128, 2);
        RUN(128, 4);
        RUN(128, 6);
        RUN(128, 8);
        RUN(256, 2);
        RUN(256, 3);
        RUN(256, 4);
        RUN(256, 6);
        RUN(256, 8);
        RUN(512, 2);
        RUN(512, 4);
        RUN(1024, 2);
    }
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}
