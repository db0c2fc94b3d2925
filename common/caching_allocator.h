// caching_allocator.h: an allocator for Thrust's temporary storage that keeps every block it
// handed out and hands it out again. Thrust allocates temporaries on every call unless given an
// allocator; with this one nothing is allocated after the first (warm-up) call of a size, so no
// cudaMalloc lands inside a timed region.
//   thrust::sort(thrust::cuda::par(pmpp::thrust_allocator()), first, last, less);
// Host code compiled by nvcc only (it is used with Thrust).
#pragma once

#include "common/cuda_check.h"

#include <cstddef>
#include <vector>

namespace pmpp {

class CachingAllocator {
public:
    using value_type = char;
    CachingAllocator() = default;
    CachingAllocator(const CachingAllocator&) = delete;
    CachingAllocator& operator=(const CachingAllocator&) = delete;
    ~CachingAllocator() {
        for (auto& block : blocks_) cudaFree(block.data);  // no check: may run as the process exits
    }

    char* allocate(std::ptrdiff_t bytes) {
        const auto size = static_cast<std::size_t>(bytes);
        Block* best = nullptr;  // the smallest free block that fits
        for (auto& block : blocks_)
            if (!block.in_use && block.bytes >= size && (best == nullptr || block.bytes < best->bytes)) best = &block;
        if (best != nullptr) {
            best->in_use = true;
            return best->data;
        }
        char* data = nullptr;
        PMPP_CUDA_CHECK(cudaMalloc(&data, size == 0 ? 1 : size));
        blocks_.push_back({data, size, true});
        return data;
    }
    void deallocate(char* data, std::size_t) {
        for (auto& block : blocks_)
            if (block.data == data) block.in_use = false;
    }

private:
    struct Block {
        char* data;
        std::size_t bytes;
        bool in_use;
    };
    std::vector<Block> blocks_;
};

// The process's one instance.
inline CachingAllocator& thrust_allocator() {
    static CachingAllocator instance;
    return instance;
}

}  // namespace pmpp
