#include "grader/spec/detail/spec_reader.h"

namespace cugrade::spec::detail {

namespace {

std::string case_example(problems::kind problem) {
  return "{\"shape\": " + example_shape(problem) + ", \"distribution\": \"" +
         problems::get(problem).distributions().front() + "\"}";
}

std::optional<problems::case_template> read_case(const json& value, const std::string& path,
                                                 problems::kind problem, diagnostics& diag) {
  if (!expect_kind(value, value_kind::object, path, case_example(problem), diag))
    return std::nullopt;
  object_reader r(value, path, diag);
  r.reject_unknown_keys({"shape", "distribution"});
  const json* shape = r.find("shape", example_shape(problem), true);
  const std::string example = "\"" + problems::get(problem).distributions().front() + "\"";
  const json* distribution = r.find("distribution", example, true);
  const auto dims = shape ? read_shape(*shape, r.path_of("shape"), problem, diag) : std::nullopt;
  const auto dist = distribution
                        ? read_distribution(*distribution, r.path_of("distribution"), problem, diag)
                        : std::nullopt;
  if (!dims || !dist)
    return std::nullopt;
  return problems::case_template{*dims, *dist};
}

} // namespace

keyword_or_list classify(const json& value, const std::string& path, std::string_view keyword,
                         std::string_view keyword_meaning, std::string_view list_example,
                         diagnostics& diag) {
  const std::string fix = "write \"" + std::string(keyword) + "\" for " +
                          std::string(keyword_meaning) + ", or a list, e.g. " +
                          std::string(list_example);
  if (value.is_string() && value.get<std::string>() == keyword)
    return keyword_or_list::keyword;
  if (value.is_array() && !value.empty())
    return keyword_or_list::list;
  if (value.is_array())
    diag.error(path, "is an empty list; " + fix);
  else if (value.is_string())
    diag.error(path, describe(value) + " is not a keyword here; " + fix);
  else
    diag.error(path, "expected \"" + std::string(keyword) + "\" or a list, got " + describe(value) +
                         "; " + fix);
  return keyword_or_list::invalid;
}

void read_benchmark(object_reader& top, problems::kind problem, assignment_spec& out) {
  const auto& definition = problems::get(problem);
  const json* bench = top.get("benchmark", value_kind::object, "{\"cases\": \"default\"}", false);
  if (bench == nullptr) {
    // Absent, or of the wrong kind (already reported): the problem's own cases.
    out.benchmarks = definition.benchmark_cases();
    return;
  }
  object_reader r(*bench, top.path_of("benchmark"), top.diag());
  r.reject_unknown_keys({"cases"});
  const json* cases = r.find("cases", "\"default\"", true);
  if (cases == nullptr)
    return;
  const std::string path = r.path_of("cases");
  switch (classify(*cases, path, "default", "the problem's benchmark cases",
                   "[" + case_example(problem) + "]", r.diag())) {
  case keyword_or_list::keyword:
    out.benchmarks = definition.benchmark_cases();
    return;
  case keyword_or_list::invalid:
    return;
  case keyword_or_list::list:
    break;
  }
  for (std::size_t i = 0; i < cases->size(); ++i)
    if (auto c = read_case((*cases)[i], element(path, i), problem, r.diag()))
      out.benchmarks.push_back(*c);
}

} // namespace cugrade::spec::detail
