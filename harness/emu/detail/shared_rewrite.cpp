// __shared__ translation. Inside a function:
//   __shared__ float Mds[16][16];  ->  auto& Mds = ::cugrade::emu::block_shared<float [16][16],
//                                        0>("Mds", "float");
//   extern __shared__ float s[];   ->  auto* const s = ::cugrade::emu::dynamic_shared<float>("s",
//                                        "float");
// At namespace scope the same declarations become objects (file_shared, file_dynamic_shared)
// that resolve to the running block's storage on every use. Several declarators, volatile,
// pointers and __align__ are handled; the replacement keeps the statement's newlines. Each static
// array in a function is followed by a static_assert of the function's static shared bytes so
// far, as nvcc limits them to 48 KiB.
#include <map>
#include <string>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

using token_list = std::vector<const token*>;

struct declaration {
  std::size_t first = 0; ///< first token of the statement
  std::size_t last = 0;  ///< its `;`
  bool is_extern = false;
  token_list words; ///< the declaration without __shared__, extern, static, alignment
};

bool boundary(const token& t) {
  return t.is(";") || t.is("{") || t.is("}") || t.is(":");
}

// Skips a parenthesised group starting at tokens[i] == "("; returns the index after it.
std::size_t skip_group(const rewrite_context& ctx, std::size_t i, std::size_t last) {
  int depth = 0;
  for (; i <= last; ++i) {
    if (!ctx.at(i).significant()) {
      continue;
    }
    depth += ctx.at(i).is("(") ? 1 : (ctx.at(i).is(")") ? -1 : 0);
    if (depth == 0) {
      return i + 1;
    }
  }
  return last + 1;
}

std::optional<declaration> find_declaration(const rewrite_context& ctx, std::size_t shared) {
  declaration d;
  d.first = shared;
  const bool directive = ctx.at(shared).in_directive;
  for (std::optional<std::size_t> p = ctx.prev(shared);
       p && !boundary(ctx.at(*p)) && ctx.at(*p).in_directive == directive; p = ctx.prev(*p)) {
    d.first = *p;
  }
  int depth = 0;
  std::optional<std::size_t> i = shared;
  for (; i; i = ctx.next(*i)) {
    const token& t = ctx.at(*i);
    depth += (t.is("(") || t.is("[")) ? 1 : ((t.is(")") || t.is("]")) ? -1 : 0);
    if (depth == 0 && (t.is(";") || t.is("{") || t.is("}"))) {
      break;
    }
  }
  if (!i || !ctx.at(*i).is(";")) {
    return std::nullopt;
  }
  d.last = *i;
  for (std::size_t k = d.first; k < d.last;) {
    const token& t = ctx.at(k);
    if (!t.significant() || t.is("__shared__") || t.is("static") || t.is("__device__")) {
      ++k;
    } else if (t.is("extern")) {
      d.is_extern = true;
      ++k;
    } else if (t.is("__align__") || t.is("alignas") || t.is("__attribute__")) {
      const std::optional<std::size_t> open = ctx.next(k);
      k = open && ctx.at(*open).is("(") ? skip_group(ctx, *open, d.last) : k + 1;
    } else {
      d.words.push_back(&t);
      ++k;
    }
  }
  return d;
}

std::vector<token_list> split_declarators(const token_list& words) {
  std::vector<token_list> parts(1);
  int depth = 0;
  int angle = 0;
  for (const token* t : words) {
    depth += (t->is("(") || t->is("[") || t->is("{")) ? 1 : 0;
    depth -= (t->is(")") || t->is("]") || t->is("}")) ? 1 : 0;
    if (depth == 0) {
      angle += t->is("<") ? 1 : (t->is(">") ? -1 : (t->is(">>") ? -2 : 0));
    }
    if (t->is(",") && depth == 0 && angle <= 0) {
      parts.emplace_back();
    } else {
      parts.back().push_back(t);
    }
  }
  return parts;
}

std::string join(const token_list& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty()) {
      out.push_back(' ');
    }
    out.append(words[i]->text);
  }
  return out;
}

struct declarator {
  std::string pointers;
  std::string name;
  std::string dims;       ///< "[16] [16]"
  std::string inner_dims; ///< dims after a leading "[]" (extern arrays)
  bool unsized = false;   ///< starts with "[]"
};

// Parses "[*...] name [dims...]" from words[from..).
std::optional<declarator> parse_declarator(const token_list& w, std::size_t from) {
  declarator d;
  std::size_t i = from;
  for (; i < w.size() && (w[i]->is("*") || w[i]->is("&")); ++i) {
    d.pointers += w[i]->text;
  }
  if (i >= w.size() || w[i]->kind != token_kind::identifier) {
    return std::nullopt;
  }
  d.name = std::string(w[i]->text);
  ++i;
  d.unsized = i + 1 < w.size() && w[i]->is("[") && w[i + 1]->is("]");
  d.dims = join(w, i, w.size());
  d.inner_dims = d.unsized ? join(w, i + 2, w.size()) : d.dims;
  for (; i < w.size(); ++i) {
    if (w[i]->is("=")) {
      return std::nullopt;
    }
  }
  return d;
}

// Where the first declarator starts: the identifier before the first '[' (or the last identifier),
// with any '*' right before it.
std::size_t first_declarator_start(const token_list& w) {
  std::size_t bracket = w.size();
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i]->is("[") || w[i]->is("=")) {
      bracket = i;
      break;
    }
  }
  std::size_t name = bracket == 0 ? 0 : bracket - 1;
  while (name > 0 && (w[name - 1]->is("*") || w[name - 1]->is("&"))) {
    --name;
  }
  return name;
}

// `"name", "element type"`: what diagnostics call the array and its elements.
std::string names_of(const declarator& d, const std::string& spec) {
  std::string element = spec + (d.pointers.empty() ? "" : " " + d.pointers);
  std::string quoted;
  for (const char c : element) {
    if (c != '"' && c != '\\') {
      quoted.push_back(c);
    }
  }
  return "\"" + d.name + "\", \"" + quoted + "\"";
}

// The declared type: "float [16] [16]".
std::string static_type(const declarator& d, const std::string& spec) {
  return spec + (d.pointers.empty() ? "" : " " + d.pointers) + (d.dims.empty() ? "" : " " + d.dims);
}

// The element type of an extern array (its dims after the leading "[]"): "float", "float [4]".
std::string element_type(const declarator& d, const std::string& spec) {
  return spec + (d.pointers.empty() ? "" : " " + d.pointers) +
         (d.inner_dims.empty() ? "" : " " + d.inner_dims);
}

std::string translate(const declarator& d, const std::string& spec, bool is_extern,
                      bool in_function, int id) {
  const std::string type = static_type(d, spec);
  const std::string element = element_type(d, spec);
  const std::string ns = "::cugrade::emu::";
  const std::string names = names_of(d, spec);
  if (is_extern) {
    return in_function ? "auto* const " + d.name + " = " + ns + "dynamic_shared<" + element + ">(" +
                             names + ");"
                       : "static " + ns + "file_dynamic_shared<" + element + "> " + d.name + "{" +
                             names + "};";
  }
  const std::string args = "<" + type + ", " + std::to_string(id) + ">";
  return in_function ? "auto& " + d.name + " = " + ns + "block_shared" + args + "(" + names + ");"
                     : "static " + ns + "file_shared" + args + " " + d.name + "{" + names + "};";
}

// What a dynamic shared array's earlier declaration said: its element type and line.
struct extern_array {
  std::string element;
  int line = 0;
};

// Every `extern __shared__` declaration of a name is one array to nvcc, which rejects a second
// with another element type ("declaration is incompatible with previous"); g++ would compile the
// translation (each is a local of its own), so the difference is found here.
std::optional<std::string> conflicting_extern(const rewrite_context& ctx, std::size_t shared,
                                              const declarator& d, const std::string& spec,
                                              std::map<std::string, extern_array>& seen) {
  const std::string element = element_type(d, spec);
  const int line = ctx.line_at(ctx.at(shared).begin);
  const auto [it, first] = seen.emplace(d.name, extern_array{element, line});
  if (first || it->second.element == element) {
    return std::nullopt;
  }
  return ctx.where(shared) + "the extern __shared__ array `" + d.name + "` is declared here as `" +
         element + "` and at line " + std::to_string(it->second.line) + " as `" +
         it->second.element +
         "`: every extern __shared__ declaration of a name is the same array, and nvcc rejects "
         "two with different types (\"declaration is incompatible\"). Give each type its own "
         "name, or declare `extern __shared__ unsigned char smem[];` once and cast it in each "
         "kernel";
}

// nvcc refuses a kernel whose static __shared__ arrays take more than 48 KiB ("uses too much
// shared data (0x10000 bytes, 0xc000 max)"); the emulator would learn the size only when a block
// reaches the declarations, and stop that launch. So each static array of a function adds its
// size to the function's sum, checked at compile time where it crosses the limit: a build error
// at that declaration's line on both backends. (Arrays in the __device__ functions a kernel calls
// count for nvcc too; the run-time check still covers those.)
// The build log says it without "static assertion failed: cugrade: " (compile_messages.cpp).
constexpr const char* static_limit_message =
    "cugrade: the static __shared__ arrays of this function take more than 48 KiB (49152 bytes), "
    "and nvcc refuses the kernel (\\\"uses too much shared data\\\"): use smaller tiles, or "
    "extern __shared__ memory sized at launch (above 48 KiB with cudaFuncSetAttribute)";

std::string static_limit_check(std::string& sum, const std::string& type) {
  sum += (sum.empty() ? "" : " + ") + std::string("sizeof(") + type + ")";
  return " static_assert(" + sum + " <= 48 * 1024, \"" + static_limit_message + "\");";
}

} // namespace

std::optional<std::string> rewrite_shared(rewrite_context& ctx) {
  std::map<std::string, extern_array> extern_arrays;
  std::map<std::size_t, std::string> static_sums; ///< per function body: its arrays' sizeofs
  std::size_t done_until = 0;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    // In a #define the declaration is only text; its uses get the prelude's error instead.
    if (!ctx.at(i).is("__shared__") || i < done_until || ctx.at(i).in_directive) {
      continue;
    }
    const std::optional<declaration> decl = find_declaration(ctx, i);
    if (!decl || decl->words.empty()) {
      return ctx.where(i) + "cannot read this __shared__ declaration; write it as "
                            "`__shared__ type name[size];`";
    }
    const std::vector<token_list> parts = split_declarators(decl->words);
    const std::size_t start = first_declarator_start(parts[0]);
    if (start == 0) {
      return ctx.where(i) + "this __shared__ declaration has no type";
    }
    const std::string spec = join(parts[0], 0, start);
    std::string text;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const std::optional<declarator> d = parse_declarator(parts[p], p == 0 ? start : 0);
      if (!d) {
        return ctx.where(i) + "cannot read this __shared__ declaration (note: __shared__ "
                              "variables cannot have an initializer)";
      }
      if (decl->is_extern && !d->unsized) {
        return ctx.where(i) + "an extern __shared__ array must be declared with empty brackets, "
                              "e.g. `extern __shared__ float s[];`";
      }
      if (decl->is_extern) {
        if (auto conflict = conflicting_extern(ctx, i, *d, spec, extern_arrays)) {
          return conflict;
        }
      }
      text += (p == 0 ? "" : " ") +
              translate(*d, spec, decl->is_extern, ctx.in_function(i), ctx.next_id());
      if (const auto body = ctx.device_body(i); body && !decl->is_extern) {
        text += static_limit_check(static_sums[*body], static_type(*d, spec));
      }
    }
    const std::size_t begin = ctx.at(decl->first).begin;
    const std::size_t end = ctx.at(decl->last).end;
    ctx.add({begin, end, text + ctx.newlines(begin, end)});
    done_until = decl->last + 1;
  }
  return std::nullopt;
}

} // namespace cugrade::emu::detail
