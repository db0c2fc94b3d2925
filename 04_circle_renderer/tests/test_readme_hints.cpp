// Exercise 04: every hint of README.md quotes what the check prints for its mistake. One wrong
// renderer per hint (wrong_renderers.h), run through the harness's own check over the case list
// up to width 333 (every scene, every width up to 257, and the 333 x 500 image that is not
// square); the README must quote exactly the symptoms of the table.
#include "../harness/render_harness.h"
#include "render_tests.h"
#include "wrong_renderers.h"

#include "common/readme_hints.h"
#include "common/testing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace render;

namespace {

struct HintedMistake {
    std::string symptom;  // as README.md's "## Hints" quotes it
    std::string mistake;  // the wrong renderer, for the failure message
    RenderCall render;
};

// One wrong renderer per hint of README.md, with the symptom the hint quotes.
const std::vector<HintedMistake>& hinted_mistakes() {
    static const std::vector<HintedMistake> table = {
        {"no pixel was written", "forgets_to_store", wrong::forgets_to_store},
        {"were never written: the last, partial column and row of 16x16 tiles", "grid_rounds_down",
         wrong::grid_rounds_down},
        {"were never written: the grid stops early: ... tiles the other axis needs", "grid_axes_swapped",
         wrong::grid_axes_swapped},
        {"every wrong pixel lies in a partial 16x16 tile", "partial_tile_skips_culling",
         wrong::partial_tile_skips_culling},
        {"the image is the CPU's with every pixel center half a pixel up and to the left", "off_by_half_pixel",
         wrong::off_by_half_pixel},
        {"the image is the CPU's with y measured in image heights", "y_in_heights", wrong::y_in_heights},
        {"the image is the CPU's on a white background", "white_sky", wrong::white_sky},
        {"most pixels that no circle covers differ", "starts_from_zero", wrong::starts_from_zero},
        {"every wrong pixel lies under 2 or more circles", "reverse_order", wrong::reverse_order},
        {"wrote ... past the end of image", "one_past_the_end", wrong::one_past_the_end},
        {"wrote ... before the start of image", "rows_from_the_bottom", wrong::rows_from_the_bottom},
        {"the scene's circles or colors were modified", "writes_the_scene", wrong::writes_the_scene},
    };
    return table;
}

// What `make run` prints about `render` over the case list up to width 333. The suite's seed, as
// test_render.cu's checks use: the CPU's images are computed once for the whole suite.
std::string check_output_of(const RenderCall& render) {
    const pmpp::Options opts = test_options();
    std::vector<RenderCase> cases;
    for (const RenderCase& c : exercise().cases(opts))
        if (c.n <= 333) cases.push_back(c);
    return pmpp::check_output(exercise(), cases, [&](const RenderCase& c) {
        return check(variant_of(render, "wrong"), suite_problem(c, opts), c, opts);
    });
}

// The start of a long output: enough to read the reports, not all of them.
std::string head(const std::string& output) {
    constexpr std::size_t kShown = 12000;
    if (output.size() <= kShown) return output;
    return output.substr(0, kShown) + "\n[... " + std::to_string(output.size() - kShown) + " more characters]";
}

}  // namespace

// One test per hint, so that the suite's shards share them out: through the check up to width 333
// a wrong renderer takes about 30 s on an H200, twelve of them 6 minutes in one test.
class EveryReadmeHint : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EveryReadmeHint, IsWhatTheCheckPrintsForItsMistake) {
    PMPP_REQUIRE_GPU();
    const HintedMistake& h = hinted_mistakes().at(GetParam());
    const std::string output = check_output_of(h.render);
    EXPECT_TRUE(pmpp::shows_symptom(output, h.symptom))
        << "\"" << h.symptom << "\" is not what the check prints for " << h.mistake << ":\n"
        << head(output);
}

INSTANTIATE_TEST_SUITE_P(ReadmeHints, EveryReadmeHint, ::testing::Range<std::size_t>(0, hinted_mistakes().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                             return hinted_mistakes().at(info.param).mistake;
                         });

TEST(ReadmeHints, TheReadmeQuotesExactlyTheTestedSymptoms) {
    pmpp::testing::expect_readme_quotes_the_symptoms_of(hinted_mistakes());
}

TEST(ReadmeHints, AWrongImageThatFitsNoPatternGetsNoHint) {
    PMPP_REQUIRE_GPU();
    // rgb without its blue circle: the pixels under it are wrong, most of them under 2 or more
    // circles but a fifth under the blue one alone, none on an edge, none in a partial tile, and
    // the image is the same on every run.
    const pmpp::Options opts = test_options();
    const RenderCase c = make_case(find_scene("rgb"), 256, kSquare, opts);
    const pmpp::CheckResult r =
        check(variant_of(wrong::drops_the_last_circle, "wrong"), suite_problem(c, opts), c, opts);
    ASSERT_FALSE(r.ok);
    EXPECT_EQ(r.hint, "") << r.report();
}
