// Which kernels have a region form, and their pieces (region_plan.h). Everything here answers
// "no" when unsure: a kernel without a region form runs on fibers, as every kernel did before.
#include "harness/emu/detail/region_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "harness/emu/detail/file_scope.h"

namespace cugrade::emu::detail {
namespace {

constexpr std::size_t k_npos = static_cast<std::size_t>(-1);

region_piece make_piece(region_piece::kind what, std::size_t first, std::size_t last) {
  region_piece piece;
  piece.what = what;
  piece.first = first;
  piece.last = last;
  return piece;
}

// Words of code that waits for other threads in a way a region form cannot keep: warp
// primitives, cooperative groups, spin locks, fences, volatile (warp-synchronous) shared memory.
bool sync_word(std::string_view w) {
  static const std::set<std::string_view> words = {"volatile",
                                                   "asm",
                                                   "__asm__",
                                                   "__asm",
                                                   "__syncthreads_count",
                                                   "__syncthreads_and",
                                                   "__syncthreads_or",
                                                   "__syncwarp",
                                                   "__activemask",
                                                   "__threadfence",
                                                   "__threadfence_block",
                                                   "__threadfence_system",
                                                   "__nanosleep",
                                                   "atomicCAS",
                                                   "atomicExch",
                                                   "atomicCAS_block",
                                                   "atomicExch_block",
                                                   "atomicCAS_system",
                                                   "atomicExch_system",
                                                   "cooperative_groups",
                                                   "this_thread_block",
                                                   "this_grid",
                                                   "tiled_partition",
                                                   "coalesced_threads",
                                                   "thread_block",
                                                   "grid_group",
                                                   "thread_block_tile",
                                                   "sync",
                                                   "barrier",
                                                   "arrive",
                                                   "memcpy_async",
                                                   "setjmp",
                                                   "longjmp",
                                                   "cuda",
                                                   "wmma"};
  if (words.contains(w)) {
    return true;
  }
  for (std::string_view prefix : {"__shfl", "__ballot", "__any", "__all", "__match", "__reduce_",
                                  "__pipeline", "__cugrade_region"}) {
    if (w.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

// Words a kernel's own body may not hold: a way out of a region (return, goto, throw), or a
// name a later region could not see (a local type, a static).
bool structure_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "return",    "goto",    "static", "throw", "try",    "co_await", "co_yield",
      "co_return", "typedef", "using",  "class", "struct", "union",    "enum"};
  return words.contains(w);
}

bool type_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "const",   "constexpr", "unsigned", "signed",   "int",    "long",    "short",
      "char",    "float",     "double",   "bool",     "auto",   "size_t",  "register",
      "uint8_t", "uint16_t",  "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t",
      "int64_t", "float2",    "float3",   "float4",   "int2",   "int3",    "int4",
      "uint2",   "uint3",     "uint4",    "double2",  "dim3",   "half",    "__half",
      "__half2", "ptrdiff_t", "uchar4",   "char4",    "long2",  "ulong2",  "longlong2"};
  return words.contains(w);
}

// Words that start statements that are not declarations.
bool statement_word(std::string_view w) {
  static const std::set<std::string_view> words = {
      "if",       "for",  "while", "do",     "switch", "case",   "default", "break",
      "continue", "else", "new",   "delete", "sizeof", "printf", "assert"};
  return words.contains(w);
}

// The significant tokens of a function body that are not in a directive, by position.
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
      depth += (t.is("(") || t.is("[") || t.is("{")) ? 1 : 0;
      depth -= (t.is(")") || t.is("]") || t.is("}")) ? 1 : 0;
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
      depth += (t.is("(") || t.is("[") || t.is("{")) ? 1 : 0;
      depth -= (t.is(")") || t.is("]") || t.is("}")) ? 1 : 0;
      if (depth < 0) {
        return k_npos;
      }
      if (depth == 0 && t.is(";")) {
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

// What the file defines that a kernel may use: its functions' bodies and its macros.
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

std::size_t matching(const rewrite_context& ctx, std::size_t open) {
  int depth = 0;
  for (std::optional<std::size_t> k = open; k; k = ctx.next(*k)) {
    const token& t = ctx.at(*k);
    depth += (t.is("(") || t.is("[") || t.is("{")) ? 1 : 0;
    depth -= (t.is(")") || t.is("]") || t.is("}")) ? 1 : 0;
    if (depth == 0) {
      return *k;
    }
  }
  return k_npos;
}

void find_functions(const rewrite_context& ctx, const std::vector<bool>& at_namespace,
                    file_facts& facts) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!at_namespace[i] || !is_name(ctx.at(i)) || ctx.at(i).in_directive) {
      continue;
    }
    const std::optional<std::size_t> open = ctx.next(i);
    if (!open || !ctx.at(*open).is("(")) {
      continue;
    }
    const std::size_t close = matching(ctx, *open);
    const std::optional<std::size_t> body = close == k_npos ? std::nullopt : ctx.next(close);
    if (!body || !ctx.at(*body).is("{")) {
      continue;
    }
    const std::size_t end = matching(ctx, *body);
    if (end != k_npos) {
      facts.functions[std::string(ctx.at(i).text)].push_back({*open, close, *body, end});
    }
  }
}

void find_macros_and_constants(const rewrite_context& ctx, const std::vector<bool>& at_namespace,
                               file_facts& facts) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (t.in_directive && t.is("define")) {
      const std::optional<std::size_t> name = ctx.next(i);
      if (!name || !is_name(ctx.at(*name)) || !ctx.at(*name).in_directive) {
        continue;
      }
      std::vector<std::size_t>& body = facts.macros[std::string(ctx.at(*name).text)];
      for (std::size_t k = *name + 1;
           k < ctx.size() && ctx.at(k).in_directive && ctx.at(k).kind != token_kind::newline; ++k) {
        if (ctx.at(k).significant()) {
          body.push_back(k);
        }
      }
    } else if (at_namespace[i] && !t.in_directive && t.is("=")) {
      const std::optional<std::size_t> name = ctx.prev(i);
      const std::vector<std::size_t> head =
          name ? declaration_before(ctx, *name) : std::vector<std::size_t>{};
      const bool constant = std::any_of(head.begin(), head.end(), [&](std::size_t k) {
        return ctx.at(k).is("const") || ctx.at(k).is("constexpr");
      });
      if (constant && is_name(ctx.at(*name))) {
        facts.constants.emplace(ctx.at(*name).text);
      }
    }
  }
}

file_facts facts_of(const rewrite_context& ctx) {
  file_facts facts;
  const std::vector<bool> at_namespace = namespace_scope(ctx);
  find_functions(ctx, at_namespace, facts);
  find_macros_and_constants(ctx, at_namespace, facts);
  return facts;
}

// Whether what a kernel calls or expands (functions and macros of the file, followed through
// what they call) may wait for other threads, or change an argument through a reference.
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

// One kernel's body: its statements split into pieces, and the facts the checks need.
class kernel_reader {
public:
  kernel_reader(const rewrite_context& ctx, const file_facts& facts, callee_check& callees,
                std::size_t params_open, std::size_t params_close, std::size_t open,
                std::size_t close)
      : m_ctx(ctx), m_facts(facts), m_callees(callees), m_body(ctx, open, close) {
    for (std::size_t k = params_open + 1; k < params_close; ++k) {
      const std::optional<std::size_t> after = ctx.next(k);
      if (is_name(ctx.at(k)) && after &&
          (ctx.at(*after).is(",") || ctx.at(*after).is(")") || ctx.at(*after).is("["))) {
        m_params.emplace(ctx.at(k).text);
      }
    }
  }

  /// The pieces, or nullopt when the kernel has no region form.
  std::optional<std::vector<region_piece>> read(region_kernel& kernel) {
    if (m_body.has_directives() || !words_allowed()) {
      return std::nullopt;
    }
    std::size_t p = 0;
    if (check_statement(kernel)) {
      p = m_check_end + 1;
    }
    auto pieces = read_pieces(p, m_body.size(), false);
    if (!pieces || !parameters_unchanged() || !locals_kept(*pieces)) {
      return std::nullopt;
    }
    return pieces;
  }

private:
  // `[[maybe_unused]] const bool __cugrade_chk = ...;`, which the access pass puts first.
  bool check_statement(region_kernel& kernel) {
    const std::size_t end = m_body.statement_end(0);
    if (end == k_npos) {
      return false;
    }
    for (std::size_t q = 0; q < end; ++q) {
      if (m_body.is(q, "__cugrade_chk")) {
        kernel.has_check = true;
        kernel.check_first = m_body.index(0);
        kernel.check_last = m_body.index(end);
        m_check_end = end;
        return true;
      }
    }
    return false;
  }

  bool words_allowed() {
    for (std::size_t p = 0; p < m_body.size(); ++p) {
      const token& t = m_body.at(p);
      if (t.kind != token_kind::identifier) {
        continue;
      }
      // With no barrier the form is one region: a `return` ends the thread there as it would.
      const bool early_return = t.is("return") && !holds_barrier(0, m_body.size() - 1);
      if (sync_word(t.text) || (structure_word(t.text) && !early_return)) {
        return false;
      }
      if ((m_facts.macros.contains(t.text) || m_facts.functions.contains(t.text)) &&
          !m_callees.harmless(t.text)) {
        return false;
      }
    }
    return true;
  }

  bool holds_barrier(std::size_t first, std::size_t last) const {
    for (std::size_t q = first; q <= last; ++q) {
      if (m_body.is(q, "__syncthreads")) {
        return true;
      }
    }
    return false;
  }

  bool holds_jump(std::size_t first, std::size_t last) const {
    for (std::size_t q = first; q <= last; ++q) {
      if (m_body.is(q, "break") || m_body.is(q, "continue")) {
        return true;
      }
    }
    return false;
  }

  // The statements in [p, end) as pieces; in a loop's body (`in_loop`) no loop may hold a
  // barrier again.
  std::optional<std::vector<region_piece>> read_pieces(std::size_t p, std::size_t end,
                                                       bool in_loop) {
    std::vector<region_piece> pieces;
    while (p < end) {
      const std::size_t last = m_body.statement_end(p);
      if (last == k_npos || last >= end) {
        return std::nullopt;
      }
      if (!holds_barrier(p, last)) {
        if (pieces.empty() || pieces.back().what != region_piece::kind::run) {
          pieces.push_back(
              make_piece(region_piece::kind::run, m_body.index(p), m_body.index(last)));
        }
        if (!note_declarations(p, last, pieces.back())) {
          return std::nullopt;
        }
        pieces.back().last = m_body.index(last);
      } else if (last == p + 3 && m_body.is(p, "__syncthreads") && m_body.is(p + 1, "(") &&
                 m_body.is(p + 2, ")")) {
        pieces.push_back(
            make_piece(region_piece::kind::barrier, m_body.index(p), m_body.index(last)));
      } else if (in_loop || !m_body.is(p, "for")) {
        return std::nullopt;
      } else if (auto loop = read_loop(p, last)) {
        pieces.push_back(std::move(*loop));
      } else {
        return std::nullopt;
      }
      p = last + 1;
    }
    return pieces;
  }

  std::optional<region_piece> read_loop(std::size_t p, std::size_t last) {
    const std::size_t header_close = m_body.match(p + 1);
    if (header_close == k_npos || !m_body.is(header_close + 1, "{") ||
        m_body.match(header_close + 1) != last || holds_jump(header_close + 1, last) ||
        !uniform_header(p + 2, header_close, last)) {
      return std::nullopt;
    }
    region_piece loop = make_piece(region_piece::kind::loop, m_body.index(p), m_body.index(last));
    loop.header_close = m_body.index(header_close);
    loop.body_open = m_body.index(header_close + 1);
    loop.body_close = m_body.index(last);
    auto body = read_pieces(header_close + 2, last, true);
    if (!body) {
      return std::nullopt;
    }
    loop.body = std::move(*body);
    return loop;
  }

  // `for (T v = init; cond; step)` whose every name is the same for all threads of a block,
  // and whose variable the body leaves alone.
  bool uniform_header(std::size_t first, std::size_t close, std::size_t body_last) {
    const std::size_t semicolon = find(first, close, ";");
    if (semicolon == k_npos) {
      return false;
    }
    const std::size_t assign = find(first, semicolon, "=");
    if (assign == k_npos || assign == first ||
        m_body.at(assign - 1).kind != token_kind::identifier ||
        find(first, semicolon, ",") != k_npos) {
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

  std::size_t find(std::size_t first, std::size_t last, std::string_view what) const {
    int depth = 0;
    for (std::size_t q = first; q < last; ++q) {
      const token& t = m_body.at(q);
      depth += (t.is("(") || t.is("[") || t.is("{")) ? 1 : 0;
      depth -= (t.is(")") || t.is("]") || t.is("}")) ? 1 : 0;
      if (depth == 0 && t.is(what)) {
        return q;
      }
    }
    return k_npos;
  }

  bool uniform_token(std::size_t q, const std::string& variable) {
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
  bool pure_function(std::string_view name) {
    for (const file_facts::function_body& body : m_facts.functions.find(name)->second) {
      std::set<std::string_view> params;
      for (std::size_t k = body.params_open + 1; k < body.params_close; ++k) {
        const std::optional<std::size_t> after = m_ctx.next(k);
        if (is_name(m_ctx.at(k)) && after &&
            (m_ctx.at(*after).is(",") || m_ctx.at(*after).is(")"))) {
          params.insert(m_ctx.at(k).text);
        }
      }
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
  bool uniform_name(std::string_view name) {
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

  bool uniform_macro(const std::vector<std::size_t>& tokens) {
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

  bool uniform_word(std::string_view word) {
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
  bool changed(const std::string& name, std::size_t first, std::size_t last) const {
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

  bool assigned_at(std::size_t q) const {
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

  bool incremented(std::size_t q) const {
    return ((m_body.is(q, "+") && m_body.is(q + 1, "+")) ||
            (m_body.is(q, "-") && m_body.is(q + 1, "-"))) &&
           m_body.adjacent(q, q + 1);
  }

  // `&x` (not `&p[i]` or `&p->m`, the address of what a pointer points to).
  bool address_taken(std::size_t q) const {
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

  bool parameters_unchanged() const {
    return std::none_of(m_params.begin(), m_params.end(), [&](const std::string& name) {
      return changed(name, 0, m_body.size() - 1);
    });
  }

  // A local of a run whose address is taken (`&x`) may be used after its region has ended:
  // no region form then. The shared-memory references the rewriter declares are block storage.
  bool locals_kept(const std::vector<region_piece>& pieces) const {
    for (const region_piece& piece : pieces) {
      for (const auto& [name, at] : piece.declared) {
        if (!m_shared.contains(name) && changed_by_address(name)) {
          return false;
        }
      }
      if (!locals_kept(piece.body)) {
        return false;
      }
    }
    return true;
  }

  bool changed_by_address(const std::string& name) const {
    for (std::size_t q = 0; q < m_body.size(); ++q) {
      if (m_body.is(q, name) && address_taken(q)) {
        return true;
      }
    }
    return false;
  }

  // The names a statement of a run declares at its own level, into the run; false when the
  // statement is a declaration this reader cannot follow (an array, a reference, a template).
  bool note_declarations(std::size_t first, std::size_t last, region_piece& run) {
    std::size_t p = first;
    if (m_body.is(p, "[") && m_body.is(p + 1, "[")) {
      p = m_body.match(p);
      if (p == k_npos || p >= last || !m_body.is(p + 1, "]")) {
        return false;
      }
      p += 2;
    }
    if (!declaration_at(p, last)) {
      return true;
    }
    if (shared_declaration(p, last, run)) {
      return true;
    }
    // The declarators, split at the commas outside brackets.
    std::size_t part = p;
    for (std::size_t q = p; q <= last; ++q) {
      const token& t = m_body.at(q);
      if (t.is("(") || t.is("[") || t.is("{")) {
        q = m_body.match(q);
        if (q == k_npos || q > last) {
          return false;
        }
        continue;
      }
      if (t.is(",") || t.is(";")) {
        if (!note_declarator(part, q, run)) {
          return false;
        }
        part = q + 1;
      }
    }
    return true;
  }

  bool declaration_at(std::size_t p, std::size_t last) const {
    if (p >= last || m_body.at(p).kind != token_kind::identifier ||
        statement_word(m_body.at(p).text)) {
      return false;
    }
    std::size_t q = p;
    while (m_body.is(q + 1, "::") && q + 2 < last) { // std::size_t
      q += 2;
    }
    const token& after = m_body.at(q + 1);
    if (type_word(m_body.at(q).text)) {
      return true;
    }
    if (after.kind == token_kind::identifier) {
      return true;
    }
    return (after.is("*") || after.is("&")) && q + 3 <= last &&
           m_body.at(q + 2).kind == token_kind::identifier &&
           (m_body.is(q + 3, "=") || m_body.is(q + 3, ";") || m_body.is(q + 3, ","));
  }

  // `auto& T = ::cugrade::emu::block_shared<...>(...);` and the dynamic form: one name, block
  // storage (kept as a reference in a frame).
  bool shared_declaration(std::size_t p, std::size_t last, region_piece& run) {
    const std::size_t assign = find(p, last, "=");
    if (assign == k_npos || !m_body.is(assign + 1, "::") || !m_body.is(assign + 2, "cugrade") ||
        !m_body.is(assign + 4, "emu")) {
      return false;
    }
    const std::string name(m_body.at(assign - 1).text);
    run.declared.emplace_back(name, m_body.index(assign - 1));
    m_shared.insert(name);
    m_initializers[name] = {k_npos, k_npos};
    return true;
  }

  bool note_declarator(std::size_t first, std::size_t end, region_piece& run) {
    std::size_t name = k_npos;
    std::size_t q = first;
    for (; q < end; ++q) {
      const token& t = m_body.at(q);
      if (t.is("=") || t.is("(") || t.is("{") || t.is("[")) {
        break;
      }
      if (t.kind == token_kind::identifier && !type_word(t.text)) {
        name = q;
      }
      if (t.is("&") || t.is("<")) {
        return false; // a reference or a template: not followed
      }
    }
    if (name == k_npos || m_body.is(q, "[")) {
      return false; // no name found, or an array: not followed
    }
    const std::string text(m_body.at(name).text);
    run.declared.emplace_back(text, m_body.index(name));
    m_initializers[text] =
        m_body.is(q, "=") && q + 1 < end ? std::pair{q + 1, end - 1} : std::pair{k_npos, k_npos};
    return true;
  }

  const rewrite_context& m_ctx;
  const file_facts& m_facts;
  callee_check& m_callees;
  body_tokens m_body;
  std::set<std::string, std::less<>> m_params;
  std::set<std::string, std::less<>> m_shared;
  /// Per local declared in a run: its initializer's positions [first, last] (k_npos: none).
  std::map<std::string, std::pair<std::size_t, std::size_t>, std::less<>> m_initializers;
  std::size_t m_check_end = 0;
  int m_depth = 0; ///< of uniform_word's recursion
};

// A `__global__` function definition at namespace scope, not a template: its name, parameter
// list and body; nullopt otherwise.
std::optional<region_kernel> kernel_at(const rewrite_context& ctx, std::size_t global) {
  for (std::size_t k : declaration_before(ctx, global)) {
    if (ctx.at(k).is("template") || ctx.at(k).is(">")) {
      return std::nullopt;
    }
  }
  std::optional<std::size_t> p = ctx.next(global);
  int depth = 0;
  for (; p; p = ctx.next(*p)) {
    const token& t = ctx.at(*p);
    depth += t.is("(") ? 1 : (t.is(")") ? -1 : 0);
    if (depth == 0 && (t.is("{") || t.is(";"))) {
      break;
    }
  }
  if (!p || !ctx.at(*p).is("{")) {
    return std::nullopt;
  }
  const std::optional<std::size_t> close = ctx.prev(*p);
  if (!close || !ctx.at(*close).is(")")) {
    return std::nullopt;
  }
  std::size_t open = *close;
  for (depth = 0;;) {
    depth += ctx.at(open).is(")") ? 1 : (ctx.at(open).is("(") ? -1 : 0);
    const std::optional<std::size_t> before = ctx.prev(open);
    if (depth == 0 || !before) {
      break;
    }
    open = *before;
  }
  const std::optional<std::size_t> name = ctx.prev(open);
  const std::size_t end = matching(ctx, *p);
  if (!name || !is_name(ctx.at(*name)) || end == k_npos) {
    return std::nullopt;
  }
  region_kernel kernel;
  kernel.name = std::string(ctx.at(*name).text);
  kernel.params_open = open;
  kernel.body_open = *p;
  kernel.body_close = end;
  return kernel;
}

} // namespace

std::vector<region_kernel> region_kernels(const rewrite_context& ctx) {
  const file_facts facts = facts_of(ctx);
  callee_check callees(ctx, facts);
  const std::vector<bool> at_namespace = namespace_scope(ctx);
  std::map<std::string, int, std::less<>> definitions;
  std::vector<region_kernel> out;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!at_namespace[i] || ctx.at(i).in_directive || !ctx.at(i).is("__global__")) {
      continue;
    }
    std::optional<region_kernel> kernel = kernel_at(ctx, i);
    if (!kernel) {
      continue;
    }
    ++definitions[kernel->name];
    const std::size_t params_close = *ctx.prev(kernel->body_open);
    kernel_reader reader(ctx, facts, callees, kernel->params_open, params_close, kernel->body_open,
                         kernel->body_close);
    const std::size_t body_close = kernel->body_close;
    if (auto pieces = reader.read(*kernel)) {
      kernel->pieces = std::move(*pieces);
      out.push_back(std::move(*kernel));
    }
    i = body_close;
  }
  // Overloaded kernels: `&name` would not say which.
  std::erase_if(out, [&](const region_kernel& k) { return definitions[k.name] > 1; });
  return out;
}

} // namespace cugrade::emu::detail
