// tune/scan_sweep.h: what every scan sweep of tune/ times its variants against, at each size:
// seeded input, the CPU's answer, cudaMemcpy's bandwidth, CUB and the shipped single-pass scan;
// then one line a variant: median and spread of 20 runs (CUDA events, L2 flushed), t / CUB, the
// fraction of the copy bandwidth, and whether the output (poisoned first) is the CPU's.
#pragma once

#include "../scan.h"
#include "common/device_buffer.h"
#include "common/rng.h"
#include "common/timing.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace scan_sweep {

// A scan as the sweeps' run functions take it: in, out, n, a workspace of workspace_bytes(n).
using ScanCall = std::function<void(const int*, int*, std::size_t, void*)>;

// Workspace for every variant: CUB's, or one status word a tile of 512 elements (the smallest
// tile swept), whichever is larger.
inline std::size_t workspace_bytes(std::size_t n) {
    return std::max(scan::scan_cub_workspace_bytes(n), (2 + n / 512) * sizeof(unsigned long long)) + 1024;
}

class Size {
public:
    Size(std::size_t n, const std::string& label, pmpp::L2Flusher& flusher, const pmpp::TimingOptions& timing)
        : n_(n), flusher_(flusher), timing_(timing), expect_(n), out_(n), workspace_(workspace_bytes(n)) {
        const std::vector<int> h = pmpp::generate<int>(n, pmpp::Distribution::Uniform, 1);
        scan::exclusive_scan_cpu(h.data(), expect_.data(), n);
        in_.upload(h);
        copy_ = pmpp::measure_copy_bandwidth(n * sizeof(int), timing_, &flusher_);
        cub_ = time([&] { scan::exclusive_scan_cub(in_.data(), out_.data(), n_, workspace_.data()); }).median;
        const pmpp::Stats shipped =
            time([&] { scan::exclusive_scan_single_pass(in_.data(), out_.data(), n_, workspace_.data()); });
        std::printf(
            "n=%s memcpy %.4f ms (%.0f GB/s)  cub %.4f ms = %.2f of copy  shipped %.4f ms t/cub %.3f "
            "of copy %.2f %s\n",
            label.c_str(), copy_.ms.median, copy_.gbs, cub_, copy_.ms.median / cub_, shipped.median,
            shipped.median / cub_, copy_.ms.median / shipped.median, right() ? "ok" : "(wrong)");
    }

    void row(const std::string& name, const ScanCall& run) {
        out_.poison();
        const pmpp::Stats s = time([&] { run(in_.data(), out_.data(), n_, workspace_.data()); });
        std::printf("  %-44s %.4f ms (spread %.3f) t/cub %.3f of copy %.2f %s\n", name.c_str(), s.median, s.spread(),
                    s.median / cub_, copy_.ms.median / s.median, right() ? "ok" : "(wrong)");
    }

private:
    pmpp::Stats time(const std::function<void()>& run) { return pmpp::time_device(timing_, &flusher_, run); }
    bool right() { return out_.to_host() == expect_; }

    std::size_t n_;
    pmpp::L2Flusher& flusher_;
    const pmpp::TimingOptions& timing_;
    std::vector<int> expect_;
    pmpp::DeviceBuffer<int> in_, out_;
    pmpp::DeviceBuffer<unsigned char> workspace_;
    pmpp::CopyBandwidth copy_{};
    double cub_ = 0;
};

// `rows` at 2^20 + 777 (a partial last tile), 2^24 and 2^28.
inline int sweep(const std::function<void(Size&)>& rows) {
    pmpp::L2Flusher flusher;
    pmpp::TimingOptions timing;
    timing.repeats = 20;
    timing.warmup = 3;
    for (int lg : {20, 24, 28}) {
        const std::size_t n = (std::size_t{1} << lg) + (lg == 20 ? 777 : 0);
        Size size(n, "2^" + std::to_string(lg) + (lg == 20 ? "+777" : ""), flusher, timing);
        rows(size);
    }
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

}  // namespace scan_sweep
