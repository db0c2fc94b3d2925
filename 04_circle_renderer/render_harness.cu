// render_harness.cu: the scenes as check cases, the image check with its hints and pictures, and
// the benchmark of exercise 04.
#include "render_harness.h"

#include "circle_math.h"
#include "binned_config.h"
#include "tiles.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/device_limits.h"
#include "common/report.h"
#include "common/timing.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

namespace circles {

using namespace pmpp;

namespace {

// ---- Options ------------------------------------------------------------------------------------

int frames_option(const Options& opts) {
    int frames = 0;
    const std::string& text = opts.get("frames");
    if (!parse_int(text, frames) || frames < 1 || frames > 1000)
        throw UsageError("option --frames: '" + text + "' is not a count in [1, 1000]");
    return frames;
}

int frames_of(int id, const Options& opts) {
    return id != kFileScene && scene_catalog()[id].animated ? frames_option(opts) : 1;
}

const std::string& scene_name(int id, const Options& opts);

std::string picture_dir(const Options& opts) { return opts.flag("no-images") ? std::string() : opts.get("images"); }

// ---- Caches: scenes and the CPU's images, first in first out, bounded in bytes ------------------

// An entry evicted while someone still holds it (a shared_ptr: the benchmark holds the images
// of every frame of the scene it times) lives until it is released.
template <typename V>
class FifoCache {
public:
    explicit FifoCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}
    std::shared_ptr<const V> find(const std::string& key) const {
        auto it = map_.find(key);
        return it == map_.end() ? nullptr : it->second;
    }
    std::shared_ptr<const V> insert(const std::string& key, std::shared_ptr<const V> value, std::size_t bytes) {
        while (!order_.empty() && bytes_ + bytes > max_bytes_) {
            bytes_ -= sizes_[order_.front()];
            map_.erase(order_.front());
            sizes_.erase(order_.front());
            order_.pop_front();
        }
        order_.push_back(key);
        sizes_[key] = bytes;
        bytes_ += bytes;
        return map_[key] = std::move(value);
    }
    void clear() {
        order_.clear();
        sizes_.clear();
        map_.clear();
        bytes_ = 0;
    }

private:
    std::size_t max_bytes_, bytes_ = 0;
    std::deque<std::string> order_;
    std::map<std::string, std::size_t> sizes_;
    std::map<std::string, std::shared_ptr<const V>> map_;
};

constexpr std::size_t kSceneCacheBytes = std::size_t{1} << 30;
constexpr std::size_t kImageCacheBytes = std::size_t{2} << 30;

FifoCache<Scene>& scene_cache() {
    static FifoCache<Scene> cache(kSceneCacheBytes);
    return cache;
}
FifoCache<std::vector<Rgba>>& image_cache() {
    static FifoCache<std::vector<Rgba>> cache(kImageCacheBytes);
    return cache;
}

// reference_image(), held: the benchmark keeps every frame's image of the scene it times, which
// the cache may evict meanwhile (3 frames at 8192 x 8192 are 3 GiB, more than it keeps).
std::shared_ptr<const std::vector<Rgba>> shared_reference_image(const Scene& scene, const std::string& key, int width,
                                                                int height) {
    const std::string k = key + "@" + std::to_string(width) + "x" + std::to_string(height);
    if (auto image = image_cache().find(k)) return image;
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    auto image = std::make_shared<std::vector<Rgba>>(pixels);
    render_cpu(scene.view(), width, height, image->data());
    return image_cache().insert(k, std::move(image), pixels * sizeof(Rgba));
}

// ---- The device copy of a scene -----------------------------------------------------------------

struct DeviceScene {
    DeviceBuffer<Circle> circles;
    DeviceBuffer<Rgb> colors;
    SceneView view;

    explicit DeviceScene(const Scene& s) {
        circles.upload(s.circles);
        colors.upload(s.colors);
        view = {s.count(), circles.data(), colors.data(), s.shading, s.background};
    }
    bool unchanged(const Scene& s) const {
        const std::vector<Circle> c = circles.to_host();
        const std::vector<Rgb> k = colors.to_host();
        return std::memcmp(c.data(), s.circles.data(), c.size() * sizeof(Circle)) == 0 &&
               std::memcmp(k.data(), s.colors.data(), k.size() * sizeof(Rgb)) == 0;
    }
};

// ---- Hints for the classic mistakes --------------------------------------------------------------
//
// A hint says what the numbers prove about the image (which pixels were never written and where
// they stop, where the wrong pixels lie, which misdrawing of the scene the image is), then where
// to look. An image that fits no pattern gets no hint.

// The tile edges a hint may name a boundary by: the check's own first (CheckSettings::tile),
// then the other sizes a renderer is likely to choose.
std::vector<int> tile_edges(int tile) {
    std::vector<int> edges;
    if (tile > 0) edges.push_back(tile);
    for (int t : {8, 16, 32, 64})
        if (t != tile) edges.push_back(t);
    return edges;
}

int tiles_needed(int size, int tile) { return (size + tile - 1) / tile; }

// "1150 = 71 x 16 + 14"
std::string in_tiles(int size, int tile) { return format("%d = %d x %d + %d", size, size / tile, tile, size % tile); }

// How many of the image's last columns, and of its last rows, hold only pixels never written;
// true when every other pixel was written.
bool unwritten_edges(const ImageDiff& d, int& cols, int& rows) {
    auto unwritten = [&](int x, int y) { return d.state[static_cast<std::size_t>(y) * d.width + x] == ImageDiff::kNeverWritten; };
    auto column_unwritten = [&](int x) {
        for (int y = 0; y < d.height; ++y)
            if (!unwritten(x, y)) return false;
        return true;
    };
    auto row_unwritten = [&](int y) {
        for (int x = 0; x < d.width; ++x)
            if (!unwritten(x, y)) return false;
        return true;
    };
    cols = rows = 0;
    while (cols < d.width && column_unwritten(d.width - 1 - cols)) ++cols;
    while (rows < d.height && row_unwritten(d.height - 1 - rows)) ++rows;
    if (cols == 0 && rows == 0) return false;
    for (int y = 0; y < d.height - rows; ++y)
        for (int x = 0; x < d.width - cols; ++x)
            if (unwritten(x, y)) return false;
    return true;
}

// Where the grid stops, from the last columns and rows never written: at the last full tile (the
// block counts rounded down), at the number of tiles the other axis needs (the axes swapped), or
// elsewhere.
std::string unwritten_edges_hint(int width, int height, int cols, int rows, int tile) {
    std::string what;
    if (cols > 0)
        what = cols == 1 ? format("the last column (x = %d)", width - 1)
                         : format("the last %d columns (x >= %d)", cols, width - cols);
    if (rows > 0)
        what += (what.empty() ? "" : " and ") +
                (rows == 1 ? format("the last row (y = %d)", height - 1) : format("the last %d rows (y >= %d)", rows, height - rows));
    what += (cols > 0 && rows > 0) || cols > 1 || rows > 1 ? " were never written" : " was never written";
    for (int t : tile_edges(tile)) {
        const bool partial_x = cols == 0 || (width % t != 0 && cols == width % t);
        const bool partial_y = rows == 0 || (height % t != 0 && rows == height % t);
        if (!partial_x || !partial_y) continue;
        std::string sizes = cols > 0 ? in_tiles(width, t) : "";
        if (rows > 0 && !(cols > 0 && height == width)) sizes += (sizes.empty() ? "" : ", ") + in_tiles(height, t);
        return what + format(": the last, partial %s of %dx%d tiles (%s): round the number of blocks up on both axes "
                             "(the image need not be a multiple of your tile)",
                             cols > 0 && rows > 0 ? "column and row" : (cols > 0 ? "column" : "row"), t, t, sizes.c_str());
    }
    const int x_stop = width - cols, y_stop = height - rows;
    for (int t : tile_edges(tile)) {
        const bool swapped_x = cols == 0 || (x_stop % t == 0 && x_stop / t == tiles_needed(height, t));
        const bool swapped_y = rows == 0 || (y_stop % t == 0 && y_stop / t == tiles_needed(width, t));
        if (!swapped_x || !swapped_y) continue;
        std::string stops;
        if (cols > 0)
            stops = format("x stops at %d = %d x %d, the number of %d-pixel tiles the other axis needs (%d / %d, rounded up)",
                           x_stop, x_stop / t, t, t, height, t);
        if (rows > 0)
            stops += (stops.empty() ? "" : "; ") +
                     format("y stops at %d = %d x %d, the number of %d-pixel tiles the other axis needs (%d / %d, rounded up)",
                            y_stop, y_stop / t, t, t, width, t);
        return what + ": the grid stops early: " + stops + ": are the grid's axes swapped?";
    }
    return what + ": does the grid reach every pixel (the number of blocks rounded up on each axis, x's from the width, "
                  "y's from the height)?";
}

// Every differing pixel lies in the last, partial tile column or row (the full tiles are right):
// the hint, or empty. Edge pixels elsewhere (rounding) are allowed and counted.
std::string partial_tiles_hint(const ImageDiff& d, const PixelFacts& facts, std::size_t off_edge, int tile) {
    for (int t : tile_edges(tile)) {
        const int x_full = d.width - d.width % t, y_full = d.height - d.height % t;  // where the partial tiles start
        if (x_full == 0 || y_full == 0 || (x_full == d.width && y_full == d.height)) continue;  // no full tile, or no partial one
        std::size_t inside = 0, inside_off_edge = 0;
        for (int y = 0; y < d.height; ++y)
            for (int x = 0; x < d.width; ++x) {
                const std::size_t i = static_cast<std::size_t>(y) * d.width + x;
                if (d.state[i] != ImageDiff::kDiffers || (x < x_full && y < y_full)) continue;
                ++inside;
                inside_off_edge += !facts.near_edge[i];
            }
        if (inside_off_edge != off_edge) continue;
        std::string where;
        if (x_full < d.width) where = format("the last tile column (x >= %d)", x_full);
        if (y_full < d.height) where += (where.empty() ? "" : " or ") + format("the last tile row (y >= %d)", y_full);
        const std::size_t elsewhere = d.differing - inside;
        return format("every wrong pixel%s lies in a partial %dx%d tile, in %s: do the threads of a partial tile whose "
                      "pixels lie outside the image still do their part of the block's work (take a circle of the batch, "
                      "the scan, every barrier)? Only their write may be skipped",
                      elsewhere == 0 ? "" : format(" but %zu on circle edges", elsewhere).c_str(), t, t, where.c_str());
    }
    return "";
}

// The image against the CPU's drawings of classic mistakes: the pixel center half a pixel off, y
// in heights, the white background for the sky. One more CPU rendering per candidate, only for
// a failing case. The hint when one of them is the image (all but 1/20 of the differences
// gone), else empty; empty too when fewer than 16 pixels differ, too few to tell drawings apart.
std::string misdrawing_hint(const Scene& scene, int width, int height, const ImageDiff& d, const std::vector<Rgba>& actual) {
    const std::size_t pixels = d.state.size();
    if (d.differing < 16) return "";
    std::vector<Rgba> drawn(pixels);
    auto is_the_image = [&](const char* what, std::string& hint) {
        const ImageDiff s = diff_images(drawn.data(), actual.data(), width, height);
        if (s.differing * 20 > d.differing) return false;
        hint = format("the image is the CPU's %s (%zu pixels differ from that image, %zu from the right one)", what,
                      s.differing, d.differing);
        return true;
    };
    std::string hint;
    struct Moved {
        Misdrawing how;
        const char* what;
    };
    const Moved moved[] = {{{-0.5f, -0.5f, false}, "with every pixel center half a pixel up and to the left"},
                           {{-0.5f, 0.f, false}, "with every pixel center half a pixel to the left"},
                           {{0.f, -0.5f, false}, "with every pixel center half a pixel up"}};
    for (const Moved& m : moved) {
        render_cpu_misdrawn(scene.view(), width, height, m.how, drawn.data());
        if (is_the_image(m.what, hint))
            return hint + ": the center of pixel (x, y) is ((x + 1/2) / width, (y + 1/2) / width) (circle_math::pixel_center)";
    }
    if (width != height) {
        render_cpu_misdrawn(scene.view(), width, height, Misdrawing{0.f, 0.f, true}, drawn.data());
        if (is_the_image("with y measured in image heights", hint))
            return hint + ": y is in image widths too, the center of pixel (x, y) being ((x + 1/2) / width, (y + 1/2) / "
                          "width) (circle_math::pixel_center(y, width), not height)";
    }
    if (scene.background == Background::Sky) {
        SceneView white = scene.view();
        white.background = Background::White;
        render_cpu(white, width, height, drawn.data());
        if (is_the_image("on a white background", hint))
            return hint + ": this scene's background is the sky, a gradient down the rows "
                          "(circle_math::background_color(scene.background, y, height))";
    }
    return "";
}

std::string diagnose(const Scene& scene, int width, int height, int tile, const ImageDiff& d, const PixelFacts* facts,
                     const std::vector<Rgba>& expected, const std::vector<Rgba>& actual) {
    const std::size_t pixels = d.state.size();
    if (d.never_written == pixels)
        return "no pixel was written: is the kernel launched (a grid of at least one block, the launch checked with "
               "PMPP_CHECK_LAUNCH()), and does each thread store its pixel?";
    if (d.never_written > 0) {
        int cols = 0, rows = 0;
        if (unwritten_edges(d, cols, rows)) return unwritten_edges_hint(width, height, cols, rows, tile);
        return "some pixels were never written: does every pixel get a thread, and does every thread write its pixel?";
    }
    if (facts == nullptr) return "";
    std::size_t off_edge = 0, multiple = 0, every_multiple = 0, alpha_only = 0, along_edges = 0, uncovered = 0,
                uncovered_wrong = 0, multiple_anywhere = 0, near_edges_anywhere = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        const bool wrong = d.state[i] == ImageDiff::kDiffers;
        multiple_anywhere += facts->coverage[i] >= 2;
        near_edges_anywhere += facts->within_a_pixel[i];
        uncovered += facts->coverage[i] == 0;
        uncovered_wrong += wrong && facts->coverage[i] == 0;
        if (!wrong) continue;
        every_multiple += facts->coverage[i] >= 2;
        const Rgba& e = expected[i];
        const Rgba& a = actual[i];
        alpha_only += std::fabs(e.r - a.r) <= kChannelTolerance && std::fabs(e.g - a.g) <= kChannelTolerance &&
                      std::fabs(e.b - a.b) <= kChannelTolerance;
        if (facts->near_edge[i]) continue;
        ++off_edge;
        multiple += facts->coverage[i] >= 2;
        along_edges += facts->within_a_pixel[i];
    }
    if (off_edge == 0) return "";
    if (alpha_only == d.differing)
        return "only the alpha channel differs: it blends like a color, alpha' = alpha + (1 - alpha) alpha', from the "
               "background's 1";
    if (std::string hint = misdrawing_hint(scene, width, height, d, actual); !hint.empty()) return hint;
    if (uncovered > 0 && uncovered_wrong * 2 > uncovered)
        return format("most pixels that no circle covers differ (%zu of %zu): they must hold the background "
                      "(circle_math::background_color: white, or the sky's gradient down the rows)",
                      uncovered_wrong, uncovered);
    if (std::string hint = partial_tiles_hint(d, *facts, off_edge, tile); !hint.empty()) return hint;
    // The wrong pixels under 2 or more circles: a pattern of its own only where many pixels are
    // not (in a scene that covers every pixel twice, any mistake shows it).
    if (multiple * 10 >= off_edge * 9) {
        const std::string which = every_multiple == d.differing
                                      ? std::string("every wrong pixel lies")
                                      : format("%zu of the %zu wrong pixels lie", every_multiple, d.differing);
        if (multiple_anywhere * 10 < pixels * 9)
            return which + " under 2 or more circles: they were blended out of order, or two threads updated one pixel "
                           "at the same time and one update was lost (a race). Each pixel must see its circles one at a "
                           "time, in increasing index";
        return which + format(" under 2 or more circles, as do %.0f%% of all pixels: here that does not tell circles "
                              "blended out of order, or a race (two threads updating one pixel), from another mistake",
                              100.0 * static_cast<double>(multiple_anywhere) / static_cast<double>(pixels));
    }
    if (along_edges == off_edge && near_edges_anywhere * 2 < pixels)
        return "every wrong pixel lies within a pixel of a circle's edge: is a pixel covered when its center is "
               "inside or on the circle (d^2 <= r^2), the center of pixel (x, y) being ((x + 1/2) / width, "
               "(y + 1/2) / width)?";
    return "";
}

// Pictures of a failure: the difference, the image rendered, the CPU's. At most 3 failures per
// implementation get pictures.
std::string write_pictures(const CheckSettings& settings, const ImageDiff& d, const PixelFacts* facts,
                           const std::vector<Rgba>& expected, const std::vector<Rgba>& actual) {
    static std::map<std::string, int> written;
    if (settings.pictures.empty() || written[settings.impl]++ >= 3) return "";
    try {
        std::filesystem::create_directories(settings.pictures);
        const std::string stem = settings.pictures + "/" + settings.label;
        const std::string ext = "." + settings.format;
        write_image(stem + "_diff" + ext, diff_picture(d, facts, expected.data()));
        write_image(stem + "_actual" + ext, picture(actual.data(), d.width, d.height));
        write_image(stem + "_expected" + ext, picture(expected.data(), d.width, d.height));
        return stem + "_diff" + ext + " (red: wrong, orange: wrong on a circle's edge, yellow: never written; "
               "beside it _actual and _expected)";
    } catch (const std::exception& e) {
        return std::string("none: ") + e.what();
    }
}

}  // namespace

RenderFn renderer_by_name(const std::string& name) {
    if (name == "student") return render_student;
    if (name == "per_pixel") return render_per_pixel;
    if (name == "tiled") return render_tiled;
    if (name == "binned") return render_binned;
    throw std::logic_error("render: no GPU implementation named " + name);
}

int image_height(int width, int shape) {
    switch (shape) {
        case kWide: return std::max(1, width * 9 / 16);
        case kTall: return width + width / 2 + 1;
        default: return width;
    }
}

const std::vector<Rgba>& reference_image(const Scene& scene, const std::string& key, int width, int height) {
    return *shared_reference_image(scene, key, width, height);
}

void clear_caches() {
    scene_cache().clear();
    image_cache().clear();
}

pmpp::CheckResult judge_image(const Scene& scene, int width, int height, const std::vector<Rgba>& expected,
                              const std::vector<Rgba>& actual, const CheckSettings& settings) {
    const ImageDiff diff = diff_images(expected.data(), actual.data(), width, height);
    // The facts about each pixel are needed when there are differences an edge might excuse.
    std::unique_ptr<PixelFacts> facts;
    if (diff.differing > diff.never_written) facts = std::make_unique<PixelFacts>(pixel_facts(scene.view(), width, height));
    CheckResult r = image_verdict(diff, facts.get(), expected.data(), actual.data());
    if (!r.ok) {
        r.hint = diagnose(scene, width, height, settings.tile, diff, facts.get(), expected, actual);
        const std::string where = write_pictures(settings, diff, facts.get(), expected, actual);
        if (!where.empty()) r.hint += std::string(r.hint.empty() ? "" : "\n    ") + "pictures: " + where;
    }
    return r;
}

pmpp::CheckResult check_render(const RenderFn& fn, const Scene& scene, int width, int height,
                               const std::vector<Rgba>& expected, const CheckSettings& settings) {
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    DeviceScene device(scene);
    GuardedBuffer<Rgba> image(pixels, "image");
    image.poison();
    Workspace workspace;
    fn(device.view, width, height, image.data(), workspace);
    PMPP_CUDA_CHECK(cudaDeviceSynchronize());
    // The guards first: a write outside the image is the mistake to name, whatever the image holds.
    const CheckResult guards = image.check_guards();
    if (!guards.ok) return guards;
    const std::vector<Rgba> actual = image.to_host();
    CheckResult r = judge_image(scene, width, height, expected, actual, settings);
    if (r.ok && !device.unchanged(scene))
        return CheckResult::fail("the scene's circles or colors were modified: a renderer may only write the image");
    if (!r.ok) {
        // A wrong image: draw it once more, as the first time. An image that changes from one run
        // to the next is what a race leaves, and no single image shows it.
        image.poison();
        fn(device.view, width, height, image.data(), workspace);
        PMPP_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<Rgba> again = image.to_host();
        std::size_t changed = 0;
        for (std::size_t i = 0; i < pixels; ++i) changed += std::memcmp(&actual[i], &again[i], sizeof(Rgba)) != 0;
        if (changed > 0)
            r.hint = format("a second run of the same case drew another image (%zu of %zu pixels differ between the two "
                            "runs): the result depends on timing, a race (a missing __syncthreads(), two threads "
                            "updating one pixel), or on something kept from an earlier call",
                            changed, pixels) +
                     (r.hint.empty() ? "" : "\n    " + r.hint);
    }
    return r;
}

// ---- Scenes as cases ------------------------------------------------------------------------------

namespace {

std::map<std::string, Scene>& file_scenes() {
    static std::map<std::string, Scene> scenes;
    return scenes;
}

const Scene& file_scene(const Options& opts) {
    const std::string& path = opts.get("scene-file");
    auto it = file_scenes().find(path);
    if (it != file_scenes().end()) return it->second;
    try {
        return file_scenes()[path] = load_scene(path);
    } catch (const SceneFileError& e) {
        throw UsageError(std::string("option --scene-file: ") + e.what());
    }
}

const std::string& scene_name(int id, const Options& opts) {
    return id == kFileScene ? file_scene(opts).name : scene_catalog()[id].name;
}

// What the caches know a scene's frame by.
std::string scene_key(int id, std::uint64_t seed, int frame, const Options& opts) {
    const std::string scene = id == kFileScene ? "file:" + opts.get("scene-file") : std::to_string(id);
    return scene + "#" + std::to_string(seed) + "#" + std::to_string(frame);
}

// A scene's name as it may appear in a file name.
std::string file_stem(const std::string& name) {
    std::string out = name;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
    return out;
}

int decode_scene(int variant) { return variant / 4; }
int decode_shape(int variant) { return variant % 4; }

std::vector<Case> render_cases(const Options& opts) {
    const std::vector<int> scenes = selected_scenes(opts);
    frames_option(opts);  // refuse a bad --frames before any case runs
    struct Size {
        int width, shape;
    };
    std::vector<Size> sizes;
    if (opts.size) {
        const int w = static_cast<int>(*opts.size);
        sizes = {{w, kSquare}, {w, kWide}, {w, kTall}};
    } else {
        for (int w : {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1024, 1150}) sizes.push_back({w, kSquare});
        sizes.push_back({1150, kWide});
        sizes.push_back({333, kTall});
    }
    std::vector<Case> cases;
    for (int id : scenes)
        for (const Size& s : sizes) {
            const int h = image_height(s.width, s.shape);
            cases.push_back({format("%s %dx%d", scene_name(id, opts).c_str(), s.width, h), static_cast<std::size_t>(s.width),
                             Distribution::Uniform, id * 4 + s.shape});
        }
    return cases;
}

std::vector<std::string> catalog_names() {
    std::vector<std::string> names;
    for (const auto& info : scene_catalog()) names.push_back(info.name);
    return names;
}

}  // namespace

std::vector<int> selected_scenes(const Options& opts) {
    const std::string text = opts.get("scene");
    const bool file = !opts.get("scene-file").empty();
    std::vector<int> ids;
    if (text == "all" || (text.empty() && !file)) {
        for (std::size_t i = 0; i < scene_catalog().size(); ++i) ids.push_back(static_cast<int>(i));
    } else if (!text.empty()) {
        std::stringstream ss(text);
        std::string item;
        while (std::getline(ss, item, ',')) {
            const int id = find_scene(item);
            if (id < 0) throw UsageError("option --scene: unknown scene '" + item + "' (scenes: " + scene_names() + ", all)");
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    }
    if (file) {
        file_scene(opts);  // a malformed file is a usage error, now
        ids.push_back(kFileScene);
    }
    return ids;
}

const Scene& cached_scene(int id, std::uint64_t seed, int frame, const Options& opts) {
    if (id == kFileScene) return file_scene(opts);
    const std::string key = scene_key(id, seed, frame, opts);
    if (auto s = scene_cache().find(key)) return *s;
    auto s = std::make_shared<Scene>(make_scene(id, seed, frame));
    const std::size_t bytes = static_cast<std::size_t>(s->count()) * (sizeof(Circle) + sizeof(Rgb)) + 64;
    return *scene_cache().insert(key, std::move(s), bytes);
}

CheckResult check_case(const RenderFn& fn, const std::string& impl, const Case& c, std::uint64_t seed, const Options& opts) {
    const int id = decode_scene(c.variant), shape = decode_shape(c.variant);
    const int width = static_cast<int>(c.n), height = image_height(width, shape);
    const int frames = frames_of(id, opts);
    CheckResult all = CheckResult::pass(0);
    for (int f = 0; f < frames; ++f) {
        const Scene& scene = cached_scene(id, seed, f, opts);
        const std::string key = scene_key(id, seed, f, opts);  // named: a temporary would alarm -Wdangling-reference
        const std::vector<Rgba>& expected = reference_image(scene, key, width, height);
        CheckSettings settings;
        settings.pictures = picture_dir(opts);
        settings.format = opts.get("image-format");
        settings.impl = impl;
        settings.label = format("%s_%s_%dx%d", impl.c_str(), file_stem(scene.name).c_str(), width, height) +
                         (frames > 1 ? format("_frame%03d", f) : "");
        CheckResult r = check_render(fn, scene, width, height, expected, settings);
        if (!r.ok) {
            if (frames > 1) r.message = format("frame %d of %d: ", f, frames) + r.message;
            return r;
        }
        all.checked += r.checked;
    }
    return all;
}

// ---- The device check of every benchmark run ------------------------------------------------------

namespace {

// Counts, over the image, what image_passes() decides from (ImageCounts): every pixel judged by
// pixel_state(), the rule diff_images applies on the host. counts: differing, never_written,
// on_edge.
__global__ void count_image_kernel(const Rgba* expected, const Rgba* actual, const std::uint8_t* near_edge,
                                   std::size_t pixels, unsigned long long* counts) {
    unsigned long long differing = 0, never_written = 0, on_edge = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < pixels;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::uint8_t state = pixel_state(expected[i], actual[i]);
        differing += state != ImageDiff::kRight;
        never_written += state == ImageDiff::kNeverWritten;
        on_edge += state == ImageDiff::kDiffers && near_edge != nullptr && near_edge[i] != 0;
    }
    for (int offset = 16; offset > 0; offset /= 2) {  // every thread of the block gets here
        differing += __shfl_down_sync(0xFFFFFFFFu, differing, offset);
        never_written += __shfl_down_sync(0xFFFFFFFFu, never_written, offset);
        on_edge += __shfl_down_sync(0xFFFFFFFFu, on_edge, offset);
    }
    if ((threadIdx.x & 31) == 0 && differing > 0) {
        atomicAdd(&counts[0], differing);
        atomicAdd(&counts[1], never_written);
        atomicAdd(&counts[2], on_edge);
    }
}

}  // namespace

ImageCounts count_image_on_device(const Rgba* expected, const Rgba* actual, const std::uint8_t* near_edge,
                                  std::size_t pixels) {
    ImageCounts c;
    c.pixels = pixels;
    if (pixels == 0) return c;
    DeviceBuffer<unsigned long long> counts(3);
    PMPP_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.bytes()));
    const int sms = pmpp::device_limits().sm_count;
    const std::size_t blocks = std::min<std::size_t>((pixels + 255) / 256, static_cast<std::size_t>(sms) * 8);
    count_image_kernel<<<static_cast<unsigned>(blocks), 256>>>(expected, actual, near_edge, pixels, counts.data());
    PMPP_CHECK_LAUNCH();
    const std::vector<unsigned long long> host = counts.to_host();
    c.differing = static_cast<std::size_t>(host[0]);
    c.never_written = static_cast<std::size_t>(host[1]);
    c.on_edge = static_cast<std::size_t>(host[2]);
    return c;
}

namespace {

// The benchmark's check of one frame, after every run (warm-up or timed), untimed: the image's
// guard zones, then image_check.h's rule counted on the device against the CPU's image,
// uploaded once. Which pixels lie on a circle's edge (PixelFacts, computed on the host) is
// needed only when some differences might be excused: then computed and uploaded once, and the
// count repeated with them. A wrong frame is judged again by the host's image_verdict, the
// definition, whose message it reports (no pictures: those are the check's).
class FrameCheck {
public:
    FrameCheck(const Scene& scene, const std::vector<Rgba>& expected, int width, int height)
        : scene_(scene), expected_host_(expected), width_(width), height_(height) {
        expected_.upload(expected);
    }

    CheckResult operator()(const GuardedBuffer<Rgba>& image) {
        CheckResult guards = image.check_guards();
        if (!guards.ok) return guards;
        const std::size_t pixels = expected_.size();
        ImageCounts counts = count_image_on_device(expected_.data(), image.data(), nullptr, pixels);
        if (counts.differing == 0) return CheckResult::pass(pixels);
        if (counts.never_written == 0 && counts.differing <= edge_allowance(pixels)) {  // edges might excuse them
            counts = count_image_on_device(expected_.data(), image.data(), near_edge(), pixels);
            if (image_passes(counts)) {
                CheckResult r = CheckResult::pass(pixels);
                r.mismatches = counts.differing;
                return r;
            }
        }
        const std::vector<Rgba> actual = image.to_host();
        const ImageDiff d = diff_images(expected_host_.data(), actual.data(), width_, height_);
        return image_verdict(d, d.differing > d.never_written ? &facts() : nullptr, expected_host_.data(), actual.data());
    }

private:
    // Computed the first time a run needs them, kept for the runs after it, freed with the check
    // (6 bytes a pixel: not worth keeping for the whole process).
    const PixelFacts& facts() {
        if (!facts_) facts_ = std::make_unique<PixelFacts>(pixel_facts(scene_.view(), width_, height_));
        return *facts_;
    }
    const std::uint8_t* near_edge() {
        if (near_edge_.size() == 0) near_edge_.upload(facts().near_edge);
        return near_edge_.data();
    }

    const Scene& scene_;
    const std::vector<Rgba>& expected_host_;
    int width_, height_;
    DeviceBuffer<Rgba> expected_;
    DeviceBuffer<std::uint8_t> near_edge_;  // empty until needed
    std::unique_ptr<PixelFacts> facts_;     // null until needed
};

}  // namespace

// ---- The benchmark --------------------------------------------------------------------------------

namespace {

// What one benchmark of one scene needs on the host, shared by every implementation.
struct BenchScene {
    std::vector<const Scene*> frames;
    std::vector<std::shared_ptr<const std::vector<Rgba>>> expected;  // held: see shared_reference_image
};

BenchScene bench_scene(int id, int width, std::uint64_t seed, const Options& opts) {
    BenchScene b;
    const int frames = frames_of(id, opts);
    for (int f = 0; f < frames; ++f) {
        const Scene& s = cached_scene(id, seed, f, opts);
        b.frames.push_back(&s);
        const std::string key = scene_key(id, seed, f, opts);
        b.expected.push_back(shared_reference_image(s, key, width, width));
    }
    return b;
}

// The frames of one scene at one size as <dir>/<prefix><scene>_<W>x<H>[_frameNNN].<format>, and
// a line saying where (`what`).
void write_frames(const std::string& prefix, int id, const std::vector<const Rgba*>& frames, int width,
                  const Options& opts, const char* what) {
    const std::string dir = picture_dir(opts);
    std::filesystem::create_directories(dir);
    const std::string stem = dir + "/" + prefix + file_stem(scene_name(id, opts)) + format("_%dx%d", width, width);
    const std::string ext = "." + opts.get("image-format");
    const bool animated = frames.size() > 1;
    for (std::size_t f = 0; f < frames.size(); ++f)
        write_image(stem + (animated ? format("_frame%03zu", f) : "") + ext, picture(frames[f], width, width));
    std::cout << "  " << what << ": " << stem << (animated ? format("_frame000..%03zu", frames.size() - 1) : "") << ext
              << "\n";
}

// Pictures of every benchmarked scene (the CPU's images), once per scene and size.
void write_scene_pictures(int id, const BenchScene& b, int width, const Options& opts) {
    static std::set<std::string> done;
    const std::string dir = picture_dir(opts);
    if (dir.empty() || width <= 0) return;
    if (!done.insert(dir + "/" + file_stem(scene_name(id, opts)) + "@" + std::to_string(width)).second) return;
    std::vector<const Rgba*> frames;
    for (const auto& image : b.expected) frames.push_back(image->data());
    write_frames("", id, frames, width, opts, "picture");
}

// The student's images of a benchmarked scene (its last run), named as the CPU's with
// "student_" in front, so the two can be put side by side (the grader's HTML report does).
void write_student_pictures(int id, const std::vector<GuardedBuffer<Rgba>>& images, int width, const Options& opts) {
    if (picture_dir(opts).empty() || width <= 0) return;
    std::vector<std::vector<Rgba>> actual;
    std::vector<const Rgba*> frames;
    for (const auto& image : images) actual.push_back(image.to_host());
    for (const auto& image : actual) frames.push_back(image.data());
    write_frames("student_", id, frames, width, opts, "your picture");
}

// Medians per frame of this run, per scene and implementation, for the notes.
std::map<std::string, std::map<std::string, double>>& times_of_run() {
    static std::map<std::string, std::map<std::string, double>> times;
    return times;
}

std::string notes_for(const std::string& impl, int id, const std::string& scene, double ms) {
    std::string note;
    const auto& times = times_of_run()[scene];
    if (id != kFileScene && scene_catalog()[id].cs149_t4_ms > 0) {
        const double t4 = scene_catalog()[id].cs149_t4_ms;
        note = format("%.0fx faster than CS149's reference on a T4 (%g ms; target >= 10x)", t4 / ms, t4);
    }
    if (impl == "binned" && times.count("tiled") && (scene == "rand1M" || scene == "micro2M"))
        note += format("%stiled / binned = %.1fx (target >= 3x)", note.empty() ? "" : "; ", times.at("tiled") / ms);
    return note;
}

// Times `fn`, rendering every frame of the scene per run, and checks every frame of every run.
Measurement bench_frames(const RenderFn& fn, const Impl& impl, int id, const BenchScene& b, int width,
                         BenchContext& ctx, Measurement m) {
    const int frames = static_cast<int>(b.frames.size());
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(width);
    std::vector<std::unique_ptr<DeviceScene>> scenes;
    std::vector<GuardedBuffer<Rgba>> images;
    std::vector<FrameCheck> checks;
    images.reserve(static_cast<std::size_t>(frames));
    checks.reserve(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
        scenes.push_back(std::make_unique<DeviceScene>(*b.frames[f]));
        images.emplace_back(pixels, "image");
        checks.emplace_back(*b.frames[f], *b.expected[f], width, width);
    }
    Workspace workspace;  // sized by the first run below
    TimedCall call;
    call.prepare = [&] {
        for (auto& image : images) image.poison();  // NaN, and the guards armed again
    };
    call.run = [&] {
        for (int f = 0; f < frames; ++f) fn(scenes[f]->view, width, width, images[f].data(), workspace);
    };
    call.verify = [&] {
        for (int f = 0; f < frames; ++f) {
            CheckResult r = checks[f](images[f]);
            if (!r.ok) {
                if (frames > 1) r.message = format("frame %d: ", f) + r.message;
                return r;
            }
        }
        return CheckResult::pass(pixels * frames);
    };
    // One checked run first, untimed: it sizes the workspace, and says how long a run takes.
    call.prepare();
    const Stats once = time_device(TimingOptions{0, 1, false}, nullptr, call.run);
    CheckResult first = call.verify();
    if (!first.ok) {
        first.message = "the first run (untimed: it sizes the workspace): " + first.message;
        m.record_check(first);
    } else {
        const TimingOptions timing = once.median > 200 ? ctx.slow_timing(3) : ctx.timing;
        m.record(time_checked(timing, &ctx.flusher, call));
        m.ms = scaled(m.ms, 1.0 / frames);
    }
    if (impl.kind == ImplKind::Student) write_student_pictures(id, images, width, ctx.opts);
    return m;
}

}  // namespace

std::vector<Measurement> bench_renderer(const RenderFn& fn, const Impl& impl, std::size_t n, BenchContext& ctx) {
    const int width = static_cast<int>(n);
    const std::size_t pixels = n * n;
    std::vector<Measurement> rows;
    Measurement total;
    total.section = "kernel";
    total.note = "all scenes: the sum of the median times per frame";
    int timed_scenes = 0;
    for (int id : selected_scenes(ctx.opts)) {
        if (id != kFileScene && scene_catalog()[id].adversarial) continue;
        const BenchScene b = bench_scene(id, width, ctx.seed, ctx.opts);
        write_scene_pictures(id, b, width, ctx.opts);
        const int frames = static_cast<int>(b.frames.size());
        const std::string& name = scene_name(id, ctx.opts);
        Measurement m;
        m.section = format("scene %s: %d circles%s", name.c_str(), b.frames[0]->count(),
                           frames > 1 ? format(", %d frames (time per frame)", frames).c_str() : "");
        m.items = static_cast<double>(pixels);
        m.bytes = 16.0 * static_cast<double>(pixels) + 28.0 * b.frames[0]->count();

        if (impl.kind == ImplKind::Cpu) {
            std::vector<std::vector<Rgba>> out(frames, std::vector<Rgba>(pixels));
            m.ms = scaled(time_host(ctx.slow_timing(3), [&] {
                              for (int f = 0; f < frames; ++f) render_cpu(b.frames[f]->view(), width, width, out[f].data());
                          }),
                          1.0 / frames);
            for (int f = 0; f < frames && m.correct; ++f) {
                const ImageDiff d = diff_images(b.expected[f]->data(), out[f].data(), width, width);
                m.record_check(image_verdict(d, nullptr, b.expected[f]->data(), out[f].data()));
            }
            m.note = "every core of the host (OpenMP)";
        } else {
            m = bench_frames(fn, impl, id, b, width, ctx, m);
            if (m.correct) {  // a wrong row's time is not a time to compare with
                times_of_run()[name][impl.name] = m.ms.median;
                const std::string note = notes_for(impl.name, id, name, m.ms.median);
                if (!note.empty()) m.note += (m.note.empty() ? "" : "; ") + note;
            }
        }
        total.ms = timed_scenes++ == 0 ? m.ms : summed(total.ms, m.ms);
        total.bytes += m.bytes;
        total.items += m.items;
        if (!m.correct && total.correct) total.record_check(CheckResult::fail(name + ": " + m.check_message));
        rows.push_back(m);
    }
    if (timed_scenes > 1) rows.push_back(total);
    return rows;
}

// ---- Memory of one size, counted buffer by buffer ------------------------------------------------
//
// What fits() compares with the device's free memory and the host's available memory before a
// size runs. It follows the options that change what is held: --scene and --scene-file (which
// scenes are checked and benchmarked, and their circles), --frames (how many frames of each
// animated scene are held at once) and the pictures (--images, --no-images).

namespace {

constexpr int kDefaultFrames = 3;  // --frames' default
// render_3_binned.cu's kMaxPairs: beyond this many pairs the tiled renderer takes the scene.
constexpr double kBinnedMaxPairs = static_cast<double>(std::int64_t{1} << 28);
// Frames of an animated scene drawn to estimate from, at most (spread over --frames): every
// animated scene has the same number of circles in every frame, of the same sizes; only their
// places move, which changes the binned renderer's pairs by a fraction of a percent.
constexpr int kDrawnFrames = 8;


// A frame of a scene, as the estimates know it: its circles, what its host copy holds (the
// vectors' capacities, as the scene cache keeps them), and every `stride`-th circle, to count the
// binned renderer's pairs from.
struct FrameSample {
    int count = 0;
    double host_bytes = 0;
    std::vector<Circle> circles;
};

FrameSample sample_of(const Scene& scene) {
    constexpr std::size_t kKept = 16384;  // circles kept per frame, at most
    FrameSample sample;
    sample.count = scene.count();
    sample.host_bytes = static_cast<double>(scene.circles.capacity() * sizeof(Circle) +
                                            scene.colors.capacity() * sizeof(Rgb) + sizeof(Scene));
    const std::size_t stride = std::max<std::size_t>((scene.circles.size() + kKept - 1) / kKept, 1);
    for (std::size_t i = 0; i < scene.circles.size(); i += stride) sample.circles.push_back(scene.circles[i]);
    return sample;
}

// Frame `frame` of catalog scene `id`, drawn once per process with seed 1: a scene drawn from
// another seed has the same circle counts and sizes, and its pairs differ by a fraction of a
// percent. (rand1M and micro2M take most of the half second all of them take, the first time.)
const FrameSample& catalog_frame(int id, int frame) {
    static std::map<std::pair<int, int>, FrameSample> drawn;  // a map: the addresses stay
    const auto key = std::make_pair(id, frame);
    if (auto it = drawn.find(key); it != drawn.end()) return it->second;
    return drawn[key] = sample_of(make_scene(id, 1, frame));
}

// The scene of --scene-file, read when the options were first used (listing the cases, or
// these estimates): its circles are known exactly.
const FrameSample& file_frame(const Options& opts) {
    static std::map<std::string, FrameSample> drawn;
    const std::string& path = opts.get("scene-file");
    if (auto it = drawn.find(path); it != drawn.end()) return it->second;
    return drawn[path] = sample_of(file_scene(opts));
}

// A scene as the run renders it: `frames` frames (--frames for an animated one, else 1), of
// which `drawn` are known (all of them, or kDrawnFrames spread from the first to the last).
struct SceneSample {
    bool adversarial = false;  // checked, not benchmarked
    bool file = false;         // --scene-file's: its host copy is held from before any size runs
    int frames = 1;
    std::vector<const FrameSample*> drawn;

    // The sum over all `frames` frames of bytes(frame): the drawn frames' mean, times frames.
    template <typename F>
    double total(F bytes) const {
        double sum = 0;
        for (const FrameSample* f : drawn) sum += bytes(*f);
        return sum * frames / static_cast<double>(drawn.size());
    }
    int most_circles() const {
        int most = 0;
        for (const FrameSample* f : drawn) most = std::max(most, f->count);
        return most;
    }
};

SceneSample scene_sample(int id, const Options& opts) {
    SceneSample s;
    if (id == kFileScene) {
        s.file = true;
        s.drawn = {&file_frame(opts)};
        return s;
    }
    s.adversarial = scene_catalog()[id].adversarial;
    s.frames = frames_of(id, opts);
    const int drawn = std::min(s.frames, kDrawnFrames);
    for (int i = 0; i < drawn; ++i) {
        const int frame = drawn == s.frames ? i : static_cast<int>(static_cast<long long>(i) * (s.frames - 1) / (drawn - 1));
        s.drawn.push_back(&catalog_frame(id, frame));
    }
    return s;
}

// What render_binned does with a frame at width x height, by render_3_binned.cu's rules and
// BinnedConfig's defaults: a scene of fewer than min_circles goes to the tiled renderer before
// it allocates anything; the others get their pairs counted (counts, offsets and the scan's
// workspace allocated), and those with too many pairs go to the tiled renderer then; the rest
// list and sort their pairs.
struct Binning {
    bool counted = false;
    bool binned = false;
    double pairs = 0;  // (tile, circle) pairs, when binned
    int tiles = 0;
};

// The pairs: tiles::for_each_touched_tile, the renderer's own count, over the frame's sample
// (thinned so that it visits two million tiles at most), scaled to all of its circles.
// Memoized: the benchmark and the check's square shape ask for the same.
Binning binning(const FrameSample& f, int width, int height) {
    static std::map<std::tuple<const FrameSample*, int, int>, Binning> known;
    const auto key = std::make_tuple(&f, width, height);
    if (auto it = known.find(key); it != known.end()) return it->second;
    Binning& b = known[key];
    const BinnedConfig config;
    if (f.count == 0 || f.count < config.min_circles || width <= 0 || height <= 0 || f.circles.empty()) return b;
    b.counted = true;
    const tiles::TileGrid grid = tiles::tile_grid(width, height, config.tile);
    b.tiles = grid.count();
    double visits = 0;  // a circle of radius r spans about (2 r width + 3) / tile + 1 tiles each way
    for (const Circle& c : f.circles) {
        const double side = (2.0 * c.radius * width + 3.0) / config.tile + 1.0;
        visits += side * side;
    }
    const std::size_t thin = static_cast<std::size_t>(std::ceil(std::max(visits, 1.0) / 2e6));
    double counted = 0, circles = 0;
    for (std::size_t i = 0; i < f.circles.size(); i += thin) {
        counted += tiles::for_each_touched_tile(f.circles[i], grid, [](int) {});
        circles += 1;
    }
    const double pairs = counted * f.count / circles;
    const double combinations = static_cast<double>(grid.count()) * static_cast<double>(f.count);
    b.binned = pairs <= kBinnedMaxPairs && pairs <= config.max_pair_fraction * combinations;
    if (b.binned) b.pairs = pairs;
    return b;
}

// CUB's temporary storage for render_binned's sort of `pairs` pairs by tile: its size query,
// with the renderer's types and bits.
double sort_storage_bytes(double pairs, int tiles) {
    int bits = 1;  // render_3_binned.cu's bits_for
    while (bits < 31 && (1 << bits) < tiles) ++bits;
    std::size_t bytes = 0;
    PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const unsigned*>(nullptr),
                                                    static_cast<unsigned*>(nullptr), static_cast<const unsigned*>(nullptr),
                                                    static_cast<unsigned*>(nullptr), static_cast<int>(pairs), 0, bits));
    return static_cast<double>(bytes);
}

// The Workspace render_binned (the solution's renderer too) grows to over `frames` at width x
// height: each slot as large as the largest frame's need.
double binned_workspace_bytes(const std::vector<const FrameSample*>& frames, int width, int height) {
    double counts = 0, scan = 0, pairs = 0, sort = 0, ranges = 0;
    for (const FrameSample* f : frames) {
        const Binning b = binning(*f, width, height);
        if (!b.counted) continue;
        counts = std::max(counts, 4.0 * f->count);
        scan = std::max(scan, static_cast<double>(scan_single_pass_workspace_bytes(static_cast<std::size_t>(f->count))));
        if (!b.binned) continue;
        const double stride = std::floor((b.pairs + 64) / 64) * 64;
        pairs = std::max(pairs, 2 * 4.0 * stride);
        sort = std::max(sort, sort_storage_bytes(b.pairs, b.tiles));
        ranges = std::max(ranges, 2 * 4.0 * b.tiles);
    }
    return 2 * committed_device_bytes(counts)    // kCounts, kOffsets: 4 bytes a circle each
           + committed_device_bytes(scan)        // kScanWorkspace: the single-pass scan's tile words
           + 8                      // kTotal
           + 2 * committed_device_bytes(pairs)   // kPairsIn, kPairsOut: keys and circles, 8 bytes a pair each
           + committed_device_bytes(sort)        // kSortTemp: CUB's storage, about 8 bytes a pair more
           + committed_device_bytes(ranges);     // kRanges: each tile's start and end
}

// A scene's copy on the device (DeviceScene): its circles and colors.
double device_scene_bytes(const FrameSample& f) {
    return committed_device_bytes(sizeof(Circle) * static_cast<double>(f.count)) + committed_device_bytes(sizeof(Rgb) * static_cast<double>(f.count));
}

// The device memory the benchmark of one scene at width x width holds at once (bench_frames),
// with its heaviest renderer, binned (the solution's: the student's own may take more or less;
// per_pixel and tiled hold the same without the workspace): every frame's scene, image and the
// CPU's image together (--frames of them for an animated scene), and one Workspace for all.
double bench_scene_device_bytes(const SceneSample& s, int width) {
    const double pixels = static_cast<double>(width) * static_cast<double>(width);
    const double frames = s.total([&](const FrameSample& f) {
        return device_scene_bytes(f)
               + committed_device_bytes(sizeof(Rgba) * pixels + 2.0 * guard_bytes<Rgba>())  // the image between guard zones (16 KiB)
               + committed_device_bytes(sizeof(Rgba) * pixels)  // FrameCheck: the CPU's image, for every run's check
               + committed_device_bytes(pixels);                // FrameCheck: near_edge, when a renderer's differences need it
    });
    return frames + binned_workspace_bytes(s.drawn, width, width);
}

// The device memory the check of one frame at width x height holds at once (check_render): the
// scene, the image between its guard zones, and a Workspace of its own. (The frames of a case
// are checked one after the other.)
double check_frame_device_bytes(const FrameSample& f, int width, int height) {
    const double pixels = static_cast<double>(width) * static_cast<double>(height);
    return device_scene_bytes(f) + committed_device_bytes(sizeof(Rgba) * pixels + 2.0 * guard_bytes<Rgba>()) +
           binned_workspace_bytes({&f}, width, height);
}

// The most device memory one size holds at once: the benchmark of its heaviest scene, or the
// check of its heaviest case (every selected scene, the adversarial ones too, in every shape: at
// small widths a tall image has tiles enough for micro2M to be binned, where the square one is
// not).
double render_device_bytes(std::size_t n, const Options& opts) {
    const int width = static_cast<int>(std::min<std::size_t>(n, 1 << 16));
    double most = 0;
    for (int id : selected_scenes(opts)) {
        const SceneSample s = scene_sample(id, opts);
        if (!s.adversarial) most = std::max(most, bench_scene_device_bytes(s, width));
        for (int shape : {kSquare, kWide, kTall})
            for (const FrameSample* f : s.drawn)
                most = std::max(most, check_frame_device_bytes(*f, width, image_height(width, shape)));
    }
    return most;
}

// The most host memory one size holds at once. The benchmark holds, per benchmarked scene (with
// S the scene's frames, --frames for an animated one):
//   the CPU's image of each of its S frames (the image cache: at most 2 GiB, beyond which the
//     frames of the scene being timed stay, held);
//   its S frames (the scene cache, at most 1 GiB; --scene-file's scene is held from before, as
//     the options were read, and is not counted);
//   and, over the scenes, the most that any one renderer's run adds next to them:
//     the CPU's row: its S images, and one more while they are made; then render_cpu's pixel
//       ranges (16 bytes a circle), then diff_images's states (1 a pixel);
//     a renderer whose images differ on circle edges (allowed): each frame's facts (6 bytes a
//       pixel), and, for a wrong one, its image read back and the differences;
//     with pictures (--images, unless --no-images): the student's S images read back, then one
//       8-bit RGBA picture at a time and its PNG (at most 8 bytes a pixel); the CPU's pictures,
//       one at a time, take less.
// The check of one case (one scene in one shape, at most width x 1.5 width) adds less in most
// runs, but can add more when few scenes are selected (a scene file alone): its frames and the
// CPU's images of them (into the caches), and, one frame at a time, the image read back (16
// bytes a pixel), the states and facts (7), and for a wrong frame what diagnose() renders to
// explain it (one misdrawn image at a time and its states: 17 bytes a pixel more); its pictures,
// and the image of its second run (16 bytes a pixel, once the facts are freed), take less than
// that.
double render_host_bytes(std::size_t n, const Options& opts) {
    const double width = static_cast<double>(std::min<std::size_t>(n, 1 << 16));
    const double pixels = width * width, image = sizeof(Rgba) * pixels;
    const bool pictures = !picture_dir(opts).empty();
    double images = 0, scenes = 0, most_frames = 0, transient = 0, check = 0;
    for (int id : selected_scenes(opts)) {
        const SceneSample s = scene_sample(id, opts);
        const double frames = s.frames, circles = s.most_circles();
        const double frame_bytes = s.total([](const FrameSample& f) { return f.host_bytes; }) / frames;
        const double scene = s.file ? 0 : frames * frame_bytes;  // new in the scene cache
        // The check's case of this scene in its tallest shape: its frames' CPU images and its
        // frames (new: each case draws its own), then one frame's transients (the image read
        // back, states, facts, one misdrawn image and its states, and a frame's bytes, more than
        // render_cpu's pixel ranges when it draws the misdrawing on white; or, while the CPU's
        // image is made, render_cpu's pixel ranges).
        const double tall = width * image_height(static_cast<int>(width), kTall);
        check = std::max(check, std::min(frames * sizeof(Rgba) * tall, static_cast<double>(kImageCacheBytes)) +
                                    std::min(scene, static_cast<double>(kSceneCacheBytes)) +
                                    std::max((16.0 + 7.0 + 17.0) * tall + frame_bytes, 16 * circles));
        if (s.adversarial) continue;
        images += frames * image;
        scenes += scene;
        most_frames = std::max(most_frames, frames);
        transient = std::max({transient,
                              (frames + 1) * image,               // the CPU's row: its images, and the one copied
                              frames * image + 16 * circles,      // then render_cpu's pixel ranges
                              frames * image + pixels,            // then diff_images's states
                              frames * 6 * pixels + image + pixels});  // the facts; a wrong frame read back
        if (pictures) transient = std::max(transient, frames * image + 8 * pixels);  // the student's pictures
    }
    images = std::min(images, static_cast<double>(kImageCacheBytes) + most_frames * image);
    scenes = std::min(scenes, static_cast<double>(kSceneCacheBytes));
    return std::max(images + scenes + transient, check);
}

// f(n, opts), computed once per size and value of the options the estimates read.
double memoized(double (*f)(std::size_t, const Options&), std::size_t n, const Options& opts) {
    static std::map<std::tuple<double (*)(std::size_t, const Options&), std::size_t, std::string>, double> known;
    const std::string options = opts.get("scene") + "|" + opts.get("scene-file") + "|" + opts.get("frames") + "|" +
                                (picture_dir(opts).empty() ? "no pictures" : "pictures");
    const auto key = std::make_tuple(f, n, options);
    if (auto it = known.find(key); it != known.end()) return it->second;
    return known[key] = f(n, opts);
}

std::vector<Measurement> render_bench(const Impl& impl, std::size_t n, BenchContext& ctx) {
    return bench_renderer(impl.kind == ImplKind::Cpu ? RenderFn() : renderer_by_name(impl.name), impl, n, ctx);
}

}  // namespace

ExerciseDef exercise() {
    ExerciseDef def;
    def.id = "04_circle_renderer";
    def.title = "an order-correct, fast renderer of semi-transparent circles (PMPP chapters 3-6, 11; CS149 asst3)";
    def.impls = {
        {"student", ImplKind::Student, "your render_student.cu"},
        {"per_pixel", ImplKind::Reference, "one thread per pixel, every circle in order (render_1_per_pixel.cu)"},
        {"tiled", ImplKind::Reference, "a block per 16x16 tile culls the scene with a scan into shared memory (render_2_tiled.cu)"},
        {"binned", ImplKind::Reference, "every circle binned to its tiles at once: count, scan, stable radix sort (render_3_binned.cu)"},
        {"cpu", ImplKind::Cpu, "circle after circle on the CPU: the definition of correct (render_cpu.cpp)"},
    };
    def.baseline = "binned";
    def.items_unit = "Gpix/s";
    def.extra_options = {
        {"scene", "NAME[,NAME]|all", "scenes to check and benchmark (default: all; only the file's with --scene-file)",
         "", catalog_names(), true},
        {"scene-file", "FILE", "also render the scene of FILE (its format: README.md)", ""},
        {"frames", "N", "frames of each animated scene, each one checked and timed", std::to_string(kDefaultFrames)},
        {"images", "DIR", "pictures: every benchmarked scene, and the difference when a check fails", "build/images"},
        {"image-format", "FORMAT", "format of the pictures", png_supported() ? "png" : "ppm", {"png", "ppm"}},
        {"no-images", "", "write no pictures", ""},
    };
    def.max_size = 8192;
    def.bench_sizes = {1024};
    def.cases = render_cases;
    def.run_case = [](const Impl& impl, const Case& c, std::uint64_t seed, const Options& opts) {
        return check_case(renderer_by_name(impl.name), impl.name, c, seed, opts);
    };
    def.bench = render_bench;
    // Counted scene by scene (render_device_bytes, render_host_bytes) for the scenes, frames and
    // pictures the options ask for; memoized per size and options: the binned renderer's pairs
    // are counted on the host.
    def.device_bytes = [](std::size_t n, const Options& opts) { return memoized(render_device_bytes, n, opts); };
    def.host_bytes = [](std::size_t n, const Options& opts) { return memoized(render_host_bytes, n, opts); };
    return def;
}

}  // namespace circles
