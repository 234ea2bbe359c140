#include "grader/core/early_exits.h"

#include "grader/core/source_code.h"
#include "harness/core/cxx_lexer.h"
#include "harness/core/words.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace cugrade::grader {

namespace {

constexpr std::size_t npos = std::string::npos;

using namespace source_code;

std::vector<function_body> kernels_in(const std::string& code) {
  std::vector<function_body> out;
  for (std::size_t at = find_word(code, "__global__"); at != npos;
       at = find_word(code, "__global__", at + 1)) {
    // The parameter list is the first '(' followed by a body: `__launch_bounds__(256)` or
    // a template's parentheses may come before it.
    const std::size_t stop = code.find_first_of(";{", at);
    for (std::size_t paren = code.find('(', at); paren != npos && paren < stop;
         paren = code.find('(', paren + 1)) {
      if (auto body = definition_at(code, paren)) {
        out.push_back(*body);
        break;
      }
    }
  }
  return out;
}

// The whole words of `text` (runs of identifier characters): what `find_word` can find there.
std::set<std::string> words_in(std::string_view text) {
  std::set<std::string> words;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    while (end < text.size() && is_word_char(text[end])) {
      ++end;
    }
    if (end > i) {
      words.emplace(text.substr(i, end - i));
    }
    i = end + 1;
  }
  return words;
}

bool mentions_any(const std::string& text, const std::set<std::string>& names) {
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return find_word(text, n) != npos; });
}

bool is_assignment(const std::string& code, std::size_t i) {
  if (code[i] != '=' || (i + 1 < code.size() && code[i + 1] == '=')) {
    return false;
  }
  const char before = i > 0 ? code[i - 1] : '\0';
  return before != '=' && before != '!' && before != '<' && before != '>';
}

// The end of the right-hand side starting at `from`: the next ',' or ';' outside brackets, or
// the end of the body.
std::size_t expression_end(const std::string& code, std::size_t from, std::size_t to) {
  int depth = 0;
  for (std::size_t i = from; i < to; ++i) {
    const char c = code[i];
    depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
    if (depth < 0 || (depth == 0 && (c == ',' || c == ';'))) {
      return i;
    }
  }
  return to;
}

// The variables of the body computed, directly or not, from threadIdx: the names reachable from
// it through the body's assignments (`x = ...` or `x op= ...`, whose right-hand side mentions a
// name that is). Each assignment is read once, so a long chain costs its length, not its square.
std::set<std::string> thread_dependent(const std::string& code, const function_body& f) {
  std::multimap<std::string, std::string> feeds; // a name on a right-hand side -> the left side
  for (std::size_t i = f.open + 1; i < f.close; ++i) {
    if (!is_assignment(code, i)) {
      continue;
    }
    std::size_t lhs_end = i;
    while (lhs_end > f.open && std::string_view("+-*/%&|^").find(code[lhs_end - 1]) != npos) {
      --lhs_end;
    }
    const std::string lhs = identifier_before(code, lhs_end);
    const std::size_t end = expression_end(code, i + 1, f.close);
    if (!lhs.empty()) {
      for (const auto& word : words_in(std::string_view(code).substr(i + 1, end - i - 1))) {
        feeds.emplace(word, lhs);
      }
    }
  }
  std::set<std::string> names{"threadIdx"};
  for (std::vector<std::string> todo{"threadIdx"}; !todo.empty();) {
    const std::string name = std::move(todo.back());
    todo.pop_back();
    const auto [first, last] = feeds.equal_range(name);
    for (auto it = first; it != last; ++it) {
      if (names.insert(it->second).second) {
        todo.push_back(it->second);
      }
    }
  }
  return names;
}

// Where the statement holding `at` starts: after the ';', '{' or '}' before it.
std::size_t statement_start(const std::string& code, std::size_t at, std::size_t floor) {
  while (at > floor && std::string_view(";{}").find(code[at - 1]) == npos) {
    --at;
  }
  return at;
}

// The condition a return is under: `if (c) return;` or `if (c) { ...; return; }`, or "".
std::string guard_of(const std::string& code, std::size_t ret, const function_body& f) {
  std::size_t start = statement_start(code, ret, f.open + 1);
  std::string head = squeezed(code.substr(start, ret - start));
  if (head.empty() && start > f.open + 1 && code[start - 1] == '{') {
    const std::size_t outer = statement_start(code, start - 1, f.open + 1);
    head = squeezed(code.substr(outer, start - 1 - outer));
  }
  const std::size_t if_at = find_word(head, "if");
  if (if_at == npos) {
    return "";
  }
  const std::size_t paren = head.find('(', if_at);
  const std::size_t close = paren == npos ? npos : matching(head, paren);
  return close == npos ? "" : head.substr(paren + 1, close - paren - 1);
}

std::size_t next_barrier(const std::string& code, std::size_t from, std::size_t to) {
  for (std::size_t at = code.find("__syncthreads", from); at != npos && at < to;
       at = code.find("__syncthreads", at + 1)) {
    if (at == 0 || !is_word_char(code[at - 1])) {
      return at;
    }
  }
  return npos;
}

// Returns are visited in order, so the barrier after one is searched for only once it lies
// behind: the body is scanned once for barriers, however many returns it has.
void exits_of(const std::string& code, const function_body& f, const line_index& lines,
              std::vector<early_exit>& out) {
  const auto names = thread_dependent(code, f);
  std::size_t barrier = 0;
  for (std::size_t ret = find_word(code, "return", f.open); ret != npos && ret < f.close;
       ret = find_word(code, "return", ret + 1)) {
    if (barrier <= ret) {
      barrier = next_barrier(code, ret, f.close);
    }
    if (barrier == npos) {
      break; // no barrier after this return, nor after any later one
    }
    const std::string condition = guard_of(code, ret, f);
    if (!condition.empty() && mentions_any(condition, names)) {
      out.push_back({f.name, lines.line_of(ret), lines.line_of(barrier), condition});
    }
  }
}

std::vector<early_exit> exits_in(const std::string& code) {
  std::vector<early_exit> out;
  const line_index lines(code);
  for (const auto& f : kernels_in(code)) {
    exits_of(code, f, lines, out);
  }
  return out;
}

} // namespace

std::vector<early_exit> early_exits(std::string_view source) {
  return exits_in(code_only(source));
}

std::vector<early_exit> early_exits_of_launcher(std::string_view source,
                                                std::string_view launcher) {
  return early_exits_of(launcher_code_of(source, launcher));
}

std::vector<early_exit> early_exits_of(const launcher_code& launcher) {
  auto all = exits_in(launcher.code);
  if (const auto& launched = launcher.kernels) {
    std::erase_if(all, [&](const early_exit& e) { return !launched->contains(e.kernel); });
  }
  return all;
}

} // namespace cugrade::grader
