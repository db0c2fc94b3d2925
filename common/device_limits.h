// device_limits.h: the limits every shape choice, size check and grid computation reads: the
// GPU's own, or, with PMPP_DEVICE_PROFILE set, the lower ones of a smaller supported GPU.
//
// Why a profile: the course runs on GPUs from a Colab T4 (sm_75, 64 KiB of shared memory per
// block and per SM, 40 SMs, 15 GiB) to an H200 (227 KiB, 132 SMs, 140 GiB). Code that asks the
// runtime for its limits directly is only ever tested with the large ones. Everything here asks
// device_limits() instead, so PMPP_DEVICE_PROFILE=t4 on a large GPU makes every exercise choose
// the shapes, sizes and grids it would choose on a T4, and refuse (as a T4 would) a shared-
// memory opt-in that a T4 does not allow. A profile only lowers limits: each value is the
// smaller of the GPU's and the profile's. It never claims speed: timings stay the real GPU's.
#pragma once

#include "common/cuda_check.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

// The smallest shared-memory opt-in limit of a supported GPU (sm_75: 64 KiB per block and per
// SM). Every kernel's fallback shape fits it; static_asserts next to the shapes say so.
constexpr std::size_t kSmallestSharedPerBlock = 64 * 1024;

struct DeviceLimits {
    std::string profile;  // "" (the GPU's own limits) or a profile name ("t4")
    std::string profile_gpu;  // the GPU the profile describes ("Tesla T4"), when there is one
    int compute_capability = 0;  // 75 for sm_75
    int sm_count = 0;
    std::size_t shared_per_block = 0;  // without opt-in (48 KiB on every supported GPU)
    std::size_t shared_per_block_optin = 0;
    std::size_t shared_per_sm = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int registers_per_sm = 0;
    std::size_t memory_bytes = 0;  // total device memory
    std::size_t l2_bytes = 0;
    std::size_t host_memory_bytes = 0;  // host memory the profile's machine has available (0: no limit)
    bool lowered() const { return !profile.empty(); }
    std::string one_line() const;  // the profile line of a run's header
};

// A supported GPU's published limits, as a profile may name it.
struct DeviceProfile {
    const char* name;  // t4, rtx3060, a100, l4
    const char* gpu;  // what it describes
    DeviceLimits limits;
};
const std::vector<DeviceProfile>& device_profiles();

// Thrown for an unknown PMPP_DEVICE_PROFILE (the harness exits with its usage code).
struct DeviceProfileError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The limits of the current device, lowered by PMPP_DEVICE_PROFILE when it is set; computed
// once per process. Requires a usable GPU. Throws DeviceProfileError for an unknown profile.
const DeviceLimits& device_limits();
// Combines a GPU's limits with a profile's (the smaller of each): device_limits()'s rule.
DeviceLimits lower_limits(const DeviceLimits& gpu, const DeviceProfile& profile);
// The profile PMPP_DEVICE_PROFILE names, nullptr when it is unset or empty.
const DeviceProfile* requested_profile();

// Free and total device memory, as the profile sees it: the profile's total, minus what is
// in use on the real GPU. Without a profile, cudaMemGetInfo.
void usable_device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

// Host memory a run may still take: MemAvailable of /proc/meminfo (0 if it cannot be read),
// lowered by the profile's host memory, less what this process already holds (its resident set).
std::size_t available_host_memory();

// Dynamic shared memory above the 48 KiB default must be allowed per kernel, once. This checks
// the kernel's static plus dynamic shared memory against the per-block opt-in limit first, and
// throws std::length_error naming the kernel and both figures when it does not fit: the same
// failure on an H200 under the t4 profile as on a T4.
void allow_dynamic_shared_memory(const void* kernel, std::size_t dynamic_bytes, const char* what);
template <class... Params>
void allow_dynamic_shared_memory(void (*kernel)(Params...), std::size_t dynamic_bytes, const char* what) {
    allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), dynamic_bytes, what);
}

// Whether blocks of this much shared memory fit: one within the per-block opt-in limit, and
// `blocks_per_sm` of them (with the 1 KiB per block the runtime keeps on sm_80 and newer) in one
// SM. How a kernel with a smaller fallback shape decides; it then reports its choice below.
bool shared_memory_fits(std::size_t bytes_per_block, int blocks_per_sm = 1);

// The shapes kernels chose from these limits, each reported once (by kernel) when first chosen:
// the harness prints them with the run's results and writes them into its results file.
void report_shape(const std::string& kernel, const std::string& shape);
std::vector<std::pair<std::string, std::string>> reported_shapes();

// A kernel's choice between its shipped shape and its fallback, made from these limits and
// reported: whether `blocks_per_sm` blocks of `shipped_bytes` of shared memory fit one SM
// (shared_memory_fits). Reports `shipped` under `kernel` when they fit, else `fallback` and why
// ("(2 blocks of the shipped shape, 98596 bytes of shared memory each, do not fit an SM)").
// Each kernel calls it once (a function-local static) and dispatches on the answer.
bool shipped_shape_fits(const std::string& kernel, std::size_t shipped_bytes, int blocks_per_sm,
                        const std::string& shipped, const std::string& fallback);

// Blocks of `kernel` that one SM holds at once: the runtime's occupancy, lowered to what the
// profile's threads, blocks, registers and shared memory per SM allow. At least 1.
int resident_blocks_per_sm(const void* kernel, int threads, std::size_t dynamic_bytes);
template <class... Params>
int resident_blocks_per_sm(void (*kernel)(Params...), int threads, std::size_t dynamic_bytes) {
    return resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), threads, dynamic_bytes);
}

// The "device" object of a results file: the GPU, and the profile when one lowers its limits.
class Json;
struct DeviceSummary;
Json device_json(const DeviceSummary& device, const DeviceLimits& limits);

}  // namespace pmpp
