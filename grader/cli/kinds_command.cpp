#include "grader/cli/commands.h"

#include "harness/problems/problem.h"

#include <iostream>

namespace cugrade::cli {

// Scripts ask this rather than list kinds themselves: the registry (harness/problems) is the one
// list, so a new kind reaches every script without editing it.
command kinds_command() {
  return {"kinds", "List the problem kinds this cugrade knows, one name a line",
          [](CLI::App& /*sub*/) -> std::function<int()> {
            return [] {
              for (const std::string& name : problems::names()) {
                std::cout << name << "\n";
              }
              return exit_ok;
            };
          }};
}

} // namespace cugrade::cli
