#pragma once
/// \file
/// What the region analysis (region_plan.h) reads: the words that rule a region form out, a
/// function body's tokens and statements, and what the file defines that a kernel may use (its
/// functions, macros and constants), followed through for anything that waits for other threads.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {

inline constexpr std::size_t k_npos = static_cast<std::size_t>(-1);

/// Code that waits for other threads in a way a region form cannot keep: warp primitives,
/// cooperative groups, spin locks, fences, volatile (warp-synchronous) shared memory.
bool sync_word(std::string_view w);
/// What a kernel's own body may not hold: a way out of a region (return, goto, throw), or a name
/// a later region could not see (a local type, a static).
bool structure_word(std::string_view w);
/// A word of a built-in or CUDA type, or a qualifier (`unsigned`, `float4`, `const`).
bool type_word(std::string_view w);
/// A word that starts a statement that is no declaration (`if`, `printf`, ...).
bool statement_word(std::string_view w);

/// The significant tokens of a function body that are not in a directive, by position.
class body_tokens {
public:
  body_tokens(const rewrite_context& ctx, std::size_t open, std::size_t close) : m_ctx(ctx) {
    for (std::size_t i = open + 1; i < close; ++i) {
      const token& t = ctx.at(i);
      if (!t.significant()) {
        continue;
      }
      if (t.in_directive) {
        m_directives = m_directives || !pragma_line(i);
        continue;
      }
      m_sig.push_back(i);
    }
  }

  [[nodiscard]] std::size_t size() const { return m_sig.size(); }
  [[nodiscard]] const token& at(std::size_t p) const { return m_ctx.at(m_sig[p]); }
  [[nodiscard]] std::size_t index(std::size_t p) const { return m_sig[p]; }
  [[nodiscard]] bool is(std::size_t p, std::string_view w) const {
    return p < size() && at(p).is(w);
  }
  /// A directive other than #pragma inside the body (a macro defined there, a conditional).
  [[nodiscard]] bool has_directives() const { return m_directives; }
  /// Whether the tokens at p and q touch (`+=` is two tokens here).
  [[nodiscard]] bool adjacent(std::size_t p, std::size_t q) const {
    return p < size() && q < size() && at(p).end == at(q).begin;
  }

  /// The position of the bracket closing the one opened at p; k_npos if none.
  [[nodiscard]] std::size_t match(std::size_t p) const {
    int depth = 0;
    for (std::size_t q = p; q < size(); ++q) {
      const token& t = at(q);
      depth += t.nesting();
      if (depth == 0) {
        return q;
      }
    }
    return k_npos;
  }

  /// The last position of the statement that starts at p; k_npos when it cannot tell.
  [[nodiscard]] std::size_t statement_end(std::size_t p) const {
    if (p >= size()) {
      return k_npos;
    }
    if (is(p, "{")) {
      return match(p);
    }
    if (is(p, "if") || is(p, "for") || is(p, "while") || is(p, "switch")) {
      if (!is(p + 1, "(")) {
        return k_npos;
      }
      const std::size_t close = match(p + 1);
      const std::size_t end = close == k_npos ? k_npos : statement_end(close + 1);
      if (end != k_npos && is(p, "if") && is(end + 1, "else")) {
        return statement_end(end + 2);
      }
      return end;
    }
    if (is(p, "do")) {
      const std::size_t body = statement_end(p + 1);
      if (body == k_npos || !is(body + 1, "while") || !is(body + 2, "(")) {
        return k_npos;
      }
      const std::size_t close = match(body + 2);
      return close != k_npos && is(close + 1, ";") ? close + 1 : k_npos;
    }
    int depth = 0;
    for (std::size_t q = p; q < size(); ++q) {
      const token& t = at(q);
      depth += t.nesting();
      if (depth < 0) {
        return k_npos;
      }
      if (depth == 0 && t.is(";")) {
        return q;
      }
    }
    return k_npos;
  }

  /// The position of `what` at bracket depth 0 in [first, last); k_npos if none.
  std::size_t find(std::size_t first, std::size_t last, std::string_view what) const {
    int depth = 0;
    for (std::size_t q = first; q < last; ++q) {
      const token& t = at(q);
      depth += t.nesting();
      if (depth == 0 && t.is(what)) {
        return q;
      }
    }
    return k_npos;
  }

private:
  // Whether the directive holding token i is a #pragma (`#pragma unroll` stays where it is).
  [[nodiscard]] bool pragma_line(std::size_t i) const {
    std::optional<std::size_t> p = i;
    while (p && m_ctx.at(*p).in_directive && !m_ctx.at(*p).is("#")) {
      p = m_ctx.prev(*p);
    }
    const std::optional<std::size_t> word = p ? m_ctx.next(*p) : std::nullopt;
    return word && m_ctx.at(*word).is("pragma");
  }

  const rewrite_context& m_ctx;
  std::vector<std::size_t> m_sig;
  bool m_directives = false;
};

/// What the file defines that a kernel may use: its functions' bodies and its macros.
struct file_facts {
  struct function_body {
    std::size_t params_open;
    std::size_t params_close;
    std::size_t open;
    std::size_t close;
  };
  std::map<std::string, std::vector<function_body>, std::less<>> functions;
  /// Per macro, the token indices of its replacement (and of its parameters).
  std::map<std::string, std::vector<std::size_t>, std::less<>> macros;
  /// Names of namespace-scope constants (`const int TILE = 16;`, `constexpr ...`).
  std::set<std::string, std::less<>> constants;
};

/// `at_namespace`: namespace_scope(ctx) (file_scope.h), which the caller has made already.
file_facts facts_of(const rewrite_context& ctx, const std::vector<bool>& at_namespace);

/// The names a parameter list (tokens `open`, the `(`, to `close`, its `)`) declares.
std::set<std::string, std::less<>> parameter_names(const rewrite_context& ctx, std::size_t open,
                                                   std::size_t close);

/// The token closing the bracket opened at token `open`; k_npos if none.
std::size_t matching(const rewrite_context& ctx, std::size_t open);

/// Whether what a kernel calls or expands (functions and macros of the file, followed through
/// what they call) may wait for other threads, or change an argument through a reference.
class callee_check {
public:
  callee_check(const rewrite_context& ctx, const file_facts& facts) : m_ctx(ctx), m_facts(facts) {}

  /// Whether the name, used in a kernel, is harmless to a region form.
  bool harmless(std::string_view name) {
    if (m_checked.contains(name)) {
      return m_checked.find(name)->second;
    }
    m_checked.emplace(std::string(name), true); // a recursive call: judged by the rest
    bool ok = true;
    if (const auto macro = m_facts.macros.find(name); macro != m_facts.macros.end()) {
      ok = tokens_harmless(macro->second, true);
    }
    if (const auto function = m_facts.functions.find(name); function != m_facts.functions.end()) {
      for (const file_facts::function_body& body : function->second) {
        ok = ok && !reference_parameter(body) && body_harmless(body);
      }
    }
    m_checked[std::string(name)] = ok;
    return ok;
  }

private:
  // Its parameters too: `volatile int* s` makes every access through s warp-synchronous.
  bool body_harmless(const file_facts::function_body& body) {
    std::vector<std::size_t> tokens;
    for (std::size_t k = body.params_open + 1; k < body.close; ++k) {
      if (m_ctx.at(k).significant()) {
        tokens.push_back(k);
      }
    }
    return tokens_harmless(tokens, false);
  }

  bool tokens_harmless(const std::vector<std::size_t>& tokens, bool macro) {
    for (std::size_t k : tokens) {
      const token& t = m_ctx.at(k);
      if (t.kind != token_kind::identifier && !(macro && (t.is("{") || t.is(";")))) {
        continue;
      }
      // A macro is pasted into the kernel: it may not leave or end a statement there either.
      const bool pasted = macro && (t.is("{") || t.is(";") || t.is("return") || t.is("goto") ||
                                    t.is("break") || t.is("continue"));
      if (pasted || t.is("__syncthreads") || sync_word(t.text)) {
        return false;
      }
      if ((m_facts.macros.contains(t.text) || m_facts.functions.contains(t.text)) &&
          !harmless(t.text)) {
        return false;
      }
    }
    return true;
  }

  // A parameter taken by a reference that is not const: the callee may change a kernel's
  // parameter, which every thread of a region form shares.
  bool reference_parameter(const file_facts::function_body& body) const {
    bool is_const = false;
    for (std::size_t k = body.params_open + 1; k < body.params_close; ++k) {
      const token& t = m_ctx.at(k);
      if (t.is(",")) {
        is_const = false;
      } else if (t.is("const")) {
        is_const = true;
      } else if (t.is("&") && !is_const) {
        return true;
      }
    }
    return false;
  }

  const rewrite_context& m_ctx;
  const file_facts& m_facts;
  std::map<std::string, bool, std::less<>> m_checked;
};

} // namespace cugrade::emu::detail
