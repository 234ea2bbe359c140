// Whether a name is the same in every thread of a block, and whether the kernel changes it
// (region_uniform.h).
#include "harness/emu/detail/region_uniform.h"

#include "harness/emu/detail/file_scope.h"

namespace cugrade::emu::detail {

uniform_check::uniform_check(const rewrite_context& ctx, const file_facts& facts,
                             const body_tokens& body,
                             const std::set<std::string, std::less<>>& params)
    : m_ctx(ctx), m_facts(facts), m_body(body), m_params(params) {}

void uniform_check::note_local(const std::string& name, std::size_t first, std::size_t last) {
  m_initializers[name] = {first, last};
}

// `for (T v = init; cond; step)` whose every name is the same for all threads of a block,
// and whose variable the body leaves alone.
bool uniform_check::uniform_header(std::size_t first, std::size_t close, std::size_t body_last) {
  const std::size_t semicolon = m_body.find(first, close, ";");
  if (semicolon == k_npos) {
    return false;
  }
  const std::size_t assign = m_body.find(first, semicolon, "=");
  if (assign == k_npos || assign == first || m_body.at(assign - 1).kind != token_kind::identifier ||
      m_body.find(first, semicolon, ",") != k_npos) {
    return false;
  }
  const std::string variable(m_body.at(assign - 1).text);
  for (std::size_t q = first; q < assign - 1; ++q) {
    if (!type_word(m_body.at(q).text)) {
      return false;
    }
  }
  if (changed(variable, close + 1, body_last)) {
    return false;
  }
  for (std::size_t q = assign + 1; q < close; ++q) {
    if (!uniform_token(q, variable)) {
      return false;
    }
  }
  return true;
}

bool uniform_check::uniform_token(std::size_t q, const std::string& variable) {
  const token& t = m_body.at(q);
  if (t.is("[") || t.is("->")) {
    return false;
  }
  if (t.kind != token_kind::identifier) {
    return true;
  }
  if (q > 0 && m_body.is(q - 1, ".")) {
    return true; // a member of a uniform name (blockDim.x)
  }
  if (m_body.is(q + 1, "(") && m_facts.functions.contains(t.text)) {
    return pure_function(t.text); // its arguments are tokens of the header too
  }
  return t.text == variable || uniform_word(t.text);
}

// A function of the file that computes from its parameters and uniform names only
// (`ceil_div(k, TILE)`): no subscript, member, assignment or call of anything else.
bool uniform_check::pure_function(std::string_view name) {
  for (const file_facts::function_body& body : m_facts.functions.find(name)->second) {
    const std::set<std::string, std::less<>> params =
        parameter_names(m_ctx, body.params_open, body.params_close);
    for (std::size_t k = body.open + 1; k < body.close; ++k) {
      const token& t = m_ctx.at(k);
      if (!t.significant()) {
        continue;
      }
      const std::optional<std::size_t> after = m_ctx.next(k);
      const bool assignment = t.is("=") && after && !m_ctx.at(*after).is("=") &&
                              !one_of(m_ctx.at(*m_ctx.prev(k)), {"=", "<", ">", "!"});
      if (t.is("[") || t.is("->") || t.is(".") || assignment) {
        return false;
      }
      if (t.kind == token_kind::identifier && !params.contains(t.text) && !t.is("return") &&
          !(m_depth <= 16 && uniform_word(t.text))) {
        return false;
      }
    }
  }
  return true;
}

// A parameter the kernel never changes, a constant of the file, a macro of uniform words, or
// a local declared before the loop from uniform words and never changed.
bool uniform_check::uniform_name(std::string_view name) {
  if (m_params.contains(name)) {
    return !changed(std::string(name), 0, m_body.size() - 1);
  }
  if (m_facts.constants.contains(name)) {
    return true;
  }
  if (const auto macro = m_facts.macros.find(name); macro != m_facts.macros.end()) {
    return uniform_macro(macro->second);
  }
  const auto local = m_initializers.find(name);
  if (local == m_initializers.end() || local->second.first == k_npos ||
      changed(std::string(name), local->second.second + 1, m_body.size() - 1)) {
    return false;
  }
  for (std::size_t q = local->second.first; q <= local->second.second; ++q) {
    if (!uniform_token(q, "")) {
      return false;
    }
  }
  return true;
}

bool uniform_check::uniform_macro(const std::vector<std::size_t>& tokens) {
  for (std::size_t k : tokens) {
    const token& t = m_ctx.at(k);
    if (t.is("[") || t.is("->") || t.is("threadIdx")) {
      return false;
    }
    if (t.kind == token_kind::identifier && !uniform_word(t.text)) {
      return false;
    }
  }
  return true;
}

bool uniform_check::uniform_word(std::string_view word) {
  static const std::set<std::string_view> builtins = {
      "blockDim", "gridDim",     "blockIdx", "x",     "y",   "z",
      "sizeof",   "static_cast", "true",     "false", "min", "max"};
  if (builtins.contains(word) || type_word(word)) {
    return true;
  }
  if (m_depth > 16) {
    return false; // macros that name each other
  }
  ++m_depth;
  const bool uniform = uniform_name(word);
  --m_depth;
  return uniform;
}

// Whether the name is assigned, incremented or has its address taken in [first, last].
bool uniform_check::changed(const std::string& name, std::size_t first, std::size_t last) const {
  for (std::size_t q = first; q <= last && q < m_body.size(); ++q) {
    if (!m_body.is(q, name) ||
        (q > 0 && (m_body.is(q - 1, ".") || m_body.is(q - 1, "->") || m_body.is(q - 1, "::")))) {
      continue;
    }
    if (assigned_at(q) || (q >= 2 && incremented(q - 2)) || incremented(q + 1) ||
        address_taken(q)) {
      return true;
    }
  }
  return false;
}

bool uniform_check::assigned_at(std::size_t q) const {
  if (m_body.is(q + 1, "=")) {
    return !m_body.is(q + 2, "=");
  }
  for (std::string_view op : {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}) {
    if (m_body.is(q + 1, op) && m_body.is(q + 2, "=") && m_body.adjacent(q + 1, q + 2)) {
      return true;
    }
  }
  return false;
}

bool uniform_check::incremented(std::size_t q) const {
  return ((m_body.is(q, "+") && m_body.is(q + 1, "+")) ||
          (m_body.is(q, "-") && m_body.is(q + 1, "-"))) &&
         m_body.adjacent(q, q + 1);
}

// `&x` (not `&p[i]` or `&p->m`, the address of what a pointer points to).
bool uniform_check::address_taken(std::size_t q) const {
  if (q == 0 || !m_body.is(q - 1, "&") || m_body.is(q + 1, "[") || m_body.is(q + 1, "->")) {
    return false;
  }
  if (q < 2) {
    return true;
  }
  const token& before = m_body.at(q - 2);
  if (before.is("&") && m_body.adjacent(q - 2, q - 1)) {
    return false; // `a && b`
  }
  return !(before.kind == token_kind::identifier || before.kind == token_kind::number ||
           before.is(")") || before.is("]"));
}

} // namespace cugrade::emu::detail
