// type_dispatch.h: from a run-time choice of type (a --type option, a case's key type) to
// compiled code for that type. With `using Keys = TypeList<std::uint32_t, float>`,
// with_type<Keys>(i, f) calls f(TypeTag<T>{}) for the i-th type T of the list, and every call
// of f must return the same type. Exercises 06 and 07 dispatch their key types through it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace pmpp {

template <class T>
struct TypeTag {
    using type = T;
};

template <class... Ts>
struct TypeList {
    static constexpr std::size_t size = sizeof...(Ts);
};

namespace detail {
template <class F, class T, class... Rest>
decltype(auto) with_type_at(std::size_t i, F&& f) {
    if constexpr (sizeof...(Rest) == 0) {
        if (i != 0) throw std::logic_error("with_type: no type at index " + std::to_string(i));
        return f(TypeTag<T>{});
    } else {
        if (i == 0) return f(TypeTag<T>{});
        return with_type_at<F, Rest...>(i - 1, static_cast<F&&>(f));
    }
}
template <class List>
struct Dispatch;
template <class... Ts>
struct Dispatch<TypeList<Ts...>> {
    template <class F>
    static decltype(auto) call(std::size_t i, F&& f) {
        return with_type_at<F, Ts...>(i, static_cast<F&&>(f));
    }
};
}  // namespace detail

// f(TypeTag<T>{}) for the index-th type of List (an enum's value works as the index).
template <class List, class Index, class F>
decltype(auto) with_type(Index index, F&& f) {
    return detail::Dispatch<List>::call(static_cast<std::size_t>(index), static_cast<F&&>(f));
}

// The value of `all` whose to_string() is `text` (a --type option's key type): true and `out`
// set, or false.
template <class Enum, std::size_t N>
bool parse_named(const std::string& text, const Enum (&all)[N], Enum& out) {
    for (Enum value : all)
        if (text == to_string(value)) {
            out = value;
            return true;
        }
    return false;
}

}  // namespace pmpp
