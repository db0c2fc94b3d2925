// font.h: a 5 x 7 bitmap font (printable ASCII, two rows below the baseline for g, j, p, q, y
// and the comma) for the labels of the charts plot.h draws: no font file, no library.
#pragma once

#include <cstdint>
#include <string>

namespace pmpp::font {

constexpr int kGlyphWidth = 5;  // columns of a glyph
constexpr int kGlyphRows = 9;  // 7 above the baseline (cap height), 2 below
constexpr int kAscent = 7;  // rows from the top of a cell to the baseline
constexpr int kAdvance = 6;  // columns from one glyph to the next (one blank between)

// The rows of `c`'s glyph, bit 4 the leftmost column. Characters outside printable ASCII are
// drawn as '?'.
struct Glyph {
    std::uint8_t rows[kGlyphRows];
    bool pixel(int column, int row) const { return (rows[row] >> (kGlyphWidth - 1 - column)) & 1u; }
};
const Glyph& glyph(char c);

// Pixels a line of text takes at `scale` (each glyph pixel drawn as scale x scale).
inline int text_width(const std::string& text, int scale) {
    return text.empty() ? 0 : (static_cast<int>(text.size()) * kAdvance - 1) * scale;
}
inline int text_height(int scale) { return kGlyphRows * scale; }

}  // namespace pmpp::font
