// image.h: 8-bit RGB/RGBA images written as PNG (through libpng, when the build found it) or
// PPM (always available). Files are written atomically; errors throw std::runtime_error that
// names the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pmpp {

struct Image {
    int width = 0;
    int height = 0;
    int channels = 4;  // 3 (RGB) or 4 (RGBA)
    std::vector<std::uint8_t> pixels;  // row-major, top row first

    Image() = default;
    Image(int w, int h, int c) : width(w), height(h), channels(c), pixels(static_cast<std::size_t>(w) * h * c) {}
    std::uint8_t* at(int x, int y) { return &pixels[(static_cast<std::size_t>(y) * width + x) * channels]; }
    const std::uint8_t* at(int x, int y) const { return &pixels[(static_cast<std::size_t>(y) * width + x) * channels]; }
};

// Float in [0, 1] to a byte, clamped and rounded; NaN (a poisoned, never-written pixel) is 0.
inline std::uint8_t to_byte(float v) {
    v = v > 0.f ? (v < 1.f ? v : 1.f) : 0.f;  // written so that NaN, which fails every comparison, becomes 0
    return static_cast<std::uint8_t>(v * 255.f + 0.5f);
}

// Converts an RGBA float image (4 floats per pixel, [0, 1]) to 8 bits.
Image image_from_rgba_float(const float* rgba, int width, int height);

bool png_supported();
void write_png(const std::string& path, const Image& image);  // throws if !png_supported()
Image read_png(const std::string& path);  // returns RGB or RGBA
void write_ppm(const std::string& path, const Image& image);  // binary P6; alpha dropped
Image read_ppm(const std::string& path);  // P6 (and P3), maxval 255

// By extension: ".png" or ".ppm".
void write_image(const std::string& path, const Image& image);

}  // namespace pmpp
