// The student's access macros expanded at their uses (macro_expansion.h).
#include "harness/emu/detail/macro_expansion.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "harness/core/cxx_lexer.h"

namespace cugrade::emu::detail {
namespace {

struct macro {
  bool function_like = false;
  bool usable = true;        ///< safe to expand by hand (see the header)
  /// Its replacement holds a `[` or `__shared__`, here or through another macro: the access and
  /// shared-memory passes must see it expanded.
  bool wanted = false;
  std::size_t defined_at = 0;
  std::vector<std::string_view> params;
  std::vector<token> body; ///< the replacement list, spaces and comments included
};

using macro_table = std::map<std::string_view, macro, std::less<>>;

// Index of the next significant token at or after i (tokens.size() if none).
std::size_t significant_from(const std::vector<token>& tokens, std::size_t i) {
  while (i < tokens.size() && !tokens[i].significant()) {
    ++i;
  }
  return i;
}

// One `#define` whose name token is at `name`; `end` is one past the directive's last token.
macro defined_macro(const std::vector<token>& tokens, std::size_t name, std::size_t end) {
  macro m;
  m.defined_at = tokens[name].begin;
  std::size_t i = name + 1;
  if (i < end && tokens[i].is("(")) { // no space between name and `(`: a function-like macro
    m.function_like = true;
    for (i = significant_from(tokens, i + 1); i < end && !tokens[i].is(")");
         i = significant_from(tokens, i + 1)) {
      if (tokens[i].kind == token_kind::identifier) {
        m.params.push_back(tokens[i].text);
      } else if (!tokens[i].is(",")) {
        m.usable = false; // `...` and anything odd
      }
    }
    ++i;
  }
  const std::size_t first = significant_from(tokens, i);
  for (i = first; i < end; ++i) {
    m.body.push_back(tokens[i]);
    if (tokens[i].is("#") || tokens[i].text == "__VA_ARGS__") {
      m.usable = false;
    }
    m.wanted = m.wanted || tokens[i].is("[") || tokens[i].is("__shared__");
  }
  while (!m.body.empty() && !m.body.back().significant()) {
    m.body.pop_back();
  }
  return m;
}

// Every macro the file defines, with whether it may be expanded by hand.
macro_table macro_table_of(const std::vector<token>& tokens) {
  macro_table table;
  int depth = 0; // conditional blocks open at this point
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].in_directive || !tokens[i].is("#")) {
      continue;
    }
    std::size_t end = i + 1;
    while (end < tokens.size() && tokens[end].in_directive &&
           tokens[end].kind != token_kind::newline) {
      ++end;
    }
    const std::size_t word = significant_from(tokens, i + 1);
    const std::size_t name = significant_from(tokens, word + 1);
    if (word < end) {
      const std::string_view w = tokens[word].text;
      depth += (w == "if" || w == "ifdef" || w == "ifndef") ? 1 : (w == "endif" ? -1 : 0);
      if ((w == "define" || w == "undef") && name < end &&
          tokens[name].kind == token_kind::identifier) {
        macro m = w == "define" ? defined_macro(tokens, name, end) : macro{};
        m.usable = m.usable && w == "define" && depth == 0;
        if (!table.emplace(tokens[name].text, m).second) { // defined twice, or #undef'd
          table[tokens[name].text].usable = false;
        }
      }
    }
    i = end - 1;
  }
  return table;
}

// Marks the macros whose replacement uses a wanted macro, until nothing changes.
void spread_wanted(macro_table& table) {
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [name, m] : table) {
      if (m.wanted) {
        continue;
      }
      for (const token& t : m.body) {
        const auto used = table.find(t.text);
        if (t.kind == token_kind::identifier && used != table.end() &&
            used->second.wanted && used->second.usable) {
          m.wanted = true;
          changed = true;
          break;
        }
      }
    }
  }
}

// Tokens [first, last) as one line: comments, newlines and line splices become a space.
std::string flat(const std::vector<token>& tokens, std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    const bool blank = tokens[i].kind == token_kind::comment ||
                       tokens[i].kind == token_kind::newline ||
                       (tokens[i].kind == token_kind::space && tokens[i].text.find('\n') !=
                                                                   std::string_view::npos);
    out += blank ? std::string_view(" ") : tokens[i].text;
  }
  return out;
}

class expander {
public:
  expander(const macro_table& table, std::size_t budget) : m_table(table), m_budget(budget) {}

  // `text` with the expandable macros not in `hidden` expanded. At the source level directives
  // are skipped and a macro counts only after its #define.
  std::string expand(std::string_view text, std::vector<std::string_view>& hidden,
                     bool source_level) {
    const depth_guard guard(*this);
    const std::vector<token> tokens = lex(text);
    const std::vector<std::size_t> closes = closing_parens(tokens);
    std::string out;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < tokens.size() && !m_exhausted; ++i) {
      const macro* m = expandable(tokens[i], hidden, source_level);
      if (m == nullptr) {
        continue;
      }
      std::size_t end = i + 1;
      std::string replacement;
      if (!m->function_like) {
        replacement = rescan(tokens[i].text, substitute(*m, {}), hidden);
      } else if (auto args = arguments(tokens, closes, i + 1, *m, end)) {
        for (std::string& a : *args) {
          a = expand(a, hidden, false);
        }
        replacement = rescan(tokens[i].text, substitute(*m, *args), hidden);
      } else {
        i = end - 1; // a wrong count is g++'s error; nothing inside it is expanded
        continue;
      }
      out.append(text.substr(copied, tokens[i].begin - copied));
      out += replacement;
      const std::string_view replaced = text.substr(tokens[i].begin, tokens[end - 1].end -
                                                                         tokens[i].begin);
      out.append(static_cast<std::size_t>(std::count(replaced.begin(), replaced.end(), '\n')),
                 '\n');
      copied = tokens[end - 1].end;
      i = end - 1;
      m_used += replacement.size();
      m_exhausted = m_exhausted || m_used > m_budget;
    }
    out.append(text.substr(copied));
    return out;
  }

  [[nodiscard]] bool exhausted() const { return m_exhausted; }

private:
  /// Nested expansions deeper than this give up: each level holds its text's tokens, and a
  /// hostile file's A(A(A(...))) would otherwise take the grader's stack and memory.
  static constexpr int k_max_depth = 16;

  struct depth_guard {
    explicit depth_guard(expander& e) : owner(e) {
      owner.m_exhausted = owner.m_exhausted || ++owner.m_depth > k_max_depth;
    }
    ~depth_guard() { --owner.m_depth; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
    expander& owner;
  };

  // For each `(`, the index of its `)` (tokens.size() when it has none), in one pass.
  static std::vector<std::size_t> closing_parens(const std::vector<token>& tokens) {
    std::vector<std::size_t> closes(tokens.size(), tokens.size());
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].is("(")) {
        open.push_back(i);
      } else if (tokens[i].is(")") && !open.empty()) {
        closes[open.back()] = i;
        open.pop_back();
      }
    }
    return closes;
  }

  const macro* expandable(const token& t, const std::vector<std::string_view>& hidden,
                          bool source_level) const {
    if (t.kind != token_kind::identifier || (source_level && t.in_directive)) {
      return nullptr;
    }
    const auto found = m_table.find(t.text);
    if (found == m_table.end() || !found->second.usable || !found->second.wanted ||
        (source_level && found->second.defined_at > t.begin) ||
        std::find(hidden.begin(), hidden.end(), t.text) != hidden.end()) {
      return nullptr;
    }
    return &found->second;
  }

  // The arguments of an invocation whose `(` should be the next significant token after `from`
  // (`closes` from closing_parens); `end` becomes one past its `)`. Nullopt when it is no
  // invocation (end unchanged) or has the wrong count (end past it).
  static std::optional<std::vector<std::string>>
  arguments(const std::vector<token>& tokens, const std::vector<std::size_t>& closes,
            std::size_t from, const macro& m, std::size_t& end) {
    std::size_t i = significant_from(tokens, from);
    if (i >= tokens.size() || !tokens[i].is("(") || closes[i] == tokens.size()) {
      return std::nullopt;
    }
    const std::size_t close = closes[i];
    end = close + 1;
    std::vector<std::string> args;
    std::size_t start = i + 1;
    for (std::size_t k = i + 1; k <= close; ++k) {
      if (k == close || tokens[k].is(",")) {
        args.push_back(flat(tokens, significant_from(tokens, start), k));
        start = k + 1;
      } else if (tokens[k].is("(")) {
        k = closes[k]; // a comma inside parentheses separates nothing here
      }
    }
    if (m.params.empty() && args.size() == 1 && args.front().find_first_not_of(" \t") ==
                                                    std::string::npos) {
      args.clear();
    }
    return args.size() == m.params.size() ? std::optional(args) : std::nullopt;
  }

  // The replacement list with each parameter replaced by its (expanded) argument.
  static std::string substitute(const macro& m, const std::vector<std::string>& args) {
    std::string out;
    for (std::size_t i = 0; i < m.body.size(); ++i) {
      const auto p = std::find(m.params.begin(), m.params.end(), m.body[i].text);
      if (m.body[i].kind == token_kind::identifier && p != m.params.end()) {
        out += args[static_cast<std::size_t>(p - m.params.begin())];
      } else {
        out += flat(m.body, i, i + 1);
      }
    }
    return out;
  }

  // The substituted text rescanned with the macro itself hidden.
  std::string rescan(std::string_view name, const std::string& text,
                     std::vector<std::string_view>& hidden) {
    hidden.push_back(name);
    std::string out = expand(text, hidden, false);
    hidden.pop_back();
    return out;
  }

  const macro_table& m_table;
  std::size_t m_budget;
  std::size_t m_used = 0;
  int m_depth = 0;
  bool m_exhausted = false;
};

// The deepest nesting of parentheses in the file: no real source comes near 256.
int deepest_parentheses(const std::vector<token>& tokens) {
  int depth = 0;
  int deepest = 0;
  for (const token& t : tokens) {
    depth += t.is("(") ? 1 : (t.is(")") ? -1 : 0);
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

} // namespace

std::string expand_access_macros(std::string_view source) {
  const std::vector<token> tokens = lex(source); // the table's bodies point into it
  if (deepest_parentheses(tokens) > 256) {
    return std::string(source); // written to exhaust the expander; g++ gets it as it is
  }
  macro_table table = macro_table_of(tokens);
  spread_wanted(table);
  if (std::none_of(table.begin(), table.end(), [](const auto& entry) {
        return entry.second.usable && entry.second.wanted;
      })) {
    return std::string(source);
  }
  expander e(table, 4 * source.size() + (std::size_t{1} << 16));
  std::vector<std::string_view> hidden;
  std::string out = e.expand(source, hidden, true);
  return e.exhausted() ? std::string(source) : out;
}

} // namespace cugrade::emu::detail
