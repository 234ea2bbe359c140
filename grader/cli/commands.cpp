#include "grader/cli/commands.h"

namespace cugrade::cli {

const std::vector<command>& command_table() {
  static const std::vector<command> table{grade_command(),   check_command(), bench_command(),
                                          doctor_command(),  batch_command(), leaderboard_command(),
                                          package_command(), kinds_command()};
  return table;
}

} // namespace cugrade::cli
