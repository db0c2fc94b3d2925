// saxpy_harness.h: the checker and the benchmark of exercise 01, shared by main.cu and the tests.
#pragma once

#include "saxpy.h"

#include "common/exercise.h"

#include <functional>

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
};

SaxpyImpl impl_by_name(const std::string& name);

// Runs `impl` on one case with inputs drawn from `seed` and compares z with the CPU reference.
// Also fails when the inputs x or y were modified.
pmpp::CheckResult check_case(const SaxpyImpl& impl, const pmpp::Case& c, std::uint64_t seed);

// The exercise's definition for the common harness.
pmpp::ExerciseDef exercise();

// The tolerance of the check: GPUs fuse a * x + y into one FMA (one rounding), the CPU
// rounds twice; inputs lie in [-1, 1) and |a| < 4, so |z| < 5 and the two differ by at most
// an ulp of 4, about 5e-7.
constexpr pmpp::Tolerance kTolerance{2e-6, 1e-6};

}  // namespace saxpy
