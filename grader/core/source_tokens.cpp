#include "grader/core/source_tokens.h"

#include <map>

namespace cugrade::grader::source_tokens {

std::size_t closing(const tokens& t, std::size_t open, std::size_t reach) {
  const std::string_view o = t[open].text;
  const std::string_view c = o == "(" ? ")" : (o == "[" ? "]" : "}");
  int depth = 0;
  for (std::size_t k = open; k < t.size() && k - open <= reach; ++k) {
    depth += t[k].is(o) ? 1 : (t[k].is(c) ? -1 : 0);
    if (depth == 0) {
      return k;
    }
  }
  return npos;
}

namespace {

// The tokens of code_only text that are neither space nor comment.
tokens significant(const std::string& code) {
  tokens out;
  for (const token& t : lex(code)) {
    if (t.significant()) {
      out.push_back(t);
    }
  }
  return out;
}

// Every function definition, in source order.
std::vector<function_tokens> functions_in(const tokens& t) {
  std::vector<function_tokens> out;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i].kind != token_kind::identifier || !t[i + 1].is("(")) {
      continue;
    }
    const std::size_t params_end = closing(t, i + 1, k_reach);
    if (params_end == npos || params_end + 1 >= t.size() || !t[params_end + 1].is("{")) {
      continue;
    }
    const std::size_t end = closing(t, params_end + 1);
    if (end == npos) {
      continue;
    }
    out.push_back({std::string(t[i].text), i + 1, params_end + 1, end});
    i = end;
  }
  return out;
}

// The names of the functions reachable from `roots` through calls, `roots` included.
std::set<std::string> reachable(const tokens& t, const std::vector<function_tokens>& functions,
                                std::set<std::string> roots) {
  std::multimap<std::string, const function_tokens*> by_name;
  for (const auto& f : functions) {
    by_name.emplace(f.name, &f);
  }
  for (std::vector<std::string> todo(roots.begin(), roots.end()); !todo.empty();) {
    const std::string name = std::move(todo.back());
    todo.pop_back();
    const auto [first, last] = by_name.equal_range(name);
    for (auto it = first; it != last; ++it) {
      const function_tokens& f = *it->second;
      for (std::size_t k = f.open + 1; k + 1 < f.close; ++k) {
        const std::string callee(t[k].text);
        if (t[k].kind == token_kind::identifier && t[k + 1].is("(") && by_name.contains(callee) &&
            roots.insert(callee).second) {
          todo.push_back(callee);
        }
      }
    }
  }
  return roots;
}

// Those reachable from `kernels`, or every one when they are unknown.
std::vector<function_tokens> functions_run(const tokens& t,
                                           const std::optional<std::set<std::string>>& kernels) {
  auto functions = functions_in(t);
  if (kernels) {
    const auto wanted = reachable(t, functions, *kernels);
    std::erase_if(functions, [&](const function_tokens& f) { return !wanted.contains(f.name); });
  }
  return functions;
}

} // namespace

launcher_tokens tokens_of(const source_code::launcher_code& launcher) {
  tokens t = significant(launcher.code);
  auto functions = functions_run(t, launcher.kernels);
  return {launcher.code, std::move(t), std::move(functions),
          source_code::line_index(launcher.code)};
}

} // namespace cugrade::grader::source_tokens
