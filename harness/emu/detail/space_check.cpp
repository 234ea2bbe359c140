// Execution spaces. The emulator compiles host and device code alike (every function is callable
// from everywhere), but nvcc does not let device code (a __global__ or __device__ function) call
// a function that exists only on the host, and that is one of the mistakes students make most:
//   float sq(float x) { ... }            __global__ void k(...) { ... sq(v) ... }
//     nvcc: calling a __host__ function("sq(float)") from a __global__ function("k") is not allowed
//   __global__ void k(...) { ... std::max(a, b) ... }
//     nvcc: calling a constexpr __host__ function("max") from a __global__ function("k") is not
//     allowed
// This pass finds both in the student's file and fails the build at the call's line, as nvcc
// does. Only what is certain is reported: a name every declaration in the file gives no
// __device__ (an overload with __device__ could be the one called), called by its plain name;
// and the <algorithm>/<utility>/<limits> functions nvcc refuses in device code.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

bool boundary(const token& t) {
  return t.is(";") || t.is("{") || t.is("}");
}

bool is_name(const token& t) {
  return t.kind == token_kind::identifier;
}

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

// Per token: whether it lies at namespace scope (not in a function, class or initializer).
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

struct declared_function {
  bool device = false; ///< some declaration of the name has __device__ or __global__
  int line = 0;        ///< of its first declaration
};

// Names the file #defines: `#define HD __host__ __device__` makes `HD float f()` a device
// function as much as the keywords do.
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

// Functions declared or defined at namespace scope: a name followed by `(` whose statement has no
// `=` before it (an initializer's call) and whose `)` is followed by `{`, `;`, `const`,
// `noexcept` or `->`. A declaration spelled with one of the file's macros counts as a device one.
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
    bool first = true;
    for (std::optional<std::size_t> p = ctx.prev(i);
         p && !boundary(ctx.at(*p)) && !ctx.at(*p).in_directive; p = ctx.prev(*p)) {
      const token& t = ctx.at(*p);
      device = device || t.is("__device__") || t.is("__global__") || macros.contains(t.text);
      initializer = initializer || t.is("=") || t.is("(") || t.is(",");
      first = false;
    }
    if (first || initializer) {
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

// `std::max(`, `std::numeric_limits<float>::max(`: the name after `std ::` when it is one nvcc
// refuses in device code.
std::optional<std::string> refused_std_call(const rewrite_context& ctx, std::size_t std_token) {
  static const std::set<std::string, std::less<>> refused{"min",   "max",    "swap",
                                                          "clamp", "minmax", "numeric_limits"};
  const std::optional<std::size_t> colons = ctx.next(std_token);
  const std::optional<std::size_t> name = colons ? ctx.next(*colons) : std::nullopt;
  if (!name || !ctx.at(*colons).is("::") || !refused.contains(ctx.at(*name).text)) {
    return std::nullopt;
  }
  const std::optional<std::size_t> after = ctx.next(*name);
  if (!after || !(ctx.at(*after).is("(") || ctx.at(*after).is("<"))) {
    return std::nullopt;
  }
  return "std::" + std::string(ctx.at(*name).text);
}

std::string std_advice(const std::string& call) {
  if (call == "std::numeric_limits") {
    return "use FLT_MAX, INT_MAX (<cfloat>, <climits>) or INFINITY in device code";
  }
  if (call == "std::swap") {
    return "swap through a local variable in device code";
  }
  return "use CUDA's min() and max() (or fminf and fmaxf) in device code";
}

} // namespace

std::optional<std::string> check_execution_spaces(const rewrite_context& ctx) {
  const std::map<std::string, declared_function> functions = functions_of(ctx);
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!ctx.in_device_code(i) || !is_name(ctx.at(i)) || ctx.at(i).in_directive) {
      continue;
    }
    const std::optional<std::size_t> before = ctx.prev(i);
    if (ctx.at(i).is("std") && !(before && ctx.at(*before).is("::"))) {
      if (const auto call = refused_std_call(ctx, i)) {
        return ctx.where(i) + *call + " is a host function (constexpr, from the C++ library), " +
               "and nvcc does not let a __global__ or __device__ function call it (\"calling a " +
               "constexpr __host__ function from a __global__ function is not allowed\"): " +
               std_advice(*call);
      }
      continue;
    }
    const auto f = functions.find(std::string(ctx.at(i).text));
    const std::optional<std::size_t> open = ctx.next(i);
    if (f == functions.end() || f->second.device || !open || !ctx.at(*open).is("(") ||
        (before &&
         (ctx.at(*before).is(".") || ctx.at(*before).is("->") || ctx.at(*before).is("::")))) {
      continue;
    }
    return ctx.where(i) + "`" + f->first + "` is a host function (line " +
           std::to_string(f->second.line) +
           " declares it without __device__), and nvcc does not let a __global__ or __device__ " +
           "function call it (\"calling a __host__ function from a __global__ function is not " +
           "allowed\"): declare it `__device__`, or `__host__ __device__` to call it from both";
  }
  return std::nullopt;
}

} // namespace cugrade::emu::detail
