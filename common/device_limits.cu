#include "common/device_limits.h"

#include "common/device.h"
#include "common/json.h"
#include "common/report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace pmpp {

namespace {

constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;

DeviceLimits published(int cc, int sms, std::size_t optin, std::size_t per_sm, int threads_per_sm, int blocks_per_sm,
                       std::size_t memory, std::size_t l2, std::size_t host) {
    DeviceLimits l;
    l.compute_capability = cc;
    l.sm_count = sms;
    l.shared_per_block = 48 * KiB;
    l.shared_per_block_optin = optin;
    l.shared_per_sm = per_sm;
    l.max_threads_per_sm = threads_per_sm;
    l.max_blocks_per_sm = blocks_per_sm;
    l.registers_per_sm = 65536;
    l.memory_bytes = memory;
    l.l2_bytes = l2;
    l.host_memory_bytes = host;
    return l;
}

int attribute(cudaDeviceAttr which, int device) {
    int value = 0;
    PMPP_CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
    return value;
}

DeviceLimits limits_of_current_device() {
    int device = 0;
    PMPP_CUDA_CHECK(cudaGetDevice(&device));
    DeviceLimits l;
    l.compute_capability = 10 * attribute(cudaDevAttrComputeCapabilityMajor, device) +
                           attribute(cudaDevAttrComputeCapabilityMinor, device);
    l.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
    l.shared_per_block = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock, device));
    l.shared_per_block_optin = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    l.shared_per_sm = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    l.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
    l.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device);
    l.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, device);
    l.l2_bytes = static_cast<std::size_t>(attribute(cudaDevAttrL2CacheSize, device));
    std::size_t free_bytes = 0;
    PMPP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &l.memory_bytes));
    return l;
}

// The value of /proc/meminfo's line "<key>: N kB", in bytes; 0 when absent.
std::size_t meminfo_bytes(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key + ":", 0) == 0)
            return static_cast<std::size_t>(std::strtoull(line.c_str() + key.size() + 1, nullptr, 10)) * KiB;
    return 0;
}

std::string read_file(const char* path) {
    std::ifstream in(path);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::size_t own_resident_bytes() {
    const std::string statm = read_file("/proc/self/statm");
    unsigned long long pages_total = 0, pages_resident = 0;
    if (std::sscanf(statm.c_str(), "%llu %llu", &pages_total, &pages_resident) != 2) return 0;
    return static_cast<std::size_t>(pages_resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::string gib(std::size_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
    return buf;
}

}  // namespace

// Published limits (CUDA C++ Programming Guide, "Technical Specifications per Compute
// Capability"; memory and L2 as the boards report them).
const std::vector<DeviceProfile>& device_profiles() {
    static const std::vector<DeviceProfile> profiles = {
        // Colab's T4: 15095 MiB of its 16 GB usable; the VM has 12.7 GB, about 12 GiB free for a run.
        {"t4", "Tesla T4 (Colab)",
         published(75, 40, 64 * KiB, 64 * KiB, 1024, 16, 15095 * MiB, 4 * MiB, 12 * 1024 * MiB)},
        {"rtx3060", "GeForce RTX 3060 Laptop GPU (6 GB)",
         published(86, 30, 99 * KiB, 100 * KiB, 1536, 16, 5937 * MiB, 3 * MiB, 0)},
        {"l4", "NVIDIA L4", published(89, 58, 99 * KiB, 100 * KiB, 1536, 24, 22491 * MiB, 48 * MiB, 0)},
        {"a100", "NVIDIA A100-SXM4-40GB", published(80, 108, 163 * KiB, 164 * KiB, 2048, 32, 40339 * MiB, 40 * MiB, 0)},
    };
    return profiles;
}

const DeviceProfile* requested_profile() {
    const char* env = std::getenv("PMPP_DEVICE_PROFILE");
    if (env == nullptr || *env == '\0') return nullptr;
    std::string names;
    for (const DeviceProfile& p : device_profiles()) {
        if (env == std::string(p.name)) return &p;
        names += (names.empty() ? "" : ", ") + std::string(p.name);
    }
    throw DeviceProfileError("PMPP_DEVICE_PROFILE=" + std::string(env) + " is not a device profile (known: " + names +
                             "; unset it for the GPU's own limits)");
}

DeviceLimits lower_limits(const DeviceLimits& gpu, const DeviceProfile& profile) {
    const DeviceLimits& p = profile.limits;
    DeviceLimits l = gpu;
    l.profile = profile.name;
    l.profile_gpu = profile.gpu;
    l.compute_capability = std::min(gpu.compute_capability, p.compute_capability);
    l.sm_count = std::min(gpu.sm_count, p.sm_count);
    l.shared_per_block = std::min(gpu.shared_per_block, p.shared_per_block);
    l.shared_per_block_optin = std::min(gpu.shared_per_block_optin, p.shared_per_block_optin);
    l.shared_per_sm = std::min(gpu.shared_per_sm, p.shared_per_sm);
    l.max_threads_per_sm = std::min(gpu.max_threads_per_sm, p.max_threads_per_sm);
    l.max_blocks_per_sm = std::min(gpu.max_blocks_per_sm, p.max_blocks_per_sm);
    l.registers_per_sm = std::min(gpu.registers_per_sm, p.registers_per_sm);
    l.memory_bytes = std::min(gpu.memory_bytes, p.memory_bytes);
    l.l2_bytes = std::min(gpu.l2_bytes, p.l2_bytes);
    l.host_memory_bytes = gpu.host_memory_bytes == 0 ? p.host_memory_bytes
                          : p.host_memory_bytes == 0 ? gpu.host_memory_bytes
                                                     : std::min(gpu.host_memory_bytes, p.host_memory_bytes);
    return l;
}

const DeviceLimits& device_limits() {
    static const DeviceLimits limits = [] {
        const DeviceProfile* profile = requested_profile();
        const DeviceLimits gpu = limits_of_current_device();
        return profile ? lower_limits(gpu, *profile) : gpu;
    }();
    return limits;
}

std::string DeviceLimits::one_line() const {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "cc %d.%d, %d SMs, shared memory %zu KiB per block (opt-in) and %zu KiB per SM, %d threads per SM, "
                  "%s, L2 %.0f MiB",
                  compute_capability / 10, compute_capability % 10, sm_count, shared_per_block_optin / KiB,
                  shared_per_sm / KiB, max_threads_per_sm, gib(memory_bytes).c_str(), l2_bytes / 1048576.0);
    std::string s = buf;
    if (host_memory_bytes) s += ", host memory " + gib(host_memory_bytes);
    if (lowered()) s = "profile " + profile + " (" + profile_gpu + "): " + s;
    return s;
}

void usable_device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
    PMPP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const DeviceLimits& l = device_limits();
    if (!l.lowered() || l.memory_bytes >= total_bytes) return;
    const std::size_t in_use = total_bytes - free_bytes;
    total_bytes = l.memory_bytes;
    free_bytes = in_use < total_bytes ? total_bytes - in_use : 0;
}

std::size_t available_host_memory() {
    std::size_t available = meminfo_bytes(read_file("/proc/meminfo"), "MemAvailable");
    const std::size_t own = own_resident_bytes();
    const std::size_t profile_host = device_limits().host_memory_bytes;
    if (profile_host) {
        // The profile's machine: its available memory, less what this process holds already.
        const std::size_t left = profile_host > own ? profile_host - own : 0;
        available = available == 0 ? left : std::min(available, left);
    }
    return available;
}

namespace {

cudaFuncAttributes attributes_of(const void* kernel) {
    cudaFuncAttributes a{};
    PMPP_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    return a;
}

}  // namespace

bool shared_memory_fits(std::size_t bytes_per_block, int blocks_per_sm) {
    const DeviceLimits& l = device_limits();
    const std::size_t reserved = l.compute_capability >= 80 ? KiB : 0;
    return bytes_per_block <= l.shared_per_block_optin &&
           static_cast<std::size_t>(blocks_per_sm) * (bytes_per_block + reserved) <= l.shared_per_sm;
}

namespace {
std::mutex shapes_mutex;
std::vector<std::pair<std::string, std::string>>& shapes() {
    static std::vector<std::pair<std::string, std::string>> reported;
    return reported;
}
}  // namespace

void report_shape(const std::string& kernel, const std::string& shape) {
    std::lock_guard<std::mutex> lock(shapes_mutex);
    for (const auto& s : shapes())
        if (s.first == kernel) return;
    shapes().emplace_back(kernel, shape);
}

bool shipped_shape_fits(const std::string& kernel, std::size_t shipped_bytes, int blocks_per_sm,
                        const std::string& shipped, const std::string& fallback) {
    const bool fits = shared_memory_fits(shipped_bytes, blocks_per_sm);
    report_shape(kernel, fits ? shipped
                              : format("%s (%d blocks of the shipped shape, %zu bytes of shared memory each, do not "
                                       "fit an SM)",
                                       fallback.c_str(), blocks_per_sm, shipped_bytes));
    return fits;
}

std::vector<std::pair<std::string, std::string>> reported_shapes() {
    std::lock_guard<std::mutex> lock(shapes_mutex);
    return shapes();
}

void allow_dynamic_shared_memory(const void* kernel, std::size_t dynamic_bytes, const char* what) {
    const cudaFuncAttributes a = attributes_of(kernel);
    const DeviceLimits& l = device_limits();
    const std::size_t total = a.sharedSizeBytes + dynamic_bytes;
    if (total > l.shared_per_block_optin)
        throw std::length_error(std::string(what) + ": a block needs " + std::to_string(total) +
                                " bytes of shared memory (" + std::to_string(a.sharedSizeBytes) + " static + " +
                                std::to_string(dynamic_bytes) + " dynamic); this GPU allows " +
                                std::to_string(l.shared_per_block_optin) +
                                (l.lowered() ? " (profile " + l.profile + ")" : ""));
    if (total > l.shared_per_block)
        PMPP_CUDA_CHECK(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic_bytes)));
}

int resident_blocks_per_sm(const void* kernel, int threads, std::size_t dynamic_bytes) {
    int blocks = 0;
    PMPP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_bytes));
    const DeviceLimits& l = device_limits();
    if (l.lowered()) {
        const cudaFuncAttributes a = attributes_of(kernel);
        const int warps = (threads + 31) / 32;
        blocks = std::min(blocks, l.max_blocks_per_sm);
        blocks = std::min(blocks, l.max_threads_per_sm / (warps * 32));
        // Registers are allocated per warp in units of 256.
        const int per_warp = (a.numRegs * 32 + 255) / 256 * 256;
        if (per_warp > 0) blocks = std::min(blocks, l.registers_per_sm / (per_warp * warps));
        const std::size_t shared = a.sharedSizeBytes + dynamic_bytes + (l.compute_capability >= 80 ? KiB : 0);
        if (shared > 0) blocks = std::min<int>(blocks, static_cast<int>(l.shared_per_sm / shared));
    }
    return std::max(blocks, 1);
}

// The device of a results file: the GPU, and the profile whose limits the shapes followed.
Json device_json(const DeviceSummary& device, const DeviceLimits& limits) {
    Json d = Json::object();
    d.set("name", device.name);
    d.set("compute_capability", device.compute_capability());
    d.set("sm_count", device.sm_count);
    d.set("memory_bytes", static_cast<double>(device.global_memory_bytes));
    d.set("l2_bytes", static_cast<double>(device.l2_bytes));
    d.set("sm_clock_mhz", device.sm_clock_mhz);
    d.set("memory_clock_mhz", device.memory_clock_mhz);
    d.set("memory_bus_bits", device.memory_bus_bits);
    d.set("driver", format_cuda_version(device.driver_version));
    d.set("runtime", format_cuda_version(device.runtime_version));
    if (limits.lowered()) {
        Json p = Json::object();
        p.set("name", limits.profile);
        p.set("gpu", limits.profile_gpu);
        p.set("compute_capability", format("%d.%d", limits.compute_capability / 10, limits.compute_capability % 10));
        p.set("sm_count", limits.sm_count);
        p.set("shared_per_block_optin", static_cast<double>(limits.shared_per_block_optin));
        p.set("shared_per_sm", static_cast<double>(limits.shared_per_sm));
        p.set("max_threads_per_sm", limits.max_threads_per_sm);
        p.set("memory_bytes", static_cast<double>(limits.memory_bytes));
        p.set("l2_bytes", static_cast<double>(limits.l2_bytes));
        p.set("host_memory_bytes", static_cast<double>(limits.host_memory_bytes));
        d.set("profile", p);
    }
    return d;
}

}  // namespace pmpp
