// check.h: comparing a result against a reference. Every function returns a CheckResult and
// never exits: the caller decides what a failure means (a failed case, a failed test).
//
//  compare_exact       integers, and anything that must match bit for bit
//  compare_close       floats: |expected - actual| <= atol + rtol * |expected|; NaN never passes
//                      unless both are NaN
//  check_sorted        ordered by a comparator
//  check_permutation   output holds exactly the input's elements (multiset equality, bitwise)
//
// A failed result counts the differing elements and keeps the first few (index, expected,
// actual), with a hint when the pattern tells what went wrong (e.g. a never-written output).
#pragma once

#include "common/check_hints.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pmpp {

struct Mismatch {
    std::size_t index = 0;
    std::string expected;
    std::string actual;
};

struct CheckResult {
    bool ok = true;
    std::size_t checked = 0;  // elements examined
    std::size_t mismatches = 0;  // elements that differ (or the size of the violation)
    std::vector<Mismatch> first;  // the first few, in index order
    std::string message;  // one line: what is wrong
    std::string hint;  // optional: what the pattern of the differences shows (check_hints.h)

    explicit operator bool() const { return ok; }
    // Multi-line human report: message, then "  [index] expected E, got A" lines, then the hint.
    std::string report() const;

    // Appends one more hint ("; " between hints).
    void add_hint(const std::string& h) {
        if (!h.empty()) hint += (hint.empty() ? "" : "; ") + h;
    }

    static CheckResult pass(std::size_t checked);
    static CheckResult fail(const std::string& message);
};

struct Tolerance {
    double atol = 0;
    double rtol = 0;
};

namespace detail {

// The hints that the pattern of the differences supports (check_hints.h); none when no pattern fits.
template <typename T, typename Equal>
void add_pattern_hints(CheckResult& r, const T* expected, const T* actual, std::size_t n, Equal equal) {
    if (r.ok || n == 0) return;
    for (const std::string& h : hints::explain_differences(expected, actual, n, equal)) r.add_hint(h);
}

}  // namespace detail

using detail::is_poison;

// How many elements of `actual` still hold the poison where `expected` does not.
template <typename T>
std::size_t count_never_written(const T* expected, const T* actual, std::size_t n) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) count += is_poison(actual[i]) && !is_poison(expected[i]);
    return count;
}

template <typename T, typename Equal>
CheckResult compare_with(const T* expected, const T* actual, std::size_t n, Equal equal, std::size_t max_report = 5) {
    CheckResult r;
    r.checked = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (!equal(expected[i], actual[i])) {
            ++r.mismatches;
            if (r.first.size() < max_report) r.first.push_back({i, format_value(expected[i]), format_value(actual[i])});
        }
    }
    r.ok = r.mismatches == 0;
    if (!r.ok) {
        r.message = std::to_string(r.mismatches) + " of " + std::to_string(n) + " elements differ";
        detail::add_pattern_hints(r, expected, actual, n, equal);
    }
    return r;
}

// Bitwise for floats too: 0.0 and -0.0 differ, a NaN equals the same NaN.
template <typename T>
CheckResult compare_exact(const T* expected, const T* actual, std::size_t n, std::size_t max_report = 5) {
    static_assert(std::is_trivially_copyable_v<T>);
    return compare_with(
        expected, actual, n, [](const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }, max_report);
}

template <typename T>
CheckResult compare_close(const T* expected, const T* actual, std::size_t n, Tolerance tol,
                          std::size_t max_report = 5) {
    static_assert(std::is_floating_point_v<T>);
    return compare_with(
        expected, actual, n,
        [tol](T e, T a) {
            if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
            if (std::isinf(e) || std::isinf(a)) return e == a;
            const double diff = std::fabs(static_cast<double>(e) - static_cast<double>(a));
            return diff <= tol.atol + tol.rtol * std::fabs(static_cast<double>(e));
        },
        max_report);
}

template <typename T>
CheckResult compare_exact(const std::vector<T>& expected, const std::vector<T>& actual, std::size_t max_report = 5) {
    if (expected.size() != actual.size())
        return CheckResult::fail("size differs: expected " + std::to_string(expected.size()) + " elements, got " +
                                 std::to_string(actual.size()));
    return compare_exact(expected.data(), actual.data(), expected.size(), max_report);
}

template <typename T>
CheckResult compare_close(const std::vector<T>& expected, const std::vector<T>& actual, Tolerance tol,
                          std::size_t max_report = 5) {
    if (expected.size() != actual.size())
        return CheckResult::fail("size differs: expected " + std::to_string(expected.size()) + " elements, got " +
                                 std::to_string(actual.size()));
    return compare_close(expected.data(), actual.data(), expected.size(), tol, max_report);
}

// Ordered: !less(a[i+1], a[i]) for every i. Reports the first few descents.
template <typename T, typename Less>
CheckResult check_sorted(const T* a, std::size_t n, Less less, std::size_t max_report = 5) {
    CheckResult r;
    r.checked = n;
    std::vector<std::size_t> descents;  // for the runs pattern; a few thousand at most are kept
    constexpr std::size_t kMostKept = 4096;
    for (std::size_t i = 1; i < n; ++i) {
        if (less(a[i], a[i - 1])) {
            ++r.mismatches;
            if (descents.size() < kMostKept) descents.push_back(i);
            if (r.first.size() < max_report)
                r.first.push_back(
                    {i, "not less than " + format_value(a[i - 1]) + " (element " + std::to_string(i - 1) + ")",
                     format_value(a[i])});
        }
    }
    r.ok = r.mismatches == 0;
    if (!r.ok) {
        r.message = "not sorted: " + std::to_string(r.mismatches) + " descent(s)";
        if (r.mismatches <= kMostKept) r.add_hint(hints::explain_descents(descents, n, current_hint_context()));
    }
    return r;
}

namespace detail {
template <typename T>
auto bits_of(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if constexpr (sizeof(T) == 4) {
        std::uint32_t b;
        std::memcpy(&b, &v, 4);
        return b;
    } else if constexpr (sizeof(T) == 8) {
        std::uint64_t b;
        std::memcpy(&b, &v, 8);
        return b;
    } else if constexpr (sizeof(T) == 2) {
        std::uint16_t b;
        std::memcpy(&b, &v, 2);
        return b;
    } else {
        static_assert(sizeof(T) == 1, "check_permutation: use the comparator overload for this type");
        std::uint8_t b;
        std::memcpy(&b, &v, 1);
        return b;
    }
}
}  // namespace detail

// Multiset equality by bit pattern (so NaN, -0.0 and +0.0 are all told apart and kept).
// Reports the first few values whose counts differ.
template <typename T>
CheckResult check_permutation(const T* input, const T* output, std::size_t n, std::size_t max_report = 5) {
    using B = decltype(detail::bits_of(std::declval<T>()));
    std::vector<B> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = detail::bits_of(input[i]);
        b[i] = detail::bits_of(output[i]);
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CheckResult r;
    r.checked = n;
    std::size_t i = 0, j = 0;
    auto value_of = [](B bits) {
        T v;
        std::memcpy(&v, &bits, sizeof(T));
        return format_value(v);
    };
    // Elements lost (fewer copies in the output) and gained (more copies), with an example each.
    std::size_t lost = 0, gained = 0, poison_copies = 0;
    std::string lost_example, gained_example;
    while (i < n || j < n) {
        // The smallest value at either head; count its copies on both sides.
        const B v = (j == n || (i < n && a[i] < b[j])) ? a[i] : b[j];
        std::size_t ca = 0, cb = 0;
        while (i < n && a[i] == v) ++i, ++ca;
        while (j < n && b[j] == v) ++j, ++cb;
        if (ca != cb) {
            ++r.mismatches;
            if (r.first.size() < max_report)
                r.first.push_back({static_cast<std::size_t>(-1), std::to_string(ca) + " x " + value_of(v),
                                   std::to_string(cb) + " x " + value_of(v)});
            const std::string example =
                value_of(v) + " (" + std::to_string(ca) + " in the input, " + std::to_string(cb) + " in the output)";
            if (ca > cb) {
                lost += ca - cb;
                if (lost_example.empty()) lost_example = example;
            } else {
                gained += cb - ca;
                if (gained_example.empty()) gained_example = example;
                T value;
                std::memcpy(&value, &v, sizeof(T));
                if (detail::is_poison(value) && ca == 0) poison_copies = cb;
            }
        }
    }
    r.ok = r.mismatches == 0;
    if (!r.ok) {
        r.message = "not a permutation of the input: " + std::to_string(r.mismatches) +
                    " distinct value(s) occur a different number of times (expected = count in input, "
                    "actual = count in output)";
        if (poison_copies > 0)
            r.add_hint(std::to_string(poison_copies) +
                       " output element(s) still hold the poison (all bytes 0xFF) written before the run: they "
                       "were never written");
        if (lost > 0 && gained > poison_copies)
            r.add_hint(hints::count_of(lost, "element") + " of the input lost (e.g. " + lost_example + ") and " +
                       std::to_string(gained - poison_copies) + " extra cop" +
                       (gained - poison_copies == 1 ? "y" : "ies") + " of others (e.g. " + gained_example +
                       "): one element was written over another, so its value is lost and the writer's doubled");
    }
    return r;
}

// Values travel with their keys: the (key, value) pairs of the output are the input's pairs,
// as a multiset (bitwise). Use with check_sorted on the keys.
template <typename K, typename V>
CheckResult check_pairs_permutation(const K* in_keys, const V* in_values, const K* out_keys, const V* out_values,
                                    std::size_t n, std::size_t max_report = 5) {
    using KB = decltype(detail::bits_of(std::declval<K>()));
    using VB = decltype(detail::bits_of(std::declval<V>()));
    std::vector<std::pair<KB, VB>> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = {detail::bits_of(in_keys[i]), detail::bits_of(in_values[i])};
        b[i] = {detail::bits_of(out_keys[i]), detail::bits_of(out_values[i])};
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CheckResult r;
    r.checked = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] != b[i]) {
            ++r.mismatches;
            if (r.first.size() < max_report) {
                K ka, kb;
                V va, vb;
                std::memcpy(&ka, &a[i].first, sizeof(K));
                std::memcpy(&va, &a[i].second, sizeof(V));
                std::memcpy(&kb, &b[i].first, sizeof(K));
                std::memcpy(&vb, &b[i].second, sizeof(V));
                r.first.push_back({static_cast<std::size_t>(-1), "(" + format_value(ka) + ", " + format_value(va) + ")",
                                   "(" + format_value(kb) + ", " + format_value(vb) + ")"});
            }
        }
    }
    r.ok = r.mismatches == 0;
    if (!r.ok)
        r.message = "values did not travel with their keys: " + std::to_string(r.mismatches) +
                    " (key, value) pair(s) of the sorted input and output differ";
    return r;
}

// A stable sort's output is unique: compare with std::stable_sort of the input pairs.
// Reports the first positions whose (key, value) differ; an equal-key run in another order
// than the input's is the signature of an unstable sort.
template <typename K, typename V, typename Less>
CheckResult check_stable_sort(const K* in_keys, const V* in_values, const K* out_keys, const V* out_values,
                              std::size_t n, Less less, std::size_t max_report = 5) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return less(in_keys[x], in_keys[y]); });
    CheckResult r;
    r.checked = n;
    for (std::size_t i = 0; i < n; ++i) {
        const K& ek = in_keys[order[i]];
        const V& ev = in_values[order[i]];
        if (std::memcmp(&ek, &out_keys[i], sizeof(K)) != 0 || std::memcmp(&ev, &out_values[i], sizeof(V)) != 0) {
            ++r.mismatches;
            if (r.first.size() < max_report)
                r.first.push_back({i, "(" + format_value(ek) + ", " + format_value(ev) + ")",
                                   "(" + format_value(out_keys[i]) + ", " + format_value(out_values[i]) + ")"});
        }
    }
    r.ok = r.mismatches == 0;
    if (!r.ok) {
        r.message = std::to_string(r.mismatches) + " of " + std::to_string(n) +
                    " positions differ from the stable sort of the input (key, value)";
        // Unstable, and nothing else: the keys are those of the stable sort, every (key, value) pair
        // of the input is there, and some run of equal keys holds its values in another order.
        bool keys_right = true;
        for (std::size_t i = 0; i < n && keys_right; ++i)
            keys_right = std::memcmp(&in_keys[order[i]], &out_keys[i], sizeof(K)) == 0;
        if (keys_right && check_pairs_permutation(in_keys, in_values, out_keys, out_values, n, 0).ok) {
            std::size_t at = 0;
            while (at < n && std::memcmp(&in_values[order[at]], &out_values[at], sizeof(V)) == 0) ++at;
            r.hint =
                "the keys are sorted and every (key, value) pair is kept, but equal keys are out of input "
                "order (key " +
                format_value(out_keys[at]) + " at position " + std::to_string(at) + "): the sort is not stable";
        }
    }
    return r;
}

}  // namespace pmpp
