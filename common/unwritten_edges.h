// unwritten_edges.h: an image whose unwritten pixels are exactly its last columns and rows, every
// other pixel written: the written ones form a rectangle at the top left. That is the mark of a
// grid that stops short (block counts rounded down, axes swapped), which a check's hint can name.
#pragma once

#include <optional>

namespace pmpp {

struct UnwrittenEdges {
    int cols = 0, rows = 0;  // the last `cols` columns and the last `rows` rows (one of them > 0)
};

// `unwritten(x, y)`: whether pixel (x, y) of the width x height image was never written. None
// when no whole last column or row is unwritten, or when some other pixel is.
template <class Unwritten>
std::optional<UnwrittenEdges> unwritten_edges(int width, int height, Unwritten unwritten) {
    auto column_unwritten = [&](int x) {
        for (int y = 0; y < height; ++y)
            if (!unwritten(x, y)) return false;
        return true;
    };
    auto row_unwritten = [&](int y) {
        for (int x = 0; x < width; ++x)
            if (!unwritten(x, y)) return false;
        return true;
    };
    UnwrittenEdges e;
    while (e.cols < width && column_unwritten(width - 1 - e.cols)) ++e.cols;
    while (e.rows < height && row_unwritten(height - 1 - e.rows)) ++e.rows;
    if (e.cols == 0 && e.rows == 0) return std::nullopt;
    for (int y = 0; y < height - e.rows; ++y)
        for (int x = 0; x < width - e.cols; ++x)
            if (unwritten(x, y)) return std::nullopt;
    return e;
}

}  // namespace pmpp
