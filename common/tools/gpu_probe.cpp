// gpu_probe: exit status 0 when a usable GPU is present (the rule the tests' PMPP_REQUIRE_GPU
// uses), else 1 with the reason on stdout. The top-level `make test` asks it whether to run the
// device tests once more under the t4 profile.
#include "common/device.h"

#include <cstdio>

int main() {
    const pmpp::GpuProbe probe = pmpp::probe_gpu();
    if (!probe.available) {
        std::printf("%s\n", probe.reason.c_str());
        return 1;
    }
    std::printf("%d GPU(s)\n", probe.device_count);
    return 0;
}
