#include "common/cli.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

namespace pmpp {

namespace {

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// Non-negative decimal integer without overflow.
bool parse_decimal(const std::string& s, unsigned __int128& out) {
    if (!all_digits(s) || s.size() > 30) return false;
    out = 0;
    for (char c : s) out = out * 10 + static_cast<unsigned>(c - '0');
    return true;
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

}  // namespace

bool parse_size(const std::string& raw, std::size_t& out, std::string& error, std::size_t max_value) {
    const std::string text = trim(raw);
    using u128 = unsigned __int128;
    u128 value = 0;
    if (text.empty()) {
        error = "empty size";
        return false;
    }
    if (text[0] == '-') {
        error = "size '" + raw + "' is negative";
        return false;
    }
    std::size_t pos;
    if ((pos = text.find('^')) != std::string::npos || (pos = text.find("<<")) != std::string::npos) {
        const bool shift = text[pos] == '<';
        const std::string base_s = text.substr(0, pos);
        std::string rest = text.substr(pos + (shift ? 2 : 1));
        std::size_t op = rest.find_first_of("+-");
        std::string exp_s = rest.substr(0, op);
        u128 base = 0, exponent = 0, offset = 0;
        if (!parse_decimal(base_s, base) || !parse_decimal(exp_s, exponent) || exponent > 62 || (!shift && base != 2)) {
            error = "size '" + raw + "' is not of the form 2^K, 2^K+C, 2^K-C or 1<<K (K <= 62)";
            return false;
        }
        value = shift ? (base << static_cast<unsigned>(exponent)) : (u128{1} << static_cast<unsigned>(exponent));
        if (op != std::string::npos) {
            if (!parse_decimal(rest.substr(op + 1), offset)) {
                error = "size '" + raw + "' has a malformed offset after '" + rest[op] + "'";
                return false;
            }
            if (rest[op] == '+') {
                value += offset;
            } else {
                if (offset > value) {
                    error = "size '" + raw + "' is negative";
                    return false;
                }
                value -= offset;
            }
        }
    } else if ((pos = text.find_first_of("eE")) != std::string::npos) {
        u128 mant = 0, exponent = 0;
        if (!parse_decimal(text.substr(0, pos), mant) || !parse_decimal(text.substr(pos + 1), exponent) ||
            exponent > 18) {
            error = "size '" + raw + "' is not a number";
            return false;
        }
        value = mant;
        for (unsigned i = 0; i < exponent; ++i) value *= 10;
    } else {
        std::string digits = text;
        unsigned shift = 0;
        const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
        if (last == 'K' || last == 'M' || last == 'G') {
            shift = last == 'K' ? 10 : last == 'M' ? 20 : 30;
            digits.pop_back();
        }
        if (!parse_decimal(digits, value)) {
            error = "size '" + raw + "' is not a number (examples: 1000, 2^20, 2^26+3, 16M)";
            return false;
        }
        value <<= shift;
    }
    if (value > max_value) {
        error = "size '" + raw + "' is larger than the " + format_size(max_value) + " this program accepts";
        return false;
    }
    out = static_cast<std::size_t>(value);
    return true;
}

bool parse_u64(const std::string& raw, std::uint64_t& out) {
    const std::string text = trim(raw);
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        if (text.size() > 18) return false;
        std::uint64_t v = 0;
        for (std::size_t i = 2; i < text.size(); ++i) {
            const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else
                return false;
            v = v * 16 + static_cast<std::uint64_t>(d);
        }
        out = v;
        return true;
    }
    unsigned __int128 v;
    if (!parse_decimal(text, v) || v > std::numeric_limits<std::uint64_t>::max()) return false;
    out = static_cast<std::uint64_t>(v);
    return true;
}

bool parse_int(const std::string& raw, int& out) {
    std::string text = trim(raw);
    bool negative = false;
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        text = text.substr(1);
    }
    unsigned __int128 v;
    if (!parse_decimal(text, v) || v > static_cast<unsigned>(std::numeric_limits<int>::max())) return false;
    out = negative ? -static_cast<int>(v) : static_cast<int>(v);
    return true;
}

std::string format_size(std::size_t n) {
    if (n < 1000) return std::to_string(n);
    for (int k = 10; k < 63; ++k) {
        const std::size_t p = std::size_t{1} << k;
        if (n == p) return "2^" + std::to_string(k);
        if (n > p && n - p <= 64) return "2^" + std::to_string(k) + "+" + std::to_string(n - p);
        if (n < p && p - n <= 64) return "2^" + std::to_string(k) + "-" + std::to_string(p - n);
    }
    return std::to_string(n);
}

const std::string& Options::get(const std::string& name) const {
    auto it = extra.find(name);
    if (it == extra.end()) throw std::logic_error("unknown exercise option '" + name + "'");
    return it->second;
}

bool Options::flag(const std::string& name) const { return get(name) == "1"; }

Options parse_command_line(int argc, const char* const* argv, const std::vector<ExtraOption>& extras,
                           std::size_t max_size) {
    Options o;
    for (const auto& e : extras) o.extra[e.name] = e.value_name.empty() ? "0" : e.default_value;

    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg.size() == 2)
            throw UsageError("unexpected argument '" + arg + "' (options start with --)");
        std::string name = arg.substr(2), value;
        bool has_inline = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_inline = true;
        }
        auto take_value = [&](const std::string& what) -> std::string {
            if (has_inline) {
                if (value.empty()) throw UsageError("option --" + name + " needs " + what);
                return value;
            }
            if (i + 1 >= argc) throw UsageError("option --" + name + " needs " + what);
            std::string v = argv[++i];
            if (v.rfind("--", 0) == 0) throw UsageError("option --" + name + " needs " + what + ", got '" + v + "'");
            return v;
        };
        auto no_value = [&] {
            if (has_inline) throw UsageError("option --" + name + " takes no value");
        };

        if (name == "help") {
            no_value();
            o.help = true;
        } else if (name == "list") {
            no_value();
            o.list = true;
        } else if (name == "check") {
            no_value();
            o.check = true;
        } else if (name == "bench") {
            no_value();
            o.bench = true;
        } else if (name == "verbose") {
            no_value();
            o.verbose = true;
        } else if (name == "impl") {
            const std::string v = take_value("a name (see --list) or 'all'");
            if (trim(v).empty()) throw UsageError("option --impl needs a name (see --list) or 'all'");
            std::stringstream ss(v);
            std::string item;
            while (std::getline(ss, item, ',')) {
                item = trim(item);
                if (item.empty()) throw UsageError("option --impl has an empty name in '" + v + "'");
                o.impls.push_back(item);
            }
        } else if (name == "size" || name == "max-size") {
            const std::string v = take_value("a size (e.g. 1000, 2^20, 2^26+3)");
            std::size_t n;
            std::string err;
            if (!parse_size(v, n, err, max_size)) throw UsageError("option --" + name + ": " + err);
            (name == "size" ? o.size : o.max_size) = n;
        } else if (name == "shard") {
            const std::string v = take_value("I/N, e.g. 2/3");
            const std::size_t slash = v.find('/');
            int i = 0, n = 0;
            if (slash == std::string::npos || !parse_int(v.substr(0, slash), i) || !parse_int(v.substr(slash + 1), n) ||
                n < 1 || n > 1000 || i < 1 || i > n)
                throw UsageError("option --shard: '" + v + "' is not I/N with 1 <= I <= N <= 1000 (e.g. 2/3)");
            o.shard = i;
            o.shards = n;
        } else if (name == "seed") {
            const std::string v = take_value("an unsigned integer");
            if (!parse_u64(v, o.seed)) throw UsageError("option --seed: '" + v + "' is not an unsigned 64-bit integer");
            if (o.seed > kLargestSeed)
                throw UsageError(
                    "option --seed: at most 2^53 = 9007199254740992, so the results file holds it exactly");
            o.seed_given = true;
        } else if (name == "json") {
            o.json_path = take_value("a file path");
        } else if (name == "section") {
            o.section = trim(take_value("a table's name, e.g. kernel"));
            if (o.section.empty()) throw UsageError("option --section needs a table's name, e.g. kernel");
        } else if (name == "repeats" || name == "warmup") {
            const std::string v = take_value("a count");
            int n;
            const int lo = name == "repeats" ? 1 : 0;
            if (!parse_int(v, n) || n < lo || n > 10000)
                throw UsageError("option --" + name + ": '" + v + "' is not a count in [" + std::to_string(lo) +
                                 ", 10000]");
            (name == "repeats" ? o.repeats : o.warmup) = n;
        } else {
            bool found = false;
            for (const auto& e : extras) {
                if (e.name != name) continue;
                found = true;
                if (e.value_name.empty()) {
                    no_value();
                    o.extra[name] = "1";
                } else {
                    const std::string v = take_value(e.value_name);
                    const auto allowed = [&](const std::string& item) {
                        return std::find(e.choices.begin(), e.choices.end(), item) != e.choices.end();
                    };
                    std::string list;
                    for (const auto& c : e.choices) list += (list.empty() ? "" : ", ") + c;
                    if (!e.choices.empty() && e.list && v != "all") {
                        std::stringstream items(v);
                        std::string item;
                        bool any = false;
                        while (std::getline(items, item, ',')) {
                            if (!allowed(item))
                                throw UsageError("option --" + name + ": '" + item + "' is not one of " + list +
                                                 " (or all)");
                            any = true;
                        }
                        if (!any || v.back() == ',')
                            throw UsageError("option --" + name + ": give one or more of " + list + ", or all");
                    } else if (!e.choices.empty() && !e.list && !allowed(v)) {
                        throw UsageError("option --" + name + ": '" + v + "' is not one of " + list);
                    }
                    o.extra[name] = v;
                }
            }
            if (!found) throw UsageError("unknown option '--" + name + "'");
        }
    }
    return o;
}

Options default_options(const std::vector<ExtraOption>& extras) {
    const char* argv[] = {"default"};
    return parse_command_line(1, argv, extras, ~std::size_t{0});
}

std::string usage_text(const std::string& program, const std::string& summary, const std::vector<ExtraOption>& extras) {
    std::ostringstream os;
    os << "usage: " << program << " [--impl NAME|all] [--check] [--bench] [--size N] [--seed S] [--json FILE] ...\n";
    if (!summary.empty()) os << summary << "\n";
    os << "\noptions (shared by every exercise; see docs/CONTRACT.md):\n"
          "  --impl NAME[,NAME]|all  which implementation(s): the student's, a reference variant, the library,\n"
          "                          cpu (--list shows them); default: student\n"
          "  --list                  list the implementations and exit\n"
          "  --check                 correctness over the exercise's case list (or only size N with --size)\n"
          "  --bench                 benchmark table: median ms, spread, throughput, fraction of copy\n"
          "                          bandwidth, ratio to the library baseline\n"
          "                          (neither --check nor --bench: both)\n"
          "  --size N                problem size: 1000, 2^20, 2^26+3, 1<<20, 16M\n"
          "  --max-size N            with --check: skip cases larger than N\n"
          "  --shard I/N             with --check: only every N-th selected case, from the I-th (the N\n"
          "                          shards together run each case once)\n"
          "  --seed S                replay the inputs of an earlier run (every run prints its seed)\n"
          "  --json FILE             write machine-readable results to FILE\n"
          "  --section NAME          with --bench: time and report only the rows of that table (e.g. kernel;\n"
          "                          the grader's performance parts use it)\n"
          "  --repeats R             timed repeats per benchmark (default 20)\n"
          "  --warmup W              untimed warm-up runs (default 2)\n"
          "  --verbose               print every case, not only failures\n"
          "  --help                  this text\n";
    if (!extras.empty()) {
        os << "\noptions of this exercise:\n";
        for (const auto& e : extras) {
            std::string lhs = "  --" + e.name + (e.value_name.empty() ? "" : " " + e.value_name);
            if (lhs.size() < 26)
                lhs.resize(26, ' ');
            else
                lhs += "\n" + std::string(26, ' ');
            os << lhs << e.help;
            if (!e.choices.empty()) {
                std::string list;
                for (const auto& c : e.choices) list += (list.empty() ? "" : "|") + c;
                os << ": " << list << (e.list ? " (a comma-separated list, or all)" : "");
            }
            if (!e.default_value.empty() && !e.value_name.empty()) os << " (default " << e.default_value << ")";
            os << "\n";
        }
    }
    os << "\nexit codes: 0 all correct, 1 a wrong result, 2 usage error, 3 CUDA error or no GPU,\n"
          "            4 the problem does not fit in this GPU's memory\n";
    return os.str();
}

}  // namespace pmpp
