// device_buffer.h: owning wrappers for device and pinned host memory, so an exception
// (a failed check, a CUDA error) never leaks an allocation.
//   DeviceBuffer<T>   device memory
//   GuardedBuffer<T>  device memory with poisoned guard zones before and after it: every
//                     buffer the harness hands to code it checks (outputs, scratch), so a write
//                     past either end is caught and reported with its side and distance
//   PinnedBuffer<T>   page-locked host memory
#pragma once

#include "common/check.h"
#include "common/cuda_check.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { resize(count); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            swap(other);
        }
        return *this;
    }

    // Reallocates only when growing; a zero count still yields a valid (non-null) pointer,
    // so kernels may be handed an empty buffer.
    void resize(std::size_t count) {
        if (count <= capacity_ && ptr_ != nullptr) {
            count_ = count;
            return;
        }
        release();
        PMPP_CUDA_CHECK(cudaMalloc(&ptr_, (count == 0 ? 1 : count) * sizeof(T)));
        count_ = count;
        capacity_ = count;
    }
    void release() {
        if (ptr_ != nullptr) cudaFree(ptr_);  // no check: may run while unwinding from an error
        ptr_ = nullptr;
        count_ = capacity_ = 0;
    }

    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    void upload(const T* host, std::size_t count) {
        resize(count);
        if (count) PMPP_CUDA_CHECK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    void download(T* host, std::size_t count) const {
        if (count) PMPP_CUDA_CHECK(cudaMemcpy(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> to_host() const {
        std::vector<T> host(count_);
        download(host.data(), count_);
        return host;
    }
    // Fills every byte with `byte` (0xFF makes floats NaN and integers all-ones): outputs are
    // poisoned before each run so an element the code never writes is caught by the check.
    void poison(unsigned char byte = 0xFF) {
        if (count_) PMPP_CUDA_CHECK(cudaMemset(ptr_, byte, count_ * sizeof(T)));
    }

private:
    void swap(DeviceBuffer& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(count_, o.count_);
        std::swap(capacity_, o.capacity_);
    }
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
    std::size_t capacity_ = 0;
};

// The byte that fills guard zones: not the outputs' poison (0xFF), so a write of -1 or NaN past
// the end is caught too; 0xA5A5A5A5 is neither a likely int nor a likely float.
constexpr unsigned char kGuardByte = 0xA5;

// Bytes of guard before and after a GuardedBuffer<T>: at least 256 (data() stays aligned to 256
// bytes, like cudaMalloc's memory) and at least 1024 elements (a whole block of 1024 threads
// writing one element each past the end lands inside the zone).
template <typename T>
constexpr std::size_t guard_bytes() {
    const std::size_t want = std::max<std::size_t>(256, 1024 * sizeof(T));
    return (want + 255) / 256 * 256;
}
// Bytes of each guard zone of a GuardedBuffer<T> asked for at least `min_guard_elements` per side
// (an image's 16 rows): guard_bytes<T>() or more, in whole 256 bytes. Estimates of memory use it too.
template <typename T>
constexpr std::size_t guard_zone_bytes(std::size_t min_guard_elements) {
    return std::max(guard_bytes<T>(), (min_guard_elements * sizeof(T) + 255) / 256 * 256);
}

// The verdict on two guard zones of `guard` bytes each, read back into host memory, around
// `count` elements of T named `name`: passes when both still hold kGuardByte; otherwise says
// which side and how far ("wrote 1 element past the end of z (index 1024; it has 1024
// elements)"), with a hint about the bound of an index. Device and host arrays share it.
template <typename T>
CheckResult judge_guards(const unsigned char* before, const unsigned char* after, std::size_t guard, std::size_t count,
                         const std::string& name) {
    std::size_t last_after = 0, first_before = guard;  // bytes: one past the farthest written
    for (std::size_t i = 0; i < guard; ++i)
        if (after[i] != kGuardByte) last_after = i + 1;
    for (std::size_t i = 0; i < guard; ++i)
        if (before[i] != kGuardByte) {
            first_before = i;
            break;
        }
    std::string message;
    auto elements = [](std::size_t bytes) { return (bytes + sizeof(T) - 1) / sizeof(T); };
    const char* unit = sizeof(T) == 1 ? " byte" : " element";  // scratch of unsigned char
    auto plural = [unit](std::size_t k) { return std::to_string(k) + unit + (k == 1 ? "" : "s"); };
    if (last_after > 0) {
        const std::size_t k = elements(last_after);
        message = "wrote " + plural(k) + " past the end of " + name + " (index " + std::to_string(count) +
                  (k > 1 ? " to " + std::to_string(count + k - 1) : "") + "; it has " + plural(count) + ")";
    }
    if (first_before < guard) {
        const std::size_t k = elements(guard - first_before);
        message += std::string(message.empty() ? "wrote " : "; and ") + plural(k) + " before the start of " + name +
                   " (index -" + std::to_string(k) + (k > 1 ? " to -1" : "") + ")";
    }
    if (message.empty()) return CheckResult::pass(count);
    CheckResult r = CheckResult::fail(message);
    r.hint =
        "a write outside the array: check the bound of every index (i < n, not i <= n) and the "
        "tail after the last full block";
    return r;
}

// `count` elements of device memory between two guard zones. data() is what the code under
// test receives; check_guards() tells whether it wrote outside [data(), data() + size()).
// `min_guard_elements` widens both zones where one wrong index reaches further than a block
// (a whole row of an image, a sort's padding to a power of two), so such a write stays inside
// the zone and is reported, instead of landing in another allocation.
template <typename T>
class GuardedBuffer {
public:
    GuardedBuffer() : GuardedBuffer(0) {}
    explicit GuardedBuffer(std::size_t count, std::string name = "the output", std::size_t min_guard_elements = 0)
        : guard_(guard_zone_bytes<T>(min_guard_elements)), name_(std::move(name)) {
        resize(count);
    }
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;
    GuardedBuffer(GuardedBuffer&&) noexcept = default;
    GuardedBuffer& operator=(GuardedBuffer&&) noexcept = default;

    // Reallocates only when growing; the guards are armed again at the new end.
    void resize(std::size_t count) {
        raw_.resize(guard_ + count * sizeof(T) + guard_);
        count_ = count;
        arm_guards();
    }
    void set_name(std::string name) { name_ = std::move(name); }

    T* data() { return reinterpret_cast<T*>(raw_.data() + guard_); }
    const T* data() const { return reinterpret_cast<const T*>(raw_.data() + guard_); }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    void upload(const T* host, std::size_t count) {
        if (count != count_) resize(count);
        if (count) PMPP_CUDA_CHECK(cudaMemcpy(data(), host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    // Device to device, from memory of the same size (restoring an input before a run).
    void copy_from_device(const T* source) {
        if (count_) PMPP_CUDA_CHECK(cudaMemcpy(data(), source, bytes(), cudaMemcpyDeviceToDevice));
    }
    void download(T* host, std::size_t count) const {
        if (count) PMPP_CUDA_CHECK(cudaMemcpy(host, data(), count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> to_host() const {
        std::vector<T> host(count_);
        download(host.data(), count_);
        return host;
    }

    // Fills the elements with `byte` (0xFF: NaN, -1) and arms both guards again: before each run.
    void poison(unsigned char byte = 0xFF) {
        if (count_) PMPP_CUDA_CHECK(cudaMemset(data(), byte, bytes()));
        arm_guards();
    }
    void arm_guards() {
        PMPP_CUDA_CHECK(cudaMemset(raw_.data(), kGuardByte, guard_));
        PMPP_CUDA_CHECK(cudaMemset(raw_.data() + guard_ + bytes(), kGuardByte, guard_));
    }

    // Passes when both zones still hold kGuardByte; otherwise says which side and how far:
    // "wrote 1 element past the end of z (z[1024])".
    CheckResult check_guards() const {
        std::vector<unsigned char> before(guard_), after(guard_);
        PMPP_CUDA_CHECK(cudaMemcpy(before.data(), raw_.data(), guard_, cudaMemcpyDeviceToHost));
        PMPP_CUDA_CHECK(cudaMemcpy(after.data(), raw_.data() + guard_ + bytes(), guard_, cudaMemcpyDeviceToHost));
        return judge_guards<T>(before.data(), after.data(), guard_, count_, name_);
    }

private:
    std::size_t guard_;  // bytes in each zone
    DeviceBuffer<unsigned char> raw_;
    std::size_t count_ = 0;
    std::string name_;
};

// Page-locked host memory: the DMA engines read it directly, so host<->device copies run at
// full link speed and can be asynchronous.
template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count) : count_(count) {
        PMPP_CUDA_CHECK(cudaMallocHost(&ptr_, (count == 0 ? 1 : count) * sizeof(T)));
    }
    ~PinnedBuffer() {
        if (ptr_ != nullptr) cudaFreeHost(ptr_);
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    PinnedBuffer(PinnedBuffer&& o) noexcept
        : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}

    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    std::size_t size() const { return count_; }
    T& operator[](std::size_t i) { return ptr_[i]; }
    const T& operator[](std::size_t i) const { return ptr_[i]; }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace pmpp
