#include "common/report.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace pmpp {

Table::Table(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers)), align_(std::move(align)) {
    align_.resize(headers_.size(), Align::Right);
}

void Table::add_row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

void Table::add_rule() { rows_.emplace_back(); }

void Table::print(std::ostream& os) const {
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) width[c] = headers_[c].size();
    for (const auto& row : rows_)
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (std::size_t c = 0; c < headers_.size(); ++c) {
            const std::string& s = cells[c];
            const std::string pad(width[c] - s.size(), ' ');
            if (c) out += "  ";
            out += align_[c] == Align::Left ? s + pad : pad + s;
        }
        while (!out.empty() && out.back() == ' ') out.pop_back();
        os << out << "\n";
    };
    std::size_t total = 0;
    for (auto w : width) total += w;
    total += 2 * (width.empty() ? 0 : width.size() - 1);
    line(headers_);
    os << std::string(total, '-') << "\n";
    for (const auto& row : rows_) {
        if (row.empty())
            os << std::string(total, '-') << "\n";
        else
            line(row);
    }
}

std::string Table::str() const {
    std::ostringstream os;
    print(os);
    return os.str();
}

std::string format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    const int len = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(len > 0 ? static_cast<std::size_t>(len) : 0, '\0');
    if (len > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
    va_end(args);
    return out;
}

void write_file_atomically(const std::string& path, const std::string& content) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
        f.write(content.data(), static_cast<std::streamsize>(content.size()));
        f.flush();
        if (!f) {
            std::remove(tmp.c_str());
            throw std::runtime_error("cannot write '" + path + "': write failed");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot write '" + path + "': " + reason);
    }
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace pmpp
