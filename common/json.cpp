#include "common/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pmpp {

bool Json::as_bool() const {
    if (type_ != Type::Bool) throw JsonError("JSON value is not a boolean");
    return bool_;
}
double Json::as_number() const {
    if (type_ != Type::Number) throw JsonError("JSON value is not a number");
    return number_;
}
const std::string& Json::as_string() const {
    if (type_ != Type::String) throw JsonError("JSON value is not a string");
    return string_;
}
Json& Json::push_back(Json v) {
    if (type_ == Type::Null) type_ = Type::Array;
    if (type_ != Type::Array) throw JsonError("push_back on a JSON value that is not an array");
    array_.push_back(std::move(v));
    return array_.back();
}
std::size_t Json::size() const {
    if (type_ == Type::Array) return array_.size();
    if (type_ == Type::Object) return object_.size();
    return 0;
}
const Json& Json::operator[](std::size_t i) const {
    if (type_ != Type::Array || i >= array_.size()) throw std::out_of_range("JSON array index out of range");
    return array_[i];
}
Json& Json::set(const std::string& key, Json v) {
    if (type_ == Type::Null) type_ = Type::Object;
    if (type_ != Type::Object) throw JsonError("set on a JSON value that is not an object");
    for (auto& kv : object_)
        if (kv.first == key) return kv.second = std::move(v);
    object_.emplace_back(key, std::move(v));
    return object_.back().second;
}
bool Json::contains(const std::string& key) const {
    if (type_ != Type::Object) return false;
    for (const auto& kv : object_)
        if (kv.first == key) return true;
    return false;
}
const Json& Json::at(const std::string& key) const {
    if (type_ == Type::Object)
        for (const auto& kv : object_)
            if (kv.first == key) return kv.second;
    throw std::out_of_range("JSON object has no key '" + key + "'");
}
Json& Json::at(const std::string& key) { return const_cast<Json&>(static_cast<const Json&>(*this).at(key)); }

namespace {

void escape_to(std::string& out, const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

void newline(std::string& out, int indent, int depth) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

}  // namespace

void Json::dump_to(std::string& out, int indent, int depth) const {
    switch (type_) {
        case Type::Null: out += "null"; break;
        case Type::Bool: out += bool_ ? "true" : "false"; break;
        case Type::Number: {
            if (!std::isfinite(number_)) {
                out += "null";
                break;
            }
            char buf[32];
            if (number_ == std::floor(number_) && std::fabs(number_) < 9.007199254740992e15)
                std::snprintf(buf, sizeof buf, "%.0f", number_);
            else
                std::snprintf(buf, sizeof buf, "%.9g", number_);
            out += buf;
            break;
        }
        case Type::String: escape_to(out, string_); break;
        case Type::Array:
            out += '[';
            for (std::size_t i = 0; i < array_.size(); ++i) {
                if (i) out += ',';
                newline(out, indent, depth + 1);
                array_[i].dump_to(out, indent, depth + 1);
            }
            if (!array_.empty()) newline(out, indent, depth);
            out += ']';
            break;
        case Type::Object:
            out += '{';
            for (std::size_t i = 0; i < object_.size(); ++i) {
                if (i) out += ',';
                newline(out, indent, depth + 1);
                escape_to(out, object_[i].first);
                out += indent > 0 ? ": " : ":";
                object_[i].second.dump_to(out, indent, depth + 1);
            }
            if (!object_.empty()) newline(out, indent, depth);
            out += '}';
            break;
    }
}

std::string Json::dump(int indent) const {
    std::string out;
    dump_to(out, indent, 0);
    if (indent > 0) out += '\n';
    return out;
}

namespace {

class Parser {
public:
    explicit Parser(const std::string& t) : text_(t) {}
    Json parse_document() {
        Json v = parse_value(0);
        skip_ws();
        if (pos_ != text_.size()) fail("trailing characters");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) {
        throw JsonError("JSON parse error at offset " + std::to_string(pos_) + ": " + what);
    }
    void skip_ws() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
            ++pos_;
    }
    bool consume(const char* word) {
        std::size_t len = std::char_traits<char>::length(word);
        if (text_.compare(pos_, len, word) == 0) {
            pos_ += len;
            return true;
        }
        return false;
    }
    Json parse_value(int depth) {
        if (depth > 64) fail("nesting too deep");
        skip_ws();
        if (pos_ >= text_.size()) fail("unexpected end");
        const char c = text_[pos_];
        if (c == '{') return parse_object(depth);
        if (c == '[') return parse_array(depth);
        if (c == '"') return Json(parse_string());
        if (consume("true")) return Json(true);
        if (consume("false")) return Json(false);
        if (consume("null")) return Json();
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
        fail(std::string("unexpected character '") + c + "'");
    }
    Json parse_number() {
        const char* begin = text_.c_str() + pos_;
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (end == begin) fail("malformed number");
        pos_ += static_cast<std::size_t>(end - begin);
        return Json(v);
    }
    std::string parse_string() {
        ++pos_;  // opening quote
        std::string out;
        while (true) {
            if (pos_ >= text_.size()) fail("unterminated string");
            const char c = text_[pos_++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size()) fail("unterminated escape");
            const char e = text_[pos_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    if (pos_ + 4 > text_.size()) fail("short \\u escape");
                    const unsigned code =
                        static_cast<unsigned>(std::strtoul(text_.substr(pos_, 4).c_str(), nullptr, 16));
                    pos_ += 4;
                    if (code < 0x80)
                        out += static_cast<char>(code);
                    else if (code < 0x800) {
                        out += static_cast<char>(0xC0 | (code >> 6));
                        out += static_cast<char>(0x80 | (code & 0x3F));
                    } else {
                        out += static_cast<char>(0xE0 | (code >> 12));
                        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                        out += static_cast<char>(0x80 | (code & 0x3F));
                    }
                    break;
                }
                default: fail("bad escape");
            }
        }
    }
    Json parse_array(int depth) {
        ++pos_;
        Json arr = Json::array();
        skip_ws();
        if (pos_ < text_.size() && text_[pos_] == ']') {
            ++pos_;
            return arr;
        }
        while (true) {
            arr.push_back(parse_value(depth + 1));
            skip_ws();
            if (pos_ < text_.size() && text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < text_.size() && text_[pos_] == ']') {
                ++pos_;
                return arr;
            }
            fail("expected ',' or ']'");
        }
    }
    Json parse_object(int depth) {
        ++pos_;
        Json obj = Json::object();
        skip_ws();
        if (pos_ < text_.size() && text_[pos_] == '}') {
            ++pos_;
            return obj;
        }
        while (true) {
            skip_ws();
            if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a key");
            std::string key = parse_string();
            skip_ws();
            if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected ':'");
            ++pos_;
            obj.set(key, parse_value(depth + 1));
            skip_ws();
            if (pos_ < text_.size() && text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < text_.size() && text_[pos_] == '}') {
                ++pos_;
                return obj;
            }
            fail("expected ',' or '}'");
        }
    }
    const std::string& text_;
    std::size_t pos_ = 0;
};

}  // namespace

Json Json::parse(const std::string& text) { return Parser(text).parse_document(); }

}  // namespace pmpp
