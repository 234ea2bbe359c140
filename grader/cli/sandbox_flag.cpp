#include "grader/cli/commands.h"

#include "grader/sandbox/sandbox.h"

namespace cugrade::cli {

void add_no_sandbox_flag(CLI::App& sub) {
  sub.add_flag_callback(
      "--no-sandbox", [] { sandbox::set_mode(sandbox::mode::unconfined); },
      "Run compilers and runners without the bubblewrap sandbox (only for code you trust; the "
      "report then says environment.sandbox \"none\"). Without it, grading refuses (exit 3) "
      "where the sandbox cannot work; `cugrade doctor` says why");
}

void add_hidden_option(CLI::App& sub, spec::load_options& loading) {
  sub.add_option_function<std::string>(
      "--hidden",
      [&loading](const std::string& file) {
        loading.hidden = spec::hidden_tests::from_file;
        loading.hidden_file = file;
      },
      "The instructor's hidden test groups (schema cugrade.hidden/1), kept outside the students' "
      "copy (default: hidden.json beside the assignment.json, when there is one)");
}

} // namespace cugrade::cli
