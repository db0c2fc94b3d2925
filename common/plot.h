// plot.h: charts drawn into an Image (image.h) with no plotting library, for `make plot`
// (tools/plot_results.cpp draws a results file). Two kinds, chosen by the data:
//   - a line chart when the series have points at two or more x: x on a log2 axis (sizes), y on
//     a log10 axis (throughput), one line per series, the library's dashed in black;
//   - a bar chart when every series has one point, at one x: a horizontal bar each, linear.
// Both draw each ceiling (a hardware limit, such as the copy bandwidth) as a red dashed line; a
// bar chart names a ceiling more than 3x its longest bar in red above the bars instead.
#pragma once

#include "common/image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pmpp::plot {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

struct Point {
    double x = 0;
    double y = 0;
};

struct Series {
    std::string name;
    std::vector<Point> points;  // drawn in x order; y <= 0 is left out (nothing measured)
    bool library = false;  // the baseline: its own style, so the eye finds it
};

struct Ceiling {
    std::string name;  // e.g. "copy 4287 GB/s"
    double y = 0;
};

struct Chart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<Series> series;
    std::vector<Ceiling> ceilings;
    bool is_bar_chart() const;  // every series has one point, all at the same x
};

// The color of the k-th series that is not a library's, and of the k-th library's (black, then
// grays: the libraries are drawn dashed, each a shorter dash than the one before).
// Series k's color: one of kSeriesHues hues (a line chart dashes the second round of them).
constexpr std::size_t kSeriesHues = 10;
Rgb series_color(std::size_t k);
Rgb library_color(std::size_t k);
constexpr Rgb kCeilingColor{214, 39, 40};
constexpr Rgb kBackground{255, 255, 255};

// The chart as an RGB image `width` pixels wide (a line chart is `height` tall, or taller when
// its legend needs it; a bar chart as tall as its bars need). Throws std::invalid_argument for a chart with nothing to draw.
Image draw(const Chart& chart, int width = 1000, int height = 520);

// Images one above the other, each left-aligned on a white background.
Image stack(const std::vector<Image>& images);

// The axes, for the tests and for anyone placing marks by hand.
struct LogAxis {
    double lo = 1, hi = 10;  // data range shown (lo > 0), in the axis' units
    int pixel_lo = 0, pixel_hi = 100;  // pixels of lo and hi (pixel_hi < pixel_lo for a y axis)
    double pixel(double v) const;
};
// The 1-2-5 steps of each decade inside [lo, hi]; at least two ticks, adding the range's ends'
// decades where the range holds fewer.
std::vector<double> log_ticks(double lo, double hi);
// A tick label: 3 significant digits below 1000 ("0.5", "1.84", "20"), whole numbers up to a
// million ("4287"), M, G, T suffixes above ("2.5M").
std::string tick_label(double v);
// A size on the x axis: "2^20" for a power of two, else the number ("1024" is 2^10: "2^10").
std::string size_label(double n);

// Drawing primitives on an RGB image, clipped at its edges.
class Canvas {
public:
    Canvas(int width, int height, Rgb background = kBackground);
    int width() const { return image_.width; }
    int height() const { return image_.height; }
    void set(int x, int y, Rgb c);
    Rgb get(int x, int y) const;
    void fill(int x0, int y0, int x1, int y1, Rgb c);  // inclusive corners, any order
    // A straight line `thickness` pixels wide; dash > 0 draws dash pixels on, dash off.
    void line(double x0, double y0, double x1, double y1, Rgb c, int thickness = 1, int dash = 0);
    // Text with its top-left corner at (x, y), each glyph pixel scale x scale. Returns its width.
    int text(int x, int y, const std::string& s, Rgb c, int scale = 2);
    // Text read from the bottom up (a y axis' label), its top-left corner at (x, y).
    void text_up(int x, int y, const std::string& s, Rgb c, int scale = 2);
    const Image& image() const { return image_; }
    Image take() { return std::move(image_); }

private:
    Image image_;
};

}  // namespace pmpp::plot
