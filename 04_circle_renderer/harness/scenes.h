// scenes.h: the scenes of exercise 04, all made by code from the course's seeded generator
// (common/rng.h), and the text format of scene files, so you can render your own.
//
// The built-in scenes follow Stanford CS149's assignment 3 (rgb ... micro2M, the animations),
// plus two made to catch wrong orders and races (stacks, pileup). A random scene is the same on
// every run with the same seed. Animated scenes are computed on the host frame by frame; a
// renderer only ever sees one frame, a list of circles.
#pragma once

#include "render.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace render {

// A scene on the host.
struct Scene {
    std::string name;
    Shading shading = Shading::Flat;
    Background background = Background::White;
    std::vector<Circle> circles;
    std::vector<Rgb> colors;  // one per circle

    int count() const { return static_cast<int>(circles.size()); }
    void add(const Circle& c, const Rgb& color) {
        circles.push_back(c);
        colors.push_back(color);
    }
    SceneView view() const { return {count(), circles.data(), colors.data(), shading, background}; }
};

struct SceneInfo {
    std::string name;
    std::string description;
    bool animated = false;
    bool adversarial = false;  // made to catch reordering and races: checked, not benchmarked
    double cs149_t4_ms = 0;  // CS149's reference renderer on an NVIDIA T4 at 1024x1024; 0: none published
    Scene (*make)(std::uint64_t seed, int frame) = nullptr;  // its circles (make_scene names the scene)
};

// Every built-in scene, in the order of the benchmark table (the adversarial ones last).
const std::vector<SceneInfo>& scene_catalog();
// The catalog index of `name`, or -1.
int find_scene(const std::string& name);
// "rgb, rgby, ...": every name, for messages.
std::string scene_names();

// Scene `id` at frame `frame`, drawn from `seed`. Still scenes ignore the frame.
Scene make_scene(int id, std::uint64_t seed, int frame = 0);

// ---- Scene files -------------------------------------------------------------------------------
//
//   # A comment runs from '#' to the end of the line; blank lines are ignored.
//   circles 1                 the first line: the format and its version
//   name my_scene             optional (default: the file's name without its extension)
//   shading flat              optional: flat (default) or snow
//   background white          optional: white (default) or sky
//   # then one circle per line, blended in file order: x y z radius r g b
//   0.5 0.5 0 0.25 1 0 0
//
// Lengths in image widths (render.h); every number finite, the radius >= 0, the colors in [0, 1].
// The keywords come before the first circle. A malformed file throws SceneFileError, whose
// message names the file and the line.
class SceneFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

Scene parse_scene(const std::string& text, const std::string& source);
Scene load_scene(const std::string& path);  // parse_scene of the file's contents
std::string format_scene(const Scene& scene);  // the text of a file that parses back to `scene`

}  // namespace render
