// Exercise 04, device: every reference equals the CPU's image on every scene at 256, 1024 and
// 1150 (not a multiple of any tile), in every shape; every tile size of variant 3 too; the check
// rejects each classic mistake (unordered, racing, half a pixel off, y in heights, a grid
// rounded down, a scene written, a write past the end or before the start of the image) and
// accepts fused arithmetic; the device check of every benchmark run counts as the host's rule
// and catches a renderer that remembers its answers; the harness end to end.
#include "../render_3_binned.h"
#include "../harness/render_harness.h"
#include "render_tests.h"
#include "wrong_renderers.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <set>
#include <string>

using namespace render;

namespace {

// The suite's seed, not the test's: every test renders the same scenes, so the CPU's images
// (render_tests.h) are computed once for the whole suite.
pmpp::CheckResult check(const RenderCall& fn, const std::string& scene, int width, Shape shape = kSquare) {
    const int id = find_scene(scene);
    EXPECT_GE(id, 0) << scene;
    const pmpp::Options opts = test_options();
    const RenderCase c = make_case(id, width, shape, opts);
    return render::check(variant_of(fn, "test"), suite_problem(c, opts), c, opts);
}

// The benchmark rows of `fn` on `scenes` at width x width, as the harness times an implementation.
std::vector<pmpp::Measurement> bench(const RenderCall& fn, const std::string& scenes, int width, int warmup = 2,
                                     int repeats = 3, const std::string& frames = "3") {
    pmpp::testing::BenchFixture fixture(pmpp::TimingOptions{warmup, repeats, true});
    fixture.opts = test_options();  // fixture.ctx refers to it
    fixture.opts.extra["scene"] = scenes;
    fixture.opts.extra["frames"] = frames;
    fixture.ctx.seed = pmpp::testing::suite_seed();
    RenderBenchProblem p = make_bench_problem(static_cast<std::size_t>(width), fixture.ctx);
    return render::bench(variant_of(fn, "test"), p, fixture.ctx);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---- host: options ---------------------------------------------------------------------------------

TEST(RenderOptions, SceneListsRefuseUnknownNamesAndDropRepeats) {
    pmpp::Options opts = test_options();
    opts.extra["scene"] = "rgb,rand3k";
    try {
        selected_scenes(opts);
        ADD_FAILURE() << "accepted rand3k";
    } catch (const pmpp::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown scene 'rand3k'"), std::string::npos) << e.what();
    }
    opts.extra["scene"] = "rgb,stacks,rgb";
    EXPECT_EQ(selected_scenes(opts).size(), 2u);
    opts.extra["scene"] = "";
    EXPECT_EQ(selected_scenes(opts).size(), scene_catalog().size());
    opts.extra["scene-file"] = "/nonexistent.scene";
    EXPECT_THROW(selected_scenes(opts), pmpp::UsageError);
}

TEST(RenderOptions, CasesCoverEveryScenePowerOfTwoEdgesAndShapes) {
    const auto cases = exercise().cases(test_options());
    std::set<std::size_t> widths;
    std::set<std::pair<int, Shape>> kinds;
    for (const auto& c : cases) widths.insert(c.n), kinds.insert({c.spec.scene, c.spec.shape});
    for (std::size_t w : {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1024, 1150}) EXPECT_TRUE(widths.count(w)) << w;
    for (std::size_t id = 0; id < scene_catalog().size(); ++id)
        for (Shape shape : {kSquare, kWide, kTall}) EXPECT_TRUE(kinds.count({static_cast<int>(id), shape})) << id;
}

// ---- device: every reference equals the CPU ----------------------------------------------------------

class RenderReference : public ::testing::TestWithParam<std::string> {
protected:
    // The reference named by the parameter; "solution": the reference answer in the student's slot.
    RenderCall renderer() const {
        return GetParam() == "solution" ? RenderCall(render_student) : exercise().variant(GetParam()).fn.render;
    }
};

TEST_P(RenderReference, MatchesTheCpuOnEverySceneAt256And1024And1150) {
    PMPP_REQUIRE_GPU();
    const RenderCall fn = renderer();
    for (const auto& info : scene_catalog())
        for (int width : {256, 1024, 1150}) {
            const pmpp::CheckResult r = check(fn, info.name, width);
            EXPECT_TRUE(r.ok) << GetParam() << " on " << info.name << " at " << width << ": " << r.report();
            // Pinned arithmetic: not even an edge pixel may differ.
            EXPECT_EQ(r.mismatches, 0u) << GetParam() << " on " << info.name << " at " << width;
        }
}

TEST_P(RenderReference, MatchesTheCpuOnSmallAndNonSquareImages) {
    PMPP_REQUIRE_GPU();
    const RenderCall fn = renderer();
    for (const char* scene : {"rgb", "pattern", "rand10k", "micro2M", "snowsingle", "fireworks", "stacks", "pileup"}) {
        for (int width : {1, 2, 15, 17, 33, 257}) {
            const pmpp::CheckResult r = check(fn, scene, width);
            EXPECT_TRUE(r.ok && r.mismatches == 0)
                << GetParam() << " on " << scene << " at " << width << ": " << r.report();
        }
        for (Shape shape : {kWide, kTall}) {
            const pmpp::CheckResult r = check(fn, scene, 333, shape);
            EXPECT_TRUE(r.ok && r.mismatches == 0)
                << GetParam() << " on " << scene << " shape " << shape << ": " << r.report();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllReferences, RenderReference, ::testing::Values("per_pixel", "tiled", "binned", "solution"),
                         [](const auto& info) { return info.param; });

TEST(RenderBinned, MatchesTheCpuWithEveryTileSizeWithAndWithoutWarpCulling) {
    PMPP_REQUIRE_GPU();
    for (int tile : {8, 16, 32})
        for (bool cull : {false, true}) {
            BinnedConfig config;
            config.tile = tile;
            config.warp_cull = cull;
            config.min_circles = 0;  // bin even the small scenes
            config.max_pair_fraction = 1.0;  // and the big circles
            const RenderCall fn = [config](const SceneView& s, int w, int h, Rgba* image, Workspace& ws) {
                render_binned_with(s, w, h, image, ws, config);
            };
            for (const char* scene :
                 {"rgb", "pattern", "rand10k", "rand1M", "micro2M", "biglittle", "snowsingle", "stacks", "pileup"})
                for (int width : {257, 1150}) {
                    const pmpp::CheckResult r = check(fn, scene, width);
                    EXPECT_TRUE(r.ok && r.mismatches == 0) << "tile " << tile << (cull ? " culled" : "") << " on "
                                                           << scene << " at " << width << ": " << r.report();
                }
        }
}

TEST(RenderBinned, BinsLargeScenesAndLeavesSmallOnesAndBigCirclesToTheTiledRenderer) {
    PMPP_REQUIRE_GPU();
    for (const char* name : {"rgb", "pattern", "rand10k", "micro2M", "biglittle"}) {
        const Scene s = make_scene(find_scene(name), 1);
        pmpp::DeviceBuffer<Circle> circles;
        pmpp::DeviceBuffer<Rgb> colors;
        circles.upload(s.circles);
        colors.upload(s.colors);
        const SceneView view{s.count(), circles.data(), colors.data(), s.shading, s.background};
        pmpp::DeviceBuffer<Rgba> image(1024 * 1024);
        Workspace ws;
        BinnedTimes times;
        render_binned_with(view, 1024, 1024, image.data(), ws, BinnedConfig{}, &times);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const bool big_circles = std::string(name) == "biglittle";  // 9,000 circles of radius 256 pixels
        EXPECT_EQ(times.binned, s.count() >= BinnedConfig{}.min_circles && !big_circles) << name;
        if (times.binned) {
            EXPECT_GE(times.pairs, s.count() / 2) << name;
            EXPECT_GT(times.render, 0.f) << name;
        }
    }
}

// ---- device: the check rejects each classic mistake ----------------------------------------------------

TEST(RenderCheck, RejectsAnUnorderedKernelOnTheAdversarialScenes) {
    PMPP_REQUIRE_GPU();
    for (const char* scene : {"stacks", "pileup"})
        for (int width : {64, 256, 1150}) {
            const pmpp::CheckResult r = check(wrong::reverse_order, scene, width);
            ASSERT_FALSE(r.ok) << scene << " at " << width;
            EXPECT_NE(r.hint.find("out of order"), std::string::npos) << r.report();
        }
}

TEST(RenderCheck, RejectsAKernelThatReversesEachWarpsCirclesOnStacks) {
    PMPP_REQUIRE_GPU();
    for (int width : {256, 1024}) {
        const pmpp::CheckResult r = check(wrong::warp_reversed, "stacks", width);
        ASSERT_FALSE(r.ok) << width;
        EXPECT_NE(r.hint.find("out of order"), std::string::npos) << r.report();
    }
}

TEST(RenderCheck, RejectsTheRacingOneThreadPerCircleKernel) {
    PMPP_REQUIRE_GPU();
    for (const char* scene : {"stacks", "pileup", "rgb", "rand10k"}) {
        const pmpp::CheckResult r = check(wrong::one_thread_per_circle, scene, 256);
        ASSERT_FALSE(r.ok) << scene;
        EXPECT_NE(r.hint.find("race"), std::string::npos) << scene << ": " << r.report();
    }
}

TEST(RenderCheck, RejectsAKernelHalfAPixelOff) {
    PMPP_REQUIRE_GPU();
    for (const char* scene : {"rgb", "rgby", "pattern", "rand10k", "stacks", "snowsingle"})
        for (int width : {256, 1150}) {
            const pmpp::CheckResult r = check(wrong::off_by_half_pixel, scene, width);
            ASSERT_FALSE(r.ok) << scene << " at " << width;
            EXPECT_NE(r.hint.find("half a pixel"), std::string::npos) << scene << ": " << r.report();
        }
}

TEST(RenderCheck, RejectsYInHeightsOnlyOnImagesThatAreNotSquare) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(check(wrong::y_in_heights, "rand10k", 256).ok);
    EXPECT_FALSE(check(wrong::y_in_heights, "rand10k", 256, kWide).ok);
    EXPECT_FALSE(check(wrong::y_in_heights, "rand10k", 256, kTall).ok);
}

TEST(RenderCheck, RejectsAGridRoundedDownOnlyWhereTheTilesDoNotFit) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(check(wrong::grid_rounds_down, "rgb", 1024).ok);
    const pmpp::CheckResult r = check(wrong::grid_rounds_down, "rgb", 1150);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("never written"), std::string::npos) << r.report();
    EXPECT_NE(r.hint.find("round the number of blocks up"), std::string::npos) << r.report();
}

TEST(RenderCheck, RejectsAKernelThatWritesTheScene) {
    PMPP_REQUIRE_GPU();
    const pmpp::CheckResult r = check(wrong::writes_the_scene, "rgb", 64);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.message.find("modified"), std::string::npos) << r.report();
}

TEST(RenderCheck, RejectsAWriteOnePixelPastTheEndOfTheImageWhetherOrNotTheBlockDividesIt) {
    PMPP_REQUIRE_GPU();
    for (int width : {17, 16}) {  // 289 pixels: not a multiple of 256; 256 pixels: one
        const std::size_t pixels = static_cast<std::size_t>(width) * width;
        const pmpp::CheckResult r = check(wrong::one_past_the_end, "rgb", width);
        ASSERT_FALSE(r.ok) << width;
        EXPECT_TRUE(contains(r.message, "wrote 1 element past the end of image (index " + std::to_string(pixels) +
                                            "; it has " + std::to_string(pixels) + " elements)"))
            << r.report();
    }
}

TEST(RenderCheck, RejectsRowsCountedFromTheBottomThatWriteBeforeTheStartOfTheImage) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(check(wrong::rows_from_the_bottom, "rgb", 16).ok) << "a whole number of tiles: nothing sticks out";
    for (int width : {17, 33}) {  // the last tile row holds 15 rows outside the image, of `width` pixels each
        const pmpp::CheckResult r = check(wrong::rows_from_the_bottom, "rgb", width);
        ASSERT_FALSE(r.ok) << width;
        EXPECT_TRUE(contains(r.message, "wrote " + std::to_string(15 * width) + " elements before the start of image"))
            << r.report();
    }
}

TEST(RenderCheck, AcceptsFusedArithmeticOnEverySceneAt1024And1150) {
    PMPP_REQUIRE_GPU();
    for (const auto& info : scene_catalog())
        for (int width : {1024, 1150}) {
            const pmpp::CheckResult r = check(wrong::fused_and_reciprocal, info.name, width);
            EXPECT_TRUE(r.ok) << info.name << " at " << width << ": " << r.report();
        }
}

// ---- device: the benchmark checks every run ----------------------------------------------------------

TEST(RenderBenchCheck, CountsOnTheDeviceWhatTheHostRuleCounts) {
    PMPP_REQUIRE_GPU();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const int width = 67, height = 31;  // not a multiple of anything
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    std::vector<Rgba> expected(pixels), actual(pixels);
    PixelFacts facts = facts_of(pixels, false);
    pmpp::Rng rng(pmpp::testing::test_seed());
    for (std::size_t i = 0; i < pixels; ++i) {
        Rgba e{rng.unit_float(), rng.unit_float(), rng.unit_float(), 1.f};
        Rgba a = e;
        switch (i % 11) {
            case 1: a.g += 0.9f * kChannelTolerance; break;  // within
            case 2: a.b += kChannelTolerance; break;  // at the tolerance, as rounding puts it
            case 3: a.r -= 1.1f * kChannelTolerance; break;  // beyond
            case 4: a.a = nan; break;  // one channel NaN: differs
            case 5: a = {nan, nan, nan, nan}; break;  // the poison: never written
            case 6: a.r = inf; break;
            case 7: e.g = 0.f, a.g = -0.f; break;  // -0 is 0
            case 8: e.b = 0.f, a.b = 1e-40f; break;  // a denormal
            default: break;
        }
        expected[i] = e;
        actual[i] = a;
        facts.near_edge[i] = (i / 11) % 2;
    }
    pmpp::DeviceBuffer<Rgba> e, a;
    pmpp::DeviceBuffer<std::uint8_t> edges;
    e.upload(expected);
    a.upload(actual);
    edges.upload(facts.near_edge);
    const ImageDiff d = diff_images(expected.data(), actual.data(), width, height);
    for (const PixelFacts* f : {static_cast<const PixelFacts*>(nullptr), static_cast<const PixelFacts*>(&facts)}) {
        const ImageCounts host = count_image(d, f);
        const ImageCounts device = count_image_on_device(e.data(), a.data(), f ? edges.data() : nullptr, pixels);
        EXPECT_EQ(device.pixels, host.pixels);
        EXPECT_EQ(device.differing, host.differing);
        EXPECT_EQ(device.never_written, host.never_written);
        EXPECT_EQ(device.on_edge, host.on_edge) << (f ? "with" : "without") << " facts";
    }
    EXPECT_GT(d.never_written, 0u);
    EXPECT_GT(d.differing, d.never_written);
}

TEST(RenderBenchCheck, MarksARendererThatRemembersItsAnswersWrongAndNamesTheRun) {
    PMPP_REQUIRE_GPU();
    EXPECT_TRUE(check(wrong::remembers_its_calls(), "rgb", 64).ok) << "one call per image: the check cannot tell";
    for (int warmup : {2, 0}) {
        const auto rows = bench(wrong::remembers_its_calls(), "rgb", 64, warmup);
        ASSERT_EQ(rows.size(), 1u);
        EXPECT_FALSE(rows[0].correct) << warmup;
        const std::string run = warmup > 0 ? "warm-up run 1 of 2: " : "timed run 1 of 3: ";
        EXPECT_TRUE(contains(rows[0].check_message, run + "4096 of 4096 pixels were never written"))
            << rows[0].check_message;
    }
    // Animated: every frame of a run is its own image, the first frame the run leaves poisoned is named.
    const auto rows = bench(wrong::remembers_its_calls(), "hypnosis", 64, 2, 3, "2");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_FALSE(rows[0].correct);
    EXPECT_TRUE(contains(rows[0].check_message, "warm-up run 1 of 2: frame 0: ")) << rows[0].check_message;
}

TEST(RenderBenchCheck, MarksAWritePastTheEndOrBeforeTheStartWrongOnEveryRun) {
    PMPP_REQUIRE_GPU();
    auto rows = bench(wrong::one_past_the_end, "rgb", 16);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_FALSE(rows[0].correct);
    EXPECT_TRUE(contains(rows[0].check_message, "wrote 1 element past the end of image (index 256"))
        << rows[0].check_message;
    rows = bench(wrong::rows_from_the_bottom, "rgb", 17);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_FALSE(rows[0].correct);
    EXPECT_TRUE(contains(rows[0].check_message, "before the start of image")) << rows[0].check_message;
}

TEST(RenderBenchCheck, JudgesEveryRunAsTheCheckDoes) {
    PMPP_REQUIRE_GPU();
    // Fused arithmetic: differences on circle edges, excused by the facts on the device as on the host.
    for (const RenderCall& fn : {RenderCall(wrong::fused_and_reciprocal), RenderCall(render_binned)}) {
        const auto rows = bench(fn, "rgb,rand10k,snowsingle,hypnosis", 1024);
        ASSERT_EQ(rows.size(), 5u);
        for (const auto& row : rows) EXPECT_TRUE(row.correct) << row.section << ": " << row.check_message;
    }
    // Half a pixel off: wrong on the device, reported by the host's verdict.
    const auto rows = bench(wrong::off_by_half_pixel, "rand10k", 256);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_FALSE(rows[0].correct);
    EXPECT_TRUE(contains(rows[0].check_message, "the first run (untimed: it sizes the workspace): "))
        << rows[0].check_message;
    EXPECT_TRUE(contains(rows[0].check_message, "pixels differ from the CPU")) << rows[0].check_message;
}

// ---- device: the whole harness, as `make run` uses it ----------------------------------------------------

TEST(RenderHarness, AcceptsTheReferenceAnswerOnEveryCaseUpTo257) {
    PMPP_REQUIRE_GPU();
    const std::string seed = std::to_string(pmpp::testing::test_seed());
    const char* argv[] = {"render",      "--impl",     "student,per_pixel,tiled,binned",
                          "--check",     "--max-size", "257",
                          "--no-images", "--seed",     seed.c_str()};
    pmpp::Json results;
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 9, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    for (const auto& impl : results.at("check_summary").items()) {
        EXPECT_EQ(impl.second.at("failed").as_number(), 0) << impl.first;
        EXPECT_GT(impl.second.at("passed").as_number(), 100) << impl.first;
    }
}

TEST(RenderHarness, BenchmarksEverySceneWithEveryTimedFrameChecked) {
    PMPP_REQUIRE_GPU();
    const char* argv[] = {"render",   "--impl",    "all",        "--bench", "--size",
                          "256",      "--repeats", "2",          "--scene", "rgb,rand10k,hypnosis,stacks",
                          "--frames", "2",         "--no-images"};
    pmpp::Json results;
    ASSERT_EQ(pmpp::run_exercise(exercise().erase(), 13, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    std::set<std::string> sections;
    int rows = 0;
    for (const auto& row : results.at("bench").elements()) {
        ++rows;
        sections.insert(row.at("section").as_string());
        EXPECT_TRUE(row.at("correct").as_bool()) << row.dump();
        EXPECT_GT(row.at("median_ms").as_number(), 0) << row.dump();
    }
    EXPECT_EQ(rows, 5 * 4);  // 5 implementations x (3 scenes, stacks is not benchmarked, + the total)
    EXPECT_TRUE(sections.count("kernel"));
    EXPECT_TRUE(sections.count("scene hypnosis: 25 circles, 2 frames (time per frame)"));
    bool t4_note = false;
    for (const auto& row : results.at("bench").elements())
        if (row.contains("note") && row.at("note").as_string().find("CS149") != std::string::npos) t4_note = true;
    EXPECT_TRUE(t4_note);
}

TEST(RenderHarness, RendersASceneFileAndPicturesIt) {
    PMPP_REQUIRE_GPU();
    const std::string dir = temp_path("pmpp04_file_");
    std::filesystem::create_directories(dir);
    Scene s = make_scene(find_scene("rgby"), 1);
    s.name = "mine";
    const std::string path = dir + "/mine.scene";
    ASSERT_TRUE(write_text_file(path, format_scene(s))) << path;
    const char* argv[] = {"render",    "--impl", "binned",   "--scene-file", path.c_str(),     "--size", "300",
                          "--repeats", "1",      "--images", dir.c_str(),    "--image-format", "ppm"};
    pmpp::Json results;
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 13, const_cast<char**>(argv), results), pmpp::kExitOk)
        << results.dump();
    std::string listing;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        listing += entry.path().filename().string() + " ";
    EXPECT_TRUE(std::filesystem::exists(dir + "/mine_300x300.ppm"))
        << "the folder holds: " << listing << "\nthe results end: "
        << results.dump(0).substr(results.dump(0).size() > 3000 ? results.dump(0).size() - 3000 : 0);
    std::filesystem::remove_all(dir);
}

TEST(RenderHarness, RefusesAnUnknownSceneWithAUsageErrorBeforeLookingForAGpu) {
    for (const char* scenes : {"rgb,nosuch", "nosuch", "rgb,", "RGB"}) {
        const char* argv[] = {"render", "--check", "--scene", scenes};
        pmpp::Json results;
        EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 4, const_cast<char**>(argv), results), pmpp::kExitUsage)
            << scenes;
    }
    const char* unknown[] = {"render", "--check", "--scene", "rgb,nosuch"};
    pmpp::Json results;
    ASSERT_EQ(pmpp::run_exercise(exercise().erase(), 4, const_cast<char**>(unknown), results), pmpp::kExitUsage);
    EXPECT_NE(results.at("error").as_string().find("nosuch"), std::string::npos) << results.dump();
}

TEST(RenderHarness, RefusesAMalformedSceneFileWithAUsageError) {
    PMPP_REQUIRE_GPU();
    pmpp::Json results;

    const std::string path = (std::filesystem::temp_directory_path() / "pmpp04_bad.scene").string();
    ASSERT_TRUE(write_text_file(path, "circles 1\n0.5 0.5 0 0.1 1 0 0\n0.5 0.5 0 0.1 1 0\n")) << path;
    const char* malformed[] = {"render", "--check", "--scene-file", path.c_str()};
    EXPECT_EQ(pmpp::run_exercise(exercise().erase(), 4, const_cast<char**>(malformed), results), pmpp::kExitUsage);
    EXPECT_NE(results.at("error").as_string().find("line 3"), std::string::npos) << results.dump();
    std::remove(path.c_str());
}

// ---- device: the memory estimates ------------------------------------------------------------------

namespace {

// The common expect_memory_estimates_with, on the exercise as the runner runs it.
void expect_memory_estimates_with(const pmpp::Options& opts, std::size_t n, const std::set<std::string>& impls = {},
                                  double slack_bytes = 0) {
    pmpp::testing::expect_memory_estimates_with(exercise().erase(), n, opts, impls, slack_bytes);
}

}  // namespace

// --frames changes what an animated scene holds, not a still one: at 1024, each frame more of
// each is one more CPU image in the benchmark's problem (16 MiB), and of the largest one more in
// the CPU row's (16 MiB) and snow's 100,000 flakes (2.7 MiB); --scene rgb alone holds a small part
// of every scene's. No GPU needed (the host estimate only).
TEST(RenderMemory, HostEstimateFollowsTheScenesAndTheFramesOfTheAnimatedOnes) {
    const pmpp::ExerciseDef def = exercise().erase();
    constexpr double MiB = 1048576.0;
    auto host = [&](const std::string& scenes, const std::string& frames) {
        pmpp::Options opts = test_options();
        opts.extra["scene"] = scenes;
        opts.extra["frames"] = frames;
        return def.host_bytes(1024, opts);
    };
    const std::string animated = "bouncingballs,hypnosis,fireworks,snow";
    const double more = host(animated, "8") - host(animated, "3");
    const double flakes = 100000.0 * (sizeof(Circle) + sizeof(Rgb));
    EXPECT_GE(more, 5 * ((4 + 1) * 16 * MiB + flakes));
    EXPECT_LE(more, 5 * ((4 + 1) * 16 * MiB + 2 * flakes));  // the flakes' vectors as allocated: < 2x
    EXPECT_EQ(host("rgb", "8"), host("rgb", "3"));
    EXPECT_LT(host("rgb", "3"), host("", "3") / 4);
    EXPECT_GT(host("", "8"), host("", "3") + 4 * 5 * 16 * MiB);  // 4 animated scenes, 5 frames more each
}

// At 1024 x 1024, the benchmark's size, of every scene: the peak is the binned renderer's on
// rand1M (its 5.6 million pairs, listed twice and sorted: 130 MiB of about 200), the host's the
// CPU's images of all 22 frames (352 MiB), the scenes (94) and the CPU row's 4 images of an
// animated scene (64). One timed run per implementation; per_pixel's three runs of rand1M and
// micro2M take most of the 10 s or so.
TEST(RenderMemory, EstimatesBoundThePeaksOfTheBenchmarkOfEverySceneAt1024) {
    PMPP_REQUIRE_GPU();
    // The exercise's options at their defaults (every scene, 3 frames), but without pictures: no
    // 22 PNG files written into build/images by a test (the next test writes them elsewhere).
    expect_memory_estimates_with(test_options(), 1024);
}

// `make run`'s options (every scene, 3 frames, pictures), the pictures in a directory of their
// own: the student's images of each scene read back and written, the CPU's too. The student
// (here the solution: the binned renderer) and the CPU hold the most: per_pixel and tiled, which
// hold less, are left out to keep it to a few seconds.
TEST(RenderMemory, EstimatesBoundThePeaksOfTheDefaultRunWithItsPicturesAt1024) {
    PMPP_REQUIRE_GPU();
    pmpp::Options opts = pmpp::default_options(exercise().extra_options);
    const std::string dir = temp_path("pmpp04_memory_");
    opts.extra["images"] = dir;
    expect_memory_estimates_with(opts, 1024, {"student", "cpu"});
    EXPECT_TRUE(std::filesystem::exists(dir)) << "no pictures written: the test measured a run without them";
    std::filesystem::remove_all(dir);
}

// The options that make a size hold more: --frames 8 (8 frames of snow's 100,000 flakes held at
// once, on the device 40 MiB each, and the CPU row's 9 images on the host) and --scene-file (a
// file scene of 10,000 circles, binned too). The student (the binned renderer) and the CPU only,
// as above. The estimate counts each frame's near_edge (1 MiB, in a 2 MiB page), which the
// benchmark's check uploads only for a renderer whose image differs on circle edges: the
// solution's may not, and 8 of them are 5% of the peak, so they are the slack.
TEST(RenderMemory, EstimatesBoundThePeaksOfEightFramesOfTheAnimatedScenesAndASceneFileAt1024) {
    PMPP_REQUIRE_GPU();
    const std::string path = temp_path("pmpp04_memory_", ".scene");
    Scene s = make_scene(find_scene("rand10k"), pmpp::testing::test_seed());
    s.name = "file10k";
    ASSERT_TRUE(write_text_file(path, format_scene(s))) << path;
    pmpp::Options opts = test_options();
    opts.extra["scene"] = "snow,hypnosis";
    opts.extra["frames"] = "8";
    opts.extra["scene-file"] = path;
    expect_memory_estimates_with(opts, 1024, {"student", "cpu"}, 8 * 2 * 1048576.0);
    std::remove(path.c_str());
}
