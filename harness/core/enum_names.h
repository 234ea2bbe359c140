#pragma once
/// \file
/// Enums written by name: every enum a report or the runner protocol carries has a name table, so
/// it is serialised as a word and read back by exact match, never parsed out of a message. Here,
/// below the runner, so the protocol's enums and the reports' share one mechanism.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace cugrade {

/// Name tables; enums are contiguous from 0, so the value indexes its name.
template <class E> struct enum_traits;

template <class E>
concept named_enum = requires {
  enum_traits<E>::names;
};

/// The name an enum value is written as, e.g. "build_error".
template <named_enum E> [[nodiscard]] constexpr std::string_view to_string(E value) {
  return enum_traits<E>::names.at(static_cast<std::size_t>(value));
}

/// The value written as `name`, or nullopt; exact match only (never a prefix).
template <named_enum E>
[[nodiscard]] constexpr std::optional<E> from_string(std::string_view name) {
  const auto& names = enum_traits<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      return static_cast<E>(i);
    }
  }
  return std::nullopt;
}

/// Every name of an enum, in value order (the schema's enums list the same).
template <named_enum E> [[nodiscard]] constexpr std::span<const std::string_view> names_of() {
  return enum_traits<E>::names;
}

} // namespace cugrade
