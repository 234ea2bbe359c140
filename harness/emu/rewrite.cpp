#include "harness/emu/rewrite.h"

#include "harness/emu/detail/macro_expansion.h"
#include "harness/emu/detail/region_plan.h"
#include "harness/emu/detail/rewrite_context.h"

namespace cugrade::emu {
namespace {

void rewrite_noinline(detail::rewrite_context& ctx) {
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    if (ctx.at(i).is("__noinline__")) {
      ctx.add({ctx.at(i).begin, ctx.at(i).end, "__attribute__((noinline))"});
    }
  }
}

} // namespace

cugrade::result<std::string> rewrite_source(std::string_view text, std::string_view file_name) {
  // The passes below see the subscripts of the student's access macros at their uses.
  const std::string expanded = detail::expand_access_macros(text);
  detail::rewrite_context ctx(expanded, file_name);
  if (auto problem = detail::check_execution_spaces(ctx)) {
    return cugrade::fail(std::move(*problem));
  }
  if (auto problem = detail::check_host_variables(ctx)) {
    return cugrade::fail(std::move(*problem));
  }
  if (auto problem = detail::rewrite_launches(ctx)) {
    return cugrade::fail(std::move(*problem));
  }
  if (auto problem = detail::rewrite_shared(ctx)) {
    return cugrade::fail(std::move(*problem));
  }
  rewrite_noinline(ctx);
  detail::rewrite_accesses(ctx);
  detail::rewrite_device_math(ctx);
  std::string error;
  std::optional<std::string> body = ctx.apply(&error);
  if (!body) {
    return cugrade::fail(std::move(error));
  }
  return detail::line_directive(1, file_name) + detail::add_region_forms(*body, file_name);
}

} // namespace cugrade::emu
