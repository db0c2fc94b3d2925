// device.h: is there a usable GPU, and what is it. Any failure of the driver or the runtime
// while looking (no device, "driver insufficient", no driver at all) counts as "no GPU".
#pragma once

#include <cstddef>
#include <string>

namespace pmpp {

struct GpuProbe {
    bool available = false;
    int device_count = 0;
    std::string reason;  // why not, when !available
};

// Never throws; safe on machines without a driver.
GpuProbe probe_gpu();

struct DeviceSummary {
    int index = 0;
    std::string name;
    int compute_major = 0, compute_minor = 0;
    int sm_count = 0;
    std::size_t global_memory_bytes = 0;
    std::size_t l2_bytes = 0;
    std::size_t shared_memory_per_block_optin = 0;
    int sm_clock_mhz = 0;  // maximum SM clock
    int memory_clock_mhz = 0;  // maximum memory clock
    int memory_bus_bits = 0;
    double theoretical_bandwidth_gbs = 0;  // 2 (DDR) * memory clock * bus width
    int driver_version = 0;  // e.g. 13000
    int runtime_version = 0;
    std::string compute_capability() const;
    std::string one_line() const;  // "NVIDIA H200 (sm_90, 132 SMs, 140.4 GiB, ...)"
};

// Requires a usable GPU (throws CudaError otherwise).
DeviceSummary describe_device(int device = 0);

// "13.0" from 13000.
std::string format_cuda_version(int version);

// Free and total device memory in bytes.
void device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

}  // namespace pmpp
