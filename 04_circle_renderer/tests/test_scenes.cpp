// Exercise 04, host: the scenes are what their names say, the same for the same seed, and the
// adversarial ones change color under any reordering; the scene-file parser accepts valid files
// and names the line of every mistake.
#include "../circle_math.h"
#include "../harness/scenes.h"

#include "common/report.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

using namespace render;

namespace {

bool same_circles(const Scene& a, const Scene& b) {
    return a.count() == b.count() && a.shading == b.shading && a.background == b.background &&
           std::memcmp(a.circles.data(), b.circles.data(), a.circles.size() * sizeof(Circle)) == 0 &&
           std::memcmp(a.colors.data(), b.colors.data(), a.colors.size() * sizeof(Rgb)) == 0;
}

Scene scene(const std::string& name, std::uint64_t seed = 1, int frame = 0) {
    const int id = find_scene(name);
    EXPECT_GE(id, 0) << name;
    return make_scene(id, seed, frame);
}

}  // namespace

// ---- the catalog ---------------------------------------------------------------------------------

TEST(Scenes, CatalogHoldsEveryClassicSceneWithItsCircleCount) {
    const std::map<std::string, int> counts = {{"rgb", 3},
                                               {"rgby", 4},
                                               {"rand10k", 10000},
                                               {"rand100k", 100000},
                                               {"rand1M", 1000000},
                                               {"biglittle", 10000},
                                               {"littlebig", 10000},
                                               {"pattern", 16 * 16 + 31 * 31},
                                               {"micro2M", 2000000},
                                               {"snowsingle", 100000},
                                               {"bouncingballs", 10},
                                               {"hypnosis", 25},
                                               {"fireworks", 15 + 15 * 20},
                                               {"snow", 100000},
                                               {"stacks", 32 * 32 * 4},
                                               {"pileup", 3000}};
    EXPECT_EQ(scene_catalog().size(), counts.size());
    for (const auto& [name, count] : counts) EXPECT_EQ(scene(name).count(), count) << name;
    for (const char* name : {"bouncingballs", "hypnosis", "fireworks", "snow"})
        EXPECT_TRUE(scene_catalog()[find_scene(name)].animated) << name;
    for (const char* name : {"stacks", "pileup"}) EXPECT_TRUE(scene_catalog()[find_scene(name)].adversarial) << name;
    EXPECT_EQ(find_scene("rand2M"), -1);
}

TEST(Scenes, EveryScenesCirclesAreFiniteWithColorsInRange) {
    for (const auto& info : scene_catalog()) {
        const Scene s = make_scene(find_scene(info.name), 7, 2);
        ASSERT_EQ(s.circles.size(), s.colors.size()) << info.name;
        for (int i = 0; i < s.count(); ++i) {
            const Circle& c = s.circles[i];
            const Rgb& k = s.colors[i];
            ASSERT_TRUE(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z) && std::isfinite(c.radius))
                << info.name << " circle " << i;
            ASSERT_GE(c.radius, 0.f) << info.name << " circle " << i;
            for (float v : {k.r, k.g, k.b}) ASSERT_TRUE(v >= 0.f && v <= 1.f) << info.name << " circle " << i;
        }
    }
}

TEST(Scenes, AreTheSameForTheSameSeedAndFrame) {
    const std::uint64_t seed = pmpp::testing::test_seed();
    for (const auto& info : scene_catalog()) {
        const int id = find_scene(info.name);
        EXPECT_TRUE(same_circles(make_scene(id, seed, 3), make_scene(id, seed, 3))) << info.name;
    }
}

TEST(Scenes, RandomScenesDifferFromSeedToSeed) {
    const std::uint64_t seed = pmpp::testing::test_seed();
    for (const char* name : {"rand10k", "rand100k", "rand1M", "micro2M", "biglittle", "littlebig", "snowsingle",
                             "bouncingballs", "hypnosis", "fireworks", "snow", "stacks", "pileup"})
        EXPECT_FALSE(same_circles(scene(name, seed), scene(name, seed + 1))) << name;
}

TEST(Scenes, AnimatedScenesMoveFromFrameToFrameAndStillScenesDoNot) {
    for (const auto& info : scene_catalog()) {
        const int id = find_scene(info.name);
        EXPECT_EQ(same_circles(make_scene(id, 5, 0), make_scene(id, 5, 1)), !info.animated) << info.name;
    }
    EXPECT_TRUE(same_circles(scene("snowsingle", 9), scene("snow", 9, 0)));  // snowsingle is snow's first frame
}

TEST(Scenes, RandomScenesAreDrawnFarToNear) {
    for (const char* name : {"rand10k", "rand100k", "rand1M", "micro2M", "biglittle", "littlebig", "snowsingle"}) {
        const Scene s = scene(name);
        for (int i = 1; i < s.count(); ++i) ASSERT_LE(s.circles[i].z, s.circles[i - 1].z) << name << " circle " << i;
    }
}

TEST(Scenes, BigLittleAndLittleBigPutTheSmallCirclesLastAndFirst) {
    const Scene big_little = scene("biglittle"), little_big = scene("littlebig");
    for (int i = 0; i < 10000; ++i) {
        EXPECT_EQ(big_little.circles[i].radius, i < 9000 ? 0.25f : 0.05f);
        EXPECT_EQ(little_big.circles[i].radius, i < 1000 ? 0.05f : 0.25f);
    }
}

// ---- the adversarial scenes ------------------------------------------------------------------------

namespace {

// The circles of `s` that cover the point (x, y), in order.
std::vector<int> covering(const Scene& s, float x, float y) {
    std::vector<int> out;
    for (int i = 0; i < s.count(); ++i)
        if (circle_math::covers(s.circles[i], x, y)) out.push_back(i);
    return out;
}

Rgba blend_in_order(const Scene& s, const std::vector<int>& order) {
    Rgba p = {1, 1, 1, 1};
    for (int i : order) circle_math::blend(p, s.colors[i], circle_math::kFlatAlpha);
    return p;
}

float largest_difference(const Rgba& a, const Rgba& b) {
    return std::max({std::fabs(a.r - b.r), std::fabs(a.g - b.g), std::fabs(a.b - b.b)});
}

}  // namespace

TEST(Scenes, StacksChangeColorWhenAnyTwoOfACellsCirclesSwapOrOneIsLost) {
    const Scene s = scene("stacks", pmpp::testing::test_seed());
    int far_apart = 0, adjacent = 0;
    for (int j = 0; j < 32; ++j)
        for (int i = 0; i < 32; ++i) {
            const std::vector<int> stack = covering(s, (i + 0.5f) / 32, (j + 0.5f) / 32);
            ASSERT_EQ(stack.size(), 4u) << "cell " << i << ", " << j;
            const Rgba right = blend_in_order(s, stack);
            for (int a = 0; a < 4; ++a) {
                std::vector<int> lost = stack;
                lost.erase(lost.begin() + a);
                EXPECT_GE(largest_difference(right, blend_in_order(s, lost)), 1.f / 32) << "cell " << i << ", " << j;
                for (int b = a + 1; b < 4; ++b) {
                    std::vector<int> swapped = stack;
                    std::swap(swapped[a], swapped[b]);
                    EXPECT_GE(largest_difference(right, blend_in_order(s, swapped)), 1.f / 32)
                        << "cell " << i << ", " << j;
                }
            }
            if (stack[3] - stack[0] == 3)
                ++adjacent;  // neighbours: one warp
            else
                far_apart += stack[1] - stack[0] > 256 && stack[2] - stack[1] > 256 && stack[3] - stack[2] > 256;
        }
    EXPECT_EQ(adjacent, 512);
    EXPECT_GT(far_apart, 100);  // 1 to 1023 apart, in random order: all three gaps past a batch of 256 for many
}

TEST(Scenes, PileupCoversTheMiddleWithNeighboursOfDifferentColors) {
    const Scene s = scene("pileup", pmpp::testing::test_seed());
    EXPECT_EQ(covering(s, 0.5f, 0.5f).size(), 3000u);
    for (int i = 1; i < s.count(); ++i)
        EXPECT_NE(std::memcmp(&s.colors[i], &s.colors[i - 1], sizeof(Rgb)), 0) << "circles " << i - 1 << " and " << i;
}

// ---- scene files -------------------------------------------------------------------------------------

TEST(SceneFile, ParsesAValidFileWithCommentsAndBlankLines) {
    const Scene s = parse_scene(
        "# two circles\n"
        "\n"
        "circles 1   # the header\n"
        "name two\n"
        "shading snow\n"
        "background sky\n"
        "0.5 0.25 0.75 0.1  1 0 0.5\n"
        "  \t\n"
        "-1e-3 1.5 0 0   0 1 1  # a radius of 0 is allowed\r\n",
        "two.scene");
    EXPECT_EQ(s.name, "two");
    EXPECT_EQ(s.shading, Shading::Snow);
    EXPECT_EQ(s.background, Background::Sky);
    ASSERT_EQ(s.count(), 2);
    EXPECT_EQ(s.circles[0].x, 0.5f);
    EXPECT_EQ(s.circles[0].y, 0.25f);
    EXPECT_EQ(s.circles[0].z, 0.75f);
    EXPECT_EQ(s.circles[0].radius, 0.1f);
    EXPECT_EQ(s.colors[0].b, 0.5f);
    EXPECT_EQ(s.circles[1].x, -1e-3f);
    EXPECT_EQ(s.circles[1].radius, 0.f);
    EXPECT_EQ(parse_scene("circles 1\n", "dir/empty.scene").name, "empty");  // no circles: just the background
}

TEST(SceneFile, RoundTripsEveryBuiltInSceneBitForBit) {
    for (const char* name : {"rgb", "rgby", "pattern", "fireworks", "hypnosis", "stacks", "pileup", "rand10k"}) {
        const Scene s = scene(name, pmpp::testing::test_seed());
        const Scene back = parse_scene(format_scene(s), "round trip");
        EXPECT_TRUE(same_circles(s, back)) << name;
        EXPECT_EQ(back.name, s.name);
    }
    Scene snow = scene("snowsingle");
    snow.circles.resize(100);
    snow.colors.resize(100);
    EXPECT_TRUE(same_circles(snow, parse_scene(format_scene(snow), "snow")));
}

TEST(SceneFile, RejectsMalformedFilesNamingTheLine) {
    struct Bad {
        const char* text;
        int line;
        const char* why;
    };
    const Bad bad[] = {
        {"hello\n", 1, "header"},
        {"# only a comment\ncircles 2\n", 2, "version"},
        {"circles 1\n0.5 0.5 0 0.1 1 0\n", 2, "7 numbers"},
        {"circles 1\n0.5 0.5 0 0.1 1 0 0 0.3\n", 2, "has 8"},
        {"circles 1\n# a comment\n\n0.5 0.5 0 -0.1 1 0 0\n", 4, "negative"},
        {"circles 1\n0.5 0.5 0 0.1 1 0 1.5\n", 2, "not in [0, 1]"},
        {"circles 1\n0.5 abc 0 0.1 1 0 0\n", 2, "'abc' is not a finite number"},
        {"circles 1\n0.5 nan 0 0.1 1 0 0\n", 2, "'nan' is not a finite number"},
        {"circles 1\n0.5 1e39 0 0.1 1 0 0\n", 2, "'1e39' is not a finite number"},
        {"circles 1\n0.5 0.5x 0 0.1 1 0 0\n", 2, "'0.5x'"},
        {"circles 1\nshading glossy\n", 2, "shading 'glossy'"},
        {"circles 1\nbackground\n", 2, "one value"},
        {"circles 1\n0.5 0.5 0 0.1 1 0 0\nbackground sky\n", 3, "before the first circle"},
        {"circles 1\nwidth 7\n", 2, "nor a keyword"},
    };
    for (const Bad& b : bad) {
        try {
            parse_scene(b.text, "bad.scene");
            ADD_FAILURE() << "accepted: " << b.text;
        } catch (const SceneFileError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("bad.scene', line " + std::to_string(b.line) + ":"), std::string::npos) << what;
            EXPECT_NE(what.find(b.why), std::string::npos) << what;
        }
    }
    EXPECT_THROW(parse_scene("", "empty.scene"), SceneFileError);
    EXPECT_THROW(parse_scene("# nothing\n\n", "empty.scene"), SceneFileError);
}

TEST(SceneFile, LoadNamesAFileItCannotRead) {
    try {
        load_scene("/nonexistent/dir/x.scene");
        ADD_FAILURE() << "loaded a file that does not exist";
    } catch (const SceneFileError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.scene"), std::string::npos) << e.what();
    }
}

TEST(SceneFile, TheExampleShippedWithTheExerciseParses) {
    const Scene s = load_scene(std::string(PMPP_EXERCISE_DIR) + "/example.scene");
    EXPECT_GT(s.count(), 0);
}
