// The small shared helpers the harnesses moved into common/ (issue 19), on the host: an image's
// unwritten edges, gradients and painting, a list option's names, the picture folder, host
// memory between guard zones, and (with a GPU) host timing that checks every run.
#include "common/cli.h"
#include "common/colormap.h"
#include "common/guarded_host_array.h"
#include "common/host_timing.h"
#include "common/list_option.h"
#include "common/picture_folder.h"
#include "common/testing.h"
#include "common/unwritten_edges.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace pmpp;

namespace {

// A width x height image whose pixels at or right of `cols_from` or at or below `rows_from` were
// never written, plus an optional stray unwritten pixel.
struct Picture {
    int width, height, cols_from, rows_from;
    int hole_x = -1, hole_y = -1;
    bool operator()(int x, int y) const { return x >= cols_from || y >= rows_from || (x == hole_x && y == hole_y); }
};

TEST(UnwrittenEdges, NamesTheLastColumnsAndRowsAGridThatStopsShortLeaves) {
    const auto e = unwritten_edges(64, 48, Picture{64, 48, 60, 40});
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->cols, 4);
    EXPECT_EQ(e->rows, 8);
    const auto only_rows = unwritten_edges(64, 48, Picture{64, 48, 64, 47});
    ASSERT_TRUE(only_rows.has_value());
    EXPECT_EQ(only_rows->cols, 0);
    EXPECT_EQ(only_rows->rows, 1);
}

TEST(UnwrittenEdges, IsNoneWhenEverythingIsWrittenOrAPixelInsideIsNot) {
    EXPECT_FALSE(unwritten_edges(64, 48, Picture{64, 48, 64, 48}).has_value());
    Picture holed{64, 48, 60, 40};
    holed.hole_x = 10;
    holed.hole_y = 3;
    EXPECT_FALSE(unwritten_edges(64, 48, holed).has_value());
}

TEST(UnwrittenEdges, AnImageNeverWrittenIsAllItsColumns) {
    const auto e = unwritten_edges(5, 3, Picture{5, 3, 0, 0});
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->cols, 5);
}

TEST(Colormap, GradientHitsItsStopsMixesBetweenThemAndClamps) {
    const std::vector<ColorStop> stops = {{0.0, 0, 0, 0}, {0.5, 200, 100, 0}, {1.0, 255, 255, 255}};
    EXPECT_EQ(gradient(stops, 0.0), (Rgb{0, 0, 0}));
    EXPECT_EQ(gradient(stops, 0.5), (Rgb{200, 100, 0}));
    EXPECT_EQ(gradient(stops, 0.25), (Rgb{100, 50, 0}));
    EXPECT_EQ(gradient(stops, 1.0), (Rgb{255, 255, 255}));
    EXPECT_EQ(gradient(stops, -3.0), (Rgb{0, 0, 0}));
    EXPECT_EQ(gradient(stops, 7.0), (Rgb{255, 255, 255}));
}

TEST(Colormap, PaintVisitsPixelsRowByRowFromTheTop) {
    const Image img = paint(3, 2, [](std::size_t i) { return Rgb{static_cast<std::uint8_t>(i), 0, 0}; });
    ASSERT_EQ(img.channels, 3);
    EXPECT_EQ(img.at(0, 0)[0], 0);
    EXPECT_EQ(img.at(2, 0)[0], 2);
    EXPECT_EQ(img.at(0, 1)[0], 3);
    EXPECT_EQ(img.at(2, 1)[0], 5);
}

TEST(ListOption, GivesTheNamedItemsInOrderAndEveryNameForAllOrNothing) {
    const std::vector<std::string> all = {"full", "deep", "random"};
    Options opts;
    EXPECT_EQ(list_option(opts, "view", all), all);  // not set at all (a test's Options{})
    opts.extra["view"] = "all";
    EXPECT_EQ(list_option(opts, "view", all), all);
    opts.extra["view"] = "";
    EXPECT_EQ(list_option(opts, "view", all), all);
    opts.extra["view"] = "random,full";
    EXPECT_EQ(list_option(opts, "view", all), (std::vector<std::string>{"random", "full"}));
}

TEST(PictureFolder, MakesTheFolderNamesItsFilesAndWritesThem) {
    const std::string dir =
        std::filesystem::temp_directory_path().string() + "/pmpp_pictures_" + std::to_string(::getpid()) + "/nested";
    {
        PictureFolder folder(dir, "ppm");
        EXPECT_TRUE(std::filesystem::is_directory(dir));
        EXPECT_EQ(folder.path("frame_0"), dir + "/frame_0.ppm");
        folder.write("frame_0", paint(4, 4, [](std::size_t) { return Rgb{1, 2, 3}; }));
        EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/frame_0.ppm"));
    }
    std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

TEST(GuardedHostArray, PassesUntouchedGuardsAndNamesAWriteOnePastTheEnd) {
    GuardedHostArray<float> z(std::vector<float>{1, 2, 3, 4}, /*pinned=*/false, "z");
    EXPECT_EQ(z.size(), 4u);
    EXPECT_FLOAT_EQ(z.data()[3], 4.f);
    EXPECT_TRUE(z.check_guards().ok);
    z.data()[4] = 0.f;  // the classic `i <= n`
    const CheckResult r = z.check_guards();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("past the end of z"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("in host memory"), std::string::npos) << r.message;
    z.poison();
    EXPECT_TRUE(z.check_guards().ok);
}

// A from-host call whose run number `wrong_from` (0-based, warm-ups first) and every later one
// leave a wrong result: the first wrong run is named, warm-up or timed, and nothing is missed.
TimedResult time_with_wrong_runs_from(int wrong_from, const TimingOptions& t) {
    int runs = 0, prepares = 0;
    bool last_right = true;
    TimedCall call;
    call.prepare = [&] { ++prepares; };
    call.run = [&] { last_right = runs++ < wrong_from; };
    call.verify = [&] { return last_right ? CheckResult::pass(1) : CheckResult::fail("z[0] is 7, expected 5"); };
    TimedResult r = time_host_checked(t, call);
    EXPECT_EQ(runs, t.warmup + t.repeats);
    EXPECT_EQ(prepares, t.warmup + t.repeats);  // before every run, untimed
    return r;
}

// time_host synchronises the device around each run (a from-host call's copies), so these need one.
TEST(TimeHostChecked, VerifiesEveryWarmUpAndTimedRun) {
    PMPP_REQUIRE_GPU();
    const TimingOptions t{2, 5, false};
    const TimedResult r = time_with_wrong_runs_from(1000, t);
    EXPECT_TRUE(r.check.ok);
    EXPECT_EQ(r.runs_checked, 7);
}

TEST(TimeHostChecked, NamesTheFirstWrongRunWarmUpOrTimed) {
    PMPP_REQUIRE_GPU();
    const TimingOptions t{2, 5, false};
    const TimedResult warm = time_with_wrong_runs_from(1, t);
    EXPECT_FALSE(warm.check.ok);
    EXPECT_EQ(warm.check.message, "warm-up run 2 of 2: z[0] is 7, expected 5");
    const TimedResult timed = time_with_wrong_runs_from(6, t);  // the last run alone
    EXPECT_FALSE(timed.check.ok);
    EXPECT_EQ(timed.check.message, "timed run 5 of 5: z[0] is 7, expected 5");
}

}  // namespace
