#include "grader/spec/detail/spec_reader.h"

#include "grader/spec/suggest.h"

#include <algorithm>

namespace cugrade::spec::detail {

namespace {

void read_enabled(object_reader& r, sanitizer_policy& out) {
  out.enabled = r.flag("enabled", "true", false).value_or(true);
}

void read_tools(object_reader& r, sanitizer_policy& out) {
  out.tools = sanitizer_tools();
  const json* tools = r.get("tools", value_kind::array, R"(["memcheck", "racecheck"])", false);
  if (tools == nullptr)
    return;
  out.tools.clear();
  for (std::size_t i = 0; i < tools->size(); ++i) {
    const auto& t = (*tools)[i];
    const std::string path = element(r.path_of("tools"), i);
    if (!t.is_string() || std::find(sanitizer_tools().begin(), sanitizer_tools().end(),
                                    t.get<std::string>()) == sanitizer_tools().end()) {
      r.diag().error(
          path, describe(t) + " is not a sanitizer tool " +
                    expected_one_of(t.is_string() ? t.get<std::string>() : "", sanitizer_tools()));
      continue;
    }
    out.tools.push_back(t.get<std::string>());
  }
}

} // namespace

void read_sanitizer(object_reader& top, problems::kind problem, assignment_spec& out) {
  // On by default: a spec without the section gets every tool on the default shapes.
  out.sanitizer = {true, problems::get(problem).sanitizer_shapes(), sanitizer_tools()};
  const json* value = top.get("sanitizer", value_kind::object, R"({"enabled": false})", false);
  if (value == nullptr)
    return;
  object_reader r(*value, top.path_of("sanitizer"), top.diag());
  r.reject_unknown_keys({"enabled", "shapes", "tools"});
  read_enabled(r, out.sanitizer);
  read_tools(r, out.sanitizer);
  out.sanitizer.shapes = problems::get(problem).sanitizer_shapes();
  const json* shapes =
      r.get("shapes", value_kind::array, "[" + example_shape(problem) + "]", false);
  if (shapes == nullptr)
    return;
  out.sanitizer.shapes.clear();
  for (std::size_t i = 0; i < shapes->size(); ++i)
    if (auto s = read_shape((*shapes)[i], element(r.path_of("shapes"), i), problem, r.diag()))
      out.sanitizer.shapes.push_back(*s);
  if (shapes->empty())
    r.diag().error(r.path_of("shapes"),
                   "is an empty list; leave it out for the default shapes, or list some, e.g. [" +
                       example_shape(problem) + "]");
}

} // namespace cugrade::spec::detail
