// saxpy_harness.h: the checker and the benchmark of exercise 01, shared by main.cu and the tests.
#pragma once

#include "saxpy.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

#include <functional>
#include <string>
#include <vector>

namespace saxpy {

// How a case hands memory to the implementation (Case::variant).
enum Variant : int {
    kAligned = 0,          // device pointers from cudaMalloc
    kMisalignedSame = 1,   // x, y, z all one float past an aligned address
    kMisalignedMixed = 2,  // x + 1, y + 2, z + 3 floats: no common 16-byte alignment
    kFromHostPageable = 3, // the from-host function, with std::vector memory
    kFromHostPinned = 4,   // the from-host function, with cudaMallocHost memory
};

// Any implementation, as the check sees it. Device pointers unless the variant is from-host.
struct SaxpyImpl {
    std::function<void(std::size_t, float, const float*, const float*, float*)> device;
    std::function<void(std::size_t, float, const float*, const float*, float*)> from_host;
    // Optional, the library's in-place form z = a * x + z: the benchmark times it alone, with
    // z = y restored untimed before each run (the check calls `device`, which does that copy).
    std::function<void(std::size_t, float, const float*, float*)> in_place;
};

SaxpyImpl impl_by_name(const std::string& name);

// z in host memory (the from-host variants) between two guard zones, as GuardedBuffer puts them
// around device memory: a copy back of one element too many lands in a zone and is reported
// with its side and distance. Pageable (std::vector) or pinned (cudaMallocHost) memory, the two
// kinds of host memory the from-host function is checked and timed with.
class GuardedHostArray {
public:
    GuardedHostArray(std::size_t n, bool pinned, std::string name);  // poisoned, guards armed
    GuardedHostArray(const GuardedHostArray&) = delete;
    GuardedHostArray& operator=(const GuardedHostArray&) = delete;

    float* data() { return base_ + kGuard; }
    const float* data() const { return base_ + kGuard; }
    std::size_t size() const { return n_; }

    // 0xFF in every element (NaN, the device outputs' poison), pmpp::kGuardByte in both zones.
    void poison();
    // GuardedBuffer::check_guards()'s rule and wording: "wrote 1 element past the end of z
    // (index N; it has N elements), in host memory".
    pmpp::CheckResult check_guards() const;

private:
    static constexpr std::size_t kGuard = pmpp::guard_bytes<float>() / sizeof(float);  // elements per zone
    std::size_t n_;
    std::string name_;
    pmpp::PinnedBuffer<float> pinned_;
    std::vector<float> pageable_;
    float* base_ = nullptr;
};

// Runs `impl` on one case with inputs drawn from `seed` and compares z with the CPU reference.
// z (device or host memory) lies between guard zones: a write outside it fails the case ("wrote
// 1 element past the end of z ..."), as does a write into the offset before a misaligned z.
// Also fails when the inputs x or y were modified.
pmpp::CheckResult check_case(const SaxpyImpl& impl, const pmpp::Case& c, std::uint64_t seed);

// The benchmark of `fn` under the name and kind of `impl`: the kernel row, and for the student
// and "vectorized" (when fn.from_host is set) the end-to-end rows from host memory. z is
// poisoned before every warm-up and timed run and checked after every one (its guard zones,
// then its values, on the device for the kernel row); the first wrong run makes the row wrong,
// its message naming the run ("timed run 3 of 20: ...").
std::vector<pmpp::Measurement> bench_impl(const pmpp::Impl& impl, const SaxpyImpl& fn, std::size_t n,
                                          pmpp::BenchContext& ctx);

// The exercise's definition for the common harness.
pmpp::ExerciseDef exercise();

// The tolerance of the check: GPUs fuse a * x + y into one FMA (one rounding), the CPU
// rounds twice; inputs lie in [-1, 1) and |a| < 4, so |z| < 5 and the two differ by at most
// an ulp of 4, about 5e-7.
constexpr pmpp::Tolerance kTolerance{2e-6, 1e-6};

}  // namespace saxpy
