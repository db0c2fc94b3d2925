// json.h: a small JSON value with a writer and a strict parser. The harness writes its results
// with it; the top-level summary and the tests read them back. Objects keep insertion order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmpp {

class Json {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    Json() = default;  // null
    Json(std::nullptr_t) {}
    Json(bool b) : type_(Type::Bool), bool_(b) {}
    Json(double d) : type_(Type::Number), number_(d) {}
    Json(int v) : Json(static_cast<double>(v)) {}
    Json(long v) : Json(static_cast<double>(v)) {}
    Json(long long v) : Json(static_cast<double>(v)) {}
    Json(unsigned v) : Json(static_cast<double>(v)) {}
    Json(unsigned long v) : Json(static_cast<double>(v)) {}
    Json(unsigned long long v) : Json(static_cast<double>(v)) {}
    Json(const char* s) : type_(Type::String), string_(s) {}
    Json(std::string s) : type_(Type::String), string_(std::move(s)) {}

    static Json array() {
        Json j;
        j.type_ = Type::Array;
        return j;
    }
    static Json object() {
        Json j;
        j.type_ = Type::Object;
        return j;
    }

    Type type() const { return type_; }
    bool is_null() const { return type_ == Type::Null; }
    bool is_object() const { return type_ == Type::Object; }
    bool is_array() const { return type_ == Type::Array; }
    bool is_string() const { return type_ == Type::String; }
    bool is_number() const { return type_ == Type::Number; }
    bool is_bool() const { return type_ == Type::Bool; }

    bool as_bool() const;
    double as_number() const;
    const std::string& as_string() const;

    // Arrays
    Json& push_back(Json v);
    std::size_t size() const;
    const Json& operator[](std::size_t i) const;

    // Objects: set() replaces an existing key in place.
    Json& set(const std::string& key, Json v);
    bool contains(const std::string& key) const;
    const Json& at(const std::string& key) const;  // throws std::out_of_range
    Json& at(const std::string& key);
    const std::vector<std::pair<std::string, Json>>& items() const { return object_; }
    const std::vector<Json>& elements() const { return array_; }

    // Pretty-printed with `indent` spaces (0: one line). Non-finite numbers become null.
    std::string dump(int indent = 2) const;
    static Json parse(const std::string& text);  // throws JsonError with the offset

private:
    void dump_to(std::string& out, int indent, int depth) const;
    Type type_ = Type::Null;
    bool bool_ = false;
    double number_ = 0;
    std::string string_;
    std::vector<Json> array_;
    std::vector<std::pair<std::string, Json>> object_;
};

class JsonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace pmpp
