// The charts of `make plot` (plot.h, font.h, results_plot.h) and the tool that draws a results
// file (tools/plot_results.cpp): what each mark says is where the data puts it.
#include "common/font.h"
#include "common/json.h"
#include "common/plot.h"
#include "common/results_plot.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace pmpp;
using namespace pmpp::plot;

namespace {

// Rows of a glyph as text, for failure messages and comparisons.
std::string drawing(const font::Glyph& g) {
    std::string s;
    for (int r = 0; r < font::kGlyphRows; ++r) {
        for (int c = 0; c < font::kGlyphWidth; ++c) s += g.pixel(c, r) ? '#' : '.';
        s += '\n';
    }
    return s;
}

// The pixels of one color: how many, and the mean of their x and y.
struct Marks {
    long count = 0;
    double x = 0, y = 0;
};
Marks marks_of(const Image& im, Rgb c) {
    Marks m;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            const std::uint8_t* p = im.at(x, y);
            if (p[0] == c.r && p[1] == c.g && p[2] == c.b) ++m.count, m.x += x, m.y += y;
        }
    if (m.count) m.x /= m.count, m.y /= m.count;
    return m;
}

Series series(const std::string& name, std::vector<Point> points, bool library = false) {
    return Series{name, std::move(points), library};
}

// A results file as the harness writes one: rows of (section, label, kind, n, ms, bytes, items).
struct Row {
    std::string section, label, kind;
    double n, ms, bytes_per_item;
    bool correct = true;
};
Json results_of(const std::vector<Row>& rows, const std::string& items_unit = "") {
    Json r = Json::object();
    r.set("schema", "pmpp.results.v1");
    r.set("exercise", "99_test");
    Json device = Json::object();
    device.set("name", "Test GPU");
    r.set("device", device);
    Json copy = Json::object();
    copy.set("gbs", 4000.0);
    r.set("copy_bandwidth", copy);
    if (!items_unit.empty()) r.set("items_unit", items_unit);
    Json bench = Json::array();
    for (const Row& x : rows) {
        Json j = Json::object();
        j.set("impl", x.label);
        j.set("kind", x.kind);
        j.set("section", x.section);
        j.set("label", x.label);
        j.set("n", x.n);
        j.set("median_ms", x.ms);
        j.set("bytes", x.bytes_per_item * x.n);
        j.set("gbs", x.bytes_per_item * x.n / (x.ms * 1e6));
        j.set("items_per_second", x.n / (x.ms * 1e-3));
        j.set("correct", x.correct);
        bench.push_back(j);
    }
    r.set("bench", bench);
    return r;
}

}  // namespace

TEST(Font, EveryPrintableCharacterHasAGlyphOfItsOwn) {
    std::set<std::string> seen;
    for (char c = ' '; c <= '~'; ++c) {
        const std::string d = drawing(font::glyph(c));
        EXPECT_TRUE(seen.insert(d).second) << "'" << c << "' is drawn like another character:\n" << d;
    }
    EXPECT_EQ(seen.size(), 95u);
}

TEST(Font, OnlyTheCharactersThatHangBelowTheBaselineUseItsTwoRows) {
    for (char c = ' '; c <= '~'; ++c) {
        const font::Glyph& g = font::glyph(c);
        const bool below = g.rows[font::kAscent] != 0 || g.rows[font::kAscent + 1] != 0;
        EXPECT_EQ(below, std::string("gjpqy,").find(c) != std::string::npos) << "'" << c << "':\n" << drawing(g);
    }
}

TEST(Font, ACharacterOutsidePrintableAsciiIsDrawnAsAQuestionMark) {
    EXPECT_EQ(drawing(font::glyph('\t')), drawing(font::glyph('?')));
    EXPECT_EQ(drawing(font::glyph(static_cast<char>(0xE9))), drawing(font::glyph('?')));
}

TEST(Font, TextIsAsWideAsItsGlyphsLessTheLastGap) {
    EXPECT_EQ(font::text_width("", 2), 0);
    EXPECT_EQ(font::text_width("A", 1), 5);
    EXPECT_EQ(font::text_width("AB", 1), 11);
    EXPECT_EQ(font::text_width("AB", 3), 33);
}

TEST(Canvas, TextSetsExactlyItsGlyphsPixelsAtItsScale) {
    Canvas cv(40, 30);
    const Rgb ink{1, 2, 3};
    EXPECT_EQ(cv.text(4, 3, "R", ink, 2), 10);
    const font::Glyph& g = font::glyph('R');
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) {
            const int col = (x - 4) / 2, row = (y - 3) / 2;
            const bool inside = x >= 4 && y >= 3 && col < font::kGlyphWidth && row < font::kGlyphRows;
            EXPECT_EQ(cv.get(x, y) == ink, inside && g.pixel(col, row)) << "pixel " << x << "," << y;
        }
}

TEST(Canvas, TextUpIsTheTextTurnedAQuarterToTheLeft) {
    Canvas across(20, 20), up(20, 20);
    const Rgb ink{9, 9, 9};
    across.text(0, 0, "F", ink, 1);
    up.text_up(0, 19, "F", ink, 1);
    for (int y = 0; y < font::kGlyphRows; ++y)
        for (int x = 0; x < font::kGlyphWidth; ++x)
            EXPECT_EQ(across.get(x, y) == ink, up.get(y, 19 - x) == ink) << "glyph pixel " << x << "," << y;
}

TEST(Canvas, ALineReachesBothEndsAndADashedOneLeavesGaps) {
    Canvas cv(100, 50);
    const Rgb ink{200, 0, 0};
    cv.line(5, 10, 90, 40, ink);
    EXPECT_TRUE(cv.get(5, 10) == ink);
    EXPECT_TRUE(cv.get(90, 40) == ink);
    EXPECT_EQ(marks_of(cv.image(), ink).count, 86);  // one pixel per step along x
    Canvas dashed(100, 5);
    dashed.line(0, 2, 99, 2, ink, 1, 10);
    int on = 0;
    for (int x = 0; x < 100; ++x) on += dashed.get(x, 2) == ink;
    EXPECT_EQ(on, 50);
    EXPECT_FALSE(dashed.get(15, 2) == ink);
}

TEST(Canvas, MarksPastTheEdgesAreClippedNotWrapped) {
    Canvas cv(10, 10);
    const Rgb ink{0, 0, 200};
    cv.fill(-5, -5, 2, 2, ink);
    cv.line(-20, 8, 30, 8, ink, 3);
    EXPECT_EQ(marks_of(cv.image(), ink).count, 9 + 30);  // 3 x 3 in the corner, 3 rows of 10
    EXPECT_TRUE(cv.get(0, 0) == ink);
    EXPECT_FALSE(cv.get(5, 0) == ink);
    Canvas small(4, 4);
    small.text(2, 2, "WW", ink, 3);  // mostly outside: no write outside the image
    small.text_up(-10, 50, "WW", ink, 3);
    EXPECT_TRUE(small.get(2, 2) == ink);
}

TEST(Axes, LogTicksAreTheOneTwoFiveStepsInsideTheRangeOrThePowersOfTenPastFourDecades) {
    EXPECT_EQ(log_ticks(3, 60), (std::vector<double>{5, 10, 20, 50}));
    EXPECT_EQ(log_ticks(0.4, 1.2), (std::vector<double>{0.5, 1}));
    EXPECT_EQ(log_ticks(1.1, 1.5), (std::vector<double>{1.1, 1.5}));  // inside one step: its ends
    // Over more than 4 decades, the powers of ten alone (05's chart: 0.0002 to 1000 Gkeys/s).
    EXPECT_EQ(log_ticks(2e-4, 1000), (std::vector<double>{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}));
    EXPECT_EQ(log_ticks(1, 1e4).size(), 13u);  // exactly 4 decades: still 1-2-5
    EXPECT_TRUE(log_ticks(0, 10).empty());
    EXPECT_TRUE(log_ticks(5, 5).empty());
}

TEST(Axes, TickLabelsKeepThreeDigitsAndNameLargeNumbersBySuffix) {
    EXPECT_EQ(tick_label(0), "0");
    EXPECT_EQ(tick_label(0.5), "0.5");
    EXPECT_EQ(tick_label(20), "20");
    EXPECT_EQ(tick_label(4287), "4287");  // whole numbers stay whole below a million
    EXPECT_EQ(tick_label(1.84), "1.84");
    EXPECT_EQ(tick_label(2.5e6), "2.5M");
    EXPECT_EQ(tick_label(3e9), "3G");
    EXPECT_EQ(size_label(1 << 20), "2^20");
    EXPECT_EQ(size_label(3840), "3840");
    EXPECT_EQ(size_label(1024), "2^10");
}

TEST(Axes, ALogAxisPutsEqualRatiosAtEqualDistances) {
    const LogAxis a{1, 1000, 300, 0};
    EXPECT_DOUBLE_EQ(a.pixel(1), 300);
    EXPECT_DOUBLE_EQ(a.pixel(1000), 0);
    EXPECT_NEAR(a.pixel(10) - a.pixel(100), a.pixel(100) - a.pixel(1000), 1e-9);
}

TEST(LineChart, AFasterSeriesIsDrawnAboveASlowerOneAndTheCeilingAboveBoth) {
    Chart c;
    c.title = "t";
    c.series = {series("slow", {{1 << 20, 10}, {1 << 24, 20}}), series("fast", {{1 << 20, 100}, {1 << 24, 200}}),
                series("lib", {{1 << 20, 90}, {1 << 24, 210}}, true)};
    c.ceilings = {{"copy", 1000}};
    ASSERT_FALSE(c.is_bar_chart());
    const Image im = draw(c, 900, 500);
    EXPECT_EQ(im.width, 900);
    EXPECT_EQ(im.height, 500);
    const Marks slow = marks_of(im, series_color(0)), fast = marks_of(im, series_color(1));
    const Marks lib = marks_of(im, library_color(0)), ceiling = marks_of(im, kCeilingColor);
    ASSERT_GT(slow.count, 0);
    ASSERT_GT(fast.count, 0);
    ASSERT_GT(lib.count, 0);
    ASSERT_GT(ceiling.count, 0);
    EXPECT_LT(fast.y, slow.y);
    EXPECT_LT(ceiling.y, fast.y);
}

TEST(LineChart, ALegendLongerThanTheChartMakesItTallerAndCutsNoEntry) {
    // A stage breakdown of every variant: 26 series, more than 520 pixels of legend lines hold.
    Chart c;
    c.title = "stages";
    for (int k = 0; k < 26; ++k)
        c.series.push_back(
            series("variant " + std::to_string(k) + ": a stage", {{1 << 20, 1.0 + k}, {1 << 24, 2.0 + k}}));
    const Image tall = draw(c, 1000, 520);
    EXPECT_GT(tall.height, 520);
    // The last entry's swatch (series 25: the 6th hue, dotted) lies inside the image, in the legend
    // column at the right, below where a 520-pixel image would have ended its legend.
    int lowest = -1;
    const Rgb last = series_color(25);
    for (int y = 0; y < tall.height; ++y)
        for (int x = tall.width * 2 / 3; x < tall.width; ++x) {
            const std::uint8_t* p = tall.at(x, y);
            if (p[0] == last.r && p[1] == last.g && p[2] == last.b) lowest = y;
        }
    EXPECT_GT(lowest, 520 - 60);
    EXPECT_LT(lowest, tall.height);
    // A few series keep the height asked for.
    c.series.resize(3);
    EXPECT_EQ(draw(c, 1000, 520).height, 520);
}

TEST(LineChart, PointsNotMeasuredAreLeftOutAndAChartWithNoneIsRefused) {
    Chart c;
    c.title = "empty";
    c.series = {series("a", {{1 << 20, 0}, {1 << 24, NAN}})};
    EXPECT_THROW(draw(c), std::invalid_argument);
    c.series.push_back(series("b", {{1 << 20, 5}, {1 << 24, 6}}));
    EXPECT_NO_THROW(draw(c));
}

TEST(BarChart, OneSizeMakesBarsWhoseLengthsFollowTheValues) {
    Chart c;
    c.title = "bars";
    c.x_label = "Giter/s";
    c.series = {series("a", {{3840, 100}}), series("b", {{3840, 300}}), series("c", {{3840, 200}}, true)};
    ASSERT_TRUE(c.is_bar_chart());
    const Image im = draw(c, 800);
    const Marks a = marks_of(im, series_color(0)), b = marks_of(im, series_color(1));
    ASSERT_GT(a.count, 0);
    // Bars of one height: their areas are their lengths (the value labels are in ink, not color).
    EXPECT_NEAR(static_cast<double>(b.count) / a.count, 3.0, 0.1);
    EXPECT_LT(a.y, b.y);  // in the order given, top down
}

TEST(BarChart, ACeilingFarAboveTheBarsIsNamedWithoutSqueezingThem) {
    Chart c;
    c.title = "far";
    c.series = {series("a", {{1024, 1}}), series("b", {{1024, 4}})};
    const long alone = marks_of(draw(c, 800), series_color(1)).count;
    c.ceilings = {{"near", 8}};
    const Image near = draw(c, 800);
    EXPECT_NEAR(static_cast<double>(marks_of(near, series_color(1)).count) / alone, 0.5, 0.05);  // axis to 8
    c.ceilings = {{"far", 300}};
    const Image far = draw(c, 800);
    EXPECT_EQ(marks_of(far, series_color(1)).count, alone);  // the axis still ends at the bars
    EXPECT_GT(marks_of(far, kCeilingColor).count, 0);  // named: "far: 75x the longest bar, off the scale"
}

TEST(Stack, ImagesGoOneAboveTheOtherAtTheWidthOfTheWidest) {
    Canvas a(30, 10, {1, 1, 1}), b(50, 20, {2, 2, 2});
    const Image s = stack({a.image(), b.image()});
    EXPECT_EQ(s.width, 50);
    EXPECT_EQ(s.height, 30);
    EXPECT_EQ(s.at(0, 0)[0], 1);
    EXPECT_EQ(s.at(40, 5)[0], 255);  // right of the narrower: background
    EXPECT_EQ(s.at(40, 25)[0], 2);
}

TEST(ResultsCharts, OneChartPerSectionInTheBenchmarksOrderWithASeriesPerLabel) {
    const Json r = results_of({{"kernel", "naive", "reference", 1 << 20, 1.0, 8},
                               {"kernel", "cub", "library", 1 << 20, 0.5, 8},
                               {"end to end", "naive pinned", "reference", 1 << 20, 4.0, 8},
                               {"kernel", "naive", "reference", 1 << 24, 10.0, 8},
                               {"kernel", "cub", "library", 1 << 24, 4.0, 8}});
    const std::vector<Chart> charts = charts_of_results(r);
    ASSERT_EQ(charts.size(), 2u);
    EXPECT_EQ(charts[0].title, "99_test: kernel, Test GPU");
    EXPECT_EQ(charts[1].title, "99_test: end to end, n=2^20, Test GPU");
    ASSERT_EQ(charts[0].series.size(), 2u);
    EXPECT_EQ(charts[0].series[0].name, "naive");
    EXPECT_FALSE(charts[0].series[0].library);
    EXPECT_TRUE(charts[0].series[1].library);
    ASSERT_EQ(charts[0].series[1].points.size(), 2u);
    EXPECT_DOUBLE_EQ(charts[0].series[1].points[1].x, 1 << 24);
    EXPECT_NEAR(charts[0].series[1].points[1].y, 8.0 * (1 << 24) / 4e6, 1e-9);  // GB/s
    EXPECT_EQ(charts[0].y_label, "GB/s");
    ASSERT_EQ(charts[0].ceilings.size(), 1u);
    EXPECT_EQ(charts[0].ceilings[0].name, "copy 4000 GB/s");
    EXPECT_TRUE(charts[1].is_bar_chart());
}

TEST(ResultsCharts, AnExercisesOwnUnitCountsItemsAndTheCopyBoundsThemThroughTheirBytes) {
    const Json r = results_of({{"u32 keys", "onesweep", "reference", 1 << 24, 0.4, 8},
                               {"u32 keys", "onesweep", "reference", 1 << 28, 7.0, 8}},
                              "Gkeys/s");
    const std::vector<Chart> charts = charts_of_results(r);
    ASSERT_EQ(charts.size(), 1u);
    EXPECT_EQ(charts[0].y_label, "Gkeys/s");
    EXPECT_NEAR(charts[0].series[0].points[0].y, (1 << 24) / 0.4e-3 * 1e-9, 1e-9);
    ASSERT_EQ(charts[0].ceilings.size(), 1u);
    EXPECT_NEAR(charts[0].ceilings[0].y, 500.0, 1e-9);  // 4000 GB/s over 8 bytes a key
    EXPECT_EQ(charts[0].ceilings[0].name, "copy bound 500 Gkeys/s");
    ResultsPlotOptions gbs;
    gbs.metric = Metric::BytesPerSecond;
    EXPECT_EQ(charts_of_results(r, gbs)[0].y_label, "GB/s");
}

TEST(ResultsCharts, ARowsOwnCeilingWinsOverTheCopy) {
    Json r = results_of({{"view", "fast", "reference", 3840, 2.0, 4}}, "Giter/s");
    Json bench = Json::array();
    Json row = r.at("bench")[0];
    row.set("items_ceiling_per_second", 8.0e12);
    row.set("items_ceiling_name", "FP32 peak");
    bench.push_back(row);
    r.set("bench", bench);
    const std::vector<Chart> charts = charts_of_results(r);
    ASSERT_EQ(charts[0].ceilings.size(), 1u);
    EXPECT_EQ(charts[0].ceilings[0].name, "FP32 peak 8000 Giter/s");
    EXPECT_DOUBLE_EQ(charts[0].ceilings[0].y, 8000);
}

TEST(ResultsCharts, ARowWhoseTimedOutputWasWrongIsNotDrawn) {
    Row wrong{"kernel", "student", "student", 1 << 20, 0.001, 8};
    wrong.correct = false;
    const Json r = results_of({wrong, {"kernel", "student", "student", 1 << 24, 1.0, 8}});
    const Chart c = charts_of_results(r)[0];
    EXPECT_EQ(c.series[0].points[0].y, 0);  // drawn as not measured
    EXPECT_GT(c.series[0].points[1].y, 0);
}

TEST(ResultsCharts, RowsOfDifferentBytesPerItemGetNoCopyBound) {
    const Json r = results_of(
        {{"keys", "a", "reference", 1 << 20, 1.0, 8}, {"keys", "b", "reference", 1 << 20, 1.0, 12}}, "Gkeys/s");
    EXPECT_TRUE(charts_of_results(r)[0].ceilings.empty());
}

TEST(ResultsCharts, TheSectionOptionKeepsTheSectionsThatHoldItsText) {
    const Json r = results_of(
        {{"kernel", "a", "reference", 1 << 20, 1.0, 8}, {"stages: a", "a: pass", "reference", 1 << 20, 1.0, 8}});
    ResultsPlotOptions only;
    only.section = "kernel";
    EXPECT_EQ(charts_of_results(r, only).size(), 1u);
    only.section = "no such";
    EXPECT_THROW(charts_of_results(r, only), ResultsPlotError);
}

TEST(ResultsCharts, AFileWithoutBenchmarkRowsSaysToRunTheBenchmark) {
    Json r = results_of({});
    try {
        charts_of_results(r);
        FAIL() << "no error";
    } catch (const ResultsPlotError& e) {
        EXPECT_NE(std::string(e.what()).find("run the benchmark first"), std::string::npos) << e.what();
    }
    EXPECT_THROW(charts_of_results(Json::parse("{\"bench\": []}")), ResultsPlotError);  // no schema
}

// The tool: exit status 0 with the image written, 2 for a bad command line, 3 for a file it
// cannot draw, 4 for an image it cannot write; nothing written on any failure.
class PlotResultsTool : public ::testing::Test {
protected:
    void SetUp() override {
        tool_ = fs::canonical(fs::read_symlink("/proc/self/exe")).parent_path() / "plot_results";
        if (!fs::exists(tool_)) GTEST_SKIP() << tool_ << " is not built (make -C common all builds it)";
        dir_ = fs::temp_directory_path() / ("pmpp_plot_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        std::ofstream(dir_ / "results.json") << results_of({{"kernel", "a", "reference", 1 << 20, 1.0, 8},
                                                            {"kernel", "a", "reference", 1 << 24, 9.0, 8}})
                                                    .dump();
        std::ofstream(dir_ / "empty.json") << results_of({}).dump();
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    int status_of(const std::string& args) {
        const std::string cmd = tool_.string() + " " + args + " > " + (dir_ / "log").string() + " 2>&1";
        const int raw = std::system(cmd.c_str());
        return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    }
    std::string in(const std::string& name) const { return (dir_ / name).string(); }
    fs::path tool_, dir_;
};

TEST_F(PlotResultsTool, WritesTheImageAndExitsZero) {
    EXPECT_EQ(status_of(in("results.json") + " " + in("bench.ppm")), 0);
    const Image im = read_ppm(in("bench.ppm"));
    EXPECT_EQ(im.width, 1000);
    EXPECT_GT(marks_of(im, series_color(0)).count, 0);
}

TEST_F(PlotResultsTool, ABadCommandLineExitsTwoAndWritesNothing) {
    EXPECT_EQ(status_of(in("results.json")), 2);
    EXPECT_EQ(status_of(in("results.json") + " " + in("x.ppm") + " --metric fast"), 2);
    EXPECT_EQ(status_of(in("results.json") + " " + in("x.ppm") + " --width 10"), 2);
    EXPECT_FALSE(fs::exists(in("x.ppm")));
}

TEST_F(PlotResultsTool, AMissingOrEmptyResultsFileExitsThreeAndWritesNothing) {
    EXPECT_EQ(status_of(in("missing.json") + " " + in("x.ppm")), 3);
    EXPECT_EQ(status_of(in("empty.json") + " " + in("x.ppm")), 3);
    EXPECT_FALSE(fs::exists(in("x.ppm")));
}

TEST_F(PlotResultsTool, AnImageThatCannotBeWrittenExitsFour) {
    EXPECT_EQ(status_of(in("results.json") + " " + in("no/such/folder/x.ppm")), 4);
}
