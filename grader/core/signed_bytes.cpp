#include "grader/core/signed_bytes.h"

#include "grader/core/source_tokens.h"
#include "harness/core/words.h"

#include <map>
#include <optional>
#include <set>

namespace cugrade::grader {

namespace {

using namespace source_tokens;

// Words in a declaration that are not its name.
bool qualifier(const token& t) {
  return t.is("const") || t.is("char") || t.is("signed") || t.is("volatile") ||
         t.is("__restrict__") || t.is("__restrict") || t.is("restrict");
}

// A parameter declaration [first, last) of char or signed char elements (a pointer or an
// array): its name (its last word that is no qualifier), or "".
std::string char_pointer_parameter(const tokens& t, std::size_t first, std::size_t last) {
  bool is_char = false;
  bool is_unsigned = false;
  bool indirect = false;
  std::string name;
  for (std::size_t k = first; k < last; ++k) {
    is_char = is_char || t[k].is("char");
    is_unsigned = is_unsigned || t[k].is("unsigned");
    indirect = indirect || t[k].is("*") || t[k].is("[");
    if (t[k].kind == token_kind::identifier && !qualifier(t[k])) {
      name = std::string(t[k].text);
    }
  }
  return is_char && !is_unsigned && indirect ? name : "";
}

// What a function knows of signed bytes: the `char` pointers (the byte's source, by name) and
// the variables that hold one byte read from them (name: the pointer it came from).
struct signed_names {
  std::set<std::string, std::less<>> pointers;
  std::map<std::string, std::string, std::less<>> values;
};

void add_parameters(const tokens& t, const function_tokens& f, signed_names& names) {
  std::size_t first = f.params + 1;
  int depth = 0;
  for (std::size_t k = first; k < f.open; ++k) {
    depth += t[k].is("(") || t[k].is("<") ? 1 : (t[k].is(")") || t[k].is(">") ? -1 : 0);
    if ((t[k].is(",") && depth == 0) || k + 1 == f.open) {
      if (auto name = char_pointer_parameter(t, first, k); !name.empty()) {
        names.pointers.insert(std::move(name));
      }
      first = k + 1;
    }
  }
}

// `char* p`, `const char *p` in the body (not after `unsigned`), and `char c = x[...]` or
// `char c = (...)...`: a byte converted to a signed char (a constant like 'a' is not one).
void add_locals(const tokens& t, const function_tokens& f, signed_names& names) {
  for (std::size_t k = f.open + 1; k + 2 < f.close; ++k) {
    if (!t[k].is("char") || t[k - 1].is("unsigned")) {
      continue;
    }
    std::size_t n = k + 1;
    bool pointer = false;
    while (n < f.close && (qualifier(t[n]) || t[n].is("*"))) {
      pointer = pointer || t[n].is("*");
      ++n;
    }
    if (n + 1 >= f.close || t[n].kind != token_kind::identifier) {
      continue;
    }
    if (pointer) {
      names.pointers.insert(std::string(t[n].text));
    } else if (n + 3 < f.close && t[n + 1].is("=") &&
               (t[n + 2].is("(") ||
                (t[n + 2].kind == token_kind::identifier && t[n + 3].is("[")))) {
      names.values.emplace(std::string(t[n].text), "");
    }
  }
}

// The pointer whose element `B[...]` spans exactly [first, last), or "".
std::string element_of(const tokens& t, std::size_t first, std::size_t last,
                       const signed_names& names) {
  if (last < first + 3 || t[first].kind != token_kind::identifier || !t[first + 1].is("[") ||
      !names.pointers.contains(t[first].text)) {
    return "";
  }
  return closing(t, first + 1, k_reach) == last - 1 ? std::string(t[first].text) : "";
}

// `v = B[...];` (not `==`): v holds a signed byte from B.
void add_values(const tokens& t, const function_tokens& f, signed_names& names) {
  for (std::size_t k = f.open + 1; k + 4 < f.close; ++k) {
    if (t[k].kind != token_kind::identifier || !t[k + 1].is("=") || t[k + 2].is("=") ||
        !names.pointers.contains(t[k + 2].text) || !t[k + 3].is("[")) {
      continue;
    }
    const std::size_t close = closing(t, k + 3, k_reach);
    if (close != npos && close + 1 < f.close && t[close + 1].is(";")) {
      names.values[std::string(t[k].text)] = std::string(t[k + 2].text);
    }
  }
}

// A leading cast in [first, last) that keeps the sign (anything but an unsigned char type):
// where the rest starts, or `first` when there is no cast; npos for an unsigned char cast.
std::size_t after_cast(const tokens& t, std::size_t first, std::size_t last) {
  if (!t[first].is("(")) {
    return first;
  }
  const std::size_t close = closing(t, first, k_reach);
  if (close == npos || close + 1 >= last) {
    return first;
  }
  bool is_unsigned = false;
  bool is_char = false;
  bool is_byte = false; // uint8_t and the like
  for (std::size_t k = first + 1; k < close; ++k) {
    if (t[k].kind != token_kind::identifier) {
      return first; // a parenthesised expression, not a cast
    }
    is_unsigned = is_unsigned || t[k].is("unsigned");
    is_char = is_char || t[k].is("char");
    is_byte = is_byte || t[k].is("uint8_t") || t[k].is("uchar") || t[k].is("byte");
  }
  return (is_unsigned && is_char) || is_byte ? npos : close + 1;
}

class byte_index_reader {
public:
  byte_index_reader(const std::string& code, const tokens& t, const function_tokens& f,
                    const source_code::line_index& lines)
      : m_code(code), m_t(t), m_f(f), m_lines(lines) {
    add_parameters(t, f, m_names);
    add_locals(t, f, m_names);
    add_values(t, f, m_names);
  }

  void read(std::vector<signed_byte_index>& out) const {
    if (m_names.pointers.empty() && m_names.values.empty()) {
      return;
    }
    std::set<std::string> reported;
    for (std::size_t k = m_f.open + 1; k + 1 < m_f.close; ++k) {
      if (m_t[k].kind != token_kind::identifier || !m_t[k + 1].is("[")) {
        continue;
      }
      const std::size_t close = closing(m_t, k + 1, k_reach);
      if (close == npos || close >= m_f.close) {
        continue;
      }
      const std::string from = byte_source(k + 2, close);
      if (!from.empty() && reported.insert(std::string(m_t[k].text)).second) {
        out.push_back({m_f.name, std::string(m_t[k].text), from, m_lines.line_of(m_t[k].begin),
                       squeezed(std::string_view(m_code).substr(m_t[k].begin,
                                                                m_t[close].end - m_t[k].begin))});
      }
    }
  }

private:
  // The `char` pointer a whole index [first, last) reads its byte from, or "".
  std::string byte_source(std::size_t first, std::size_t last) const {
    const std::size_t start = after_cast(m_t, first, last);
    if (start == npos || start >= last) {
      return "";
    }
    if (last == start + 1 && m_t[start].kind == token_kind::identifier) {
      const auto v = m_names.values.find(m_t[start].text);
      return v == m_names.values.end() ? "" : (v->second.empty() ? v->first : v->second);
    }
    return element_of(m_t, start, last, m_names);
  }

  const std::string& m_code;
  const tokens& m_t;
  const function_tokens& m_f;
  const source_code::line_index& m_lines;
  signed_names m_names;
};

} // namespace

std::vector<signed_byte_index> signed_byte_indexes(std::string_view source) {
  const source_code::launcher_code whole{source_code::code_only(source), std::nullopt};
  return signed_byte_indexes_of(tokens_of(whole));
}

std::vector<signed_byte_index> signed_byte_indexes_of_launcher(std::string_view source,
                                                               std::string_view launcher) {
  return signed_byte_indexes_of(tokens_of(source_code::launcher_code_of(source, launcher)));
}

std::vector<signed_byte_index> signed_byte_indexes_of(const launcher_tokens& read) {
  std::vector<signed_byte_index> out;
  for (const auto& f : read.functions) {
    byte_index_reader(read.code, read.t, f, read.lines).read(out);
  }
  return out;
}

} // namespace cugrade::grader
