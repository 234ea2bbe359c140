#pragma once
/// \file
/// Small text helpers for reading sources and tool output: lines, words, whitespace. The build's
/// readers of compiler output and diagnosis's source reading share them.

#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// The lines of `text`, without their line ends.
[[nodiscard]] std::vector<std::string> lines_of(std::string_view text);

/// A letter, digit or underscore: a character of a C identifier.
[[nodiscard]] bool is_word_char(char c) noexcept;

/// Where `word` first stands alone in `text` at or after `from` (no identifier character either
/// side), or npos.
[[nodiscard]] std::size_t find_word(std::string_view text, std::string_view word,
                                    std::size_t from = 0);

/// `text` with each run of whitespace one space, none at either end.
[[nodiscard]] std::string squeezed(std::string_view text);

/// `text` with A-Z lowered and every other byte as it was (no locale: file names and hashes).
[[nodiscard]] std::string ascii_lowercase(std::string text);

} // namespace cugrade
