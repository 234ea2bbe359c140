// The region form of a kernel (region_plan.h), written after the kernel in the rewritten file:
//
//   static void __cugrade_regions_K(params) { constexpr bool __cugrade_chk = false;
//     auto* const __cugrade_f0 = region_collect(0, [&](unsigned __cugrade_t) {
//       const unsigned t = threadIdx.x; ...            // the first region, for each thread
//       return std::tuple<decltype(t), ...>(t, ...); }); // what later regions use of it
//     for (unsigned s = 128; s >= 1; s /= 2) {           // a loop every thread runs alike
//       ;                                                // __syncthreads(): the regions' order
//       region_each([&](unsigned __cugrade_t) { auto& [t, ...] = __cugrade_f0[__cugrade_t]; {
//         if (t < s) ... } });
//     } ...
//
// Every region is the student's text where it was, so its lines are the student's (a #line
// directive starts the form at the kernel's line). The form is used only for blocks that are
// not checked, so __cugrade_chk is false there and the checks compile away.
#include <algorithm>
#include <set>

#include "harness/emu/detail/region_plan.h"

namespace cugrade::emu::detail {
namespace {

// Warnings the student already got once for the kernel itself: never twice, and never for what
// the form adds (copying an uninitialised local into its frame).
constexpr std::string_view k_quiet[] = {"pragmas",
                                        "unused-variable",
                                        "unused-but-set-variable",
                                        "unused-value",
                                        "unused-local-typedefs",
                                        "sign-compare",
                                        "parentheses",
                                        "maybe-uninitialized",
                                        "uninitialized",
                                        "array-bounds",
                                        "aggressive-loop-optimizations",
                                        "misleading-indentation",
                                        "dangling-else",
                                        "narrowing",
                                        "address",
                                        "bool-compare",
                                        "int-in-bool-context",
                                        "char-subscripts",
                                        "sequence-point",
                                        "stringop-overflow",
                                        "stringop-overread",
                                        "comment",
                                        "format",
                                        "nonnull",
                                        "restrict",
                                        "switch",
                                        "tautological-compare",
                                        "logical-not-parentheses",
                                        "unused-label",
                                        "dangling-pointer",
                                        "infinite-recursion",
                                        "div-by-zero",
                                        "overflow",
                                        "shift-count-overflow",
                                        "shift-count-negative",
                                        "shift-negative-value",
                                        "unused-result",
                                        "deprecated-declarations",
                                        "implicit-fallthrough",
                                        "empty-body",
                                        "strict-aliasing",
                                        "class-memaccess",
                                        "sizeof-pointer-div",
                                        "sizeof-array-div",
                                        "memset-elt-size",
                                        "enum-compare",
                                        "nonnull-compare",
                                        "use-after-free",
                                        "free-nonheap-object",
                                        "mismatched-new-delete",
                                        "format-overflow",
                                        "format-truncation",
                                        "stringop-truncation",
                                        "int-to-pointer-cast",
                                        "zero-length-bounds",
                                        "array-parameter",
                                        "vla-parameter"};

struct frame {
  int slot = 0;
  std::vector<std::string> names;
};

class form_writer {
public:
  form_writer(const rewrite_context& ctx, const region_kernel& kernel)
      : m_ctx(ctx), m_kernel(kernel) {}

  // The kernel's parameters and body, as the form's; nullopt if two of its edits overlap (the
  // kernel then keeps its fibers).
  std::optional<std::string> text() {
    if (m_kernel.has_check) {
      const std::size_t begin = m_ctx.at(m_kernel.check_first).begin;
      const std::size_t end = m_ctx.at(m_kernel.check_last).end;
      m_edits.push_back(
          {begin, end,
           "[[maybe_unused]] constexpr bool __cugrade_chk = false;" + m_ctx.newlines(begin, end)});
    }
    std::vector<frame> visible;
    write_pieces(m_kernel.pieces, visible, m_kernel.body_close);
    std::size_t overlap = 0;
    return with_edits(m_ctx.source(), m_ctx.at(m_kernel.params_open).begin,
                      m_ctx.at(m_kernel.body_close).end, std::move(m_edits), &overlap);
  }

private:
  void insert(std::size_t at, std::string text) { m_edits.push_back({at, at, std::move(text)}); }

  // Whether `name` is used after token `after` and before token `end`.
  bool used(const std::string& name, std::size_t after, std::size_t end) const {
    for (std::size_t i = after + 1; i < end; ++i) {
      const token& t = m_ctx.at(i);
      if (t.kind == token_kind::identifier && t.text == name) {
        const auto before = m_ctx.prev(i);
        if (!before || !one_of(m_ctx.at(*before), {".", "->", "::"})) {
          return true;
        }
      }
    }
    return false;
  }

  static std::string joined(const std::vector<std::string>& names, std::string_view pattern) {
    std::string out;
    for (const std::string& n : names) {
      if (!out.empty()) {
        out += ", ";
      }
      std::string item(pattern);
      for (std::size_t at = item.find('@'); at != std::string::npos; at = item.find('@', at)) {
        item.replace(at, 1, n);
        at += n.size();
      }
      out += item;
    }
    return out;
  }

  // Binds the frames' names for thread `thread` ("__cugrade_t" or "0"), each frame in a block
  // of its own, so that a loop's local may hide a name of the kernel's body as it did.
  static std::string bindings(const std::vector<frame>& frames, std::string_view thread,
                              bool nest) {
    std::string out;
    for (const frame& f : frames) {
      out += "[[maybe_unused]] auto& [" + joined(f.names, "@") + "] = __cugrade_f" +
             std::to_string(f.slot) + "[" + std::string(thread) + "]; ";
      if (nest) {
        out += "{ ";
      }
    }
    return out;
  }

  void write_pieces(const std::vector<region_piece>& pieces, std::vector<frame> visible,
                    std::size_t scope_end) {
    for (const region_piece& piece : pieces) {
      switch (piece.what) {
      case region_piece::kind::run:
        write_run(piece, visible, scope_end);
        break;
      case region_piece::kind::barrier: {
        const std::size_t begin = m_ctx.at(piece.first).begin;
        const std::size_t end = m_ctx.at(piece.last).end;
        m_edits.push_back({begin, end, ";" + m_ctx.newlines(begin, end)});
        break;
      }
      case region_piece::kind::loop:
        write_loop(piece, visible);
        break;
      }
    }
  }

  void write_run(const region_piece& run, std::vector<frame>& visible, std::size_t scope_end) {
    frame kept{m_next_slot, {}};
    for (const auto& [name, at] : run.declared) {
      if (used(name, run.last, scope_end)) {
        kept.names.push_back(name);
      }
    }
    const std::string bound = bindings(visible, "__cugrade_t", true);
    const std::string closers(visible.size(), '}');
    const std::size_t begin = m_ctx.at(run.first).begin;
    const std::size_t end = m_ctx.at(run.last).end;
    if (kept.names.empty()) {
      insert(begin, "::cugrade::emu::detail::region_each([&]([[maybe_unused]] unsigned "
                    "__cugrade_t) { " +
                        bound);
      insert(end, " " + closers + " });");
      return;
    }
    ++m_next_slot;
    insert(begin, "auto* const __cugrade_f" + std::to_string(kept.slot) +
                      " = ::cugrade::emu::detail::region_collect(" + std::to_string(kept.slot) +
                      ", [&]([[maybe_unused]] unsigned __cugrade_t) { " + bound);
    insert(end, " return ::std::tuple<" + joined(kept.names, "decltype(@)") + ">(" +
                    joined(kept.names, "@") + "); " + closers + " });");
    visible.push_back(std::move(kept));
  }

  void write_loop(const region_piece& loop, const std::vector<frame>& visible) {
    // The header runs once for the block: the names it takes from the frames are thread 0's
    // (the same in every thread: region_plan checks that they are uniform).
    std::vector<frame> needed;
    for (const frame& f : visible) {
      const bool in_header = std::any_of(f.names.begin(), f.names.end(), [&](const std::string& n) {
        return used(n, loop.first, loop.header_close);
      });
      if (in_header) {
        needed.push_back(f);
      }
    }
    if (!needed.empty()) {
      insert(m_ctx.at(loop.first).begin, "{ " + bindings(needed, "0", false));
      insert(m_ctx.at(loop.last).end, " }");
    }
    write_pieces(loop.body, visible, loop.body_close);
  }

  const rewrite_context& m_ctx;
  const region_kernel& m_kernel;
  std::vector<edit> m_edits;
  int m_next_slot = 0;
};

// The form, written after the kernel's closing brace, or nothing when it cannot be written.
std::string form_of(const rewrite_context& ctx, const region_kernel& kernel,
                    std::string_view file_name) {
  const std::optional<std::string> text = form_writer(ctx, kernel).text();
  if (!text) {
    return "";
  }
  std::string out = "\n#ifndef CUGRADE_EMU_NO_REGIONS\n#pragma GCC diagnostic push\n";
  for (std::string_view warning : k_quiet) {
    out += "#pragma GCC diagnostic ignored \"-W" + std::string(warning) + "\"\n";
  }
  out += line_directive(ctx.line_at(ctx.at(kernel.params_open).begin), file_name);
  out += "static void __cugrade_regions_" + kernel.name + *text;
  out += "\n#pragma GCC diagnostic pop\nstatic const ::cugrade::emu::detail::region_registration "
         "__cugrade_region_" +
         kernel.name + "(reinterpret_cast<const void*>(&" + kernel.name +
         "), reinterpret_cast<void*>(&__cugrade_regions_" + kernel.name + "));\n#endif\n";
  out += line_directive(ctx.line_at(ctx.at(kernel.body_close).begin), file_name);
  return out;
}

} // namespace

std::string line_directive(int line, std::string_view file_name) {
  std::string out = "#line " + std::to_string(line) + " \"";
  for (const char c : file_name) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
    }
    out.push_back(c == '\n' ? ' ' : c);
  }
  out += "\"\n";
  return out;
}

std::string add_region_forms(std::string_view rewritten, std::string_view file_name) {
  const rewrite_context ctx(rewritten, file_name);
  std::string out;
  std::size_t at = 0;
  for (const region_kernel& kernel : region_kernels(ctx)) {
    const std::size_t end = ctx.at(kernel.body_close).end;
    out.append(rewritten.substr(at, end - at));
    out += form_of(ctx, kernel, file_name);
    at = end;
  }
  out.append(rewritten.substr(at));
  return out;
}

} // namespace cugrade::emu::detail
