// cli.h: the one command-line parser for every harness. The shared options are the exercise
// contract (docs/CONTRACT.md); an exercise may add options of its own.
//
// Any malformed input (unknown option, missing or malformed value, negative or absurd size)
// throws UsageError; the harness prints the message and the usage on stderr and exits with 2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pmpp {

// The largest --seed: the results file stores numbers as JSON doubles, which hold integers
// exactly up to 2^53, so a larger seed would not replay. Seeds the tests make stay below it too.
constexpr std::uint64_t kLargestSeed = std::uint64_t{1} << 53;

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An option an exercise adds: `--name VALUE` (or a flag when value_name is empty).
struct ExtraOption {
    std::string name;  // without the dashes
    std::string value_name;  // e.g. "SCENE"; empty for a flag
    std::string help;
    std::string default_value;  // shown in --help; also the value when not given
    std::vector<std::string> choices = {};  // if not empty, the only values accepted
    // With choices: the value is a comma-separated list of them, or "all" (e.g. --scene a,b).
    // Checked while parsing, so a wrong name is a usage error (exit 2) even without a GPU.
    bool list = false;
};

struct Options {
    std::vector<std::string> impls;  // --impl, comma-separated; empty means the default
    bool list = false;
    bool check = false;
    bool bench = false;
    bool help = false;
    bool verbose = false;
    std::optional<std::size_t> size;  // --size
    std::optional<std::size_t> max_size;  // --max-size: check cases above this are skipped
    // --shard I/N: with --check, only every N-th of the selected cases, from the I-th (1 <= I <= N);
    // the N shards together run every case once (the grader runs a slow sanitizer tool so)
    int shard = 1, shards = 1;
    std::uint64_t seed = 0;
    bool seed_given = false;
    std::string json_path;  // --json
    std::string section;  // --section: the benchmark times and reports only this table's rows; empty: all
    int repeats = 20;
    int warmup = 2;
    std::map<std::string, std::string> extra;  // exercise options, by name (defaults filled in)
    // What a run does: --check, --bench, or both when neither is given.
    bool runs_check() const { return check || !bench; }
    bool runs_bench() const { return bench || !check; }

    const std::string& get(const std::string& name) const;  // an extra option's value
    bool flag(const std::string& name) const;  // an extra flag's value
};

// Parses "1024", "2^20", "2^26+3", "2^20-1", "1<<20", "1e6", "64K", "16M", "1G" (binary K/M/G).
// Rejects negatives, garbage and anything above `max_value`; `error` says why.
bool parse_size(const std::string& text, std::size_t& out, std::string& error,
                std::size_t max_value = std::size_t{1} << 40);
// Decimal or 0x-hex unsigned 64-bit.
bool parse_u64(const std::string& text, std::uint64_t& out);
bool parse_int(const std::string& text, int& out);

// Writes a size as "2^k", "2^k+c" or a plain number, whichever is shortest to read.
std::string format_size(std::size_t n);

// max_size: the largest --size this exercise accepts.
Options parse_command_line(int argc, const char* const* argv, const std::vector<ExtraOption>& extras,
                           std::size_t max_size);

// The options of a command line with no arguments: every exercise option at its default.
Options default_options(const std::vector<ExtraOption>& extras);

std::string usage_text(const std::string& program, const std::string& summary, const std::vector<ExtraOption>& extras);

}  // namespace pmpp
