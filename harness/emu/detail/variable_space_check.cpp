// Host variables in device code. The emulator runs host and device code in one address space, so
// a kernel can read any global variable; nvcc refuses a variable that lives only on the host:
//   float M[MASK_WIDTH];                  (the mask, its __constant__ forgotten)
//   int N = 1024;                         __global__ void k(...) { ... row * N ... }
//     nvcc: identifier "M" is undefined in device code
// This pass finds such a read, write or address in the student's file and fails the build at its
// line, as nvcc does. Only what is certain is reported (nvcc 13 measured on each form):
// - the variable is declared at namespace scope with no __device__, __constant__, __shared__ or
//   __managed__, no macro of the file among its specifiers, and no template, `::` or call in
//   its type;
// - it is not const or constexpr, or it is a const or constexpr array (nvcc lets device code use
//   a const scalar with a constant initializer, never an array);
// - the use is in a namespace-scope __global__ or __device__ function (not a member, not a
//   lambda), outside sizeof, decltype and alignof, and no parameter or local of that function
//   has the same name.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/emu/detail/file_scope.h"
#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

struct host_variable {
  int line = 0; ///< of its declaration
};
using host_variables = std::map<std::string, host_variable, std::less<>>;

// A statement at namespace scope that is no variable declaration this pass can be sure of. What
// comes after `=` and inside an array's bound (`float M[MASK_WIDTH * MASK_WIDTH]`) may call,
// name templates and use macros.
bool skipped_statement(const rewrite_context& ctx, const std::vector<std::size_t>& statement,
                       const std::set<std::string, std::less<>>& macros) {
  int brackets = 0;
  for (std::size_t i : statement) {
    const token& t = ctx.at(i);
    if (t.is("=")) {
      return false;
    }
    brackets += t.is("[") ? 1 : (t.is("]") ? -1 : 0);
    if (brackets > 0 || t.is("]")) {
      continue;
    }
    if (one_of(t, {"typedef", "using", "template", "extern", "namespace", "struct", "class",
                   "union", "enum", "static_assert", "operator", "decltype", "__attribute__",
                   "__device__", "__constant__", "__shared__", "__managed__", "__global__",
                   "__host__", "(", "<", "::"}) ||
        macros.contains(t.text)) {
      return true;
    }
  }
  return false;
}

bool has_const(const rewrite_context& ctx, const std::vector<std::size_t>& statement) {
  for (std::size_t i : statement) {
    if (ctx.at(i).is("=")) {
      return false;
    }
    if (ctx.at(i).is("const") || ctx.at(i).is("constexpr")) {
      return true;
    }
  }
  return false;
}

// One declarator of a statement, [first, last): its name is the last name outside brackets
// before its initializer; `[` after the name makes it an array.
void record_declarator(const rewrite_context& ctx, const std::vector<std::size_t>& statement,
                       std::size_t first, std::size_t last, bool constant, host_variables& out) {
  int depth = 0;
  std::optional<std::size_t> name;
  bool array = false;
  for (std::size_t k = first; k < last; ++k) {
    const token& t = ctx.at(statement[k]);
    if (depth == 0 && (t.is("=") || t.is("{"))) {
      break;
    }
    if (depth == 0 && t.is("[")) {
      array = array || name.has_value();
    } else if (depth == 0 && is_name(t) && (k > 0)) {
      name = k;
      array = false;
    }
    depth += one_of(t, {"(", "[", "{"}) ? 1 : (one_of(t, {")", "]", "}"}) ? -1 : 0);
  }
  if (name && (!constant || array)) {
    const token& n = ctx.at(statement[*name]);
    out.emplace(std::string(n.text), host_variable{ctx.line_at(n.begin)});
  }
}

// The declarators of `int a, *b = x, c[3];`, split at the commas outside brackets. The first
// needs a type before its name.
void record_declarators(const rewrite_context& ctx, const std::vector<std::size_t>& statement,
                        host_variables& out) {
  const bool constant = has_const(ctx, statement);
  int depth = 0;
  std::size_t first = 0;
  for (std::size_t k = 0; k <= statement.size(); ++k) {
    if (k == statement.size() || (depth == 0 && ctx.at(statement[k]).is(","))) {
      record_declarator(ctx, statement, first, k, constant, out);
      first = k + 1;
      continue;
    }
    const token& t = ctx.at(statement[k]);
    depth += one_of(t, {"(", "[", "{"}) ? 1 : (one_of(t, {")", "]", "}"}) ? -1 : 0);
  }
}

// The namespace-scope variables no device code may touch.
host_variables host_variables_of(const rewrite_context& ctx,
                                 const std::vector<bool>& at_namespace) {
  const std::set<std::string, std::less<>> macros = macros_of(ctx);
  host_variables out;
  std::vector<std::size_t> statement;
  std::vector<bool> braces; // per namespace-scope `{` still open: an initializer's
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (!t.significant() || t.in_directive || !at_namespace[i]) {
      continue;
    }
    if (t.is(";")) {
      if (!skipped_statement(ctx, statement, macros)) {
        record_declarators(ctx, statement, out);
      }
      statement.clear();
    } else if (t.is("{")) {
      const auto before = ctx.prev(i);
      const bool initializer = before && (ctx.at(*before).is("=") || ctx.at(*before).is(","));
      braces.push_back(initializer);
      if (initializer) {
        statement.push_back(i);
      } else {
        statement.clear(); // a function, class or namespace: what came before is no variable
      }
    } else if (t.is("}")) {
      const bool initializer = !braces.empty() && braces.back();
      if (!braces.empty()) {
        braces.pop_back();
      }
      if (initializer) {
        statement.push_back(i);
      } else {
        statement.clear();
      }
    } else {
      statement.push_back(i);
    }
  }
  return out;
}

bool expression_keyword(const token& t) {
  return one_of(t, {"return", "case", "else", "do", "sizeof", "throw", "goto", "new", "delete",
                    "co_return", "co_yield", "co_await"});
}

bool builtin_type(const token& t) {
  return one_of(t, {"int", "float", "double", "char", "bool", "void", "short", "long", "unsigned",
                    "signed", "auto", "const", "volatile", "static", "register"}) ||
         (is_name(t) && t.text.ends_with("_t"));
}

// Walks back from `from` to the start of its statement or of its unclosed parenthesis.
std::size_t enclosing_start(const rewrite_context& ctx, std::size_t from) {
  int depth = 0;
  std::size_t start = from;
  for (std::optional<std::size_t> p = ctx.prev(from); p; p = ctx.prev(*p)) {
    const token& t = ctx.at(*p);
    if (t.is(")") || t.is("]")) {
      ++depth;
    } else if ((t.is("(") || t.is("[")) && depth > 0) {
      --depth;
    } else if (boundary(t) || t.is("(")) {
      break;
    }
    start = *p;
  }
  return start;
}

// Whether the name at `i` is being declared there: `int N`, `float *N`, `int a, N`.
bool declared_at(const rewrite_context& ctx, std::size_t i) {
  const auto before = ctx.prev(i);
  if (!before) {
    return false;
  }
  const token& b = ctx.at(*before);
  if (is_name(b)) {
    return !expression_keyword(b);
  }
  if (b.is("*") || b.is("&") || b.is("&&")) {
    const auto type = ctx.prev(*before);
    if (!type) {
      return false;
    }
    const token& ty = ctx.at(*type);
    const auto first = ctx.prev(*type);
    return builtin_type(ty) || ty.is(">") || ty.is("*") ||
           (is_name(ty) && first && (boundary(ctx.at(*first)) || ctx.at(*first).is("(")));
  }
  if (b.is(",")) {
    const std::size_t s = enclosing_start(ctx, *before);
    const auto second = ctx.next(s);
    return builtin_type(ctx.at(s)) ||
           (is_name(ctx.at(s)) && second &&
            (is_name(ctx.at(*second)) || one_of(ctx.at(*second), {"*", "&", "<", "::"})));
  }
  return false;
}

// Whether a parameter, template parameter or local of the function whose body opens at `body`
// is called `name`.
bool shadowed(const rewrite_context& ctx, std::size_t body, std::string_view name) {
  const auto close = ctx.prev(body);
  if (!close || !ctx.at(*close).is(")")) {
    return true; // not a plain parameter list: no claim
  }
  // The whole declaration: its parameters, and a template's (`template <int N>`).
  for (std::size_t p : declaration_before(ctx, body)) {
    if (ctx.at(p).is(name)) {
      return true;
    }
  }
  int depth = 0;
  for (std::optional<std::size_t> p = body; p; p = ctx.next(*p)) {
    depth += ctx.at(*p).is("{") ? 1 : (ctx.at(*p).is("}") ? -1 : 0);
    if (depth == 0) {
      break;
    }
    if (ctx.at(*p).is(name) && !member_or_qualified(ctx, *p) && declared_at(ctx, *p)) {
      return true;
    }
  }
  return false;
}

// sizeof(N), decltype(M), alignof(M): no access.
bool unevaluated(const rewrite_context& ctx, std::size_t i) {
  const auto before = ctx.prev(i);
  if (before && ctx.at(*before).is("sizeof")) {
    return true;
  }
  const auto operator_token = before ? ctx.prev(*before) : std::nullopt;
  return before && ctx.at(*before).is("(") && operator_token &&
         one_of(ctx.at(*operator_token), {"sizeof", "decltype", "alignof", "__alignof__"});
}

} // namespace

std::optional<std::string> check_host_variables(const rewrite_context& ctx) {
  const std::vector<bool> at_namespace = namespace_scope(ctx);
  const host_variables variables = host_variables_of(ctx, at_namespace);
  if (variables.empty()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (!ctx.in_device_code(i) || !is_name(t) || t.in_directive) {
      continue;
    }
    const auto variable = variables.find(t.text);
    const auto body = ctx.device_body(i);
    const auto after = ctx.next(i);
    if (variable == variables.end() || !body || !at_namespace[*body] ||
        member_or_qualified(ctx, i) || (after && ctx.at(*after).is("(")) || unevaluated(ctx, i) ||
        shadowed(ctx, *body, t.text)) {
      continue;
    }
    return ctx.where(i) + "`" + variable->first + "` is a host variable (line " +
           std::to_string(variable->second.line) +
           " declares it without __device__ or __constant__), and device code cannot use it " +
           "(nvcc: identifier \"" + variable->first + "\" is undefined in device code): declare " +
           "it `__constant__` (filled with cudaMemcpyToSymbol) or `__device__`, make it a " +
           "`constexpr` scalar, or pass it to the kernel as a parameter";
  }
  return std::nullopt;
}

} // namespace cugrade::emu::detail
