#pragma once
/// \file
/// `cugrade package gradescope`: the autograder zip Gradescope expects (docs/gradescope.md).
///
/// The zip holds, at its root, `setup.sh` (run once as root on Gradescope's Ubuntu image: it
/// installs the packages and builds cugrade's `grade` preset through scripts/setup) and
/// `run_autograder` (run per submission: grades /autograder/submission in emulation and writes
/// /autograder/results/results.json), both from grader/package/gradescope/, and `cugrade/`: the
/// sources needed to build cugrade, the reference solutions, and of the assignments only the one
/// packaged, with the instructor's hidden groups as its hidden.json. The zip is the instructor's:
/// Gradescope never shows it to students.

#include "grader/spec/assignment_spec.h"
#include "harness/core/result.h"

#include <filesystem>
#include <string>

namespace cugrade::package {

struct gradescope_request {
  std::string assignment;             ///< a name under assignments/ or a path to a spec
  spec::load_options spec_loading;    ///< where the hidden groups come from (--hidden)
  std::filesystem::path out;          ///< the zip to write, e.g. autograder.zip
  std::filesystem::path project_root; ///< a cugrade source tree
};

/// What was packed, for the command to report.
struct gradescope_package {
  std::filesystem::path zip;
  std::string assignment;
  std::size_t hidden_groups = 0; ///< groups whose visibility is not `visible`
  bool hidden_file = false;      ///< an instructor's hidden file was packed
};

/// Writes the zip (with the system `zip` program). Fails with a message naming what to fix: not a
/// source tree, a spec or hidden file that does not load, a reference folder outside the tree, no
/// `zip` program, an output that cannot be written.
[[nodiscard]] result<gradescope_package> package_gradescope(const gradescope_request& request);

} // namespace cugrade::package
