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

} // namespace cugrade::cli
