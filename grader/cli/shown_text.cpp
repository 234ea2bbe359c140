// Text from a submission, a compiler, a runner or a git server as the commands print it.
#include "grader/cli/commands.h"

#include "harness/core/untrusted_text.h"

#include <iostream>

namespace cugrade::cli {

std::string shown(std::string_view text) {
  return escape_untrusted_text(text);
}

std::function<void(std::string_view)> progress_on_stderr() {
  return [](std::string_view m) { std::cerr << "cugrade: " << shown(m) << "\n"; };
}

} // namespace cugrade::cli
