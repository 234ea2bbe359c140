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

} // namespace

rewrite_context::rewrite_context(std::string_view source, std::string_view file_name)
    : m_source(source), m_file_name(file_name), m_tokens(lex(source)) {
  compute_scopes();
}

void rewrite_context::compute_scopes() {
  m_in_function.assign(m_tokens.size(), false);
  std::vector<bool> stack; // per open brace: inside a function body?
  std::vector<const token*> head;
  for (std::size_t i = 0; i < m_tokens.size(); ++i) {
    const token& t = m_tokens[i];
    const bool inside = !stack.empty() && stack.back();
    m_in_function[i] = inside;
    if (!t.significant() || t.in_directive) {
      continue;
    }
    if (t.is("{")) {
      stack.push_back(inside || !opens_non_function(head));
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
  return m_file_name + ":" + std::to_string(line_of(m_source, m_tokens[token_index].begin)) + ": ";
}

std::optional<std::string> rewrite_context::apply(std::string* error) const {
  std::vector<const edit*> order;
  for (const edit& e : m_edits) {
    order.push_back(&e);
  }
  std::sort(order.begin(), order.end(),
            [](const edit* a, const edit* b) { return a->begin < b->begin; });
  std::string out;
  out.reserve(m_source.size() + m_source.size() / 4);
  std::size_t pos = 0;
  for (const edit* e : order) {
    if (e->begin < pos) {
      *error = m_file_name + ":" + std::to_string(line_of(m_source, e->begin)) +
               ": cannot translate this line: two CUDA constructs overlap (a launch inside a "
               "__shared__ declaration?)";
      return std::nullopt;
    }
    out.append(m_source.substr(pos, e->begin - pos));
    out.append(e->text);
    pos = e->end;
  }
  out.append(m_source.substr(pos));
  return out;
}

} // namespace cugrade::emu::detail
