#include "grader/core/source_code.h"

#include "harness/core/cxx_lexer.h"
#include "harness/core/words.h"

#include <algorithm>
#include <cctype>

namespace cugrade::grader::source_code {

namespace {

constexpr std::size_t npos = std::string::npos;

} // namespace

std::string code_only(std::string_view source) {
  std::string out(source);
  for (const token& t : lex(source)) {
    const bool code = t.kind != token_kind::comment && t.kind != token_kind::literal &&
                      t.kind != token_kind::header_name && !t.in_directive;
    if (!code) {
      for (std::size_t i = t.begin; i < t.end; ++i) {
        out[i] = out[i] == '\n' ? '\n' : ' ';
      }
    }
  }
  return out;
}

std::size_t matching(const std::string& text, std::size_t open) {
  const char o = text[open];
  const char c = o == '(' ? ')' : o == '{' ? '}' : o == '[' ? ']' : '>';
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    depth += text[i] == o ? 1 : text[i] == c ? -1 : 0;
    if (depth == 0) {
      return i;
    }
  }
  return npos;
}

std::size_t skip_space(const std::string& text, std::size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])) != 0) {
    ++i;
  }
  return i;
}

std::string identifier_before(const std::string& text, std::size_t end) {
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) {
    --end;
  }
  std::size_t start = end;
  while (start > 0 && is_word_char(text[start - 1])) {
    --start;
  }
  return text.substr(start, end - start);
}

std::optional<function_body> definition_at(const std::string& code, std::size_t name_end) {
  const std::size_t paren = skip_space(code, name_end);
  if (paren >= code.size() || code[paren] != '(') {
    return std::nullopt;
  }
  const std::size_t close_paren = matching(code, paren);
  if (close_paren == npos) {
    return std::nullopt;
  }
  const std::size_t brace = skip_space(code, close_paren + 1);
  if (brace >= code.size() || code[brace] != '{') {
    return std::nullopt;
  }
  const std::size_t end = matching(code, brace);
  if (end == npos) {
    return std::nullopt;
  }
  return function_body{identifier_before(code, paren), brace, end};
}

std::optional<std::set<std::string>> launched_by(const std::string& code,
                                                 std::string_view launcher) {
  for (std::size_t at = find_word(code, launcher); at != npos;
       at = find_word(code, launcher, at + 1)) {
    const auto body = definition_at(code, at + launcher.size());
    if (!body) {
      continue;
    }
    std::set<std::string> kernels;
    for (std::size_t l = code.find("<<<", body->open); l != npos && l < body->close;
         l = code.find("<<<", l + 3)) {
      kernels.insert(identifier_before(code, l));
    }
    if (!kernels.empty()) {
      return kernels;
    }
  }
  return std::nullopt;
}

launcher_code launcher_code_of(std::string_view source, std::string_view launcher) {
  launcher_code out{code_only(source), std::nullopt};
  out.kernels = launched_by(out.code, launcher);
  return out;
}

line_index::line_index(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      m_starts.push_back(i + 1);
    }
  }
}

int line_index::line_of(std::size_t offset) const {
  return static_cast<int>(std::upper_bound(m_starts.begin(), m_starts.end(), offset) -
                          m_starts.begin());
}

} // namespace cugrade::grader::source_code
