#include "wrong_saxpy.h"

#include "../saxpy.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"

#include <cstdint>

using namespace saxpy;

namespace {

enum Mistake { kSkipLast, kOutOfPlace, kNeighbour, kModifiesInput, kNoScale };

__global__ void faulty(Mistake m, std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    switch (m) {
        case kSkipLast:
            if (i < n - 1) z[i] = a * x[i] + y[i];
            break;
        case kOutOfPlace:  // element n/2 lands one place to the right
            if (i == n / 2 && i + 1 < n)
                z[i + 1] = a * x[i] + y[i];
            else
                z[i] = a * x[i] + y[i];
            break;
        case kNeighbour: z[i] = a * x[i] + y[i + 1 < n ? i + 1 : i]; break;
        case kModifiesInput:
            z[i] = a * x[i] + y[i];
            const_cast<float*>(x)[i] = z[i];
            break;
        case kNoScale: z[i] = x[i] + y[i]; break;
    }
}

void launch(Mistake m, std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    faulty<<<static_cast<unsigned>((n + 255) / 256), 256>>>(m, n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

// float4 only, no tail: the n % 4 last elements are never written.
__global__ void float4_no_tail(std::size_t n4, float a, const float4* x, const float4* y, float4* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n4) {
        const float4 xv = x[i], yv = y[i];
        z[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
    }
}

// `if (i <= n)`: thread n exists (n / 256 + 1 blocks) and stores z[n]. Its reads are clamped to
// x[n - 1], y[n - 1], so that the store past the end is the only access outside the arrays.
__global__ void bound_includes_n_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i <= n) {
        const std::size_t j = i < n ? i : n - 1;
        z[i] = a * x[j] + y[j];
    }
}

// No `if (i < n)`: every thread of the grid stores z[i]; the reads are clamped (see the header).
__global__ void no_bound_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t j = i < n ? i : n - 1;
    z[i] = a * x[j] + y[j];
}

// The right kernel, for a launch whose grid is wrong.
__global__ void one_per_thread(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

// Thread i stores into z[i - 1] (signed): thread 0 writes z[-1], and z[n - 1] is never written.
__global__ void stores_one_place_early_kernel(std::size_t n, float a, const float* x, const float* y, float* z) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < static_cast<long long>(n)) z[i - 1] = a * x[i] + y[i];
}

struct LastCall {
    const float* x = nullptr;
    const float* y = nullptr;
    float* z = nullptr;
    std::size_t n = 0;
    bool valid = false;
    bool repeats(std::size_t n_, const float* x_, const float* y_, const float* z_) const {
        return valid && n == n_ && x == x_ && y == y_ && z == z_;
    }
};

}  // namespace

namespace wrong {

void skips_last_element(std::size_t n, float a, const float* x, const float* y, float* z) {
    launch(kSkipLast, n, a, x, y, z);
}
void writes_one_element_out_of_place(std::size_t n, float a, const float* x, const float* y, float* z) {
    launch(kOutOfPlace, n, a, x, y, z);
}
void reads_the_neighbour(std::size_t n, float a, const float* x, const float* y, float* z) {
    launch(kNeighbour, n, a, x, y, z);
}
void modifies_its_input(std::size_t n, float a, const float* x, const float* y, float* z) {
    launch(kModifiesInput, n, a, x, y, z);
}
void ignores_the_scale(std::size_t n, float a, const float* x, const float* y, float* z) {
    launch(kNoScale, n, a, x, y, z);
}

void vector_kernel_drops_the_tail(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t n4 = n / 4;
    if (n4 == 0) return;
    float4_no_tail<<<static_cast<unsigned>((n4 + 255) / 256), 256>>>(
        n4, a, reinterpret_cast<const float4*>(x), reinterpret_cast<const float4*>(y), reinterpret_cast<float4*>(z));
    PMPP_CHECK_LAUNCH();
}

void from_host_never_copies_back(std::size_t n, float a, const float* x, const float* y, float* z) {
    (void)z;
    pmpp::DeviceBuffer<float> dx, dy, dz(n);
    dx.upload(x, n);
    dy.upload(y, n);
    skips_last_element(n, a, dx.data(), dy.data(), dz.data());
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace wrong

namespace wrong {

void bound_includes_n(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;  // the clamped read needs an element
    bound_includes_n_kernel<<<static_cast<unsigned>(n / 256 + 1), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void stores_one_place_early(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;
    stores_one_place_early_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void has_no_bound(std::size_t n, float a, const float* x, const float* y, float* z) {
    if (n == 0) return;  // the clamped read needs an element
    no_bound_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void grid_rounded_down(std::size_t n, float a, const float* x, const float* y, float* z) {
    const std::size_t blocks = n / 256;
    if (blocks == 0) return;
    one_per_thread<<<static_cast<unsigned>(blocks), 256>>>(n, a, x, y, z);
    PMPP_CHECK_LAUNCH();
}

void never_launches(std::size_t n, float a, const float* x, const float* y, float* z) {
    (void)n, (void)a, (void)x, (void)y, (void)z;
}

void from_host_copies_one_too_many(std::size_t n, float a, const float* x, const float* y, float* z) {
    pmpp::DeviceBuffer<float> dx, dy, dz(n + 1);
    dx.upload(x, n);
    dy.upload(y, n);
    PMPP_CUDA_CHECK(cudaMemset(dz.data(), 0, (n + 1) * sizeof(float)));  // so z[n] receives a 0.0f
    saxpy_naive(n, a, dx.data(), dy.data(), dz.data());
    PMPP_CUDA_CHECK(cudaMemcpy(z, dz.data(), (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
}

void returns_at_once_on_repeated_arguments(std::size_t n, float a, const float* x, const float* y, float* z) {
    static LastCall last;
    if (last.repeats(n, x, y, z)) return;
    saxpy_naive(n, a, x, y, z);
    last = {x, y, z, n, true};
}

void from_host_returns_at_once_on_repeated_arguments(std::size_t n, float a, const float* x, const float* y, float* z) {
    static LastCall last;
    if (last.repeats(n, x, y, z)) return;
    saxpy_from_host_with(saxpy_naive, n, a, x, y, z);
    last = {x, y, z, n, true};
}

}  // namespace wrong
