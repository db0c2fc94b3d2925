// plot.cpp: the charts of plot.h.
#include "common/plot.h"

#include "common/font.h"
#include "common/report.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace pmpp::plot {

namespace {

constexpr Rgb kInk{40, 40, 40};
constexpr Rgb kGrid{225, 225, 225};
constexpr Rgb kMuted{110, 110, 110};
constexpr int kScale = 2;  // text scale: 10 x 14 pixel capitals
constexpr int kLine = font::kGlyphRows * kScale + 6;  // one line of text and its spacing

// What no series has measured is not drawn: y <= 0 or not finite.
bool drawable(const Point& p) { return p.x > 0 && p.y > 0 && std::isfinite(p.x) && std::isfinite(p.y); }

std::string fit(const std::string& s, int max_width) {
    if (font::text_width(s, kScale) <= max_width) return s;
    std::string cut = s;
    while (!cut.empty() && font::text_width(cut + "...", kScale) > max_width) cut.pop_back();
    return cut + "...";
}

// The widest series name, in pixels (the legend's or the bar labels' column).
int widest_name(const std::vector<Series>& series) {
    int w = 0;
    for (const Series& s : series) w = std::max(w, font::text_width(s.name, kScale));
    return w;
}

Image draw_lines(const Chart& chart, int width, int height) {
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    std::set<double> xs;
    for (const Series& s : chart.series)
        for (const Point& p : s.points)
            if (drawable(p)) {
                xs.insert(p.x);
                xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
                ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
            }
    for (const Ceiling& c : chart.ceilings)
        if (c.y > 0) yhi = std::max(yhi, c.y);
    // Room around the data: half a step of two in x, a third of a decade in y.
    const double pad = std::pow(10.0, 1.0 / 3);
    ylo /= pad, yhi *= pad;

    const int legend = std::clamp(widest_name(chart.series) + 60, 160, width / 3);
    // The legend is one line a series beside the plot: a chart of more series than `height`
    // holds (a stage breakdown of every variant) grows taller, so no entry is cut off.
    const int top = 16 + 2 * kLine;
    height = std::max(height, top + static_cast<int>(chart.series.size()) * kLine + 2 * kLine + 10);
    const int left = 92, right = width - legend - 16, bottom = height - 2 * kLine - 10;
    if (right - left < 100 || bottom - top < 100) throw std::invalid_argument("plot: the image is too small");
    Canvas cv(width, height);
    cv.text(16, 12, fit(chart.title, width - 32), kInk);

    const LogAxis x{xlo / std::sqrt(2.0), xhi * std::sqrt(2.0), left, right};
    const LogAxis y{ylo, yhi, bottom, top};
    for (double t : log_ticks(ylo, yhi)) {
        const int py = static_cast<int>(std::lround(y.pixel(t)));
        cv.line(left, py, right, py, kGrid);
        const std::string label = tick_label(t);
        cv.text(left - 8 - font::text_width(label, kScale), py - font::kAscent * kScale / 2, label, kMuted);
    }
    for (double t : xs) {
        const int px = static_cast<int>(std::lround(x.pixel(t)));
        cv.line(px, top, px, bottom, kGrid);
        const std::string label = size_label(t);
        cv.text(px - font::text_width(label, kScale) / 2, bottom + 8, label, kMuted);
    }
    cv.line(left, bottom, right, bottom, kInk, 2);
    cv.line(left, top, left, bottom, kInk, 2);
    cv.text(left + (right - left - font::text_width(chart.x_label, kScale)) / 2, bottom + 8 + kLine, chart.x_label,
            kInk);
    cv.text_up(16, top + (bottom - top + font::text_width(chart.y_label, kScale)) / 2, chart.y_label, kInk);

    for (const Ceiling& c : chart.ceilings) {
        if (c.y <= 0) continue;
        const double py = y.pixel(c.y);
        cv.line(left, py, right, py, kCeilingColor, 2, 10);
        const std::string label = fit(c.name, right - left - 16);
        cv.text(right - 6 - font::text_width(label, kScale), static_cast<int>(py) - kLine + 2, label, kCeilingColor);
    }
    std::size_t colored = 0, libraries = 0;
    int legend_y = top;
    for (const Series& s : chart.series) {
        // Past the ten hues, the same hues again dashed, then dotted: every line its own look.
        constexpr int kDashOfRound[] = {0, 12, 4};  // solid, dashed, dotted
        const int dash = s.library ? std::max(3, 10 - 3 * static_cast<int>(libraries))
                                   : kDashOfRound[std::min<std::size_t>(colored / kSeriesHues, 2)];
        const Rgb color = s.library ? library_color(libraries++) : series_color(colored++);
        std::vector<Point> pts;
        for (const Point& p : s.points)
            if (drawable(p)) pts.push_back(p);
        std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
        for (std::size_t k = 1; k < pts.size(); ++k)
            cv.line(x.pixel(pts[k - 1].x), y.pixel(pts[k - 1].y), x.pixel(pts[k].x), y.pixel(pts[k].y), color,
                    s.library ? 4 : 3, dash);
        for (const Point& p : pts) {
            const int px = static_cast<int>(std::lround(x.pixel(p.x))),
                      py = static_cast<int>(std::lround(y.pixel(p.y)));
            cv.fill(px - 4, py - 4, px + 4, py + 4, color);
        }
        const int lx = right + 20;
        cv.line(lx, legend_y + 7, lx + 26, legend_y + 7, color, 3, dash);
        cv.fill(lx + 10, legend_y + 4, lx + 16, legend_y + 10, color);
        cv.text(lx + 34, legend_y, fit(s.name, width - lx - 40), kInk);
        legend_y += kLine;
    }
    return cv.take();
}

Image draw_bars(const Chart& chart, int width) {
    double longest = 0;
    for (const Series& s : chart.series)
        if (drawable(s.points.front())) longest = std::max(longest, s.points.front().y);
    // A ceiling far above the bars would squeeze them into slivers (04's renderers are far from
    // the copy bound): past kFarCeiling x the longest bar, it is named above them, not drawn.
    constexpr double kFarCeiling = 3;
    auto far = [&](const Ceiling& c) { return c.y > kFarCeiling * longest; };
    double vmax = longest;
    for (const Ceiling& c : chart.ceilings)
        if (!far(c)) vmax = std::max(vmax, c.y);
    const int bar = 22, gap = 10;
    const int left = 16 + std::min(widest_name(chart.series), width / 3) + 12, right = width - 110;
    const int top = 16 + 2 * kLine;
    const int bottom = top + static_cast<int>(chart.series.size()) * (bar + gap);
    const int height = bottom + 2 * kLine + 16;
    if (right - left < 100) throw std::invalid_argument("plot: the image is too narrow for its bar names");
    Canvas cv(width, height);
    cv.text(16, 12, fit(chart.title, width - 32), kInk);
    const double scale = (right - left) / (vmax * 1.05);
    // Five round steps of the value axis.
    const double raw = vmax * 1.05 / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
    for (double t = 0; t <= vmax * 1.05; t += step) {
        const int px = left + static_cast<int>(std::lround(t * scale));
        cv.line(px, top - 4, px, bottom, kGrid);
        const std::string label = tick_label(t);
        cv.text(px - font::text_width(label, kScale) / 2, bottom + 6, label, kMuted);
    }
    std::size_t colored = 0, libraries = 0;
    int y = top;
    for (const Series& s : chart.series) {
        const Rgb color = s.library ? library_color(libraries++) : series_color(colored++);
        const double v = s.points.front().y;
        const std::string name = fit(s.name, left - 28);
        cv.text(left - 12 - font::text_width(name, kScale), y + (bar - font::kAscent * kScale) / 2, name, kInk);
        if (drawable(s.points.front())) {
            const int end = left + std::max(1, static_cast<int>(std::lround(v * scale)));
            cv.fill(left, y, end, y + bar - 1, color);
            cv.text(end + 6, y + (bar - font::kAscent * kScale) / 2, tick_label(v), kInk);
        } else {
            cv.text(left + 6, y + (bar - font::kAscent * kScale) / 2, "not measured", kMuted);
        }
        y += bar + gap;
    }
    cv.line(left, top - 4, left, bottom, kInk, 2);
    for (const Ceiling& c : chart.ceilings) {
        if (c.y <= 0) continue;
        if (far(c)) {
            cv.text(16, top - kLine - 4,
                    fit(c.name + format(": %.0fx the longest bar, off the scale", c.y / longest), width - 32),
                    kCeilingColor);
            continue;
        }
        const double px = left + c.y * scale;
        cv.line(px, top - 8, px, bottom, kCeilingColor, 2, 10);
        const std::string label = fit(c.name, width - 32);
        cv.text(std::max(16, std::min(static_cast<int>(px) - font::text_width(label, kScale) / 2,
                                      width - 16 - font::text_width(label, kScale))),
                top - kLine - 4, label, kCeilingColor);
    }
    cv.text(left + (right - left - font::text_width(chart.x_label, kScale)) / 2, bottom + 6 + kLine, chart.x_label,
            kInk);
    return cv.take();
}

}  // namespace

bool Chart::is_bar_chart() const {
    std::set<double> xs;
    for (const Series& s : series) {
        if (s.points.size() != 1) return false;
        xs.insert(s.points.front().x);
    }
    return xs.size() == 1;
}

Rgb series_color(std::size_t k) {
    // Ten hues that stay apart on white and for the common color-vision deficiencies (blue,
    // orange and purple first); the library's black and the ceiling's red are not among them.
    static const Rgb kColors[kSeriesHues] = {{31, 119, 180},  {255, 127, 14}, {148, 103, 189}, {44, 160, 44},
                                             {23, 190, 207},  {140, 86, 75},  {227, 119, 194}, {188, 189, 34},
                                             {127, 127, 127}, {0, 90, 50}};
    return kColors[k % kSeriesHues];
}

Rgb library_color(std::size_t k) {
    const std::uint8_t v = static_cast<std::uint8_t>(std::min<std::size_t>(20 + 60 * k, 160));
    return {v, v, v};
}

Image draw(const Chart& chart, int width, int height) {
    bool any = false;
    for (const Series& s : chart.series)
        for (const Point& p : s.points) any = any || drawable(p);
    if (!any) throw std::invalid_argument("plot: \"" + chart.title + "\" has no measured point to draw");
    return chart.is_bar_chart() ? draw_bars(chart, width) : draw_lines(chart, width, height);
}

Image stack(const std::vector<Image>& images) {
    int w = 0, h = 0;
    for (const Image& im : images) w = std::max(w, im.width), h += im.height;
    Canvas cv(w, h);
    int y0 = 0;
    for (const Image& im : images) {
        for (int y = 0; y < im.height; ++y)
            for (int x = 0; x < im.width; ++x) {
                const std::uint8_t* p = im.at(x, y);
                cv.set(x, y0 + y, {p[0], p[1], p[2]});
            }
        y0 += im.height;
    }
    return cv.take();
}

double LogAxis::pixel(double v) const {
    const double f = (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    return pixel_lo + f * (pixel_hi - pixel_lo);
}

std::vector<double> log_ticks(double lo, double hi) {
    std::vector<double> ticks;
    if (!(lo > 0) || !(hi > lo)) return ticks;
    // Past 4 decades the 1-2-5 labels would touch (a chart's height holds about 12): powers of ten.
    const bool wide = hi / lo > 1e4;
    const std::vector<double> steps = wide ? std::vector<double>{1.0} : std::vector<double>{1.0, 2.0, 5.0};
    for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
        for (double m : steps) {
            const double t = m * std::pow(10.0, e);
            if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) ticks.push_back(t);
        }
    if (ticks.size() < 2) {  // a range inside one 1-2-5 step: its ends, rounded
        ticks = {lo, hi};
    }
    return ticks;
}

std::string tick_label(double v) {
    if (v == 0) return "0";
    static const char* kSuffix[] = {"", "M", "G", "T"};
    int k = 0;
    if (std::fabs(v) >= 1e6)
        for (v /= 1e6, k = 1; std::fabs(v) >= 1000 && k < 3; ++k) v /= 1000;
    std::string s = format("%.3g", v);
    if (s.find('e') != std::string::npos) s = format("%.0f", v);
    return s + kSuffix[k];
}

std::string size_label(double n) {
    const double e = std::log2(n);
    if (n >= 1 && std::fabs(e - std::round(e)) < 1e-12 && n >= 16)
        return format("2^%d", static_cast<int>(std::round(e)));
    return tick_label(n);
}

Canvas::Canvas(int width, int height, Rgb background) : image_(width, height, 3) {
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) set(x, y, background);
}

void Canvas::set(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= image_.width || y >= image_.height) return;
    std::uint8_t* p = image_.at(x, y);
    p[0] = c.r, p[1] = c.g, p[2] = c.b;
}

Rgb Canvas::get(int x, int y) const {
    const std::uint8_t* p = image_.at(x, y);
    return {p[0], p[1], p[2]};
}

void Canvas::fill(int x0, int y0, int x1, int y1, Rgb c) {
    if (x0 > x1) std::swap(x0, x1);
    if (y0 > y1) std::swap(y0, y1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) set(x, y, c);
}

void Canvas::line(double x0, double y0, double x1, double y1, Rgb c, int thickness, int dash) {
    // Steps of at most one pixel along the longer axis; a square brush of `thickness`.
    const double dx = x1 - x0, dy = y1 - y0;
    const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::fabs(dx), std::fabs(dy)))));
    const int lo = -(thickness - 1) / 2, hi = thickness / 2;
    for (int k = 0; k <= steps; ++k) {
        if (dash > 0 && (k / dash) % 2 == 1) continue;
        const int x = static_cast<int>(std::lround(x0 + dx * k / steps));
        const int y = static_cast<int>(std::lround(y0 + dy * k / steps));
        fill(x + lo, y + lo, x + hi, y + hi, c);
    }
}

int Canvas::text(int x, int y, const std::string& s, Rgb c, int scale) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const font::Glyph& g = font::glyph(s[i]);
        const int gx = x + static_cast<int>(i) * font::kAdvance * scale;
        for (int row = 0; row < font::kGlyphRows; ++row)
            for (int col = 0; col < font::kGlyphWidth; ++col)
                if (g.pixel(col, row))
                    fill(gx + col * scale, y + row * scale, gx + col * scale + scale - 1, y + row * scale + scale - 1,
                         c);
    }
    return font::text_width(s, scale);
}

void Canvas::text_up(int x, int y, const std::string& s, Rgb c, int scale) {
    // Turned a quarter to the left: the glyph's column goes up, its row goes right.
    for (std::size_t i = 0; i < s.size(); ++i) {
        const font::Glyph& g = font::glyph(s[i]);
        const int gy = y - static_cast<int>(i) * font::kAdvance * scale;
        for (int row = 0; row < font::kGlyphRows; ++row)
            for (int col = 0; col < font::kGlyphWidth; ++col)
                if (g.pixel(col, row))
                    fill(x + row * scale, gy - col * scale - scale + 1, x + row * scale + scale - 1, gy - col * scale,
                         c);
    }
}

}  // namespace pmpp::plot
