// saxpy_harness.h: exercise 01 as the runner sees it (common/exercise.h's typed contract), shared
// by main.cu and the tests: its cases, its variants and its problems.
#pragma once

#include "saxpy.h"

#include "common/device_buffer.h"
#include "common/exercise.h"

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

}  // namespace saxpy
