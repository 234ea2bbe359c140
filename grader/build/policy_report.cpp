#include "grader/build/policy_report.h"

#include "grader/build/include_map.h"

namespace cugrade::build {
namespace {

std::set<std::string> names_of(const std::vector<policy_violation>& violations, bool definitions) {
  std::set<std::string> names;
  for (const policy_violation& v : violations) {
    if (v.definition == definitions) {
      names.insert(v.symbol);
    }
  }
  return names;
}

} // namespace

result<std::vector<std::string>> describe_in_source(const std::vector<policy_violation>& violations,
                                                    const std::filesystem::path& object,
                                                    const student_source& source,
                                                    const preprocessor& preprocess) {
  if (violations.empty()) {
    return std::vector<std::string>{};
  }
  violation_places places;
  auto references = reference_sites(object, names_of(violations, false));
  if (!references) {
    return fail(references.error());
  }
  places.references = std::move(*references);
  auto definitions = definition_sites(object, names_of(violations, true));
  if (!definitions) {
    return fail(definitions.error());
  }
  places.definitions = std::move(*definitions);
  if (!headers_to_place(violations, places, source).empty()) {
    if (const auto preprocessed = preprocess()) {
      places.include_lines = includes_by_header(*preprocessed, source.file);
    }
  }
  return describe_violations(violations, places, source);
}

} // namespace cugrade::build
