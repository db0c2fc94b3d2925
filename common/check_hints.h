// check_hints.h: what the pattern of a wrong output says, in the exercise's own terms.
//
// A check that fails prints the first few wrong elements; the pattern of all of them often
// names the bug better than any one value. explain_differences() looks for patterns that the
// numbers prove, never for likely causes: every hint it returns is a fact about this output
// ("every element is off by the same amount, 4093 = the total of the input"), and an output
// that fits no pattern gets no hint. The patterns:
//
//   never written     elements still hold the poison written before the run (where, if a tail)
//   one element       only the first, or only the last, element differs
//   constant offset   every wrong element is off by the same amount (named when the exercise
//                     knows a quantity of that value: the total of the input)
//   shifted by one    actual[i] == expected[i + 1] (or [i - 1]) at every wrong element
//   from a boundary   right before index b, wrong from b to the end, where b starts one of the
//                     exercise's blocks or tiles (else b is a multiple of a power of two >= 16);
//                     the tail past the last full one when that is all that differs
//
// check.h's sorted and permutation checks add their own (runs sorted but not merged, which
// values were lost or doubled, equal keys reordered), and the harness adds the patterns over
// all cases (only sizes that are not powers of two, only in place, only from some n on).
//
// The exercise says what its boundaries and quantities are with a HintScope around its check:
//   pmpp::HintScope hints({{{1024, "scan tile"}}, {{double(total), "the total of the input"}}});
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace pmpp {

// Printable form of a value, used in mismatch reports.
inline std::string format_value(float v) {
    std::ostringstream os;
    os.precision(9);
    os << v;
    return os.str();
}
inline std::string format_value(double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}
template <typename T>
std::enable_if_t<std::is_integral_v<T>, std::string> format_value(T v) {
    return std::to_string(v);
}

namespace detail {

// True when every byte of v is 0xFF: the poison the harnesses write into outputs before each
// run (a NaN for floats, -1 or the maximum for integers).
template <typename T>
bool is_poison(const T& v) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T); ++i)
        if (bytes[i] != 0xFF) return false;
    return true;
}

}  // namespace detail

// What an exercise knows about its own structure, so that a pattern is named in its terms.
struct HintContext {
    struct Boundary {
        std::size_t size = 0;  // elements in one block or tile
        std::string name;  // "block of 256 threads", "scan tile"
    };
    struct Quantity {
        double value = 0;  // for integers, the value as the output's type holds it (wrapped)
        std::string name;  // "the total of the input"
    };
    std::vector<Boundary> boundaries;
    std::vector<Quantity> quantities;
};

// While a HintScope lives, every check of this thread names its patterns with the scope's
// context (scopes nest; the inner ones add to the outer ones). One per check, on the stack.
class HintScope {
public:
    explicit HintScope(HintContext context);
    ~HintScope();
    HintScope(const HintScope&) = delete;
    HintScope& operator=(const HintScope&) = delete;
};

// The contexts of this thread's live scopes, merged.
HintContext current_hint_context();

namespace hints {

// "index 1024, the start of scan tile 1 (of 1024 elements)"; without a boundary of the context
// that divides it, "index 768 (= 3 x 256)" by its largest power-of-two factor.
std::string describe_index(std::size_t index, const HintContext& ctx);

// The boundary size (a context boundary, else the largest power-of-two factor of `index`, at
// least 16) that `index` starts a block of; 0 when none.
std::size_t boundary_at(std::size_t index, const HintContext& ctx, std::string* name = nullptr);

// The name of the context quantity within `tolerance` of `value`; empty when none.
std::string quantity_named(double value, double tolerance, const HintContext& ctx);

// Sorted in runs: the descents of a sort's output at `positions` (ascending, non-empty).
std::string explain_descents(const std::vector<std::size_t>& positions, std::size_t n, const HintContext& ctx);

template <typename T>
struct Difference {
    // actual - expected: wrapped in the type's width for integers (so -1 reads as -1), a
    // double for floats.
    static double of(const T& expected, const T& actual) {
        if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            using S = std::make_signed_t<T>;
            const U d = static_cast<U>(static_cast<U>(actual) - static_cast<U>(expected));
            return static_cast<double>(static_cast<S>(d));
        } else {
            return static_cast<double>(actual) - static_cast<double>(expected);
        }
    }
    // How far two differences may be apart and still be "the same amount".
    static double slack(double d, const T& expected) {
        if constexpr (std::is_integral_v<T>) {
            (void)d, (void)expected;
            return 0.0;
        } else {
            return 1e-4 * std::fabs(d) + 1e-5 * std::fabs(static_cast<double>(expected)) + 1e-30;
        }
    }
};

inline std::string count_of(std::size_t k, const char* noun) {
    return std::to_string(k) + " " + noun + (k == 1 ? "" : "s");
}

template <typename T, typename Equal>
std::vector<std::string> explain_differences(const T* expected, const T* actual, std::size_t n, Equal equal) {
    std::vector<std::string> out;
    std::size_t wrong = 0, first = n, last = 0, unwritten = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (equal(expected[i], actual[i])) continue;
        ++wrong;
        first = std::min(first, i);
        last = i;
        if (detail::is_poison(actual[i]) && !detail::is_poison(expected[i])) ++unwritten;
    }
    if (wrong == 0) return out;
    const HintContext ctx = current_hint_context();
    const bool dense_from_first = wrong == n - first && last == n - 1;  // every element from `first` on

    // Never written.
    if (unwritten > 0) {
        if (unwritten == n)
            out.push_back("no element was written: all " + std::to_string(n) +
                          " still hold the poison (all bytes 0xFF) written before the run: never written");
        else if (unwritten == 1 && wrong == 1 && first == n - 1 && n > 1)
            out.push_back("only the last element (index " + std::to_string(n - 1) +
                          ") still holds the poison written before the run: it was never written");
        else if (unwritten == wrong && dense_from_first)
            out.push_back("the last " + count_of(unwritten, "element") + ", from " + describe_index(first, ctx) +
                          " to the end, still hold the poison written before the run: they were never written");
        else
            out.push_back(std::to_string(unwritten) +
                          " output element(s) still hold the poison (all bytes 0xFF: NaN for floats, -1 for "
                          "integers) written before each run: they were probably never written");
        if (unwritten == wrong) return out;
    }

    // One element.
    if (wrong == 1 && n > 1) {
        if (first == n - 1) out.push_back("only the last element (index " + std::to_string(n - 1) + ") differs");
        if (first == 0) out.push_back("only the first element (index 0) differs");
    }

    // The same amount everywhere.
    if constexpr (std::is_arithmetic_v<T>) {
        const double d = Difference<T>::of(expected[first], actual[first]);
        bool same = std::isfinite(d) && d != 0.0;
        for (std::size_t i = first; same && i <= last; ++i)
            if (!equal(expected[i], actual[i]) &&
                std::fabs(Difference<T>::of(expected[i], actual[i]) - d) > Difference<T>::slack(d, expected[i]))
                same = false;
        if (same) {
            const std::string name = quantity_named(d, Difference<T>::slack(d, expected[first]), ctx);
            if (wrong >= 2 || !name.empty()) {
                std::string what =
                    wrong == n ? std::string(n == 1 ? "the element" : "every element")
                               : "every wrong element (" + std::to_string(wrong) + " of " + std::to_string(n) + ")";
                std::string text = what + " is off by the same amount: actual - expected = ";
                if constexpr (std::is_integral_v<T>)
                    text += std::to_string(static_cast<long long>(d));
                else
                    text += format_value(d);
                if (!name.empty()) text += ", which is " + name;
                out.push_back(text);
            }
        }
    }

    // Shifted by one place.
    if (wrong >= 2) {
        std::size_t left = 0, right = 0;  // wrong elements that hold their neighbour's expected value
        for (std::size_t i = first; i <= last; ++i) {
            if (equal(expected[i], actual[i])) continue;
            if (i + 1 < n && equal(expected[i + 1], actual[i])) ++left;
            if (i > 0 && equal(expected[i - 1], actual[i])) ++right;
        }
        const std::size_t left_exempt = last == n - 1 ? 1 : 0;  // the last element has no right neighbour
        const std::size_t right_exempt = first == 0 ? 1 : 0;
        if (left >= 2 && left + left_exempt == wrong)
            out.push_back(
                "shifted one place: at every wrong element, actual[i] = expected[i + 1] (every value "
                "one place early: an inclusive result where an exclusive one is asked, or an index one off)");
        else if (right >= 2 && right + right_exempt == wrong)
            out.push_back(
                "shifted one place: at every wrong element, actual[i] = expected[i - 1] (every value "
                "one place late: an exclusive result where an inclusive one is asked, or an index one off)");
    }

    // From a block or tile boundary to the end.
    std::string name;
    const std::size_t size = boundary_at(first, ctx, &name);
    if (size > 0 && wrong >= 2 && last == n - 1 && wrong * 10 >= (n - first) * 9) {
        const std::size_t tail = n - first;
        if (tail < size)
            out.push_back(
                "only the last " + count_of(tail, "element") + " differ" + (tail == 1 ? "s" : "") + ", from " +
                describe_index(first, ctx) + ": the tail past the last full " +
                (name.empty() ? "block of " + std::to_string(size) : name + " (of " + std::to_string(size) + ")"));
        else
            out.push_back("right before " + describe_index(first, ctx) + ", wrong from there to the end (" +
                          std::to_string(wrong) + " of the " + std::to_string(tail) + " elements from there differ)");
    }
    return out;
}

}  // namespace hints
}  // namespace pmpp
