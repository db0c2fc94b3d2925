// picture_folder.h: where a harness writes its pictures (--images DIR): the folder, made if need
// be, each file DIR/STEM.FORMAT (by default the format this build writes: png with libpng, else
// ppm; 04 lets --image-format choose), and the list of the files written, which a harness may
// print after them so the reader knows where to look.
#pragma once

#include "common/image.h"

#include <cstddef>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

class PictureFolder {
public:
    explicit PictureFolder(std::string dir, const std::string& format = png_supported() ? "png" : "ppm")
        : dir_(std::move(dir)), ext_("." + format) {
        std::filesystem::create_directories(dir_);
    }

    // DIR/STEM.FORMAT: where write(STEM, ...) puts its picture.
    std::string path(const std::string& stem) const { return dir_ + "/" + stem + ext_; }

    // Writes path(STEM).
    void write(const std::string& stem, const Image& image) {
        written_.push_back(path(stem));
        write_image(written_.back(), image);
    }

    // "HEADING: DIR/a.png, DIR/b.png" on a line of its own, after an empty one.
    void print_written(const std::string& heading) const {
        std::cout << "\n" << heading << ": ";
        for (std::size_t i = 0; i < written_.size(); ++i) std::cout << (i ? ", " : "") << written_[i];
        std::cout << "\n";
    }

private:
    std::string dir_, ext_;
    std::vector<std::string> written_;
};

}  // namespace pmpp
