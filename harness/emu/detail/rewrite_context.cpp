#include "harness/emu/detail/rewrite_context.h"

#include <algorithm>

namespace cugrade::emu::detail {
namespace {

// Whether the `{` that ends a declaration head opens a namespace-like scope (namespace,
// extern "C", class body, initializer) rather than a function body.
bool opens_non_function(const std::vector<const token*>& head) {
  if (head.empty()) {
    return false;
  }
  const token& first = *head.front();
  if (first.is("namespace") || first.is("inline")) {
    return std::any_of(head.begin(), head.end(), [](const token* t) { return t->is("namespace"); });
  }
  if (first.is("extern") && head.size() == 2 && head[1]->kind == token_kind::literal) {
    return true;
  }
  const token& last = *head.back();
  if (last.is(")") || last.is("const") || last.is("noexcept") || last.is("override") ||
      last.is("mutable")) {
    return false;
  }
  return std::any_of(head.begin(), head.end(), [](const token* t) {
    return t->is("struct") || t->is("class") || t->is("union") || t->is("enum") || t->is("=");
  });
}

// A function head that makes its body device code whose accesses are checked: __global__ or
// __device__, but not constexpr (a check is no constant expression).
bool marks_device_code(const std::vector<const token*>& head) {
  const auto has = [&](std::string_view word) {
    return std::any_of(head.begin(), head.end(), [&](const token* t) { return t->is(word); });
  };
  return (has("__global__") || has("__device__")) && !has("constexpr") && !has("consteval");
}

// Inside a function: whether the `{` after `head` opens code that cannot see the function's
// locals without a capture, a lambda's body or a local class.
bool opens_own_scope(const std::vector<const token*>& head) {
  for (std::size_t k = 0; k < head.size(); ++k) {
    const token& t = *head[k];
    if (t.is("struct") || t.is("class") || t.is("union")) {
      return true;
    }
    if (t.is("[")) { // a lambda introducer, unless it subscripts what comes before it
      const token* before = k == 0 ? nullptr : head[k - 1];
      const bool keyword = before != nullptr &&
                           (before->is("return") || before->is("else") || before->is("do") ||
                            before->is("case") || before->is("throw") || before->is("co_return"));
      if (before == nullptr || keyword ||
          !(before->kind == token_kind::identifier || before->kind == token_kind::number ||
            before->kind == token_kind::literal || before->is(")") || before->is("]"))) {
        return true;
      }
    }
  }
  return false;
}

} // namespace

rewrite_context::rewrite_context(std::string_view source, std::string_view file_name)
    : m_source(source), m_file_name(file_name), m_tokens(lex(source)) {
  compute_scopes();
  m_line_starts.push_back(0);
  for (std::size_t i = 0; i < m_source.size(); ++i) {
    if (m_source[i] == '\n') {
      m_line_starts.push_back(i + 1);
    }
  }
}

int rewrite_context::line_at(std::size_t offset) const {
  const auto after = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), offset);
  return static_cast<int>(after - m_line_starts.begin());
}

bool rewrite_context::edited(std::size_t begin, std::size_t end) const {
  return std::any_of(m_edits.begin(), m_edits.end(), [&](const edit& e) {
    return e.begin < e.end && e.begin < end && begin < e.end;
  });
}

void rewrite_context::compute_scopes() {
  m_in_function.assign(m_tokens.size(), false);
  m_device_body.assign(m_tokens.size(), k_none);
  struct frame {
    bool function;           ///< a function body or a block nested in one
    std::size_t device_body; ///< k_none, k_nested or the `{` of the device function
  };
  std::vector<frame> stack;
  std::vector<const token*> head;
  for (std::size_t i = 0; i < m_tokens.size(); ++i) {
    const token& t = m_tokens[i];
    const bool inside = !stack.empty() && stack.back().function;
    m_in_function[i] = inside;
    m_device_body[i] = stack.empty() ? k_none : stack.back().device_body;
    if (!t.significant() || t.in_directive) {
      continue;
    }
    if (t.is("{")) {
      const bool function = inside || !opens_non_function(head);
      std::size_t device = k_none;
      if (!inside && function && marks_device_code(head)) {
        device = i;
      } else if (inside && m_device_body[i] != k_none) {
        device = opens_own_scope(head) ? k_nested : m_device_body[i];
      }
      stack.push_back({function, device});
      head.clear();
    } else if (t.is("}")) {
      if (!stack.empty()) {
        stack.pop_back();
      }
      head.clear();
    } else if (t.is(";")) {
      head.clear();
    } else {
      head.push_back(&t);
    }
  }
}

std::optional<std::size_t> rewrite_context::prev(std::size_t i) const {
  while (i > 0) {
    --i;
    if (m_tokens[i].significant()) {
      return i;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> rewrite_context::next(std::size_t i) const {
  for (++i; i < m_tokens.size(); ++i) {
    if (m_tokens[i].significant()) {
      return i;
    }
  }
  return std::nullopt;
}

std::string_view rewrite_context::span(std::size_t first, std::size_t last) const {
  return m_source.substr(m_tokens[first].begin, m_tokens[last].end - m_tokens[first].begin);
}

std::string rewrite_context::newlines(std::size_t begin, std::size_t end) const {
  return std::string(
      static_cast<std::size_t>(std::count(m_source.begin() + static_cast<long>(begin),
                                          m_source.begin() + static_cast<long>(end), '\n')),
      '\n');
}

std::string rewrite_context::where(std::size_t token_index) const {
  return m_file_name + ":" + std::to_string(line_at(m_tokens[token_index].begin)) + ": ";
}

std::optional<std::string> with_edits(std::string_view source, std::size_t begin, std::size_t end,
                                      std::vector<edit> edits, std::size_t* overlap) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const edit& a, const edit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(end - begin + (end - begin) / 4);
  std::size_t pos = begin;
  for (const edit& e : edits) {
    if (e.begin < pos) {
      *overlap = e.begin;
      return std::nullopt;
    }
    out.append(source.substr(pos, e.begin - pos));
    out.append(e.text);
    pos = e.end;
  }
  out.append(source.substr(pos, end - pos));
  return out;
}

std::optional<std::string> rewrite_context::apply(std::string* error) const {
  std::size_t overlap = 0;
  std::optional<std::string> out = with_edits(m_source, 0, m_source.size(), m_edits, &overlap);
  if (!out) {
    *error = m_file_name + ":" + std::to_string(line_of(m_source, overlap)) +
             ": cannot translate this line: two CUDA constructs overlap (a launch inside a "
             "__shared__ declaration?)";
  }
  return out;
}

// Whether the value at `start` must be a constant (`constexpr int n = a[2];`, `case a[0]:`,
// `static_assert(a[0] > 1)`, `alignas(a[0])`) or is never computed (`sizeof(a[0])`): either way
// there is nothing to check, and a function call would not compile there. An assert's condition
// is left as written too: its text is what a failed assert reports (`assert(i < a[0])`).
bool in_constant_expression(const rewrite_context& ctx, std::size_t start) {
  int depth = 0;
  for (std::optional<std::size_t> p = ctx.prev(start); p; p = ctx.prev(*p)) {
    const token& t = ctx.at(*p);
    if (t.is(";") || t.is("{") || t.is("}") || t.in_directive) {
      return false;
    }
    if (t.is("constexpr") || t.is("case") || t.is("consteval") || t.is("constinit")) {
      return true;
    }
    depth += t.is(")") ? 1 : (t.is("(") ? -1 : 0);
    if (depth < 0) {
      const std::optional<std::size_t> name = ctx.prev(*p);
      if (name && one_of(ctx.at(*name), {"static_assert", "alignas", "__align__", "sizeof",
                                         "alignof", "decltype", "typeid", "noexcept", "assert"})) {
        return true;
      }
      depth = 0;
    }
  }
  return false;
}

} // namespace cugrade::emu::detail
