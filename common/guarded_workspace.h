// guarded_workspace.h: what a call that takes scratch memory from the harness may write (a scan,
// a compaction: `workspace_bytes(n)` asked for, then handed over), its output and its workspace,
// each between guard zones (GuardedBuffer). Both are poisoned before every run and their guards
// checked after it, together, so the check's one run and every timed run follow one rule.
#pragma once

#include "common/check.h"
#include "common/device_buffer.h"
#include "common/exercise.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

namespace pmpp {

template <typename T>
struct OutputAndWorkspace {
    GuardedBuffer<unsigned char> workspace;
    GuardedBuffer<T> output;

    OutputAndWorkspace(std::size_t n, std::string output_name, std::size_t workspace_bytes)
        : workspace(workspace_bytes, "the workspace"), output(n, std::move(output_name)) {}

    // 0xFF in both, guards armed: an implementation must not rely on zeroed scratch memory, nor
    // on what the run before left.
    void poison() {
        output.poison();
        workspace.poison();
    }
    // The output's zones, then the workspace's: "wrote 1 element past the end of out (...)",
    // "wrote 4 bytes before the start of the workspace (index -4 to -1)".
    CheckResult check_guards() const {
        CheckResult r = output.check_guards();
        return r.ok ? workspace.check_guards() : r;
    }

    // The device memory of both for n elements and `workspace_bytes`, as cudaMalloc commits it.
    static double committed_bytes(std::size_t n, double workspace_bytes) {
        return committed_device_bytes(static_cast<double>(n * sizeof(T)) + 2.0 * guard_bytes<T>()) +
               committed_device_bytes(workspace_bytes + 2.0 * guard_bytes<unsigned char>());
    }
};

// The largest workspace any variant of an exercise asks for at n (rows whose fn has a
// `workspace_bytes`, empty for the CPU's): each one's own query, so a library's is its size query
// and the student's is what the student's code asks for.
template <class Variants>
double largest_workspace(const Variants& variants, std::size_t n) {
    std::size_t most = 0;
    for (const auto& v : variants)
        if (v.fn.workspace_bytes) most = std::max(most, v.fn.workspace_bytes(n));
    return static_cast<double>(most);
}

}  // namespace pmpp
