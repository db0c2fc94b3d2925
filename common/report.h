// report.h: the human table every harness prints, number formatting, and writing files so
// that a reader never sees half of one (write to a temporary name, then rename).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pmpp {

class Table {
public:
    enum class Align { Left, Right };
    explicit Table(std::vector<std::string> headers, std::vector<Align> align = {});
    void add_row(std::vector<std::string> cells);
    void add_rule();  // a horizontal line between groups of rows
    void print(std::ostream& os) const;
    std::string str() const;
    std::size_t rows() const { return rows_.size(); }

private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;  // an empty row is a rule
};

// printf-style into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Writes `content` to `path` atomically: a failure leaves no file (and no old content replaced
// by a partial one). Throws std::runtime_error naming the path and the reason.
void write_file_atomically(const std::string& path, const std::string& content);
// Whole file as a string; throws std::runtime_error naming the path.
std::string read_file(const std::string& path);

}  // namespace pmpp
