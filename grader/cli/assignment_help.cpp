#include "grader/cli/commands.h"

#include "grader/layout/layout.h"
#include "grader/spec/assignment_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade::cli {

std::string assignment_argument_help() {
  const auto where = grader::discover_layout();
  const auto names = where ? spec::known_assignments(where->root) : std::vector<std::string>{};
  if (names.empty()) {
    return "An assignment name under assignments/ or a path to an assignment.json";
  }
  return fmt::format("An assignment name under assignments/ ({}) or a path to an assignment.json",
                     fmt::join(names, ", "));
}

} // namespace cugrade::cli
