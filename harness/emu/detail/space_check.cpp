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
// and the <algorithm>/<utility>/<limits> functions nvcc refuses in device code, and a std::array
// there (its operator[] and members are constexpr host functions).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/emu/detail/file_scope.h"
#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu::detail {
namespace {

// `std::max(`, `std::numeric_limits<float>::max(`: the name after `std ::` when it is one nvcc
// refuses in device code.
std::optional<std::string> refused_std_call(const rewrite_context& ctx, std::size_t std_token) {
  static const std::set<std::string, std::less<>> refused{
      "min", "max", "swap", "exchange", "clamp", "minmax", "numeric_limits", "array"};
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
  if (call == "std::array") {
    return "use a plain array (`float v[4];`) in device code";
  }
  if (call == "std::exchange") {
    return "keep the old value in a local variable in device code";
  }
  return "use CUDA's min() and max() (or fminf and fmaxf) in device code";
}

} // namespace

std::optional<std::string> check_execution_spaces(const rewrite_context& ctx) {
  const std::map<std::string, declared_function> functions = functions_of(ctx);
  const std::set<std::string, std::less<>> macros = macros_of(ctx);
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (!ctx.in_device_code(i) || !is_name(ctx.at(i)) || ctx.at(i).in_directive) {
      continue;
    }
    const std::optional<std::size_t> before = ctx.prev(i);
    const std::optional<std::size_t> body = ctx.device_body(i);
    if (ctx.at(i).is("std") && !(before && ctx.at(*before).is("::"))) {
      if (body && !device_only(ctx, *body, macros)) {
        continue; // a __host__ __device__ function: nvcc only warns there
      }
      if (const auto call = refused_std_call(ctx, i)) {
        const std::string what =
            *call == "std::array"
                ? "std::array's operator[] and members are host functions (constexpr, from the C++ "
                  "library), and nvcc does not let a __global__ or __device__ function call them"
                : *call + " is a host function (constexpr, from the C++ library), and nvcc does "
                          "not let a __global__ or __device__ function call it";
        return ctx.where(i) + what +
               " (\"calling a constexpr __host__ function from a __global__ function is not "
               "allowed\"): " +
               std_advice(*call);
      }
      continue;
    }
    const auto f = functions.find(std::string(ctx.at(i).text));
    const std::optional<std::size_t> open = ctx.next(i);
    if (f == functions.end() || f->second.device || !open || !ctx.at(*open).is("(") ||
        member_or_qualified(ctx, i)) {
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
