#include "common/device.h"

#include "common/cuda_check.h"

#include <cstdio>
#include <sstream>

namespace pmpp {

std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
    std::ostringstream os;
    os << "CUDA error in " << call << " at " << file << ":" << line << ": " << cudaGetErrorName(code) << " ("
       << cudaGetErrorString(code) << ")";
    return os.str();
}

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
    throw CudaError(code, describe_cuda_error(code, call, file, line));
}

GpuProbe probe_gpu() {
    GpuProbe probe;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        probe.reason = std::string("the CUDA runtime found no usable GPU (") + cudaGetErrorName(err) + ": " +
                       cudaGetErrorString(err) + ")";
        cudaGetLastError();  // clear, so later checks do not report this
        return probe;
    }
    if (count == 0) {
        probe.reason = "the CUDA runtime reports 0 devices";
        return probe;
    }
    cudaDeviceProp prop{};
    err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess) {
        probe.reason = std::string("cannot read device 0 (") + cudaGetErrorName(err) + ")";
        cudaGetLastError();
        return probe;
    }
    if (prop.major * 10 + prop.minor < 75) {
        probe.reason = std::string(prop.name) + " has compute capability " + std::to_string(prop.major) + "." +
                       std::to_string(prop.minor) + "; this course needs 7.5 or newer";
        return probe;
    }
    // Touch the context: a driver too old for this runtime fails here, not above.
    err = cudaFree(nullptr);
    if (err != cudaSuccess) {
        probe.reason = std::string("cannot create a CUDA context (") + cudaGetErrorName(err) + ": " +
                       cudaGetErrorString(err) + ")";
        cudaGetLastError();
        return probe;
    }
    probe.available = true;
    probe.device_count = count;
    return probe;
}

std::string format_cuda_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string DeviceSummary::compute_capability() const {
    return std::to_string(compute_major) + "." + std::to_string(compute_minor);
}

std::string DeviceSummary::one_line() const {
    char buf[512];
    std::snprintf(
        buf, sizeof buf, "%s (cc %s, %d SMs, %.1f GiB, L2 %.0f MiB, SM clock %d MHz, driver %s, CUDA runtime %s)",
        name.c_str(), compute_capability().c_str(), sm_count, global_memory_bytes / 1073741824.0, l2_bytes / 1048576.0,
        sm_clock_mhz, format_cuda_version(driver_version).c_str(), format_cuda_version(runtime_version).c_str());
    return buf;
}

DeviceSummary describe_device(int device) {
    DeviceSummary s;
    cudaDeviceProp prop{};
    PMPP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    s.index = device;
    s.name = prop.name;
    s.compute_major = prop.major;
    s.compute_minor = prop.minor;
    s.sm_count = prop.multiProcessorCount;
    s.global_memory_bytes = prop.totalGlobalMem;
    s.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    s.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
    // Clock rates moved out of cudaDeviceProp in CUDA 13: read them as attributes (kHz).
    int khz = 0;
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
    s.sm_clock_mhz = khz / 1000;
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
    s.memory_clock_mhz = khz / 1000;
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&s.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    s.theoretical_bandwidth_gbs = 2.0 * khz * 1e3 * (s.memory_bus_bits / 8.0) / 1e9;
    PMPP_CUDA_CHECK(cudaDriverGetVersion(&s.driver_version));
    PMPP_CUDA_CHECK(cudaRuntimeGetVersion(&s.runtime_version));
    return s;
}

void device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
    PMPP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
}

}  // namespace pmpp
