// Images written as PNG and PPM read back pixel for pixel; bad paths fail loudly, leaving nothing.
#include "common/image.h"
#include "common/report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

using namespace pmpp;

namespace {

Image test_pattern(int w, int h, int channels) {
    Image img(w, h, channels);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::uint8_t* p = img.at(x, y);
            p[0] = static_cast<std::uint8_t>(x * 37 + y);
            p[1] = static_cast<std::uint8_t>(y * 11);
            p[2] = static_cast<std::uint8_t>(x ^ y);
            if (channels == 4) p[3] = static_cast<std::uint8_t>(255 - x);
        }
    return img;
}

std::string temp_path(const std::string& name) {
    return ::testing::TempDir() + "pmpp_" + std::to_string(::getpid()) + "_" + name;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

}  // namespace

TEST(Ppm, WritesAndReadsBackEveryPixel) {
    const Image img = test_pattern(31, 17, 3);
    const std::string path = temp_path("a.ppm");
    write_image(path, img);
    const Image back = read_ppm(path);
    EXPECT_EQ(back.width, 31);
    EXPECT_EQ(back.height, 17);
    EXPECT_EQ(back.pixels, img.pixels);
    std::remove(path.c_str());
}

TEST(Ppm, DropsAlphaFromRgba) {
    const Image img = test_pattern(5, 4, 4);
    const std::string path = temp_path("b.ppm");
    write_ppm(path, img);
    const Image back = read_ppm(path);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 5; ++x)
            for (int c = 0; c < 3; ++c) EXPECT_EQ(back.at(x, y)[c], img.at(x, y)[c]);
    std::remove(path.c_str());
}

TEST(Ppm, RejectsFilesThatAreNotPpm) {
    const std::string path = temp_path("c.ppm");
    write_file_atomically(path, "P5\n2 2\n255\nabcd");
    EXPECT_THROW(read_ppm(path), std::runtime_error);
    write_file_atomically(path, "P6\n4 4\n255\nabc");  // truncated
    EXPECT_THROW(read_ppm(path), std::runtime_error);
    std::remove(path.c_str());
}

TEST(Png, WritesAndReadsBackEveryPixelInRgbAndRgba) {
    if (!png_supported()) GTEST_SKIP() << "built without libpng (install libpng-dev and rebuild)";
    for (int channels : {3, 4}) {
        const Image img = test_pattern(64, 33, channels);
        const std::string path = temp_path("d" + std::to_string(channels) + ".png");
        write_image(path, img);
        const Image back = read_png(path);
        EXPECT_EQ(back.width, 64);
        EXPECT_EQ(back.height, 33);
        EXPECT_EQ(back.channels, channels);
        EXPECT_EQ(back.pixels, img.pixels);
        std::remove(path.c_str());
    }
}

TEST(Png, AnImageOfNoPixelsIsRefusedWithItsNameAndNoFileIsLeft) {
    if (!png_supported()) GTEST_SKIP() << "built without libpng (install libpng-dev and rebuild)";
    const std::string path = temp_path("empty.png");
    std::remove(path.c_str());
    try {
        write_image(path, Image(0, 5, 4));
        FAIL() << "a 0x5 image was written";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("empty.png"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("0x5 pixels"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::ifstream(path).good());
    // The error path leaves the next write working.
    const Image img = test_pattern(7, 3, 4);
    write_image(path, img);
    EXPECT_EQ(read_png(path).pixels, img.pixels);
    std::remove(path.c_str());
}

TEST(Images, NaNPixelsBecomeZeroNotUndefined) {
    EXPECT_EQ(to_byte(std::numeric_limits<float>::quiet_NaN()), 0);
    EXPECT_EQ(to_byte(-std::numeric_limits<float>::quiet_NaN()), 0);
    EXPECT_EQ(to_byte(std::numeric_limits<float>::infinity()), 255);
}

TEST(Images, FloatPixelsAreClampedAndRounded) {
    const float rgba[8] = {-0.5f, 0.0f, 0.5f, 1.0f, 2.0f, 0.999f, 0.002f, 1.0f / 255.0f};
    const Image img = image_from_rgba_float(rgba, 2, 1);
    const std::uint8_t expect[8] = {0, 0, 128, 255, 255, 255, 1, 1};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(img.pixels[i], expect[i]) << i;
}

TEST(Images, UnknownExtensionAndUnwritableDirectoryFailWithoutLeavingAFile) {
    const Image img = test_pattern(2, 2, 3);
    EXPECT_THROW(write_image(temp_path("e.bmp"), img), std::runtime_error);
    EXPECT_FALSE(exists(temp_path("e.bmp")));
    try {
        write_image("/nonexistent-dir/x.ppm", img);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.ppm"), std::string::npos);
    }
}
