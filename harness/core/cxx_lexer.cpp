#include "harness/core/cxx_lexer.h"

#include <array>
#include <string>

namespace cugrade {
namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

class lexer {
public:
  explicit lexer(std::string_view text) : m_text(text) {}

  std::vector<token> run() {
    while (m_pos < m_text.size()) {
      const std::size_t start = m_pos;
      const token_kind kind = next();
      push(kind, start);
    }
    return std::move(m_tokens);
  }

private:
  [[nodiscard]] char at(std::size_t i) const { return i < m_text.size() ? m_text[i] : '\0'; }

  void push(token_kind kind, std::size_t start) {
    token t;
    t.kind = kind;
    t.begin = start;
    t.end = m_pos;
    t.text = m_text.substr(start, m_pos - start);
    t.in_directive = m_in_directive || (kind == token_kind::punct && t.text == "#" && m_line_start);
    if (t.in_directive && !m_in_directive) {
      m_in_directive = true;
      m_directive_tokens = 0;
    }
    if (kind == token_kind::newline) {
      m_in_directive = false;
      m_include = false;
      m_line_start = true;
    } else if (kind != token_kind::space && kind != token_kind::comment) {
      m_line_start = false;
      if (m_in_directive) {
        ++m_directive_tokens;
        m_include = m_directive_tokens == 2 && t.text == "include";
      }
    }
    m_tokens.push_back(t);
  }

  token_kind next() {
    const char c = at(m_pos);
    if (c == '\n') {
      ++m_pos;
      return token_kind::newline;
    }
    if (c == '\\' && at(m_pos + 1) == '\n') { // line splice: part of the surrounding line
      m_pos += 2;
      return token_kind::space;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      while (at(m_pos) == ' ' || at(m_pos) == '\t' || at(m_pos) == '\r' || at(m_pos) == '\f' ||
             at(m_pos) == '\v') {
        ++m_pos;
      }
      return token_kind::space;
    }
    if (m_include && (c == '<' || c == '"')) {
      while (m_pos < m_text.size() && at(m_pos) != '\n') {
        ++m_pos;
      }
      return token_kind::header_name;
    }
    if (c == '/' && at(m_pos + 1) == '/') {
      while (m_pos < m_text.size() && at(m_pos) != '\n') {
        ++m_pos;
      }
      return token_kind::comment;
    }
    if (c == '/' && at(m_pos + 1) == '*') {
      const std::size_t close = m_text.find("*/", m_pos + 2);
      m_pos = close == std::string_view::npos ? m_text.size() : close + 2;
      return token_kind::comment;
    }
    if (c == '"' || c == '\'') {
      quoted(c);
      return token_kind::literal;
    }
    if (digit(c) || (c == '.' && digit(at(m_pos + 1)))) {
      number();
      return token_kind::number;
    }
    if (ident_start(c)) {
      return identifier_or_prefixed_literal();
    }
    punct();
    return token_kind::punct;
  }

  void quoted(char quote) {
    ++m_pos;
    while (m_pos < m_text.size() && at(m_pos) != quote && at(m_pos) != '\n') {
      m_pos += at(m_pos) == '\\' ? 2 : 1;
    }
    if (at(m_pos) == quote) {
      ++m_pos;
    }
  }

  void raw_string() {
    // R"delim( ... )delim"
    const std::size_t open = m_text.find('(', m_pos);
    if (open == std::string_view::npos) {
      m_pos = m_text.size();
      return;
    }
    const std::string_view delim = m_text.substr(m_pos + 1, open - m_pos - 1);
    std::string closing = ")";
    closing.append(delim);
    closing.push_back('"');
    const std::size_t close = m_text.find(closing, open);
    m_pos = close == std::string_view::npos ? m_text.size() : close + closing.size();
  }

  void number() {
    while (m_pos < m_text.size()) {
      const char c = at(m_pos);
      if ((c == '+' || c == '-') && (at(m_pos - 1) == 'e' || at(m_pos - 1) == 'E' ||
                                     at(m_pos - 1) == 'p' || at(m_pos - 1) == 'P')) {
        ++m_pos;
      } else if (c == '\'' && ident_char(at(m_pos + 1))) {
        m_pos += 2; // digit separator
      } else if (ident_char(c) || c == '.') {
        ++m_pos;
      } else {
        break;
      }
    }
  }

  token_kind identifier_or_prefixed_literal() {
    const std::size_t start = m_pos;
    while (ident_char(at(m_pos))) {
      ++m_pos;
    }
    const std::string_view word = m_text.substr(start, m_pos - start);
    const char c = at(m_pos);
    if (c == '"' &&
        (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
      raw_string();
      return token_kind::literal;
    }
    if ((c == '"' || c == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L")) {
      quoted(c);
      return token_kind::literal;
    }
    return token_kind::identifier;
  }

  void punct() {
    static constexpr std::array<std::string_view, 6> multi = {"<<<", ">>>", "::", "<<", ">>", "->"};
    for (const std::string_view p : multi) {
      if (m_text.substr(m_pos, p.size()) == p) {
        m_pos += p.size();
        return;
      }
    }
    ++m_pos;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::vector<token> m_tokens;
  bool m_line_start = true;
  bool m_in_directive = false;
  bool m_include = false;
  int m_directive_tokens = 0;
};

} // namespace

std::vector<token> lex(std::string_view text) {
  return lexer(text).run();
}

int line_of(std::string_view text, std::size_t offset) {
  int line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    line += text[i] == '\n' ? 1 : 0;
  }
  return line;
}

} // namespace cugrade
