// device_check.cuh: comparing an output with the expected one without leaving the device, so
// that every timed run can be checked (time_checked's verify) at the cost of one kernel and a
// 16-byte copy back. Only a failure downloads both arrays, to report through check.h's host
// comparisons (the first mismatches, the hints).
//
//   compare_exact_on_device   bitwise, any trivially copyable T
//   compare_close_on_device   floats, the tolerance rule of compare_close
//   verify_output             guard zones first (a write past an end), then the comparison
#pragma once

#include "common/check.h"
#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_limits.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace pmpp {

namespace detail {

struct DiffCount {
    unsigned long long count;
    unsigned long long first;  // index of the first difference; ~0 when none
};

template <typename T>
struct BitwiseEqual {
    __device__ bool operator()(const T& a, const T& b) const {
        static_assert(std::is_trivially_copyable_v<T>);
        if constexpr (sizeof(T) % 4 == 0) {
            const auto* x = reinterpret_cast<const std::uint32_t*>(&a);
            const auto* y = reinterpret_cast<const std::uint32_t*>(&b);
            for (std::size_t k = 0; k < sizeof(T) / 4; ++k)
                if (x[k] != y[k]) return false;
        } else {
            const auto* x = reinterpret_cast<const unsigned char*>(&a);
            const auto* y = reinterpret_cast<const unsigned char*>(&b);
            for (std::size_t k = 0; k < sizeof(T); ++k)
                if (x[k] != y[k]) return false;
        }
        return true;
    }
};

// compare_close's rule (check.h), on the device.
template <typename T>
struct CloseEqual {
    double atol, rtol;
    __device__ bool operator()(T e, T a) const {
        if (isnan(e) || isnan(a)) return isnan(e) && isnan(a);
        if (isinf(e) || isinf(a)) return e == a;
        return fabs(static_cast<double>(e) - static_cast<double>(a)) <= atol + rtol * fabs(static_cast<double>(e));
    }
};

template <typename T, typename Equal>
__global__ void count_differences_kernel(const T* expected, const T* actual, std::size_t n, Equal equal,
                                         DiffCount* out) {
    unsigned long long count = 0, first = ~0ull;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        if (!equal(expected[i], actual[i])) {
            ++count;
            if (i < first) first = i;
        }
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        count += __shfl_down_sync(0xFFFFFFFFu, count, offset);
        const unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, first, offset);
        first = other < first ? other : first;
    }
    if ((threadIdx.x & 31) == 0 && count > 0) {
        atomicAdd(&out->count, count);
        atomicMin(&out->first, first);
    }
}

template <typename T, typename Equal>
DiffCount count_differences(const T* expected, const T* actual, std::size_t n, Equal equal) {
    DiffCount host{0, ~0ull};
    if (n == 0) return host;
    DeviceBuffer<DiffCount> result(1);
    PMPP_CUDA_CHECK(cudaMemcpy(result.data(), &host, sizeof host, cudaMemcpyHostToDevice));
    const int sms = device_limits().sm_count;
    const std::size_t blocks_needed = (n + 255) / 256;
    const unsigned blocks =
        static_cast<unsigned>(std::min<std::size_t>(blocks_needed, static_cast<std::size_t>(sms) * 8));
    count_differences_kernel<<<blocks, 256>>>(expected, actual, n, equal, result.data());
    PMPP_CHECK_LAUNCH();
    PMPP_CUDA_CHECK(cudaMemcpy(&host, result.data(), sizeof host, cudaMemcpyDeviceToHost));
    return host;
}

template <typename T>
std::vector<T> download(const T* device, std::size_t n) {
    std::vector<T> host(n);
    if (n) PMPP_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

}  // namespace detail

// How many elements of `actual` differ bitwise from `expected` (both device arrays of n).
template <typename T>
std::size_t count_differences_on_device(const T* expected, const T* actual, std::size_t n) {
    return static_cast<std::size_t>(detail::count_differences(expected, actual, n, detail::BitwiseEqual<T>{}).count);
}

// compare_exact of two device arrays; the report of a failure is compare_exact's.
template <typename T>
CheckResult compare_exact_on_device(const T* expected, const T* actual, std::size_t n) {
    if (detail::count_differences(expected, actual, n, detail::BitwiseEqual<T>{}).count == 0)
        return CheckResult::pass(n);
    return compare_exact(detail::download(expected, n), detail::download(actual, n));
}

// compare_close of two device arrays of floats; the report of a failure is compare_close's.
template <typename T>
CheckResult compare_close_on_device(const T* expected, const T* actual, std::size_t n, Tolerance tol) {
    static_assert(std::is_floating_point_v<T>);
    if (detail::count_differences(expected, actual, n, detail::CloseEqual<T>{tol.atol, tol.rtol}).count == 0)
        return CheckResult::pass(n);
    return compare_close(detail::download(expected, n), detail::download(actual, n), tol);
}

// The check of one run's output: its guard zones intact, then equal to `expected` (device).
template <typename T>
CheckResult verify_output(const T* expected, const GuardedBuffer<T>& output) {
    CheckResult r = output.check_guards();
    if (!r.ok) return r;
    return compare_exact_on_device(expected, output.data(), output.size());
}

template <typename T>
CheckResult verify_output(const T* expected, const GuardedBuffer<T>& output, Tolerance tol) {
    CheckResult r = output.check_guards();
    if (!r.ok) return r;
    return compare_close_on_device(expected, output.data(), output.size(), tol);
}

}  // namespace pmpp
