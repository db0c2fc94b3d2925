// scenes.cpp: the built-in scenes (scenes.h; the scene-file format is scene_file.cpp).
// Compiled with -ffp-contract=off (Makefile), so a seed gives the same circles on every platform
// (except where a position comes from std::sin, std::cos or std::pow, in the last bits).
#include "scenes.h"

#include "circle_math.h"

#include "common/rng.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <utility>

namespace render {

using pmpp::Rng;

namespace {

constexpr float kPi = 3.14159265358979f;

float uniform(Rng& rng, float lo, float span) { return lo + span * rng.unit_float(); }

// One color with each channel drawn from [lo, lo + span], clamped to 1.
struct Palette {
    float lo[3], span[3];
    Rgb draw(Rng& rng) const {
        return {std::min(1.f, uniform(rng, lo[0], span[0])), std::min(1.f, uniform(rng, lo[1], span[1])),
                std::min(1.f, uniform(rng, lo[2], span[2]))};
    }
};
constexpr Palette kBluish = {{0.1f, 0.2f, 0.5f}, {0.9f, 0.5f, 0.5f}};
constexpr Palette kWarm = {{0.3f, 0.1f, 0.1f}, {0.7f, 0.9f, 0.4f}};
constexpr Palette kGreenish = {{0.2f, 0.5f, 0.1f}, {0.5f, 0.5f, 0.4f}};
constexpr Palette kRusty = {{0.3f, 0.1f, 0.2f}, {0.7f, 0.3f, 0.2f}};

// Eight colors, each at least 1/2 away from any other in some channel, and each with a channel at
// 0, which no blend over the white background reaches: two layers of a stack in the wrong order,
// or one lost, change a pixel by 1/32 or more.
constexpr Rgb kVivid[8] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {0, 0, 0}, {1, 0.5f, 0}};

// Depth of circle i of n, far (1) to near (0), one per stratum: already sorted, no sort needed.
float stratified_depth(Rng& rng, int i, int n) {
    return 1.f - (static_cast<float>(i) + rng.unit_float()) / static_cast<float>(n);
}

Scene random_circles(int n, std::uint64_t seed, float radius_lo, float radius_span, const Palette& palette) {
    Scene s;
    s.circles.reserve(n);
    s.colors.reserve(n);
    Rng rng(seed);
    for (int i = 0; i < n; ++i) {
        Circle c;
        c.z = stratified_depth(rng, i, n);
        c.radius = uniform(rng, radius_lo, radius_span);
        c.x = rng.unit_float();
        c.y = rng.unit_float();
        s.add(c, palette.draw(rng));
    }
    return s;
}

// 9,000 circles of radius 0.25 and 1,000 of radius 0.05 crowded into a 0.1 x 0.1 square.
Scene big_and_little(bool little_first, std::uint64_t seed) {
    constexpr int kBig = 9000, kLittle = 1000, n = kBig + kLittle;
    Scene s;
    Rng rng(seed);
    for (int i = 0; i < n; ++i) {
        const bool little = little_first ? i < kLittle : i >= kBig;
        Circle c;
        c.z = stratified_depth(rng, i, n);
        if (little) {
            c.radius = 0.05f;
            c.x = little_first ? uniform(rng, 0.85f, 0.1f) : uniform(rng, 0.05f, 0.1f);
            c.y = little_first ? uniform(rng, 0.05f, 0.1f) : uniform(rng, 0.85f, 0.1f);
        } else {
            c.radius = 0.25f;
            c.x = rng.unit_float();
            c.y = rng.unit_float();
        }
        s.add(c, kBluish.draw(rng));
    }
    return s;
}

Scene pattern(std::uint64_t seed) {
    Scene s;
    Rng rng(seed);
    const float radius = 1.f / 32.f;
    for (int j = 0; j < 16; ++j)  // red, touching one another
        for (int i = 0; i < 16; ++i)
            s.add({(2 * i + 1) * radius, (2 * j + 1) * radius, rng.unit_float(), radius}, {1.f, 0.f, 0.f});
    for (int j = 0; j < 31; ++j)  // yellow, centered on the corners between the red ones
        for (int i = 0; i < 31; ++i) s.add({2 * i * radius, 2 * j * radius, rng.unit_float(), radius}, {1.f, 1.f, 0.f});
    return s;
}

// 100,000 flakes, most of them far (small, faint, blue-ish), a few near and large. Frame 0 is
// snowsingle: the flakes spread over the whole sky. Each later frame they fall by a speed that
// grows with nearness and sway sideways, wrapping around from the bottom to the top.
Scene snow(std::uint64_t seed, int frame) {
    constexpr int n = 100000;
    Scene s;
    s.shading = Shading::Snow;
    s.background = Background::Sky;
    Rng rng(seed);
    std::vector<float> depths(n);
    for (int i = 0; i < n; ++i)
        depths[i] = circle_math::clamp01(std::pow(static_cast<float>(i) / n, 0.1f) + uniform(rng, -0.05f, 0.1f));
    std::sort(depths.begin(), depths.end(), std::greater<float>());  // far first
    for (int i = 0; i < n; ++i) {
        const float z = depths[i];
        const float size = uniform(rng, 0.0725f, 0.015f);
        float radius = (1.f - z) * size + z * size / 15.f;
        if (z < 0.02f)
            radius *= 3.f;
        else
            radius = std::max(radius, 0.0075f);
        const float x0 = rng.unit_float();
        const float y0 = -radius + (1.f + 2.f * radius) * rng.unit_float();
        const float speed = 0.002f + 0.01f * (1.f - z);  // image widths per frame
        const float phase = 2.f * kPi * rng.unit_float();
        const float period = 1.f + 2.f * radius;
        const float y = -radius + std::fmod(y0 + radius + speed * static_cast<float>(frame), period);
        const float x = x0 + 0.004f * std::sin(0.15f * static_cast<float>(frame) + phase);
        s.add({x, y, z, radius}, circle_math::snow_color(z));
    }
    return s;
}

// Ten balls under gravity, bouncing off the floor and the walls; 30 frames a second.
Scene bouncing_balls(std::uint64_t seed, int frame) {
    constexpr int n = 10;
    constexpr float r = 0.05f, dt = 1.f / 30.f, gravity = 3.f, restitution = 0.85f;
    Scene s;
    Rng rng(seed);
    float x[n], y[n], vx[n], vy[n], z[n];
    for (int i = 0; i < n; ++i) {
        x[i] = uniform(rng, 0.1f, 0.8f);
        y[i] = uniform(rng, 0.1f, 0.5f);
        vx[i] = uniform(rng, -0.3f, 0.6f);
        vy[i] = uniform(rng, 0.f, 0.5f);
        z[i] = rng.unit_float();
    }
    for (int f = 0; f < frame; ++f)
        for (int i = 0; i < n; ++i) {
            vy[i] += gravity * dt;
            x[i] += vx[i] * dt;
            y[i] += vy[i] * dt;
            if (y[i] > 1.f - r) y[i] = 2.f * (1.f - r) - y[i], vy[i] = -restitution * vy[i];
            if (x[i] < r) x[i] = 2.f * r - x[i], vx[i] = -vx[i];
            if (x[i] > 1.f - r) x[i] = 2.f * (1.f - r) - x[i], vx[i] = -vx[i];
        }
    for (int i = 0; i < n; ++i)
        s.add({x[i], y[i], z[i], r}, {i % 3 == 0 ? 1.f : 0.f, i % 3 == 1 ? 1.f : 0.f, i % 3 == 2 ? 1.f : 0.f});
    return s;
}

// 25 concentric rings in random colors; each frame every ring grows by a quarter of the spacing,
// and the largest wraps around to the smallest size.
Scene hypnosis(std::uint64_t seed, int frame) {
    constexpr int n = 25;
    Scene s;
    Rng rng(seed);
    for (int i = 0; i < n; ++i) {
        const float step = std::fmod(static_cast<float>(i) + 0.25f * static_cast<float>(frame), static_cast<float>(n));
        const Rgb color = {rng.unit_float(), rng.unit_float(), rng.unit_float()};
        s.add({0.5f, 0.5f, 0.f, 0.02f + 0.02f * step}, color);
    }
    return s;
}

// 15 bursts of 20 sparks: the bursts' centers first (small, white), then the sparks, which fly
// outward, slow down and shrink over a 48-frame life; the bursts start 3 frames apart.
Scene fireworks(std::uint64_t seed, int frame) {
    constexpr int bursts = 15, sparks = 20, life = 48;
    Scene s;
    Rng rng(seed);
    float cx[bursts], cy[bursts];
    for (int b = 0; b < bursts; ++b) {
        cx[b] = uniform(rng, 0.15f, 0.7f);
        cy[b] = uniform(rng, 0.15f, 0.7f);
        s.add({cx[b], cy[b], 0.f, 0.005f}, {1.f, 1.f, 1.f});
    }
    for (int b = 0; b < bursts; ++b) {
        const float progress = static_cast<float>((frame + 3 * b) % life) / life;
        const float distance = 0.005f + 0.2f * (1.f - (1.f - progress) * (1.f - progress));
        const float radius = 0.01f * (1.f - 0.6f * progress);
        for (int j = 0; j < sparks; ++j) {
            const float angle = 2.f * kPi * static_cast<float>(j) / sparks;
            s.add({cx[b] + distance * std::cos(angle), cy[b] + distance * std::sin(angle), 0.f, radius}, kVivid[b % 6]);
        }
    }
    return s;
}

// A 32 x 32 grid of cells, each holding a stack of 4 concentric circles (radius 0.45 down to
// 0.30 of the cell) in 4 different colors of kVivid: at a pixel near a cell's center, any two
// of its 4 circles blended in the other order, or one lost, changes the color by 1/32 or more.
// On the black squares of a checkerboard the 4 circles of a cell are far apart in the list (in
// 4 rounds, each in its own random order of cells: they land in different warps, blocks and
// batches); on the white squares they are neighbours (the same warp).
Scene stacks(std::uint64_t seed) {
    constexpr int grid = 32, depth = 4, spread_cells = grid * grid / 2;
    const float cell = 1.f / grid;
    Scene s;
    Rng rng(seed);
    std::vector<Circle> circles(grid * grid * depth);
    std::vector<Rgb> colors(circles.size());
    std::vector<int> order[depth];
    for (auto& o : order) {
        o.resize(spread_cells);
        std::iota(o.begin(), o.end(), 0);
        for (int i = spread_cells - 1; i > 0; --i) std::swap(o[i], o[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    }
    int spread = 0, adjacent = 0;
    for (int j = 0; j < grid; ++j)
        for (int i = 0; i < grid; ++i) {
            int palette[8] = {0, 1, 2, 3, 4, 5, 6, 7};
            for (int k = 0; k < depth; ++k) std::swap(palette[k], palette[k + rng.below(8 - k)]);
            const bool far_apart = (i + j) % 2 == 0;
            const int cell_index = far_apart ? spread++ : adjacent++;
            for (int k = 0; k < depth; ++k) {
                const std::size_t index = far_apart
                                              ? static_cast<std::size_t>(k) * spread_cells + order[k][cell_index]
                                              : static_cast<std::size_t>(depth) * spread_cells + depth * cell_index + k;
                circles[index] = {(i + 0.5f) * cell, (j + 0.5f) * cell, 0.5f, (0.45f - 0.05f * k) * cell};
                colors[index] = kVivid[palette[k]];
            }
        }
    s.circles = std::move(circles);
    s.colors = std::move(colors);
    return s;
}

// 3,000 large circles over the middle of the image, each in a kVivid color other than its
// predecessor's: the pixels there see up to 3,000 layers, and the last dozen decide their color.
Scene pileup(std::uint64_t seed) {
    constexpr int n = 3000;
    Scene s;
    Rng rng(seed);
    int previous = -1;
    for (int i = 0; i < n; ++i) {
        int color;
        do color = static_cast<int>(rng.below(8));
        while (color == previous);
        previous = color;
        s.add({uniform(rng, 0.45f, 0.1f), uniform(rng, 0.45f, 0.1f), 0.5f, uniform(rng, 0.3f, 0.15f)}, kVivid[color]);
    }
    return s;
}

// The circles listed, in order.
Scene listed(std::initializer_list<std::pair<Circle, Rgb>> circles) {
    Scene s;
    for (const auto& [circle, color] : circles) s.add(circle, color);
    return s;
}

}  // namespace

// One row per scene: its name, what it is, animated, adversarial, CS149's time on a T4, and how
// make_scene draws it.
const std::vector<SceneInfo>& scene_catalog() {
    static const std::vector<SceneInfo> catalog = {
        {"rgb", "3 circles of radius 0.3: red, then green, then blue", false, false, 0.262,
         [](std::uint64_t, int) {
             return listed({{{0.4f, 0.5f, 0.75f, 0.3f}, {1.f, 0.f, 0.f}},
                            {{0.5f, 0.5f, 0.5f, 0.3f}, {0.f, 1.f, 0.f}},
                            {{0.6f, 0.5f, 0.25f, 0.3f}, {0.f, 0.f, 1.f}}});
         }},
        {"rgby", "4 circles of three sizes; the yellow one, the farthest, is drawn last", false, false, 0,
         [](std::uint64_t, int) {
             return listed({{{0.25f, 0.25f, 0.75f, 0.19f}, {1.f, 0.f, 0.f}},
                            {{0.3f, 0.3f, 0.5f, 0.19f}, {0.f, 1.f, 0.f}},
                            {{0.5f, 0.5f, 0.25f, 0.25f}, {0.f, 0.f, 1.f}},
                            {{0.2f, 0.2f, 0.9f, 0.1f}, {1.f, 1.f, 0.f}}});
         }},
        {"rand10k", "10,000 random circles, radius 0.02 to 0.08, far to near", false, false, 3.07,
         [](std::uint64_t seed, int) { return random_circles(10000, seed, 0.02f, 0.06f, kBluish); }},
        {"rand100k", "100,000 random circles, radius 0.02 to 0.08", false, false, 29.6,
         [](std::uint64_t seed, int) { return random_circles(100000, seed, 0.02f, 0.06f, kWarm); }},
        {"rand1M", "1,000,000 random circles, radius 0.009 to 0.014", false, false, 230.5,
         [](std::uint64_t seed, int) { return random_circles(1000000, seed, 0.009f, 0.005f, kGreenish); }},
        {"biglittle", "9,000 circles of radius 0.25, then 1,000 of radius 0.05 in one corner", false, false, 15.2,
         [](std::uint64_t seed, int) { return big_and_little(false, seed); }},
        {"littlebig", "1,000 circles of radius 0.05 in one corner, then 9,000 of radius 0.25", false, false, 0,
         [](std::uint64_t seed, int) { return big_and_little(true, seed); }},
        {"pattern", "a 16x16 grid of red circles under a 31x31 grid of yellow ones", false, false, 0.404,
         [](std::uint64_t seed, int) { return pattern(seed); }},
        {"micro2M", "2,000,000 circles of radius 0.001 (one pixel at 1024)", false, false, 439.9,
         [](std::uint64_t seed, int) { return random_circles(2000000, seed, 0.001f, 0.f, kRusty); }},
        {"snowsingle", "100,000 snowflakes: snow shading on the sky, one frame", false, false, 19.7,
         [](std::uint64_t seed, int) { return snow(seed, 0); }},
        {"bouncingballs", "10 balls falling and bouncing", true, false, 0, bouncing_balls},
        {"hypnosis", "25 concentric rings, growing", true, false, 0, hypnosis},
        {"fireworks", "15 bursts of 20 sparks", true, false, 0, fireworks},
        {"snow", "snowsingle's 100,000 flakes, falling", true, false, 0, snow},
        {"stacks", "1,024 stacks of 4 circles in 4 colors, their members far apart or adjacent in the list", false,
         true, 0, [](std::uint64_t seed, int) { return stacks(seed); }},
        {"pileup", "3,000 large circles over the middle, each a color other than the last's", false, true, 0,
         [](std::uint64_t seed, int) { return pileup(seed); }},
    };
    return catalog;
}

int find_scene(const std::string& name) {
    const auto& c = scene_catalog();
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i].name == name) return static_cast<int>(i);
    return -1;
}

std::string scene_names() {
    std::string names;
    for (const auto& info : scene_catalog()) names += (names.empty() ? "" : ", ") + info.name;
    return names;
}

Scene make_scene(int id, std::uint64_t seed, int frame) {
    const auto& catalog = scene_catalog();
    if (id < 0 || id >= static_cast<int>(catalog.size()))
        throw std::out_of_range("make_scene: no scene number " + std::to_string(id));
    Scene s = catalog[id].make(seed, frame);
    s.name = catalog[id].name;
    return s;
}

}  // namespace render
