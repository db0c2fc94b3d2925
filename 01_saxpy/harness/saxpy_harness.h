// saxpy_harness.h: exercise 01 as the runner sees it (common/exercise.h's typed contract), shared
// by main.cu and the tests: its cases, its variants, its problems, and z's guard zones in host memory.
#pragma once

#include "saxpy.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace saxpy {

// How a case hands memory to the implementation.
enum Memory : int {
    kAligned,  // device pointers from cudaMalloc
    kMisalignedSame,  // x, y, z all one float past an aligned address
    kMisalignedMixed,  // x + 1, y + 2, z + 3 floats: no common 16-byte alignment
    kFromHostPageable,  // the from-host function, with std::vector memory
    kFromHostPinned,  // the from-host function, with cudaMallocHost memory
};
struct SaxpySpec {
    Memory memory = kAligned;
};
using SaxpyCase = pmpp::CaseOf<SaxpySpec>;
inline SaxpyCase make_case(std::size_t n, Memory memory = kAligned,
                           pmpp::Distribution dist = pmpp::Distribution::Uniform) {
    return {n, dist, {memory}};
}

// What the benchmark times from host memory besides the kernel: nothing, the end-to-end rows
// (pageable and pinned), or those rows with a note of where their time goes.
enum EndToEnd : int { kKernelOnly, kEndToEnd, kEndToEndWithPhases };

// Any implementation, as the check and the benchmark call it: device pointers for `device`, host
// pointers for `from_host` (null: none).
struct SaxpyFn {
    SaxpyDeviceFn device = nullptr;
    SaxpyDeviceFn from_host = nullptr;
    // Optional, the library's in-place form z = a * x + z: the benchmark times it alone, with
    // z = y restored untimed before each run (the check calls `device`, which does that copy).
    void (*in_place)(std::size_t n, float a, const float* x, float* z) = nullptr;
    EndToEnd end_to_end = kKernelOnly;  // with a from-host function only
};

// One problem: a, x and y, and the CPU's z (on the device too, for the device-memory runs).
struct SaxpyProblem {
    float a = 0;
    std::vector<float> x, y, expected;
    pmpp::DeviceBuffer<float> expected_dev;
};

using SaxpyExercise = pmpp::Exercise<SaxpySpec, SaxpyFn, SaxpyProblem>;
const SaxpyExercise& exercise();

// n floats in host memory, pageable (std::vector) or pinned (cudaMallocHost), the two kinds the
// from-host function is checked and timed with, between two guard zones as GuardedBuffer puts them
// around device memory: a copy back of one element too many lands in a zone and is reported with
// its side and distance, in GuardedBuffer::check_guards()'s words.
class GuardedHostArray {
public:
    GuardedHostArray(std::size_t n, bool pinned, std::string name)  // poisoned, guards armed
        : n_(n),
          name_(std::move(name)),
          pinned_(pinned ? pmpp::PinnedBuffer<float>(kGuard + n + kGuard) : pmpp::PinnedBuffer<float>()),
          pageable_(pinned ? 0 : kGuard + n + kGuard),
          base_(pinned ? pinned_.data() : pageable_.data()) {
        poison();
    }
    // A copy of `values` (the inputs handed to a from-host function), guards armed.
    GuardedHostArray(const std::vector<float>& values, bool pinned, std::string name)
        : GuardedHostArray(values.size(), pinned, std::move(name)) {
        std::copy(values.begin(), values.end(), data());
    }
    GuardedHostArray(const GuardedHostArray&) = delete;
    GuardedHostArray& operator=(const GuardedHostArray&) = delete;

    float* data() { return base_ + kGuard; }
    const float* data() const { return base_ + kGuard; }
    std::size_t size() const { return n_; }

    // 0xFF in every element (NaN, the device outputs' poison), pmpp::kGuardByte in both zones.
    void poison() {
        std::memset(data(), 0xFF, n_ * sizeof(float));
        std::memset(base_, pmpp::kGuardByte, kGuard * sizeof(float));
        std::memset(data() + n_, pmpp::kGuardByte, kGuard * sizeof(float));
    }
    // "wrote 1 element past the end of z (index N; it has N elements), in host memory".
    pmpp::CheckResult check_guards() const {
        const auto* bytes = reinterpret_cast<const unsigned char*>(base_);
        pmpp::CheckResult r =
            pmpp::judge_guards<float>(bytes, bytes + (kGuard + n_) * sizeof(float), kGuard * sizeof(float), n_, name_);
        if (r.ok) return r;
        r.message += ", in host memory";
        r.hint = "a copy of the wrong length: z has n elements, copy n * sizeof(float) bytes back";
        return r;
    }

private:
    static constexpr std::size_t kGuard = pmpp::guard_bytes<float>() / sizeof(float);  // elements per zone
    std::size_t n_;
    std::string name_;
    pmpp::PinnedBuffer<float> pinned_;
    std::vector<float> pageable_;
    float* base_;
};

// The tolerance of the check: GPUs fuse a * x + y into one FMA (one rounding), the CPU
// rounds twice; inputs lie in [-1, 1) and |a| < 4, so |z| < 5 and the two differ by at most
// an ulp of 4, about 5e-7.
constexpr pmpp::Tolerance kTolerance{2e-6, 1e-6};

}  // namespace saxpy
