// render_tests.h: what the tests of exercise 04 share: the options they run with, a renderer as a
// row of the table of variants, the CPU's image of a scene, facts of pixels, files written for a
// test, and the
// problems of the check cases, made from the suite's seed once for the whole suite (every test
// renders the same scenes, so the CPU's images of each case are computed once).
#pragma once

#include "../harness/render_harness.h"

#include "common/testing.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

// The exercise's options at their defaults, without pictures: no test writes into build/images.
inline pmpp::Options test_options() {
    pmpp::Options opts = pmpp::default_options(render::exercise().extra_options);
    opts.extra["no-images"] = "1";
    return opts;
}

// A renderer as the check and the benchmark take one: a row of the table of variants.
inline render::RenderVariant variant_of(const render::RenderCall& render, const std::string& name) {
    return {name, pmpp::ImplKind::Reference, "", {render, ""}};
}

inline std::vector<render::Rgba> cpu_image(const render::Scene& s, int width, int height) {
    std::vector<render::Rgba> image(static_cast<std::size_t>(width) * height);
    render::render_cpu(s.view(), width, height, image.data());
    return image;
}

// Facts of `pixels` pixels, each under one circle and within a pixel of an edge, and within
// kEdgeBand of one when `near_edge` (the tests then mark the edge pixels they want).
inline render::PixelFacts facts_of(std::size_t pixels, bool near_edge) {
    render::PixelFacts facts;
    facts.coverage.assign(pixels, 1);
    facts.near_edge.assign(pixels, near_edge ? 1 : 0);
    facts.within_a_pixel.assign(pixels, 1);
    return facts;
}

// A path in the system's temporary folder: `prefix`, this run's test seed, then `suffix`.
inline std::string temp_path(const std::string& prefix, const std::string& suffix = "") {
    return (std::filesystem::temp_directory_path() / (prefix + std::to_string(pmpp::testing::test_seed()) + suffix))
        .string();
}

// Writes `text` into the file `path`; false when it cannot.
inline bool write_text_file(const std::string& path, const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) return false;
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return std::fclose(f) == 0 && written;
}

inline const render::RenderProblem& suite_problem(const render::RenderCase& c, const pmpp::Options& opts) {
    static std::map<std::string, render::RenderProblem> problems;
    const std::string key = render::exercise().label(c) + " frames " + opts.get("frames");
    auto it = problems.find(key);
    if (it == problems.end())
        it = problems.emplace(key, render::make_problem(c, pmpp::testing::suite_seed(), opts)).first;
    return it->second;
}
