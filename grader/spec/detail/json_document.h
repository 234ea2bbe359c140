#pragma once
/// \file
/// Strict JSON parsing for spec files: syntax errors with line and column, duplicate keys refused.

#include "harness/core/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string_view>

namespace cugrade::spec::detail {

/// A 1-based line and column in a text.
struct text_position {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// Where the byte at 0-based `offset` lies in `text`; offsets past the end give the end.
[[nodiscard]] text_position position_of(std::string_view text, std::size_t offset);

/// Parses `text`. A syntax error reads "<file>: line L, column C (inside <path>): invalid JSON:
/// <what>; <hint>"; a key given twice in one object is an error too (JSON libraries silently
/// keep one of them, which hides typos in hand-written specs).
[[nodiscard]] result<nlohmann::json> parse_json(std::string_view text, std::string_view file);

} // namespace cugrade::spec::detail
