// image_guards.h: the guard zones of an image, a GuardedBuffer (device_buffer.h) of width x height
// pixels stored row by row, top row first: GuardedBuffer's verdict, with a hint that places the
// farthest stray write on each side as a pixel of the image's rows continued past its ends. Where
// a write lands tells which index was wrong: "pixel (x = 14, y = 16) of rows continued below the
// last one (y = 12)" is a 16-row block's thread row 16 that no bound stopped.
#pragma once

#include "common/check.h"
#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/report.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace pmpp {

// The elements in each guard zone of a GuardedBuffer<T> made with `min_guard_elements`.
template <typename T>
std::size_t guard_zone_elements(std::size_t min_guard_elements) {
    return guard_zone_bytes<T>(min_guard_elements) / sizeof(T);
}

// `image.check_guards()`; a failure's hint: "NAME is W x H pixels: the farthest write past the
// end, index I, is pixel (x = X, y = Y) of rows continued below the last one (y = H-1)", and the
// same for the farthest write before the start (rows continued above the first one). The zones
// are read back themselves, so `min_guard_elements` must be the one the image was made with.
template <typename T>
CheckResult check_image_guards(const GuardedBuffer<T>& image, const std::string& name, int width, int height,
                               std::size_t min_guard_elements) {
    CheckResult r = image.check_guards();
    if (r.ok || width <= 0) return r;
    const std::size_t zone = guard_zone_elements<T>(min_guard_elements), pixels = image.size();
    std::vector<unsigned char> before(zone * sizeof(T)), after(zone * sizeof(T));
    PMPP_CUDA_CHECK(cudaMemcpy(before.data(), image.data() - zone, before.size(), cudaMemcpyDeviceToHost));
    PMPP_CUDA_CHECK(cudaMemcpy(after.data(), image.data() + pixels, after.size(), cudaMemcpyDeviceToHost));
    auto written = [](const std::vector<unsigned char>& bytes, std::size_t k) {  // element k of a zone
        return std::any_of(bytes.begin() + k * sizeof(T), bytes.begin() + (k + 1) * sizeof(T),
                           [](unsigned char b) { return b != kGuardByte; });
    };
    std::size_t past = 0, ahead = 0;  // elements, up to the farthest one written on each side
    for (std::size_t k = 0; k < zone; ++k)
        if (written(after, k)) past = k + 1;
    for (std::size_t k = 0; k < zone && ahead == 0; ++k)
        if (written(before, k)) ahead = zone - k;
    // Index i of the rows continued past either end (row -1 above the first, row `height` below the last).
    auto pixel = [width](long long i) {
        long long y = i / width, x = i % width;
        if (x < 0) x += width, y -= 1;
        return format("pixel (x = %lld, y = %lld)", x, y);
    };
    std::string where;
    if (past > 0)
        where =
            format("the farthest write past the end, index %zu, is %s of rows continued below the last one (y = %d)",
                   pixels + past - 1, pixel(static_cast<long long>(pixels + past - 1)).c_str(), height - 1);
    if (ahead > 0)
        where += std::string(where.empty() ? "the" : "; the") +
                 format(
                     " farthest write before the start, index -%zu, is %s of rows continued above the first one "
                     "(y = 0)",
                     ahead, pixel(-static_cast<long long>(ahead)).c_str());
    r.hint = format("%s is %d x %d pixels: ", name.c_str(), width, height) + where;
    return r;
}

}  // namespace pmpp
