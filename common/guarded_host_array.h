// guarded_host_array.h: GuardedBuffer's twin in host memory. n elements, pageable (std::vector)
// or pinned (cudaMallocHost), between two guard zones as GuardedBuffer puts them around device
// memory: a copy back of one element too many lands in a zone and is reported with its side and
// distance, in GuardedBuffer::check_guards()'s words, ending ", in host memory".
#pragma once

#include "common/check.h"
#include "common/device_buffer.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

template <typename T>
class GuardedHostArray {
public:
    GuardedHostArray(std::size_t n, bool pinned, std::string name)  // poisoned, guards armed
        : n_(n),
          name_(std::move(name)),
          pinned_(pinned ? PinnedBuffer<T>(kGuard + n + kGuard) : PinnedBuffer<T>()),
          pageable_(pinned ? 0 : kGuard + n + kGuard),
          base_(pinned ? pinned_.data() : pageable_.data()) {
        poison();
    }
    // A copy of `values` (inputs handed to code under test), guards armed.
    GuardedHostArray(const std::vector<T>& values, bool pinned, std::string name)
        : GuardedHostArray(values.size(), pinned, std::move(name)) {
        std::copy(values.begin(), values.end(), data());
    }
    GuardedHostArray(const GuardedHostArray&) = delete;
    GuardedHostArray& operator=(const GuardedHostArray&) = delete;

    T* data() { return base_ + kGuard; }
    const T* data() const { return base_ + kGuard; }
    std::size_t size() const { return n_; }

    // 0xFF in every element (the device outputs' poison), kGuardByte in both zones.
    void poison() {
        std::memset(data(), 0xFF, n_ * sizeof(T));
        std::memset(base_, kGuardByte, kGuard * sizeof(T));
        std::memset(data() + n_, kGuardByte, kGuard * sizeof(T));
    }
    // "wrote 1 element past the end of z (index N; it has N elements), in host memory".
    CheckResult check_guards() const {
        const auto* bytes = reinterpret_cast<const unsigned char*>(base_);
        CheckResult r = judge_guards<T>(bytes, bytes + (kGuard + n_) * sizeof(T), kGuard * sizeof(T), n_, name_);
        if (!r.ok) r.message += ", in host memory";
        return r;
    }

private:
    static constexpr std::size_t kGuard = guard_bytes<T>() / sizeof(T);  // elements per zone
    std::size_t n_;
    std::string name_;
    PinnedBuffer<T> pinned_;
    std::vector<T> pageable_;
    T* base_;
};

}  // namespace pmpp
