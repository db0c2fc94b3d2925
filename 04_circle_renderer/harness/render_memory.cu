// render_memory.cu: exercise 04's memory estimates: the most device and host memory one size holds
// at once, counted buffer by buffer, scene by scene.
//
// What fits() compares with the device's free memory and the host's available memory before a
// size runs. It follows the options that change what is held: --scene and --scene-file (which
// scenes are checked and benchmarked, and their circles), --frames (how many frames of each
// animated scene are held at once) and the pictures (--images, --no-images).
#include "render_harness.h"

#include "binned_config.h"
#include "tiles.h"

#include "../02_scan/scan.h"

#include "common/cuda_check.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace render {

using pmpp::committed_device_bytes;
using pmpp::guard_bytes;
using pmpp::Options;

namespace {

// render_3_binned.cu's kMaxPairs: beyond this many pairs the tiled renderer takes the scene.
constexpr double kBinnedMaxPairs = static_cast<double>(std::int64_t{1} << 28);
// Frames of an animated scene drawn to estimate from, at most (spread over --frames): every
// animated scene has the same number of circles in every frame, of the same sizes; only their
// places move, which changes the binned renderer's pairs by a fraction of a percent.
constexpr int kDrawnFrames = 8;

// A frame of a scene, as the estimates know it: its circles, what its host copy holds (the
// vectors' capacities, as a problem keeps them), and every `stride`-th circle, to count the
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
// --scene-file's scene is read once per process and file: its circles are known exactly.
const FrameSample& frame_sample(int id, int frame, const Options& opts) {
    static std::map<std::tuple<int, int, std::string>, FrameSample> drawn;  // a map: the addresses stay
    const auto key = std::make_tuple(id, frame, id == kFileScene ? opts.get("scene-file") : std::string());
    if (auto it = drawn.find(key); it != drawn.end()) return it->second;
    return drawn[key] = sample_of(scene_frame(id, 1, frame, opts));
}

// A scene as the run renders it: `frames` frames (--frames for an animated one, else 1), of
// which `drawn` are known (all of them, or kDrawnFrames spread from the first to the last).
struct SceneSample {
    bool adversarial = false;  // checked, not benchmarked
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
        s.drawn = {&frame_sample(id, 0, opts)};
        return s;
    }
    s.adversarial = scene_catalog()[id].adversarial;
    s.frames = frames_of(id, opts);
    const int drawn = std::min(s.frames, kDrawnFrames);
    for (int i = 0; i < drawn; ++i) {
        const int frame =
            drawn == s.frames ? i : static_cast<int>(static_cast<long long>(i) * (s.frames - 1) / (drawn - 1));
        s.drawn.push_back(&frame_sample(id, frame, opts));
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
    PMPP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, static_cast<const unsigned*>(nullptr), static_cast<unsigned*>(nullptr),
        static_cast<const unsigned*>(nullptr), static_cast<unsigned*>(nullptr), static_cast<int>(pairs), 0, bits));
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
        scan = std::max(
            scan, static_cast<double>(scan::scan_single_pass_workspace_bytes(static_cast<std::size_t>(f->count))));
        if (!b.binned) continue;
        const double stride = std::floor((b.pairs + 64) / 64) * 64;
        pairs = std::max(pairs, 2 * 4.0 * stride);
        sort = std::max(sort, sort_storage_bytes(b.pairs, b.tiles));
        ranges = std::max(ranges, 2 * 4.0 * b.tiles);
    }
    return 2 * committed_device_bytes(counts)  // kCounts, kOffsets: 4 bytes a circle each
           + committed_device_bytes(scan)  // kScanWorkspace: the single-pass scan's tile words
           + 8  // kTotal
           + 2 * committed_device_bytes(pairs)  // kPairsIn, kPairsOut: keys and circles, 8 bytes a pair each
           + committed_device_bytes(sort)  // kSortTemp: CUB's storage, about 8 bytes a pair more
           + committed_device_bytes(ranges);  // kRanges: each tile's start and end
}

// A scene's copy on the device (DeviceScene): its circles and colors.
double device_scene_bytes(const FrameSample& f) {
    return committed_device_bytes(sizeof(Circle) * static_cast<double>(f.count)) +
           committed_device_bytes(sizeof(Rgb) * static_cast<double>(f.count));
}

// The device memory the benchmark of one scene at width x width holds at once (bench_frames),
// with its heaviest renderer, binned (the solution's: the student's own may take more or less;
// per_pixel and tiled hold the same without the workspace): every frame's scene, image and the
// CPU's image together (--frames of them for an animated scene), and one Workspace for all.
double bench_scene_device_bytes(const SceneSample& s, int width) {
    const double pixels = static_cast<double>(width) * static_cast<double>(width);
    const double frames = s.total([&](const FrameSample& f) {
        return device_scene_bytes(f) +
               committed_device_bytes(sizeof(Rgba) * pixels +
                                      2.0 * guard_bytes<Rgba>())  // the image between guard zones (16 KiB)
               + committed_device_bytes(sizeof(Rgba) * pixels)  // FrameCheck: the CPU's image, for every run's check
               + committed_device_bytes(pixels);  // FrameCheck: near_edge, when a renderer's differences need it
    });
    return frames + binned_workspace_bytes(s.drawn, width, width);
}

// The device memory the check of one frame at width x height holds at once (check_render): the
// scene, the image between its guard zones (16 rows each, at least 16 KiB), and a Workspace of
// its own. (The frames of a case are checked one after the other.)
double check_frame_device_bytes(const FrameSample& f, int width, int height) {
    const double pixels = static_cast<double>(width) * static_cast<double>(height);
    const double guard = static_cast<double>(pmpp::guard_zone_bytes<Rgba>(16 * static_cast<std::size_t>(width)));
    return device_scene_bytes(f) + committed_device_bytes(sizeof(Rgba) * pixels + 2.0 * guard) +
           binned_workspace_bytes({&f}, width, height);
}

// The most device memory one size holds at once: the benchmark of its heaviest scene, or the
// check of its heaviest case (every selected scene, the adversarial ones too, in every shape: at
// small widths a tall image has tiles enough for micro2M to be binned, where the square one is
// not).
double device_bytes_at(std::size_t n, const Options& opts) {
    const int width = static_cast<int>(std::min<std::size_t>(n, 1 << 16));
    double most = 0;
    for (int id : selected_scenes(opts)) {
        const SceneSample s = scene_sample(id, opts);
        if (!s.adversarial) most = std::max(most, bench_scene_device_bytes(s, width));
        for (Shape shape : {kSquare, kWide, kTall})
            for (const FrameSample* f : s.drawn)
                most = std::max(most, check_frame_device_bytes(*f, width, image_height(width, shape)));
    }
    return most;
}

// The most host memory one size holds at once. The benchmark's problem holds, per benchmarked
// scene (with S the scene's frames, --frames for an animated one), once a variant has timed it:
//   the CPU's image of each of its S frames, and its S frames;
//   and, over the scenes, the most that any one renderer's run adds next to them:
//     the CPU's row: its S images, and one more while they are made; then render_cpu's pixel
//       ranges (16 bytes a circle), then diff_images's states (1 a pixel);
//     a renderer whose images differ on circle edges (allowed): each frame's facts (6 bytes a
//       pixel), and, for a wrong one, its image read back and the differences;
//     with pictures (--images, unless --no-images): the student's S images read back, then one
//       8-bit RGBA picture at a time and its PNG (at most 8 bytes a pixel); the CPU's pictures,
//       one at a time, take less.
// The check of one case (one scene in one shape, at most width x 1.5 width) holds less in most
// runs, but can hold more when few scenes are selected (a scene file alone): its problem (its
// frames and the CPU's images of them), and, one frame at a time, the image read back (16 bytes a
// pixel), the states and facts (7), and for a wrong frame what explain_difference() renders to
// explain it (one misdrawn image at a time and its states: 17 bytes a pixel more); its pictures,
// and the image of its second run (16 bytes a pixel, once the facts are freed), take less than
// that.
double host_bytes_at(std::size_t n, const Options& opts) {
    const double width = static_cast<double>(std::min<std::size_t>(n, 1 << 16));
    const double pixels = width * width, image = sizeof(Rgba) * pixels;
    const bool pictures = !picture_dir(opts).empty();
    double held = 0, transient = 0, check = 0;
    for (int id : selected_scenes(opts)) {
        const SceneSample s = scene_sample(id, opts);
        const double frames = s.frames, circles = s.most_circles();
        const double frame_bytes = s.total([](const FrameSample& f) { return f.host_bytes; }) / frames;
        const double scene = frames * frame_bytes;
        // The check's case of this scene in its tallest shape: its frames' CPU images and its
        // frames, then one frame's transients (the image read back, states, facts, one misdrawn
        // image and its states, and a frame's bytes, more than render_cpu's pixel ranges when it
        // draws the misdrawing on white; or, while the CPU's image is made, render_cpu's pixel ranges).
        const double tall = width * image_height(static_cast<int>(width), kTall);
        check = std::max(check, frames * sizeof(Rgba) * tall + scene +
                                    std::max((16.0 + 7.0 + 17.0) * tall + frame_bytes, 16 * circles));
        if (s.adversarial) continue;
        held += frames * image + scene;
        transient = std::max({transient,
                              (frames + 1) * image,  // the CPU's row: its images, and the one copied
                              frames * image + 16 * circles,  // then render_cpu's pixel ranges
                              frames * image + pixels,  // then diff_images's states
                              frames * 6 * pixels + image + pixels});  // the facts; a wrong frame read back
        if (pictures) transient = std::max(transient, frames * image + 8 * pixels);  // the student's pictures
    }
    return std::max(held + transient, check);
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

}  // namespace

double render_device_bytes(std::size_t n, const Options& opts) { return memoized(device_bytes_at, n, opts); }
double render_host_bytes(std::size_t n, const Options& opts) { return memoized(host_bytes_at, n, opts); }

}  // namespace render
