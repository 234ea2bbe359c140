// The namespace-scope facts the execution-space checks share (file_scope.h).
#include "harness/emu/detail/file_scope.h"

#include <algorithm>
#include <map>
#include <optional>

namespace cugrade::emu::detail {

bool boundary(const token& t) {
  return t.is(";") || t.is("{") || t.is("}");
}

bool is_name(const token& t) {
  return t.kind == token_kind::identifier;
}

bool member_or_qualified(const rewrite_context& ctx, std::size_t i) {
  const auto before = ctx.prev(i);
  return before && one_of(ctx.at(*before), {".", "->", "::"});
}

std::vector<std::size_t> declaration_before(const rewrite_context& ctx, std::size_t i) {
  std::vector<std::size_t> out;
  for (std::optional<std::size_t> p = ctx.prev(i);
       p && !boundary(ctx.at(*p)) && !ctx.at(*p).in_directive; p = ctx.prev(*p)) {
    out.push_back(*p);
  }
  return out;
}

namespace {

// Whether the `{` at `open` opens a namespace or an `extern "C"` block: what is declared in it is
// at namespace scope.
bool namespace_brace(const rewrite_context& ctx, std::size_t open) {
  for (std::optional<std::size_t> p = ctx.prev(open); p; p = ctx.prev(*p)) {
    const token& t = ctx.at(*p);
    if (t.is("namespace") || t.is("extern")) {
      return true;
    }
    if (!is_name(t) && t.kind != token_kind::literal && !t.is("::")) {
      return false;
    }
  }
  return false;
}

} // namespace

std::vector<bool> namespace_scope(const rewrite_context& ctx) {
  std::vector<bool> at(ctx.size(), false);
  std::vector<bool> stack; // per open brace: a namespace's
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (!t.significant() || t.in_directive) {
      continue;
    }
    if (t.is("}") && !stack.empty()) {
      stack.pop_back();
    }
    at[i] = std::all_of(stack.begin(), stack.end(), [](bool b) { return b; });
    if (t.is("{")) {
      stack.push_back(namespace_brace(ctx, i));
    }
  }
  return at;
}

std::set<std::string, std::less<>> macros_of(const rewrite_context& ctx) {
  std::set<std::string, std::less<>> out;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (ctx.at(i).in_directive && ctx.at(i).is("define")) {
      if (const auto name = ctx.next(i); name && is_name(ctx.at(*name))) {
        out.emplace(ctx.at(*name).text);
      }
    }
  }
  return out;
}

std::map<std::string, declared_function> functions_of(const rewrite_context& ctx) {
  const std::vector<bool> at_namespace = namespace_scope(ctx);
  const std::set<std::string, std::less<>> macros = macros_of(ctx);
  std::map<std::string, declared_function> out;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!at_namespace[i] || !is_name(ctx.at(i))) {
      continue;
    }
    const std::optional<std::size_t> open = ctx.next(i);
    if (!open || !ctx.at(*open).is("(")) {
      continue;
    }
    bool device = false;
    bool initializer = false;
    const std::vector<std::size_t> head = declaration_before(ctx, i);
    for (std::size_t p : head) {
      const token& t = ctx.at(p);
      device = device || t.is("__device__") || t.is("__global__") || macros.contains(t.text);
      initializer = initializer || t.is("=") || t.is("(") || t.is(",");
    }
    if (head.empty() || initializer) {
      continue; // a statement that is only a call, or a call inside an initializer
    }
    int depth = 0;
    std::optional<std::size_t> k = open;
    for (; k; k = ctx.next(*k)) {
      depth += ctx.at(*k).is("(") ? 1 : (ctx.at(*k).is(")") ? -1 : 0);
      if (depth == 0) {
        break;
      }
    }
    const std::optional<std::size_t> after = k ? ctx.next(*k) : std::nullopt;
    if (!after ||
        !(ctx.at(*after).is("{") || ctx.at(*after).is(";") || ctx.at(*after).is("const") ||
          ctx.at(*after).is("noexcept") || ctx.at(*after).is("->"))) {
      continue;
    }
    const std::string name(ctx.at(i).text);
    auto [it, inserted] =
        out.emplace(name, declared_function{device, ctx.line_at(ctx.at(i).begin)});
    it->second.device = it->second.device || device;
  }
  return out;
}

bool device_only(const rewrite_context& ctx, std::size_t body,
                 const std::set<std::string, std::less<>>& macros) {
  bool device = false;
  for (std::size_t p : declaration_before(ctx, body)) {
    const token& t = ctx.at(p);
    if (t.is("__host__") || macros.contains(t.text)) {
      return false;
    }
    device = device || t.is("__global__") || t.is("__device__");
  }
  return device;
}

} // namespace cugrade::emu::detail
