// Which kernels have a region form, and their pieces (region_plan.h). Everything here answers
// "no" when unsure: a kernel without a region form runs on fibers, as every kernel did before.
#include "harness/emu/detail/region_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "harness/emu/detail/file_scope.h"
#include "harness/emu/detail/region_scan.h"
#include "harness/emu/detail/region_uniform.h"

namespace cugrade::emu::detail {
namespace {

region_piece make_piece(region_piece::kind what, std::size_t first, std::size_t last) {
  region_piece piece;
  piece.what = what;
  piece.first = first;
  piece.last = last;
  return piece;
}

// One kernel's body: its statements split into pieces, and the facts the checks need.
class kernel_reader {
public:
  kernel_reader(const rewrite_context& ctx, const file_facts& facts, callee_check& callees,
                std::size_t params_open, std::size_t params_close, std::size_t open,
                std::size_t close)
      : m_ctx(ctx), m_facts(facts), m_callees(callees), m_body(ctx, open, close),
        m_params(parameter_names(ctx, params_open, params_close)) {}

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
    // With no barrier the form is one region: a `return` ends the thread there as it would.
    const bool returns_allowed = m_body.size() == 0 || !holds_barrier(0, m_body.size() - 1);
    for (std::size_t p = 0; p < m_body.size(); ++p) {
      const token& t = m_body.at(p);
      if (lambda_at(p)) {
        return false; // it may capture a local of its region by reference and outlive it
      }
      if (t.kind != token_kind::identifier) {
        continue;
      }
      if (sync_word(t.text) || (structure_word(t.text) && !(t.is("return") && returns_allowed))) {
        return false;
      }
      if ((m_facts.macros.contains(t.text) || m_facts.functions.contains(t.text)) &&
          !m_callees.harmless(t.text)) {
        return false;
      }
    }
    return true;
  }

  // A lambda's introducer: `[&`, `[=`, or `[]` where no `delete[]` or `new T[]` is.
  bool lambda_at(std::size_t p) const {
    if (!m_body.is(p, "[")) {
      return false;
    }
    if (m_body.is(p + 1, "&") || m_body.is(p + 1, "=")) {
      return true;
    }
    return m_body.is(p + 1, "]") && !(p > 0 && (m_body.is(p - 1, "delete") ||
                                                m_body.at(p - 1).kind == token_kind::identifier));
  }

  // Whether one of `words` is a token of [first, last].
  bool holds(std::size_t first, std::size_t last,
             std::initializer_list<std::string_view> words) const {
    for (std::size_t q = first; q <= last; ++q) {
      for (std::string_view w : words) {
        if (m_body.is(q, w)) {
          return true;
        }
      }
    }
    return false;
  }

  bool holds_barrier(std::size_t first, std::size_t last) const {
    return holds(first, last, {"__syncthreads"});
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
        m_body.match(header_close + 1) != last ||
        holds(header_close + 1, last, {"break", "continue"}) ||
        !m_uniform.uniform_header(p + 2, header_close, last)) {
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

  bool parameters_unchanged() const {
    return std::none_of(m_params.begin(), m_params.end(), [&](const std::string& name) {
      return m_uniform.changed(name, 0, m_body.size() - 1);
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
      if (m_body.is(q, name) && m_uniform.address_taken(q)) {
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
    const std::size_t assign = m_body.find(p, last, "=");
    if (assign == k_npos || !m_body.is(assign + 1, "::") || !m_body.is(assign + 2, "cugrade") ||
        !m_body.is(assign + 4, "emu")) {
      return false;
    }
    const std::string name(m_body.at(assign - 1).text);
    run.declared.emplace_back(name, m_body.index(assign - 1));
    m_shared.insert(name);
    m_uniform.note_local(name, k_npos, k_npos);
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
    const bool initialized = m_body.is(q, "=") && q + 1 < end;
    m_uniform.note_local(text, initialized ? q + 1 : k_npos, initialized ? end - 1 : k_npos);
    return true;
  }

  const rewrite_context& m_ctx;
  const file_facts& m_facts;
  callee_check& m_callees;
  body_tokens m_body;
  std::set<std::string, std::less<>> m_params;
  std::set<std::string, std::less<>> m_shared;
  uniform_check m_uniform{m_ctx, m_facts, m_body, m_params};
  std::size_t m_check_end = 0;
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
  const std::vector<bool> at_namespace = namespace_scope(ctx);
  const file_facts facts = facts_of(ctx, at_namespace);
  callee_check callees(ctx, facts);
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
