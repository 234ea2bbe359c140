#pragma once
/// \file
/// A C++ tokenizer just precise enough for reading student sources: it finds comments, string and
/// character literals (raw strings and digit separators included) so that nothing inside them is
/// taken for code, marks preprocessor directives, and treats `<<<` and `>>>` as single tokens.
/// The emulator's rewriter (harness/emu) and diagnosis's source reading (grader/core/early_exits)
/// share it.

#include <cstddef>
#include <string_view>
#include <vector>

namespace cugrade {

enum class token_kind { identifier, number, literal, punct, comment, space, newline, header_name };

struct token {
  token_kind kind = token_kind::space;
  std::size_t begin = 0;
  std::size_t end = 0;
  bool in_directive = false; ///< part of a #-line
  std::string_view text;

  /// Neither whitespace, newline nor comment.
  [[nodiscard]] bool significant() const {
    return kind != token_kind::space && kind != token_kind::newline && kind != token_kind::comment;
  }
  [[nodiscard]] bool is(std::string_view s) const {
    return text == s && (kind == token_kind::punct || kind == token_kind::identifier);
  }
  /// How the token changes the bracket depth: +1 for `(`, `[` or `{`, -1 for `)`, `]` or `}`.
  [[nodiscard]] int nesting() const {
    if (is("(") || is("[") || is("{")) {
      return 1;
    }
    return is(")") || is("]") || is("}") ? -1 : 0;
  }
};

/// Splits `text` into tokens that cover it completely, in order.
std::vector<token> lex(std::string_view text);

/// 1-based line of a byte offset.
int line_of(std::string_view text, std::size_t offset);

} // namespace cugrade
