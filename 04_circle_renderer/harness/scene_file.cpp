// scene_file.cpp: the text format of scene files (scenes.h): parse, load and write one.
#include "scenes.h"

#include "common/report.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace render {

namespace {

std::vector<std::string> split_words(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

// The words of the values of `shading` and `background`, in the order of their enums (render.h).
const char* const kShadingWords[] = {"flat", "snow"};
const char* const kBackgroundWords[] = {"white", "sky"};

bool parse_float(const std::string& text, float& out) {
    errno = 0;
    char* end = nullptr;
    out = std::strtof(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && errno == 0 && std::isfinite(out);
}

}  // namespace

Scene parse_scene(const std::string& text, const std::string& source) {
    Scene scene;
    const std::size_t slash = source.find_last_of('/');
    scene.name = source.substr(slash == std::string::npos ? 0 : slash + 1);
    const std::size_t dot = scene.name.find_last_of('.');
    if (dot != std::string::npos && dot > 0) scene.name.erase(dot);  // "dir/my.scene" is "my"
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool header = false;
    auto fail = [&](const std::string& why) -> SceneFileError {
        return SceneFileError("scene file '" + source + "', line " + std::to_string(number) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++number;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        const std::vector<std::string> words = split_words(line);
        if (words.empty()) continue;
        if (!header) {
            if (words.size() != 2 || words[0] != "circles")
                throw fail("expected the header 'circles 1' before anything else, got '" + words[0] + "'");
            if (words[1] != "1")
                throw fail("format version '" + words[1] + "' is not supported (this program reads version 1)");
            header = true;
            continue;
        }
        const std::string& key = words[0];
        if (key == "name" || key == "shading" || key == "background") {
            if (scene.count() > 0) throw fail("'" + key + "' must come before the first circle");
            if (words.size() != 2) throw fail("'" + key + "' takes one value");
            const std::string& v = words[1];
            if (key == "name") {
                scene.name = v;
                continue;
            }
            const char* const* choices = key == "shading" ? kShadingWords : kBackgroundWords;
            const int value = v == choices[0] ? 0 : (v == choices[1] ? 1 : -1);
            if (value < 0) throw fail(key + " '" + v + "' is not " + choices[0] + " or " + choices[1]);
            if (key == "shading")
                scene.shading = static_cast<Shading>(value);
            else
                scene.background = static_cast<Background>(value);
            continue;
        }
        float v[7];
        for (std::size_t k = 0; k < words.size() && k < 7; ++k)
            if (!parse_float(words[k], v[k]))
                throw fail("'" + words[k] + "' is not a finite number" +
                           (k == 0 ? " (nor a keyword: name, shading, background)" : ""));
        if (words.size() != 7)
            throw fail("a circle is 7 numbers (x y z radius r g b), this line has " + std::to_string(words.size()));
        if (v[3] < 0.f) throw fail("the radius " + words[3] + " is negative");
        for (int k = 4; k < 7; ++k)
            if (v[k] < 0.f || v[k] > 1.f) throw fail("the color channel " + words[k] + " is not in [0, 1]");
        if (scene.count() == 0x7FFFFFFF) throw fail("more than 2^31 - 1 circles");
        scene.add({v[0], v[1], v[2], v[3]}, {v[4], v[5], v[6]});
    }
    if (!header) throw SceneFileError("scene file '" + source + "': empty (expected the header 'circles 1')");
    return scene;
}

Scene load_scene(const std::string& path) {
    std::string text;
    try {
        text = pmpp::read_file(path);
    } catch (const std::exception& e) {
        throw SceneFileError(e.what());
    }
    return parse_scene(text, path);
}

std::string format_scene(const Scene& scene) {
    std::string out = "circles 1\n";
    out += "name " + (scene.name.empty() ? std::string("unnamed") : scene.name) + "\n";
    out += std::string("shading ") + kShadingWords[static_cast<int>(scene.shading)] + "\n";
    out += std::string("background ") + kBackgroundWords[static_cast<int>(scene.background)] + "\n";
    out += "# x y z radius r g b\n";
    for (int i = 0; i < scene.count(); ++i) {
        const Circle& c = scene.circles[i];
        const Rgb& k = scene.colors[i];
        out += pmpp::format("%.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", c.x, c.y, c.z, c.radius, k.r, k.g, k.b);
    }
    return out;
}

}  // namespace render
