// Device code's C math. nvcc gives __global__ and __device__ functions the float and double
// overloads of the C math functions only: `log2(blockDim.x)` or `sqrt(n)` of an int, and
// `fmax(x, 0.0)` of a float and a double, reach libstdc++'s constexpr host templates, and nvcc
// stops ("calling a constexpr __host__ function("log2") from a __global__ function is not
// allowed"); g++ compiles them. This pass sends such calls to the emulator's device overloads
// (include/cugrade_emu/device_cmath.h), where those argument types are deleted: a build error at
// the call's line, as with nvcc. Left alone: host code; __host__ __device__ functions and those
// declared through a macro of the file (nvcc only warns there); lambdas and local classes; a
// name the file declares as a function of its own (`__device__ int log2(int)`); members and
// other namespaces' functions; `pow`, which CUDA overloads for integers. Device code's `clock()`
// and `clock64()`, the SM's cycle counter, go the same way (host code's `clock()` is libc's), and
// so do its `malloc` and `free`, the device heap's, which a kernel may reach.
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "harness/emu/detail/file_scope.h"
#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

const std::set<std::string, std::less<>>& device_math_names() {
  static const std::set<std::string, std::less<>> names{
      "sqrt",  "cbrt",   "exp",   "exp2",     "expm1",     "log",      "log2",  "log10",
      "log1p", "logb",   "ilogb", "sin",      "cos",       "tan",      "asin",  "acos",
      "atan",  "sinh",   "cosh",  "tanh",     "asinh",     "acosh",    "atanh", "ceil",
      "floor", "round",  "trunc", "rint",     "nearbyint", "fabs",     "erf",   "erfc",
      "tgamma", "lgamma", "lround", "llround", "lrint",    "llrint",   "fmod",  "fmax",
      "fmin",  "atan2",  "hypot", "copysign", "fdim",      "remainder", "nextafter",
      "clock", "clock64", "malloc", "free"};
  return names;
}

} // namespace

void rewrite_device_math(rewrite_context& ctx) {
  const std::map<std::string, declared_function> own = functions_of(ctx);
  const std::set<std::string, std::less<>> macros = macros_of(ctx);
  std::map<std::size_t, bool> device_only_body;
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    const token& t = ctx.at(i);
    if (!ctx.in_device_code(i) || t.in_directive || !is_name(t) ||
        !device_math_names().contains(t.text) || own.contains(std::string(t.text))) {
      continue;
    }
    const auto after = ctx.next(i);
    const auto body = ctx.device_body(i);
    if (!after || !ctx.at(*after).is("(") || !body) {
      continue;
    }
    auto known = device_only_body.find(*body);
    if (known == device_only_body.end()) {
      known = device_only_body.emplace(*body, device_only(ctx, *body, macros)).first;
    }
    if (!known->second) {
      continue;
    }
    std::size_t first = i; // `sqrt`, or `std::sqrt`
    const auto before = ctx.prev(i);
    if (before && (ctx.at(*before).is(".") || ctx.at(*before).is("->"))) {
      continue;
    }
    if (before && ctx.at(*before).is("::")) {
      const auto qualifier = ctx.prev(*before);
      const auto outer = qualifier ? ctx.prev(*qualifier) : std::nullopt;
      if (!qualifier || !ctx.at(*qualifier).is("std") || (outer && ctx.at(*outer).is("::"))) {
        continue;
      }
      first = *qualifier;
    }
    if (ctx.edited(ctx.at(first).begin, t.end) || in_constant_expression(ctx, first)) {
      continue;
    }
    ctx.add({ctx.at(first).begin, t.end,
             "::cugrade::emu::device_cmath::" + std::string(t.text) +
                 ctx.newlines(ctx.at(first).begin, t.end)});
  }
}

} // namespace cugrade::emu::detail
