// device_buffer.h: owning wrappers for device and pinned host memory, so an exception
// (a failed check, a CUDA error) never leaks an allocation.
#pragma once

#include "common/cuda_check.h"

#include <cstddef>
#include <cstring>
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
        if (this != &other) { release(); swap(other); }
        return *this;
    }

    // Reallocates only when growing; a zero count still yields a valid (non-null) pointer,
    // so kernels may be handed an empty buffer.
    void resize(std::size_t count) {
        if (count <= capacity_ && ptr_ != nullptr) { count_ = count; return; }
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
